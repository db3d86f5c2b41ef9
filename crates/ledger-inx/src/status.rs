//! Store errors as gRPC status codes, in one place. Each RPC names the code Hornet gives for
//! its own failures (NotFound for an unknown block, InvalidArgument for a range older than
//! the pruning index, …); everything the store answers goes through `of_store` here.

use ledger_core::{Code, Error};
use tonic::Status;

/// A failure of the store: the node's side (`INTERNAL`) for storage, `UNAVAILABLE` before
/// the first milestone, `INVALID_ARGUMENT` for everything else (the request's content:
/// validation of a submitted block and the like).
pub fn of_store(context: &str, e: Error) -> Status {
    let message = format!("{context}: {e}");
    match e.code {
        Code::StorageFailure | Code::StoreClosed | Code::LedgerInvariantBroken => {
            Status::internal(message)
        }
        Code::NotReady | Code::StorageFull => Status::unavailable(message),
        _ => Status::invalid_argument(message),
    }
}

/// A storage failure while reading (every store error of a read is one).
pub fn internal(context: &str, e: impl std::fmt::Display) -> Status {
    Status::internal(format!("{context}: {e}"))
}

/// A blocking task of the server that panicked or was cancelled at shutdown.
pub fn task_failed(e: tokio::task::JoinError) -> Status {
    if e.is_cancelled() {
        Status::cancelled("node is shutting down")
    } else {
        Status::internal(format!("task failed: {e}"))
    }
}

/// Run a store call on the blocking pool (RocksDB reads and writes must not hold up the
/// runtime's workers).
pub async fn blocking<T: Send + 'static>(
    call: impl FnOnce() -> Result<T, Status> + Send + 'static,
) -> Result<T, Status> {
    tokio::task::spawn_blocking(call).await.map_err(task_failed)?
}

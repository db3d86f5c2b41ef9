//! A connection accepted by one event loop and served by another (the event API's thread,
//! src/events/handoff.ts): Node cannot move a socket between worker threads, but a second
//! descriptor of the same connection can be opened as a socket on the other thread once
//! the first one is closed. Closing one descriptor of a connection that has another does
//! not end the connection.

use crate::errors::{to_napi, Result};
use ledger_core::Code;
use napi_derive::napi;

/// A new descriptor (close-on-exec) for the connection of `fd`; the caller owns it.
#[napi]
pub fn duplicate_socket(fd: i32) -> Result<i32> {
    #[cfg(unix)]
    {
        // SAFETY: F_DUPFD_CLOEXEC only reads `fd`; a bad descriptor is an error, not UB.
        let copy = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 0) };
        if copy < 0 {
            return Err(to_napi(ledger_core::Error::new(
                Code::HandoffFailed,
                "",
                format!("descriptor {fd}: {}", std::io::Error::last_os_error()),
            )));
        }
        Ok(copy)
    }
    #[cfg(not(unix))]
    {
        let _ = fd;
        Err(to_napi(ledger_core::Error::new(
            Code::HandoffFailed,
            "",
            "handing a connection to another thread needs Unix descriptors".into(),
        )))
    }
}

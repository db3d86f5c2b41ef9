//! A server stream: a task on the server's runtime writes messages into a small channel that
//! tonic drains as the client reads, and the stream ends with the task's verdict.
//!
//! How a stream ends:
//! * the task finishes (a bounded range reached its end) → OK, as Hornet;
//! * the task fails → that status (NotFound for a missing diff, Internal for storage…);
//! * its subscription overflowed (the client stopped reading) → the stream is dropped with
//!   a log event and `RESOURCE_EXHAUSTED` after what the client has not read yet;
//! * the client cancels → the task stops at once (the channel closes; Hornet only notices
//!   at its next send);
//! * the node shuts down → `CANCELLED`, as Hornet's daemon context does.

use crate::config::InxEvent;
use crate::feed::{Kinds, Overflow, Subscription};
use crate::server::Context;
use futures::Stream;
use ledger_store::events::StoreEvent;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context as TaskContext, Poll};
use tokio::sync::mpsc;
use tonic::{Response, Status};

/// Messages a stream may have waiting for its client, besides its subscription's events.
const OUTLET_CAPACITY: usize = 64;

pub type ResponseStream<T> = Pin<Box<dyn Stream<Item = Result<T, Status>> + Send + 'static>>;

/// Why a stream's task stopped early.
pub enum End {
    /// The stream ends with this status.
    Failed(Status),
    /// The client is gone: nothing to tell it.
    ClientGone,
    /// The subscription's buffer overflowed.
    Overflow { buffered: usize },
}

impl From<Status> for End {
    fn from(status: Status) -> Self {
        End::Failed(status)
    }
}

/// Where a stream's task writes.
pub struct Outlet<T> {
    sender: mpsc::Sender<T>,
    /// The overflow flag of the subscription the task reads, once it has one.
    overflow: Option<(Arc<Overflow>, usize)>,
}

impl<T: Send + 'static> Outlet<T> {
    /// Hand one message to the client's side, waiting while the client is behind.
    pub async fn send(&self, message: T) -> Result<(), End> {
        match &self.overflow {
            None => self.sender.send(message).await.map_err(|_| End::ClientGone),
            Some((overflow, buffered)) => tokio::select! {
                biased;
                _ = overflow.wait() => Err(End::Overflow { buffered: *buffered }),
                sent = self.sender.send(message) => sent.map_err(|_| End::ClientGone),
            },
        }
    }

    /// The next event of `subscription`, watching the client meanwhile.
    pub async fn next_event(
        &self,
        subscription: &mut Subscription,
    ) -> Result<Arc<StoreEvent>, End> {
        tokio::select! {
            event = subscription.next() => event.ok_or(End::Overflow { buffered: subscription.capacity() }),
            _ = self.sender.closed() => Err(End::ClientGone),
        }
    }

    /// Resolves when the client is gone.
    pub async fn closed(&self) {
        self.sender.closed().await
    }
}

/// Run `task` as the body of a server stream of the RPC `rpc` that follows the store's
/// events of `kinds`. The subscription is made here, before the RPC answers: a client that
/// has the stream misses no event after it, and the task can read what is stored before
/// it goes live. Sends stop with `End::Overflow` once its buffer overflows.
pub fn spawn_listening<T, F, Fut>(
    ctx: &Arc<Context>,
    rpc: &'static str,
    kinds: Kinds,
    task: F,
) -> Response<ResponseStream<T>>
where
    T: Send + 'static,
    F: FnOnce(Outlet<T>, Subscription) -> Fut,
    Fut: Future<Output = Result<(), End>> + Send + 'static,
{
    let subscription = Subscription::new(&ctx.store, kinds, ctx.config.stream_buffer);
    let overflow = Some((subscription.overflow().clone(), subscription.capacity()));
    run(ctx, rpc, overflow, |outlet| task(outlet, subscription))
}

/// Run `task` as the body of a server stream of the RPC `rpc` (a read, or a timer).
pub fn spawn<T, F, Fut>(
    ctx: &Arc<Context>,
    rpc: &'static str,
    task: F,
) -> Response<ResponseStream<T>>
where
    T: Send + 'static,
    F: FnOnce(Outlet<T>) -> Fut,
    Fut: Future<Output = Result<(), End>> + Send + 'static,
{
    run(ctx, rpc, None, task)
}

fn run<T, F, Fut>(
    ctx: &Arc<Context>,
    rpc: &'static str,
    overflow: Option<(Arc<Overflow>, usize)>,
    task: F,
) -> Response<ResponseStream<T>>
where
    T: Send + 'static,
    F: FnOnce(Outlet<T>) -> Fut,
    Fut: Future<Output = Result<(), End>> + Send + 'static,
{
    let (sender, receiver) = mpsc::channel(OUTLET_CAPACITY);
    let end: Arc<Mutex<Option<Status>>> = Arc::new(Mutex::new(None));
    // Held until the verdict is set: the stream must not see its end before the verdict.
    let held = sender.clone();
    let body = task(Outlet { sender, overflow });
    let verdict = end.clone();
    let ctx = ctx.clone();
    let mut shutdown = ctx.shutdown.clone();
    tokio::spawn(async move {
        let outcome = tokio::select! {
            outcome = body => outcome,
            _ = shutdown.wait_for(|stopping| *stopping) => {
                Err(End::Failed(Status::cancelled("node is shutting down")))
            }
        };
        let status = match outcome {
            Ok(()) | Err(End::ClientGone) => None,
            Err(End::Failed(status)) => {
                if status.code() == tonic::Code::Internal {
                    ctx.node.event(InxEvent::StreamFailed { rpc, error: status.message().into() });
                }
                Some(status)
            }
            Err(End::Overflow { buffered }) => {
                ctx.node.event(InxEvent::StreamDropped { rpc, buffered });
                Some(Status::resource_exhausted(format!(
                    "{rpc}: the client did not keep up ({buffered} events waiting): stream dropped"
                )))
            }
        };
        // The stream yields it after the last message, once `held` is gone too.
        *verdict.lock().unwrap_or_else(|p| p.into_inner()) = status;
        drop(held);
    });
    Response::new(Box::pin(Drain { receiver, end, ended: false }))
}

/// What tonic polls: the task's messages, then its verdict.
struct Drain<T> {
    receiver: mpsc::Receiver<T>,
    end: Arc<Mutex<Option<Status>>>,
    ended: bool,
}

impl<T> Stream for Drain<T> {
    type Item = Result<T, Status>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<Option<Self::Item>> {
        if self.ended {
            return Poll::Ready(None);
        }
        match self.receiver.poll_recv(cx) {
            Poll::Ready(Some(message)) => Poll::Ready(Some(Ok(message))),
            Poll::Ready(None) => {
                self.ended = true;
                let status = self.end.lock().unwrap_or_else(|p| p.into_inner()).take();
                Poll::Ready(status.map(Err))
            }
            Poll::Pending => Poll::Pending,
        }
    }
}

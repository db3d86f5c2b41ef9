//! One gossip stream's I/O (gossip.md §3): a reader task that cuts messages out of the byte
//! stream and hands them to the service, and a writer task that drains the peer's send queue.
//! Reading and writing run apart so that two peers pushing blocks at each other can never
//! block on each other's full windows.
//!
//! Deadlines: between messages, a read that brings nothing for `read_timeout` ends the
//! stream (heartbeats keep a healthy stream busy); once a message has begun (its header or
//! any part of it is in), the rest must come within `body_timeout` of time spent waiting
//! for it, summed over the reads it takes, so neither a header without its body nor a body
//! trickled a byte at a time holds a stream (and an unknown peer's slot) for long. Time the
//! reader spends handing messages to a busy service, or pausing a peer past its message
//! budget (`budget.rs`), does not count; a paused reader still sees the peer hang up.
//! Each write must finish within `write_timeout`.
//! Any error, EOF or malformed message ends the stream; the service then closes the
//! connection. An unknown peer's blocks must also decode (`BlockPacket::check_syntax`):
//! the operator vouches for configured peers, whose blocks are checked once, by the store.

use crate::budget::Budget;
use crate::config::Timers;
use crate::metrics::{count_dropped, count_sent, NodeMetrics, PeerMetrics};
use crate::packets::{BlockId, BlockPacket, Decoder, Message, PacketError, PacketType};
use bytes::Bytes;
use futures::io::{AsyncReadExt, AsyncWriteExt, ReadHalf, WriteHalf};
use libp2p::swarm::Stream;
use libp2p::PeerId;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::task::AbortHandle;

/// Bytes read from the stream at once.
const READ_BUFFER: usize = 16 * 1024;
/// Queued frames are written together up to about this many bytes.
const WRITE_BATCH: usize = 64 * 1024;

/// What a stream's tasks report to the service.
#[derive(Debug)]
pub enum SessionEvent {
    /// A block message, with the id of its bytes (hashed here, on the reader's task).
    Block { peer: PeerId, session: u64, id: BlockId, block: BlockPacket },
    /// A block message from an unknown peer that is not a block (`BlockPacket::check_syntax`):
    /// the reader stops at it.
    Malformed { peer: PeerId, session: u64, id: BlockId, error: String },
    /// Any other message.
    Message { peer: PeerId, session: u64, message: Message },
    /// The stream is over.
    Ended { peer: PeerId, session: u64, reason: CloseReason },
}

/// Why a gossip stream ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CloseReason {
    /// The peer closed its side.
    Eof,
    /// Read or write failed (reset by the peer, connection gone).
    Io(String),
    /// Nothing arrived within the read deadline.
    ReadTimeout,
    /// A message began but its rest did not arrive within the body deadline.
    BodyTimeout,
    /// A write did not finish within the write deadline.
    WriteTimeout,
    /// The peer sent bytes that are not a valid message (gossip.md §4, §10).
    Protocol(PacketError),
    /// Its connection closed.
    ConnectionClosed,
    /// Another stream with the same peer took its place (gossip.md §3, duplicates).
    Replaced,
    /// The peer was dropped or removed, or the node stops.
    Dropped,
}

impl fmt::Display for CloseReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CloseReason::Eof => f.write_str("closed by the peer"),
            CloseReason::Io(e) => write!(f, "I/O error: {e}"),
            CloseReason::ReadTimeout => f.write_str("nothing received within the read deadline"),
            CloseReason::BodyTimeout => {
                f.write_str("a message's rest not received within the body deadline")
            }
            CloseReason::WriteTimeout => f.write_str("a write missed its deadline"),
            CloseReason::Protocol(e) => write!(f, "protocol error: {e}"),
            CloseReason::ConnectionClosed => f.write_str("connection closed"),
            CloseReason::Replaced => f.write_str("replaced by another stream with the same peer"),
            CloseReason::Dropped => f.write_str("dropped by this node"),
        }
    }
}

/// The service's side of a running stream: its send queue and its tasks. Dropping it
/// stops both tasks, which drops the stream and resets it.
pub struct Session {
    pub id: u64,
    pub outbox: Outbox,
    pub metrics: Arc<PeerMetrics>,
    pause: Arc<ReadPause>,
    tasks: [AbortHandle; 2],
}

/// A time before which the reader reads nothing more, set from outside: the service's
/// orphan budget (D53), which learns what a block cost only at its verdict.
#[derive(Debug, Default)]
struct ReadPause(std::sync::Mutex<Option<tokio::time::Instant>>);

impl ReadPause {
    fn extend_to(&self, until: tokio::time::Instant) {
        let mut pause = self.0.lock().unwrap_or_else(|e| e.into_inner());
        *pause = Some(pause.map_or(until, |p| p.max(until)));
    }

    fn take(&self) -> Option<tokio::time::Instant> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

/// A stream's send queue, cloneable for whoever answers the peer (gossip.md §3: 1000
/// messages, a message that does not fit is dropped and counted).
#[derive(Clone)]
pub struct Outbox {
    queue: mpsc::Sender<Bytes>,
    metrics: Arc<PeerMetrics>,
    node_metrics: Arc<NodeMetrics>,
}

impl Outbox {
    /// Queue a frame. Returns whether it was queued; a full queue counts a dropped packet,
    /// a stream that has ended drops silently.
    pub fn send(&self, frame: Bytes) -> bool {
        match self.queue.try_send(frame) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                count_dropped(&self.metrics, &self.node_metrics);
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => false,
        }
    }
}

impl Session {
    pub fn spawn(
        peer: PeerId,
        id: u64,
        stream: Stream,
        timers: &Timers,
        check_blocks: bool,
        events: mpsc::Sender<SessionEvent>,
        node_metrics: Arc<NodeMetrics>,
    ) -> Session {
        let (read, write) = stream.split();
        let (queue, frames) = mpsc::channel(timers.send_queue.max(1));
        let metrics = Arc::new(PeerMetrics::default());
        let pause = Arc::new(ReadPause::default());
        let reader = tokio::spawn(read_loop(
            peer,
            id,
            read,
            *timers,
            (check_blocks, pause.clone()),
            events.clone(),
        ));
        let writer = tokio::spawn(write_loop(
            peer,
            id,
            write,
            frames,
            timers.write_timeout,
            (metrics.clone(), node_metrics.clone()),
            events,
        ));
        let outbox = Outbox { queue, metrics: metrics.clone(), node_metrics };
        Session {
            id,
            outbox,
            metrics,
            pause,
            tasks: [reader.abort_handle(), writer.abort_handle()],
        }
    }

    /// Read nothing more from the peer for `pause` (or longer, if already paused so).
    pub fn pause_reading(&self, pause: Duration) {
        self.pause.extend_to(tokio::time::Instant::now() + pause);
    }

    pub fn send(&self, frame: Bytes) -> bool {
        self.outbox.send(frame)
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

async fn read_loop(
    peer: PeerId,
    session: u64,
    mut read: ReadHalf<Stream>,
    timers: Timers,
    (check_blocks, paused): (bool, Arc<ReadPause>),
    events: mpsc::Sender<SessionEvent>,
) {
    let mut decoder = Decoder::new();
    let mut buf = vec![0u8; READ_BUFFER];
    let start = std::time::Instant::now();
    let (mut budget, mut milestone_budget) =
        (Budget::for_messages(start), Budget::for_milestone_requests(start));
    // Time spent in reads since the last complete message, while a message has begun.
    let mut waited = Duration::ZERO;
    // Bytes read while paused, at the start of `buf`: the next round takes them first.
    let mut carried = 0;
    let reason = 'stream: loop {
        let n = if carried > 0 {
            std::mem::take(&mut carried)
        } else {
            let partial = decoder.buffered() > 0;
            let (limit, on_timeout) = if partial {
                let left = timers.body_timeout.saturating_sub(waited);
                (left.min(timers.read_timeout), CloseReason::BodyTimeout)
            } else {
                (timers.read_timeout, CloseReason::ReadTimeout)
            };
            let since = tokio::time::Instant::now();
            let read = tokio::time::timeout(limit, read.read(&mut buf)).await;
            // The wait before a message's first byte is the idle wait, not the body's.
            waited = if partial { waited + since.elapsed() } else { Duration::ZERO };
            match read {
                Err(_) => break on_timeout,
                Ok(Err(e)) => break CloseReason::Io(e.to_string()),
                Ok(Ok(0)) => break CloseReason::Eof,
                Ok(Ok(n)) => n,
            }
        };
        decoder.push(&buf[..n]);
        let (mut messages, mut milestone_requests) = (0, 0);
        loop {
            let event = match decoder.next_message() {
                Ok(None) => break,
                Err(e) => break 'stream CloseReason::Protocol(e),
                Ok(Some(Message::Block(block))) => {
                    let id = block.id();
                    let malformed = if check_blocks { block.check_syntax().err() } else { None };
                    if let Some(error) = malformed {
                        // The service drops the peer, which ends the stream.
                        let malformed = SessionEvent::Malformed { peer, session, id, error };
                        let _ = events.send(malformed).await;
                        return;
                    }
                    SessionEvent::Block { peer, session, id, block }
                }
                Ok(Some(message)) => {
                    if matches!(message, Message::MilestoneRequest(_)) {
                        milestone_requests += 1;
                    }
                    SessionEvent::Message { peer, session, message }
                }
            };
            waited = Duration::ZERO;
            messages += 1;
            // Waiting here is the backpressure: a busy node stops reading, TCP slows the peer.
            if events.send(event).await.is_err() {
                return; // the service is gone
            }
        }
        // A peer past its budget is not read for a while; like the wait above, this is the
        // node's time, not the peer's, and counts against no deadline.
        let now = std::time::Instant::now();
        let pause =
            budget.spend(messages, now).max(milestone_budget.spend(milestone_requests, now));
        let mut until = tokio::time::Instant::now() + pause;
        if let Some(later) = paused.take() {
            until = until.max(later);
        }
        match pause_watching(&mut read, &mut buf, until).await {
            Ok(n) => carried = n,
            Err(reason) => break reason,
        }
    };
    let _ = events.send(SessionEvent::Ended { peer, session, reason }).await;
}

/// Sleep until `until` with at most one read of the stream meanwhile, so that a peer that
/// hangs up while paused frees its slot at once instead of at the pause's end; the bytes
/// that read brings (returned, at the start of `buf`) wait for the pause like the rest:
/// one buffer more is all a paused peer gets read.
async fn pause_watching(
    read: &mut ReadHalf<Stream>,
    buf: &mut [u8],
    until: tokio::time::Instant,
) -> Result<usize, CloseReason> {
    if until <= tokio::time::Instant::now() {
        return Ok(0);
    }
    let n = tokio::select! {
        () = tokio::time::sleep_until(until) => return Ok(0),
        read = read.read(buf) => match read {
            Ok(0) => return Err(CloseReason::Eof),
            Ok(n) => n,
            Err(e) => return Err(CloseReason::Io(e.to_string())),
        },
    };
    tokio::time::sleep_until(until).await;
    Ok(n)
}

async fn write_loop(
    peer: PeerId,
    session: u64,
    mut write: WriteHalf<Stream>,
    mut frames: mpsc::Receiver<Bytes>,
    write_timeout: Duration,
    (metrics, node_metrics): (Arc<PeerMetrics>, Arc<NodeMetrics>),
    events: mpsc::Sender<SessionEvent>,
) {
    let mut batch = Vec::with_capacity(WRITE_BATCH);
    let mut types = Vec::new();
    while let Some(frame) = frames.recv().await {
        batch.clear();
        types.clear();
        let mut next = Some(frame);
        while let Some(frame) = next.take() {
            types.push(PacketType::from_byte(frame[0]));
            batch.extend_from_slice(&frame);
            if batch.len() < WRITE_BATCH {
                next = frames.try_recv().ok();
            }
        }
        let written = tokio::time::timeout(write_timeout, async {
            write.write_all(&batch).await?;
            write.flush().await
        })
        .await;
        let reason = match written {
            Ok(Ok(())) => {
                for t in &types {
                    count_sent(&metrics, &node_metrics, *t);
                }
                continue;
            }
            Ok(Err(e)) => CloseReason::Io(e.to_string()),
            Err(_) => CloseReason::WriteTimeout,
        };
        let _ = events.send(SessionEvent::Ended { peer, session, reason }).await;
        return;
    }
}

//! The hostile peer's phases (issue 24, item 4): what it sends and what it sees the node do,
//! over any way of opening a gossip stream. The `hostile_peer` example dials a real node
//! over TCP; the scenario test `hostile` (tests/scenarios/hostile.rs) includes this file
//! and dials nodes on libp2p's in-memory transport. Each connection is a fresh identity.
//!
//! A phase sends until its message budget or its time is used up, reconnecting whenever the
//! node closes the stream. It counts the messages (frames, whole or not) and bytes it sent,
//! the connections it made, those the node closed (EOF or reset seen by the reader, or a
//! failed write) and how long after the misbehaviour that took (gossip.md §10 says which
//! phases the node must punish; `Phase::punished`).

#![allow(dead_code)]

use futures::future::BoxFuture;
use futures::io::{AsyncReadExt, AsyncWriteExt, WriteHalf};
use ledger_core::codec::encode_block;
use ledger_core::model::{Block, Payload, TaggedData};
use ledger_gossip::packets::{
    to_frame, BlockId, BlockPacket, BlockRequest, Decoder, Header, Heartbeat, Message,
    MilestoneRequest, PacketType,
};
use libp2p::swarm::Stream;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// An open gossip stream with a fresh identity; `guard` keeps its connection alive (the
/// connection closes when the `Conn` is dropped).
pub struct Conn {
    pub stream: Stream,
    pub guard: Box<dyn Send>,
}

/// How a phase opens a stream: a new identity and connection every time.
pub type Connect = Box<dyn FnMut() -> BoxFuture<'static, Result<Conn, String>> + Send>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// A frame cut short, then the stream closed.
    Truncated,
    /// A header announcing more than the type allows.
    Oversized,
    /// Valid messages with random bytes flipped.
    Mutated,
    /// Valid framing around bytes that are no valid block.
    InvalidBlocks,
    /// Valid blocks whose parents nobody has.
    UnknownParents,
    /// "Send me milestone i" for every index, in a loop (answers read and thrown away).
    MilestoneRequests,
    /// Heartbeats whose indexes are lies (pruned above confirmed above latest, huge).
    LyingHeartbeats,
    /// Requests the node answers, on a stream never read.
    NeverRead,
    /// A block header and never its body, on every unknown-peer slot at once.
    HeaderWithoutBody,
}

impl Phase {
    pub const ALL: [Phase; 9] = [
        Phase::Truncated,
        Phase::Oversized,
        Phase::Mutated,
        Phase::InvalidBlocks,
        Phase::UnknownParents,
        Phase::MilestoneRequests,
        Phase::LyingHeartbeats,
        Phase::NeverRead,
        Phase::HeaderWithoutBody,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Phase::Truncated => "truncated",
            Phase::Oversized => "oversized",
            Phase::Mutated => "mutated",
            Phase::InvalidBlocks => "invalid-blocks",
            Phase::UnknownParents => "unknown-parents",
            Phase::MilestoneRequests => "milestone-requests",
            Phase::LyingHeartbeats => "lying-heartbeats",
            Phase::NeverRead => "never-read",
            Phase::HeaderWithoutBody => "header-without-body",
        }
    }

    pub fn parse(name: &str) -> Option<Phase> {
        Phase::ALL.into_iter().find(|p| p.name() == name)
    }

    /// Whether gossip.md §10 has the node close the stream (the others are no offence:
    /// unknown parents, requests and heartbeats are normal gossip, however many).
    pub fn punished(self) -> bool {
        !matches!(self, Phase::UnknownParents | Phase::MilestoneRequests | Phase::LyingHeartbeats)
    }
}

/// What one phase may use.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Messages to send (the phase ends when they are sent) …
    pub messages: u64,
    /// … or when this time is up.
    pub time: Duration,
    /// How long to wait for the node to close a stream after the misbehaviour.
    pub close_wait: Duration,
    /// The node's minimum PoW score, for the valid blocks of `UnknownParents`.
    pub min_pow_score: u32,
    /// Tagged-data bytes per block of `UnknownParents` (at most 8192).
    pub block_data: usize,
    /// Streams held at once by `HeaderWithoutBody` (the node has 4 unknown-peer slots).
    pub slots: usize,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            messages: 100_000,
            time: Duration::from_secs(60),
            close_wait: Duration::from_secs(70),
            min_pow_score: 0,
            block_data: 4096,
            slots: 5,
        }
    }
}

/// What a phase did and saw.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub phase: &'static str,
    pub messages: u64,
    pub bytes: u64,
    pub connections: u64,
    /// Connections that could not be made or whose stream could not be opened.
    pub failed_connects: u64,
    /// Streams the node closed.
    pub closed_by_node: u64,
    /// Streams the node had not closed when the phase let them go (`close_wait` passed, or
    /// the budget ended on a phase the node must not punish).
    pub left_open: u64,
    /// Longest and total time from the misbehaviour to the node's close.
    pub max_close: Duration,
    pub total_close: Duration,
    /// Frames the node sent that the reader decoded (heartbeats, answers, broadcasts).
    pub received: u64,
    pub elapsed: Duration,
}

impl Report {
    pub fn mean_close(&self) -> Duration {
        self.total_close.checked_div(self.closed_by_node.max(1) as u32).unwrap_or_default()
    }

    fn closed_after(&mut self, wait: Duration) {
        self.closed_by_node += 1;
        self.max_close = self.max_close.max(wait);
        self.total_close += wait;
    }

    /// One line of JSON (for the bench).
    pub fn to_json(&self) -> String {
        format!(
            "{{\"phase\":\"{}\",\"messages\":{},\"bytes\":{},\"connections\":{},\"failedConnects\":{},\"closedByNode\":{},\"leftOpen\":{},\"maxCloseMs\":{},\"meanCloseMs\":{},\"received\":{},\"seconds\":{:.3}}}",
            self.phase,
            self.messages,
            self.bytes,
            self.connections,
            self.failed_connects,
            self.closed_by_node,
            self.left_open,
            self.max_close.as_millis(),
            self.mean_close().as_millis(),
            self.received,
            self.elapsed.as_secs_f64()
        )
    }
}

/// A small xorshift generator: the tool needs varied bytes, not good randomness.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    pub fn bytes<const N: usize>(&mut self) -> [u8; N] {
        std::array::from_fn(|_| self.next() as u8)
    }

    pub fn fill(&mut self, out: &mut [u8]) {
        for b in out {
            *b = self.next() as u8;
        }
    }
}

/// What the reader of a stream learnt.
#[derive(Default)]
struct Seen {
    closed: AtomicBool,
    received: AtomicU64,
    latest: AtomicU32,
}

/// The reader half of a stream: decodes what the node sends (to learn its latest milestone)
/// until the node closes it. `read == false`: never reads (the stream's window fills).
fn spawn_reader(
    mut read: futures::io::ReadHalf<Stream>,
    seen: Arc<Seen>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut decoder = Decoder::new();
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            match read.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    decoder.push(&buf[..n]);
                    while let Ok(Some(message)) = decoder.next_message() {
                        seen.received.fetch_add(1, Relaxed);
                        if let Message::Heartbeat(h) = message {
                            seen.latest.store(h.latest_milestone_index, Relaxed);
                        }
                    }
                }
            }
        }
        seen.closed.store(true, Relaxed);
    })
}

/// One connection of a phase: its writer, and what its reader sees.
struct Link {
    write: WriteHalf<Stream>,
    seen: Arc<Seen>,
    reader: Option<tokio::task::JoinHandle<()>>,
    /// Held so that the connection lives as long as the link.
    _guard: Box<dyn Send>,
    /// Not read: the read half is kept, never polled.
    _unread: Option<futures::io::ReadHalf<Stream>>,
}

impl Link {
    async fn open(connect: &mut Connect, read: bool) -> Result<Link, String> {
        let conn = connect().await?;
        let (r, write) = conn.stream.split();
        let seen = Arc::new(Seen::default());
        let (reader, unread) =
            if read { (Some(spawn_reader(r, seen.clone())), None) } else { (None, Some(r)) };
        Ok(Link { write, seen, reader, _guard: conn.guard, _unread: unread })
    }

    fn closed(&self) -> bool {
        self.seen.closed.load(Relaxed)
    }

    /// Write `bytes`; false if the stream is gone.
    async fn send(&mut self, bytes: &[u8]) -> bool {
        self.write.write_all(bytes).await.is_ok() && self.write.flush().await.is_ok()
    }

    /// Wait until the node closes the stream (the reader ends) or `within` passes.
    async fn wait_closed(&mut self, within: Duration) -> bool {
        let Some(reader) = self.reader.as_mut() else {
            // Not reading: a failing write is how a close shows.
            let deadline = Instant::now() + within;
            while Instant::now() < deadline {
                let probe = to_frame(&Heartbeat::new(1, 0, 1, 1, 1));
                if !self.send(&probe).await {
                    return true;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            return false;
        };
        tokio::time::timeout(within, reader).await.is_ok()
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        if let Some(reader) = &self.reader {
            reader.abort();
        }
    }
}

/// An honest-looking heartbeat for a node whose latest milestone is `latest`.
fn heartbeat(latest: u32) -> Vec<u8> {
    to_frame(&Heartbeat::new(latest, 0, latest, 1, 1))
}

/// A tagged-data block on `parents` (sorted, deduplicated here), its nonce searched for
/// `min_pow_score`.
pub fn tagged_block(
    parents: &[[u8; 32]],
    tag: &[u8],
    data: Vec<u8>,
    min_pow_score: u32,
) -> Vec<u8> {
    let mut parents = parents.to_vec();
    parents.sort();
    parents.dedup();
    let mut bytes = encode_block(&Block {
        protocol_version: 2,
        parents,
        payload: Some(Payload::TaggedData(TaggedData { tag: tag.to_vec(), data })),
        nonce: 0,
    });
    if min_pow_score > 0 {
        let cancel = AtomicBool::new(false);
        let found =
            ledger_core::pow::mine(&bytes, min_pow_score, 1, &cancel).expect("not cancelled");
        let at = bytes.len() - 8;
        bytes[at..].copy_from_slice(&found.nonce.to_le_bytes());
    }
    bytes
}

/// A valid block none of whose 1..8 parents exists.
fn orphan(rng: &mut Rng, budget: &Budget, n: u64) -> Vec<u8> {
    let parents: Vec<[u8; 32]> = (0..1 + rng.below(8)).map(|_| rng.bytes()).collect();
    let mut data = vec![0u8; budget.block_data.min(8192)];
    rng.fill(&mut data);
    data[..8].copy_from_slice(&n.to_le_bytes());
    tagged_block(&parents, b"hostile", data, budget.min_pow_score)
}

/// A block frame whose payload is no valid block (three kinds, in turn).
fn invalid_block(rng: &mut Rng, n: u64) -> Vec<u8> {
    let bytes = match n % 3 {
        // Noise.
        0 => {
            let mut b = vec![0u8; 64 + rng.below(2048) as usize];
            rng.fill(&mut b);
            b
        }
        // Well-formed but protocol version 3.
        1 => {
            let mut b = tagged_block(&[rng.bytes()], b"hostile", n.to_le_bytes().to_vec(), 0);
            b[0] = 3;
            b
        }
        // A valid block cut short inside the frame.
        _ => {
            let b = tagged_block(&[rng.bytes()], b"hostile", vec![7; 100], 0);
            b[..b.len() / 2].to_vec()
        }
    };
    to_frame(&BlockPacket::new(bytes).expect("1..32768 bytes"))
}

/// A valid message of each kind, one of them with 1..3 bytes flipped.
fn mutated(rng: &mut Rng, latest: u32) -> Vec<u8> {
    let mut frame = match rng.below(4) {
        0 => heartbeat(latest),
        1 => to_frame(&MilestoneRequest::from_index(rng.below(latest as u64 + 1) as u32)),
        2 => to_frame(&BlockRequest::new(BlockId(rng.bytes()))),
        _ => {
            to_frame(&BlockPacket::new(tagged_block(&[rng.bytes()], b"m", vec![1; 40], 0)).unwrap())
        }
    };
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(frame.len() as u64) as usize;
        frame[at] ^= 1 << rng.below(8);
    }
    frame
}

/// A heartbeat that lies: indexes out of order and far ahead.
fn lying_heartbeat(rng: &mut Rng) -> Vec<u8> {
    let latest = rng.next() as u32;
    let solid = latest.wrapping_add(1 + rng.below(1000) as u32);
    let pruned = solid.wrapping_add(rng.next() as u32 % 1000);
    to_frame(&Heartbeat::new(solid, pruned, latest, 255, 255))
}

/// Frames sent per write in floods.
const BATCH: usize = 64;

/// Run one phase.
pub async fn run_phase(phase: Phase, connect: &mut Connect, budget: Budget) -> Report {
    let mut report = Report { phase: phase.name(), ..Report::default() };
    let start = Instant::now();
    let mut rng = Rng::new(start.elapsed().as_nanos() as u64 ^ 0x9e37_79b9_7f4a_7c15);
    let mut latest = 1u32;
    let over =
        |report: &Report| report.messages >= budget.messages || start.elapsed() >= budget.time;
    if phase == Phase::HeaderWithoutBody {
        header_without_body(connect, budget, &mut report).await;
        report.elapsed = start.elapsed();
        return report;
    }
    while !over(&report) {
        let read = phase != Phase::NeverRead;
        let mut link = match Link::open(connect, read).await {
            Ok(link) => link,
            Err(_) => {
                report.failed_connects += 1;
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        report.connections += 1;
        // Give the reader a moment for the node's first heartbeat.
        for _ in 0..20 {
            if link.seen.latest.load(Relaxed) > 0 || !read {
                break;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        latest = latest.max(link.seen.latest.load(Relaxed));
        let hello = heartbeat(latest);
        if !link.send(&hello).await {
            report.closed_after(Duration::ZERO);
            continue;
        }
        report.messages += 1;
        report.bytes += hello.len() as u64;
        // The misbehaviour: the frames of one go, then whether the node closed.
        let misbehaved = Instant::now();
        let mut n = 0u64;
        let mut gone = false;
        loop {
            let mut batch = Vec::new();
            let mut frames = 0u64;
            let last = match phase {
                Phase::Truncated => {
                    let frame = to_frame(&BlockPacket::new(orphan(&mut rng, &budget, n)).unwrap());
                    let cut = 1 + rng.below(frame.len() as u64 - 1) as usize;
                    batch.extend_from_slice(&frame[..cut]);
                    frames = 1;
                    true
                }
                Phase::Oversized => {
                    let (t, len) = match rng.below(4) {
                        0 => (PacketType::Heartbeat, 15 + rng.below(1000)),
                        1 => (PacketType::BlockRequest, 33 + rng.below(1000)),
                        2 => (PacketType::MilestoneRequest, 5 + rng.below(1000)),
                        _ => (PacketType::Block, 32769 + rng.below(32767)),
                    };
                    let len = len as u16;
                    batch.push(t as u8);
                    batch.extend_from_slice(&len.to_le_bytes());
                    let mut junk = vec![0u8; 1024];
                    rng.fill(&mut junk);
                    batch.extend_from_slice(&junk);
                    frames = 1;
                    true
                }
                Phase::Mutated => {
                    for _ in 0..BATCH {
                        batch.extend(mutated(&mut rng, latest));
                        frames += 1;
                    }
                    false
                }
                Phase::InvalidBlocks => {
                    for i in 0..BATCH as u64 {
                        batch.extend(invalid_block(&mut rng, n + i));
                        frames += 1;
                    }
                    false
                }
                Phase::UnknownParents => {
                    for i in 0..16 {
                        let block = orphan(&mut rng, &budget, n + i);
                        batch.extend(to_frame(&BlockPacket::new(block).unwrap()));
                        frames += 1;
                    }
                    false
                }
                Phase::MilestoneRequests | Phase::NeverRead => {
                    for i in 0..BATCH as u64 {
                        let index = 1 + ((n + i) % latest.max(1) as u64) as u32;
                        batch.extend(to_frame(&MilestoneRequest::from_index(index)));
                        frames += 1;
                    }
                    false
                }
                Phase::LyingHeartbeats => {
                    for _ in 0..BATCH {
                        batch.extend(lying_heartbeat(&mut rng));
                        frames += 1;
                    }
                    false
                }
                Phase::HeaderWithoutBody => unreachable!("handled above"),
            };
            n += frames;
            if !link.send(&batch).await {
                gone = true;
                break;
            }
            report.messages += frames;
            report.bytes += batch.len() as u64;
            if phase == Phase::Truncated {
                // The stream ends inside a frame.
                let _ = link.write.close().await;
            }
            if last || link.closed() {
                break;
            }
            if over(&report) {
                // Mutations may all have been harmless ones (a flipped bit in a heartbeat's
                // index, a block's tag): the stream's last frame is an unknown type.
                if phase == Phase::Mutated && link.send(&[0xff, 0x01, 0x00, 0x00]).await {
                    report.messages += 1;
                    report.bytes += 4;
                }
                break;
            }
        }
        let closed = gone
            || link.closed()
            || (phase.punished() && link.wait_closed(budget.close_wait).await);
        if closed {
            report.closed_after(misbehaved.elapsed());
        } else {
            report.left_open += 1;
        }
        report.received += link.seen.received.load(Relaxed);
    }
    report.elapsed = start.elapsed();
    report
}

/// `slots` streams at once, each with a heartbeat and then the header of a full-size block
/// and a few of its bytes, never the rest; how long after its header the node closes each.
/// The node has 4 unknown-peer slots: a fifth stream is refused at once (it may fail to
/// open, or open and close).
async fn header_without_body(connect: &mut Connect, budget: Budget, report: &mut Report) {
    let header = Header::new(PacketType::Block, 32768).unwrap().to_bytes();
    let mut links = Vec::new();
    for _ in 0..budget.slots.max(1) {
        let mut link = match Link::open(connect, true).await {
            Ok(link) => link,
            Err(_) => {
                report.failed_connects += 1;
                continue;
            }
        };
        report.connections += 1;
        let mut bytes = heartbeat(1);
        bytes.extend_from_slice(&header);
        bytes.extend_from_slice(&[0x02; 100]);
        let sent = Instant::now();
        if link.send(&bytes).await {
            report.messages += 2;
            report.bytes += bytes.len() as u64;
        }
        links.push((link, sent));
    }
    let waits = links.into_iter().map(|(mut link, sent)| async move {
        let closed = link.wait_closed(budget.close_wait).await;
        (closed, sent.elapsed(), link.seen.received.load(Relaxed))
    });
    for (closed, after, received) in futures::future::join_all(waits).await {
        if closed {
            report.closed_after(after);
        } else {
            report.left_open += 1;
        }
        report.received += received;
    }
}

//! What arrives on gossip streams (gossip.md §6; Hornet `msg_proc.go`) and what leaves
//! them as broadcast.
//!
//! Blocks: deduplicated by their bytes' id first (`work_units`); the first copy goes to
//! the store's intake, later copies only add their sender. The verdict counts new and known
//! blocks, punishes every sender of an invalid block (D49) and requests missing parents:
//! with the request's milestone index if the block was asked for, with the milestone's own
//! index (kept) if it is a verified milestone, with the latest index if the node is synced,
//! and not at all otherwise. Newly solid blocks go to every following peer (one whose
//! heartbeat is within below max depth of our confirmed milestone) except their senders, if
//! the node is synced (and not warp-syncing) and did not ask for them. The node's own blocks
//! go to every following peer; while the node is not synced they wait (bounded) until it is,
//! and a peer that starts following later gets those that still wait for a milestone.

use super::Service;
use crate::events::{DropReason, GossipEvent};
use crate::intake::Verdicts;
use crate::metrics::count;
use crate::packets::{to_frame, BlockId, BlockPacket, Message, MilestoneRequest};
use crate::peers::Relation;
use crate::requests::Wanted;
use crate::responder::{Job, Lookup};
use crate::session::{Outbox, SessionEvent};
use crate::store::{Intake, ReceivedBlock};
use crate::work_units::Verdict;
use bytes::Bytes;
use libp2p::PeerId;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::atomic::Ordering::Relaxed;
use std::time::Instant;

impl Service {
    pub(super) fn on_session_event(&mut self, event: SessionEvent) {
        match event {
            SessionEvent::Ended { peer, session, reason } => {
                if self.peers.session(&peer, session).is_some() {
                    self.end_stream(peer, reason);
                }
            }
            SessionEvent::Block { peer, session, id, block } => {
                self.on_block(peer, session, id, block)
            }
            SessionEvent::Message { peer, session, message } => {
                self.on_message(peer, session, message)
            }
            SessionEvent::Malformed { peer, session, id, error } => {
                let node = self.node_metrics.clone();
                let Some(stream) = self.peers.session(&peer, session) else { return };
                count!(stream.session.metrics, node, received_blocks);
                node.invalid_blocks.fetch_add(1, Relaxed);
                self.drop_peer(peer, DropReason::InvalidBlock { block: id, error }, true);
            }
        }
    }

    fn on_message(&mut self, peer: PeerId, session: u64, message: Message) {
        let latest = self.sync.latest;
        let node = self.node_metrics.clone();
        // Messages of a stream that has ended or was replaced are ignored.
        let Some(stream) = self.peers.session(&peer, session) else { return };
        let lookup = match message {
            Message::Heartbeat(heartbeat) => {
                count!(stream.session.metrics, node, received_heartbeats);
                stream.heartbeat = Some(heartbeat);
                let now = Instant::now();
                stream.heartbeat_received = Some(now);
                // The node's own waiting blocks, if this heartbeat makes them due (a later
                // heartbeat, or the heartbeat check, tries again).
                self.offer_own_blocks_due(now);
                self.warp_peer_solid(heartbeat.solid_milestone_index);
                return;
            }
            Message::BlockRequest(request) => {
                count!(stream.session.metrics, node, received_block_requests);
                Lookup::Block(request.block_id())
            }
            Message::MilestoneRequest(request) => {
                count!(stream.session.metrics, node, received_milestone_requests);
                match request {
                    MilestoneRequest::Latest if latest == 0 => return, // no milestone yet
                    MilestoneRequest::Latest => Lookup::Milestone(latest),
                    MilestoneRequest::Index(index) => Lookup::Milestone(index.get()),
                }
            }
            Message::Block(_) => unreachable!("blocks arrive as SessionEvent::Block"),
        };
        // A full lookup queue drops the request; the peer asks again.
        let _ = self.responder_tx.try_send(Job { lookup, reply_to: stream.session.outbox.clone() });
    }

    /// An unrequested block the store holds without its parents: each unknown sender's
    /// address pays for it from its orphan budget, and a stream past it is not read until
    /// the debt is paid (D53). Configured peers are not charged: the operator vouches for
    /// them, and a node catching up gets its missing blocks from them by request.
    fn charge_orphan(&mut self, senders: &[PeerId], now: Instant) {
        for sender in senders {
            let Some(peer) = self.peers.get(sender) else { continue };
            let Some(stream) = peer.stream.as_ref() else { continue };
            if peer.relation != Relation::Unknown {
                continue;
            }
            // Peers without an IP address (the in-memory transport of tests) share one.
            let ip = peer.connections.get(&stream.connection).and_then(|c| c.remote_ip);
            let ip = ip.unwrap_or(IpAddr::V6(Ipv6Addr::UNSPECIFIED));
            let pause = self.orphans.spend(ip, 1, now);
            if !pause.is_zero() {
                stream.session.pause_reading(pause);
            }
        }
    }

    fn on_block(&mut self, peer: PeerId, session: u64, id: BlockId, block: BlockPacket) {
        let node = self.node_metrics.clone();
        let Some(stream) = self.peers.session(&peer, session) else { return };
        count!(stream.session.metrics, node, received_blocks);
        let metrics = stream.session.metrics.clone();
        let request = self.requests.received(Wanted::Block(id));
        let (unit, created) = self.work_units.receive(id, peer, request.is_some());
        if created {
            let requested = unit.requested;
            self.intake_backlog += 1;
            // The intake task lives as long as the service: sending cannot fail.
            let _ = self.intake_tx.send(ReceivedBlock { id, bytes: block.into_bytes(), requested });
            return;
        }
        match unit.verdict.clone() {
            // Counted when the verdict comes.
            Verdict::Pending => return,
            Verdict::Valid | Verdict::Ignored => count!(metrics, node, known_blocks),
            Verdict::Invalid(error) => {
                node.invalid_blocks.fetch_add(1, Relaxed);
                self.drop_peer(peer, DropReason::InvalidBlock { block: id, error }, true);
            }
        }
        if request.is_some() {
            self.requests.processed(Wanted::Block(id));
        }
    }

    pub(super) fn on_verdicts(&mut self, verdicts: Verdicts) {
        let now = Instant::now();
        let node = self.node_metrics.clone();
        for (id, intake) in verdicts {
            self.intake_backlog = self.intake_backlog.saturating_sub(1);
            let request = self.requests.processed(Wanted::Block(id));
            let Some(unit) = self.work_units.get_mut(&id) else { continue };
            let senders = unit.senders.clone();
            let verdict = match intake {
                Intake::Stored { missing_parents, milestone } => {
                    node.streams.new_blocks.fetch_add(1, Relaxed);
                    for (i, sender) in senders.iter().enumerate() {
                        if let Some(stream) = self.peers.get(sender).and_then(|p| p.stream.as_ref())
                        {
                            let counter = if i == 0 {
                                &stream.session.metrics.new_blocks
                            } else {
                                &stream.session.metrics.known_blocks
                            };
                            counter.fetch_add(1, Relaxed);
                        }
                    }
                    node.streams
                        .known_blocks
                        .fetch_add(senders.len().saturating_sub(1) as u64, Relaxed);
                    if milestone
                        .and_then(|i| self.requests.processed(Wanted::Milestone(i)))
                        .is_some()
                    {
                        unit.requested = true;
                    }
                    if request.is_none() && milestone.is_none() && !missing_parents.is_empty() {
                        self.charge_orphan(&senders, now);
                    }
                    let parents_index = match (request, milestone) {
                        (Some(r), _) => Some((r.milestone_index, r.keep)),
                        (None, Some(index)) => Some((index, true)),
                        (None, None) if self.is_synced() => Some((self.sync.latest, false)),
                        (None, None) => None,
                    };
                    if let Some((index, keep)) = parents_index {
                        if !self.warp_defer(index, &missing_parents) {
                            for parent in missing_parents {
                                self.requests.enqueue(Wanted::Block(parent), index, keep, now);
                            }
                        }
                    }
                    Some(Verdict::Valid)
                }
                Intake::AlreadyStored => {
                    for sender in &senders {
                        if let Some(stream) = self.peers.get(sender).and_then(|p| p.stream.as_ref())
                        {
                            count!(stream.session.metrics, node, known_blocks);
                        }
                    }
                    Some(Verdict::Valid)
                }
                Intake::Ignored => Some(Verdict::Ignored),
                Intake::Invalid(error) => {
                    node.invalid_blocks.fetch_add(1, Relaxed);
                    for sender in &senders {
                        self.drop_peer(
                            *sender,
                            DropReason::InvalidBlock { block: id, error: error.clone() },
                            true,
                        );
                    }
                    Some(Verdict::Invalid(error))
                }
                Intake::Failed(error) => {
                    self.emit(GossipEvent::IntakeFailed { block: id, error });
                    None
                }
            };
            self.work_units.decide(id, verdict, now);
        }
    }

    /// Send a newly solid block to every peer except those that sent it (gossip.md §6
    /// step 7) — not while syncing, and not if the node asked for it.
    pub(super) fn broadcast_solid(&mut self, id: BlockId, bytes: Vec<u8>) {
        // Whatever was still asked for this block has arrived by another way.
        self.requests.processed(Wanted::Block(id));
        if !self.is_synced() {
            return;
        }
        let senders = match self.work_units.get(&id) {
            Some(unit) if unit.requested => return,
            Some(unit) => unit.senders.as_slice(),
            None => &[],
        };
        let mut recipients = self
            .peers
            .following_streams(self.sync.confirmed)
            .filter(|(peer, _)| !senders.contains(peer))
            .peekable();
        // The frame is built only when someone gets it (a node whose one peer sent the block has nobody).
        if recipients.peek().is_none() {
            return;
        }
        let Ok(block) = BlockPacket::new(bytes) else { return };
        let frame = Bytes::from(to_frame(&block));
        for (_, stream) in recipients {
            stream.session.send(frame.clone());
        }
    }

    /// Send a block of the node's own (API, coordinator) to every peer (gossip.md §6: they
    /// have no sender to exclude). Not while the node is not synced (§6 step 7, §7): then it
    /// waits, so that a block the API acknowledged still reaches the network afterwards.
    pub(super) fn broadcast_local(&mut self, id: BlockId, bytes: Vec<u8>) {
        self.requests.processed(Wanted::Block(id));
        let Ok(block) = BlockPacket::new(bytes) else { return };
        let frame = Bytes::from(to_frame(&block));
        self.own_blocks.remember(id, frame.clone(), Instant::now());
        if !self.is_synced() {
            // At most what one send queue takes when the node is synced again.
            if self.deferred_local.len() < self.config.timers.send_queue {
                self.deferred_local.push(frame);
            }
            return;
        }
        self.send_frame_to_all(frame);
    }

    /// The node is synced again: its own blocks kept meanwhile go out, oldest first.
    pub(super) fn send_deferred_local(&mut self) {
        for frame in std::mem::take(&mut self.deferred_local) {
            self.send_frame_to_all(frame);
        }
    }

    /// A stream whose own blocks are due (`Stream::own_blocks_due`) gets the node's recent
    /// blocks that still wait for a milestone (`own_blocks.rs`). The store is asked on the
    /// blocking pool; the frames join the peer's send queue.
    pub(super) fn offer_own_blocks(&mut self, outbox: Outbox) {
        let offer = self.own_blocks.offer(Instant::now());
        if offer.is_empty() {
            return;
        }
        let store = self.store.clone();
        tokio::task::spawn_blocking(move || {
            for (id, frame) in offer {
                if store.awaits_milestone(&id) {
                    outbox.send(frame);
                }
            }
        });
    }

    fn send_frame_to_all(&self, frame: Bytes) {
        for (_, stream) in self.peers.following_streams(self.sync.confirmed) {
            stream.session.send(frame.clone());
        }
    }
}

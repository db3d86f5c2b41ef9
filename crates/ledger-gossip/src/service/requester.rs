//! Sending queued requests (gossip.md §6.1; Hornet `requester.go`): each goes to the first
//! peer whose heartbeat says it has the milestone's data (`pruned < index ≤ solid`), the
//! first one taken in turn so that load spreads; if none has it for sure, to every peer
//! that may have parts of it (`pruned < index ≤ latest`). A peer without heartbeat gets no
//! requests. An unsent request stays pending and is retried with the others.

use super::Service;
use crate::packets::{to_frame, BlockRequest, MilestoneRequest};
use crate::requests::Wanted;
use bytes::Bytes;

impl Service {
    pub(super) fn send_requests(&mut self) {
        if !self.requests.has_queued() {
            return;
        }
        let mut streams: Vec<_> =
            self.peers.streams().filter(|(_, s)| s.heartbeat.is_some()).map(|(_, s)| s).collect();
        if streams.is_empty() {
            // Nobody to ask: the requests wait in the queue (nothing is popped).
            return;
        }
        streams.sort_by_key(|s| s.session.id);
        while let Some(request) = self.requests.next() {
            let frame = Bytes::from(match request.wanted {
                Wanted::Block(id) => to_frame(&BlockRequest::new(id)),
                Wanted::Milestone(index) => to_frame(&MilestoneRequest::from_index(index)),
            });
            let index = request.milestone_index;
            let start = self.round_robin % streams.len();
            self.round_robin = self.round_robin.wrapping_add(1);
            let first = (0..streams.len())
                .map(|k| streams[(start + k) % streams.len()])
                .find(|s| s.heartbeat.is_some_and(|h| h.has_data_for(index)));
            let targets: Vec<_> = match first {
                Some(stream) => vec![stream],
                None => streams
                    .iter()
                    .copied()
                    .filter(|s| s.heartbeat.is_some_and(|h| h.could_have_data_for(index)))
                    .collect(),
            };
            // Sent requests are counted by the writer when they hit the wire.
            for stream in targets {
                stream.session.send(frame.clone());
            }
        }
    }
}

//! One gossip stream for the hostile peer's phases: a swarm of a fresh identity dials the
//! node, opens the gossip stream on the connection and keeps driving the connection until
//! the `Conn` is dropped. The example brings a TCP swarm, the scenario test one on the
//! in-memory transport; both include this file.

use super::phases::Conn;
use futures::StreamExt;
use ledger_gossip::behaviour::{Behaviour, BehaviourEvent, StreamEvent};
use ledger_gossip::Multiaddr;
use libp2p::swarm::{Swarm, SwarmEvent};
use std::time::Duration;

/// How long the dial and the stream's opening may take together.
const OPEN_TIMEOUT: Duration = Duration::from_secs(10);

/// Dial `address` with `swarm` and open a gossip stream on the connection.
pub async fn open(mut swarm: Swarm<Behaviour>, address: Multiaddr) -> Result<Conn, String> {
    swarm.dial(address).map_err(|e| e.to_string())?;
    let stream = tokio::time::timeout(OPEN_TIMEOUT, async {
        loop {
            match swarm.select_next_some().await {
                SwarmEvent::ConnectionEstablished { peer_id, connection_id, .. } => {
                    swarm.behaviour_mut().streams.open(peer_id, connection_id)
                }
                SwarmEvent::Behaviour(BehaviourEvent::Streams(StreamEvent::Outbound {
                    stream,
                    ..
                })) => return Ok(stream),
                SwarmEvent::Behaviour(BehaviourEvent::Streams(StreamEvent::OutboundFailed {
                    reason,
                    ..
                })) => return Err(reason),
                SwarmEvent::OutgoingConnectionError { error, .. } => return Err(error.to_string()),
                // Refused (no slot left for unknown peers) before the stream was up.
                SwarmEvent::ConnectionClosed { .. } => return Err("connection closed".into()),
                _ => {}
            }
        }
    })
    .await
    .map_err(|_| format!("no gossip stream within {} s", OPEN_TIMEOUT.as_secs()))??;
    // The swarm drives the connection; aborting it (when the guard drops) closes it.
    let driver = tokio::spawn(async move {
        loop {
            swarm.select_next_some().await;
        }
    });
    Ok(Conn { stream, guard: Box::new(AbortOnDrop(driver)) })
}

struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

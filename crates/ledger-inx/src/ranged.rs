//! The live part every ranged stream runs (ListenToConfirmedMilestones,
//! ListenToLedgerUpdates, ListenToTreasuryUpdates) once it has sent what was stored: each
//! committed milestone goes through `Range::live`, which says whether a gap must first be
//! read from storage, whether the milestone itself is sent, and whether the range is done.

use crate::feed::Subscription;
use crate::range::Range;
use crate::streams::{End, Outlet};
use ledger_store::events::{CommittedMilestone, StoreEvent};
use std::future::Future;

/// Follow the committed milestones until `range` is complete (or forever when it has no
/// end): `stored(from, to)` sends a gap read from storage, `live(milestone)` sends one
/// milestone as it commits (what it sends is made from the milestone before it returns:
/// the future it returns does not borrow it).
pub async fn follow<T, S, StoredSent, L, LiveSent>(
    mut range: Range,
    out: &Outlet<T>,
    events: &mut Subscription,
    mut stored: S,
    mut live: L,
) -> Result<(), End>
where
    T: Send + 'static,
    S: FnMut(u32, u32) -> StoredSent,
    StoredSent: Future<Output = Result<(), End>>,
    L: FnMut(&CommittedMilestone) -> LiveSent,
    LiveSent: Future<Output = Result<(), End>>,
{
    if range.complete() {
        return Ok(());
    }
    loop {
        let event = out.next_event(events).await?;
        let StoreEvent::MilestoneCommitted(m) = &*event else { continue };
        let step = range.live(m.index);
        if let Some((from, to)) = step.catch_up {
            stored(from, to).await?;
        }
        if step.send {
            live(m.as_ref()).await?;
        }
        if step.done {
            return Ok(());
        }
    }
}

//! The dev-network history of the spec, replayed through the store: milestone 1 at
//! bootstrap is Example A byte for byte, Examples B and C are accepted on top of it, and
//! milestone 2 comes out exactly as worked example D of ledger.md §7.4 — parents by tip
//! selection, white-flag order, both merkle roots, signature, block id and ledger effect.
//! The examples are read from `vectors/worked-examples.json`.

mod common;

use common::worked_examples::{hex32, number, text};
use common::*;
use ledger_core::json::hex;
use ledger_core::Code;

/// Milestone 1's timestamp (Example A) and milestone 2's (Example D).
fn milestone_1_time() -> u32 {
    number("/A/json/payload/timestamp") as u32
}

fn milestone_2_time() -> u32 {
    number("/D/extra/timestamp") as u32
}

#[test]
fn the_spec_history_replays_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let store = open_dev(dir.path(), 1500);
    assert!(!store.is_ready());
    assert_eq!(store.submit_block(&example("B")).err().unwrap().code, Code::NotReady);

    let first = store.issue_milestone(Some(milestone_1_time())).unwrap();
    assert_eq!(first.index, 1);
    assert_eq!(hex(&first.milestone_id), text("/A/extra/milestoneId"));
    assert_eq!(hex(&first.block_id), text("/A/id"));
    assert_eq!(store.block(&first.block_id).unwrap().unwrap(), example("A"));
    // Right after milestone 1 the tips are [0x00…00, milestone 1] (ledger.md §5 example).
    assert_eq!(store.select_tips().unwrap(), vec![[0; 32], first.block_id]);

    let b = store.submit_block(&example("B")).unwrap();
    assert!(b.stored);
    assert_eq!(hex(&b.block_id), text("/B/id"));
    let c = store.submit_block(&example("C")).unwrap();
    assert_eq!(hex(&c.block_id), text("/C/id"));
    // Idempotent: the same bytes again store nothing.
    assert!(!store.submit_block(&example("C")).unwrap().stored);
    let tx = hex32("/C/extra/transactionId");
    assert_eq!(store.included_block_id(&tx).unwrap(), None);
    assert_eq!(store.blocks_with_transaction(&tx).unwrap(), vec![c.block_id]);

    let second = store.issue_milestone(Some(milestone_2_time())).unwrap();
    assert_eq!(second.referenced_blocks, 3);
    assert_eq!(second.included_transactions, 1);
    assert_eq!(hex(&second.milestone_id), text("/D/extra/milestoneId"));
    assert_eq!(hex(&second.block_id), text("/D/id"));
    assert_eq!(store.block(&second.block_id).unwrap().unwrap(), example("D"));

    // Metadata after milestone 2 (ledger.md §9).
    let meta = json(&store.block_metadata_json(&c.block_id).unwrap().unwrap());
    assert_eq!(meta["referencedByMilestoneIndex"], 2);
    assert_eq!(meta["ledgerInclusionState"], "included");
    assert_eq!(meta["whiteFlagIndex"], 2);
    let meta = json(&store.block_metadata_json(&first.block_id).unwrap().unwrap());
    assert_eq!(meta["milestoneIndex"], 1);
    assert_eq!(meta["ledgerInclusionState"], "noTransaction");
    assert_eq!(meta["whiteFlagIndex"], 0);
    let pending = json(&store.block_metadata_json(&second.block_id).unwrap().unwrap());
    assert_eq!(pending["milestoneIndex"], 2);
    assert_eq!(pending["shouldPromote"], false);
    assert!(pending.get("referencedByMilestoneIndex").is_none());

    // Ledger effect.
    assert_eq!(store.included_block_id(&tx).unwrap(), Some(c.block_id));
    assert_eq!(store.included_block_id(&[0; 32]).unwrap(), None);
    let (_, genesis) = store.output(&[0; 34]).unwrap().unwrap();
    let genesis = json(&genesis);
    assert_eq!(genesis["isSpent"], true);
    assert_eq!(genesis["transactionIdSpent"], hex(&tx));
    assert_eq!(genesis["milestoneIndexSpent"], 2);
    assert_eq!(genesis["milestoneTimestampSpent"], milestone_2_time());
    let (bytes, created) = store.output(&ledger_core::ids::output_id(&tx, 0)).unwrap().unwrap();
    assert_eq!(hex(&bytes[..9]), "0x0340420f0000000000");
    let created = json(&created);
    assert_eq!(created["milestoneIndexBooked"], 2);
    assert_eq!(created["isSpent"], false);
    assert_eq!(created["ledgerIndex"], 2);
    let changes = store.utxo_changes(2).unwrap().unwrap();
    assert_eq!(changes.consumed, vec![[0; 34]]);
    assert_eq!(changes.created.len(), 2);
    assert_eq!(store.unspent_total().unwrap(), SUPPLY as u128);

    // After milestone 2 the tips are the milestone-2 block, filled with the milestone-1
    // block: milestone blocks only, never a milestone's other parents (D21, api.md §2.4).
    let mut expected = vec![second.block_id, first.block_id];
    expected.sort();
    assert_eq!(store.select_tips().unwrap(), expected);
}

#[test]
fn the_history_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    {
        let store = open_dev(dir.path(), 1500);
        store.issue_milestone(Some(milestone_1_time())).unwrap();
        store.submit_block(&example("B")).unwrap();
        store.submit_block(&example("C")).unwrap();
    }
    // Reopened: the pending blocks are back in memory, so milestone 2 is the same.
    let store = open_dev(dir.path(), 1500);
    assert!(store.is_ready());
    assert_eq!(store.status().pending_blocks, 3);
    let second = store.issue_milestone(Some(milestone_2_time())).unwrap();
    assert_eq!(hex(&second.block_id), text("/D/id"));
    drop(store);
    let store = open_dev(dir.path(), 1500);
    assert_eq!(store.status().latest_milestone.unwrap().0, 2);
    assert_eq!(store.status().blocks_stored, 4);
}

#[test]
fn a_different_protocol_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    drop(open_dev(dir.path(), 1500));
    let err = ledger_store::Store::open(dir.path(), dev_options(7)).err().unwrap();
    assert_eq!(err.code, Code::ProtocolMismatch);
    assert!(err.detail.contains("minPowScore"), "{}", err.detail);
}

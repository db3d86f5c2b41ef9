//! The dev-network history of the spec, replayed through the store: milestone 1 at
//! bootstrap is Example A byte for byte, Examples B and C are accepted on top of it, and
//! milestone 2 comes out exactly as worked example D of ledger.md §7.4 — parents by tip
//! selection, white-flag order, both merkle roots, signature, block id and ledger effect.

mod common;

use common::*;
use ledger_core::json::hex;

const EXAMPLE_A: &str = "02020000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000113010000070000000100000000f153650200000000000000000000000000000000000000000000000000000000000000000200000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000100fc3033a22726d4e0f213eb9820b998c824274e929d8a015968d294e02c531882cd6e416746152a97c00d10a34b48a4f63510f115967030956549e2268df88f46a19b46d7997de93ad115b92aa0d037fe9361dfe504bc7d0527a9f2bb8422da0a0000000000000000";
const EXAMPLE_D: &str = "020204d316e4a2edb85e074a9ba99191c562a9e8bbc90f994fd7261c1c87946bcea8c2f8612aa33647fc3e7702e4152e1401084bdfdf80b88eb0bbf1028c125f5e191301000007000000020000000af153650226e97b04f2c7df179c5818c4e172c7f3e6424aa86c0b547d2962812430d8fec20204d316e4a2edb85e074a9ba99191c562a9e8bbc90f994fd7261c1c87946bcea8c2f8612aa33647fc3e7702e4152e1401084bdfdf80b88eb0bbf1028c125f5e198db96a1982d2ea4049100176b9cff70bb72ae9c050cb8ff5a3ac43a224a4b6b78351e69a1eb3d3d2a3acf2c22f695f5bdef2028fe1be120e383c6b79bb71ad470000000100fc3033a22726d4e0f213eb9820b998c824274e929d8a015968d294e02c531882828329c9d3a039c265da339988f3372fca2d2741f6054eb1356810ff71e8252fecd98c2c59cec7b70851fd463fcbf8417d57fef447be4d3731574f0f08e0ac070000000000000000";

#[test]
fn the_spec_history_replays_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let store = open_dev(dir.path(), 1500);
    assert!(!store.is_ready());
    assert_eq!(store.submit_block(&unhex(EXAMPLE_B)).err().unwrap().code, "not-ready");

    let first = store.issue_milestone(Some(1_700_000_000)).unwrap();
    assert_eq!(first.index, 1);
    assert_eq!(
        hex(&first.milestone_id),
        "0x26e97b04f2c7df179c5818c4e172c7f3e6424aa86c0b547d2962812430d8fec2"
    );
    assert_eq!(
        hex(&first.block_id),
        "0xc2f8612aa33647fc3e7702e4152e1401084bdfdf80b88eb0bbf1028c125f5e19"
    );
    assert_eq!(store.block(&first.block_id).unwrap().unwrap(), unhex(EXAMPLE_A));
    // Right after milestone 1 the tips are [0x00…00, milestone 1] (ledger.md §5 example).
    assert_eq!(store.select_tips().unwrap(), vec![[0; 32], first.block_id]);

    let b = store.submit_block(&unhex(EXAMPLE_B)).unwrap();
    assert!(b.stored);
    assert_eq!(
        hex(&b.block_id),
        "0x344e245bfbad1dbd8f744e4712619db71154543fb9a35184368c393dbb701c56"
    );
    let c = store.submit_block(&unhex(EXAMPLE_C)).unwrap();
    assert_eq!(
        hex(&c.block_id),
        "0x04d316e4a2edb85e074a9ba99191c562a9e8bbc90f994fd7261c1c87946bcea8"
    );
    // Idempotent: the same bytes again store nothing.
    assert!(!store.submit_block(&unhex(EXAMPLE_C)).unwrap().stored);
    let tx = id32("0x77827a30b374637d6bd16e854ec1fd7a252e514efbc53b971e663d904ad08571");
    assert_eq!(store.included_block_id(&tx).unwrap(), None);
    assert_eq!(store.blocks_with_transaction(&tx).unwrap(), vec![c.block_id]);

    let second = store.issue_milestone(Some(1_700_000_010)).unwrap();
    assert_eq!(second.referenced_blocks, 3);
    assert_eq!(second.included_transactions, 1);
    assert_eq!(
        hex(&second.milestone_id),
        "0x421074774e4b2c2588cbc12f2891d9ac3ffd55d671c9e17b194de9b0c96b8bb0"
    );
    assert_eq!(
        hex(&second.block_id),
        "0x758579c5534385bcd58cb66725028cd6eb6b2af11367830561d03bb47480666e"
    );
    assert_eq!(store.block(&second.block_id).unwrap().unwrap(), unhex(EXAMPLE_D));

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
    assert_eq!(genesis["milestoneTimestampSpent"], 1_700_000_010);
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
        store.issue_milestone(Some(1_700_000_000)).unwrap();
        store.submit_block(&unhex(EXAMPLE_B)).unwrap();
        store.submit_block(&unhex(EXAMPLE_C)).unwrap();
    }
    // Reopened: the pending blocks are back in memory, so milestone 2 is the same.
    let store = open_dev(dir.path(), 1500);
    assert!(store.is_ready());
    assert_eq!(store.status().pending_blocks, 3);
    let second = store.issue_milestone(Some(1_700_000_010)).unwrap();
    assert_eq!(
        hex(&second.block_id),
        "0x758579c5534385bcd58cb66725028cd6eb6b2af11367830561d03bb47480666e"
    );
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
    assert_eq!(err.code, "protocol-mismatch");
    assert!(err.detail.contains("minPowScore"), "{}", err.detail);
}

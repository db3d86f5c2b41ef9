//! ListenToBlocks, ListenToSolidBlocks, ListenToReferencedBlocks, SubmitBlock (tip selection,
//! mining on the pool, refusals), ReadBlock, ReadBlockMetadata.

use crate::common::*;
use ledger_core::codec::{decode_block, encode_block};
use ledger_core::model::{Block, Payload};
use ledger_inx::proto::{block_metadata::LedgerInclusionState, BlockId, NoParams, RawBlock};
use tonic::Code;

#[test]
fn new_solid_and_referenced_blocks_as_they_come() {
    let h = Harness::new();
    let mut client = h.client();
    h.run(async {
        let mut blocks = client.listen_to_blocks(NoParams {}).await.unwrap().into_inner();
        let mut solid = client.listen_to_solid_blocks(NoParams {}).await.unwrap().into_inner();
        let mut referenced =
            client.listen_to_referenced_blocks(NoParams {}).await.unwrap().into_inner();
        let bytes = block_bytes(&h.store, tagged(b"new", vec![1, 2, 3]));
        let id = h.store.submit_block(&bytes).unwrap().block_id;
        let b = next(&mut blocks).await.unwrap().unwrap();
        assert_eq!((b.block_id.unwrap().id, b.block.unwrap().data), (id.to_vec(), bytes.clone()));
        let s = next(&mut solid).await.unwrap().unwrap();
        assert!(s.solid && !s.should_promote && !s.should_reattach);
        assert_eq!(s.block_id.unwrap().id, id.to_vec());
        assert_eq!(s.referenced_by_milestone_index, 0);
        // A block stored again is not new.
        h.store.submit_block(&bytes).unwrap();
        quiet(&mut blocks, 100).await;
        // The milestone: its own block is new and solid; the blocks it references come in
        // white-flag order with their inclusion state.
        let issued = h.store.issue_milestone(None).unwrap();
        assert_eq!(
            next(&mut blocks).await.unwrap().unwrap().block_id.unwrap().id,
            issued.block_id.to_vec()
        );
        assert_eq!(
            next(&mut solid).await.unwrap().unwrap().block_id.unwrap().id,
            issued.block_id.to_vec()
        );
        let mut order = Vec::new();
        for _ in 0..issued.referenced_blocks {
            let r = next(&mut referenced).await.unwrap().unwrap();
            assert_eq!(r.referenced_by_milestone_index, 2);
            assert_eq!(r.white_flag_index as usize, order.len());
            assert_eq!(r.ledger_inclusion_state, LedgerInclusionState::NoTransaction as i32);
            order.push(id32(&r.block_id.unwrap().id));
        }
        assert!(order.contains(&id));
        quiet(&mut referenced, 100).await;
    });
}

#[test]
fn read_block_and_its_metadata() {
    let h = Harness::new();
    let mut client = h.client();
    let bytes = block_bytes(&h.store, tagged(b"read", vec![]));
    let id = h.store.submit_block(&bytes).unwrap().block_id;
    let raw = h.run(client.read_block(BlockId { id: id.to_vec() })).unwrap().into_inner();
    assert_eq!(raw.data, bytes);
    let meta = h.run(client.read_block_metadata(BlockId { id: id.to_vec() })).unwrap().into_inner();
    assert!(meta.solid);
    assert_eq!(meta.parents.len(), decode_block(&bytes).unwrap().parents.len());
    h.store.issue_milestone(None).unwrap();
    let meta = h.run(client.read_block_metadata(BlockId { id: id.to_vec() })).unwrap().into_inner();
    assert_eq!(meta.referenced_by_milestone_index, 2);
    // Unknown ids: NotFound.
    let unknown = vec![0x42; 32];
    assert_eq!(
        h.run(client.read_block(BlockId { id: unknown.clone() })).unwrap_err().code(),
        Code::NotFound
    );
    assert_eq!(
        h.run(client.read_block_metadata(BlockId { id: unknown })).unwrap_err().code(),
        Code::NotFound
    );
    // A malformed id is the zero id, as Hornet's Unwrap reads it: no such block, and the
    // metadata of the genesis entry point (solid, no parents), as for the zero id itself.
    let malformed = vec![1, 2, 3];
    assert_eq!(
        h.run(client.read_block(BlockId { id: malformed.clone() })).unwrap_err().code(),
        Code::NotFound
    );
    let zero = h.run(client.read_block_metadata(BlockId { id: vec![0; 32] }));
    let read = h.run(client.read_block_metadata(BlockId { id: malformed }));
    assert_eq!(
        read.map(|r| r.into_inner()).map_err(|e| e.code()),
        zero.map(|r| r.into_inner()).map_err(|e| e.code())
    );
    // A solid entry point: solid, no parents.
    let entry_point = h.store.milestone_by_index(1).unwrap().unwrap();
    let parents =
        ledger_core::codec::decode_milestone_payload(&entry_point.payload).unwrap().parents;
    let meta = h
        .run(client.read_block_metadata(BlockId { id: parents[0].to_vec() }))
        .unwrap()
        .into_inner();
    assert!(meta.solid && meta.parents.is_empty());
}

#[test]
fn submit_selects_tips_and_mines_on_the_pool() {
    let h = Harness::with(Options { min_pow_score: 200, ..Options::default() });
    let mut client = h.client();
    // No parents, nonce 0: the node selects tips and mines.
    let block = Block {
        protocol_version: 2,
        parents: vec![],
        payload: tagged(b"inx", vec![7; 40]),
        nonce: 0,
    };
    let id =
        h.run(client.submit_block(RawBlock { data: encode_block(&block) })).unwrap().into_inner();
    let id = id32(&id.id);
    let stored = h.store.block(&id).unwrap().expect("stored");
    assert!(ledger_core::pow::meets_min_score(&stored, 200));
    let stored = decode_block(&stored).unwrap();
    assert!(stored.parents.len() >= 2 && stored.nonce != 0);
    assert_eq!(stored.payload, block.payload);
    // Handed to gossip for broadcast.
    assert_eq!(*h.node.submitted.lock().unwrap(), vec![id]);
    // Parents given, nonce 0: mined with these parents.
    let parents = h.store.select_tips().unwrap();
    let with_parents = Block { parents: parents.clone(), ..block.clone() };
    let id = h
        .run(client.submit_block(RawBlock { data: encode_block(&with_parents) }))
        .unwrap()
        .into_inner();
    assert_eq!(
        decode_block(&h.store.block(&id32(&id.id)).unwrap().unwrap()).unwrap().parents,
        parents
    );
}

#[test]
fn submit_takes_a_single_parent_as_hornets_attacher_does() {
    // inx-faucet chains a payout on its previous block, its only parent (D40: the
    // protocol's 1..8 for extensions' blocks; the REST API keeps 2..8).
    let h = Harness::with(Options { min_pow_score: 200, ..Options::default() });
    let mut client = h.client();
    let parent = h.store.select_tips().unwrap()[0];
    let block = Block {
        protocol_version: 2,
        parents: vec![parent],
        payload: tagged(b"chained", vec![1; 8]),
        nonce: 0,
    };
    let id =
        h.run(client.submit_block(RawBlock { data: encode_block(&block) })).unwrap().into_inner();
    let stored = h.store.block(&id32(&id.id)).unwrap().expect("stored");
    assert!(ledger_core::pow::meets_min_score(&stored, 200));
    assert_eq!(decode_block(&stored).unwrap().parents, vec![parent]);
    // The same block is still refused on the REST API's intake.
    match h.store.submit_block(&encode_block(&Block { nonce: 9, ..block })) {
        Err(e) => assert_eq!(e.code, ledger_core::Code::ParentsTooFew),
        Ok(_) => panic!("a single parent was taken on the REST API's intake"),
    }
}

#[test]
fn submit_refusals_have_hornets_codes() {
    let h = Harness::with(Options { min_pow_score: 200, ..Options::default() });
    let client = h.client();
    let base = Block {
        protocol_version: 2,
        parents: h.store.select_tips().unwrap(),
        payload: tagged(b"x", vec![]),
        nonce: 0,
    };
    let code =
        |data: Vec<u8>| h.run(client.clone().submit_block(RawBlock { data })).unwrap_err().code();
    // Bytes that are no block: Hornet's parse error is a plain error.
    assert_eq!(code(vec![2, 1, 0]), Code::Unknown);
    assert_eq!(
        code(encode_block(&Block { protocol_version: 1, ..base.clone() })),
        Code::InvalidArgument
    );
    assert_eq!(
        code(encode_block(&Block { parents: vec![], nonce: 5, ..base.clone() })),
        Code::InvalidArgument
    );
    // A parent the node does not know: refused before any mining.
    assert_eq!(
        code(encode_block(&Block { parents: vec![[3; 32], [4; 32]], ..base.clone() })),
        Code::InvalidArgument
    );
    // A nonce that misses the score is not mined again: the store refuses it.
    assert_eq!(code(encode_block(&Block { nonce: 1, ..base.clone() })), Code::InvalidArgument);
    // A milestone while this node's coordinator runs (D16).
    let ms =
        h.store.block(&h.store.milestone_by_index(1).unwrap().unwrap().block_id).unwrap().unwrap();
    let mut milestone = decode_block(&ms).unwrap();
    if let Some(Payload::Milestone(m)) = milestone.payload.as_mut() {
        m.index = 2;
    }
    assert_eq!(code(encode_block(&milestone)), Code::InvalidArgument);
    assert!(h.node.submitted.lock().unwrap().is_empty());
}

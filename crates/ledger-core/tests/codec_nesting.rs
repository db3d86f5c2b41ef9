//! Payloads nest (an essence has a payload slot that the decoder reads whatever its type):
//! a 32 KiB block could nest ~600 transactions and exhaust the stack of a recursive
//! decoder. Nesting is bounded (8 levels, far beyond the 2 a valid block uses), in bytes
//! and in JSON alike, and decoding stays within a small stack.

use ledger_core::Code;
use ledger_core::{codec, json, model::MAX_BLOCK_LENGTH};

/// A transaction payload whose essence payload is the next transaction, `depth` deep.
fn nested_transactions(depth: usize) -> Vec<u8> {
    let mut inner: Vec<u8> = Vec::new();
    for _ in 0..depth {
        let mut p = 6u32.to_le_bytes().to_vec();
        p.push(1); // essence type
        p.extend([0u8; 8]); // network id
        p.extend([0u8; 2]); // no inputs
        p.extend([0u8; 32]); // inputs commitment
        p.extend([0u8; 2]); // no outputs
        p.extend((inner.len() as u32).to_le_bytes());
        p.extend(&inner);
        p.extend([0u8; 2]); // no unlocks
        inner = p;
    }
    inner
}

fn block_around(payload: &[u8]) -> Vec<u8> {
    let mut b = vec![2, 2];
    b.extend([0u8; 64]);
    b.extend((payload.len() as u32).to_le_bytes());
    b.extend(payload);
    b.extend([0u8; 8]);
    b
}

/// Run on a 256 KiB stack: far less than any thread a caller runs us on.
fn on_small_stack<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(work)
        .unwrap()
        .join()
        .expect("overflowed a 256 KiB stack")
}

#[test]
fn eight_levels_decode_nine_are_rejected() {
    let ok = block_around(&nested_transactions(8));
    let block = codec::decode_block(&ok).unwrap();
    assert_eq!(codec::encode_block(&block), ok);
    // The same through JSON, both ways.
    let value = json::block_to_json(&block);
    assert_eq!(json::block_from_json(&value).unwrap(), block);

    let e = codec::decode_block(&block_around(&nested_transactions(9))).unwrap_err();
    assert_eq!(e.code, Code::PayloadNestingTooDeep);
    assert_eq!(e.path, format!("payload{}", ".essence.payload".repeat(8)));
    // A bare payload counts as the block's payload would.
    assert!(codec::decode_payload(&nested_transactions(8)).is_ok());
    assert_eq!(
        codec::decode_payload(&nested_transactions(9)).unwrap_err().code,
        Code::PayloadNestingTooDeep
    );

    let mut deeper = value.clone();
    let mut slot = &mut deeper["payload"];
    for _ in 0..8 {
        slot = &mut slot["essence"]["payload"];
    }
    // The innermost transaction gets one more transaction in its essence: nine levels.
    *slot = value["payload"].clone();
    let e = json::block_from_json(&deeper).unwrap_err();
    assert_eq!(e.code, Code::PayloadNestingTooDeep);
}

#[test]
fn deepest_nesting_that_fits_a_block_is_rejected_on_a_small_stack() {
    let depth = (MAX_BLOCK_LENGTH - 2 - 64 - 4 - 8) / 55;
    let bytes = block_around(&nested_transactions(depth));
    assert!(bytes.len() <= MAX_BLOCK_LENGTH);
    let code = on_small_stack(move || codec::decode_block(&bytes).unwrap_err().code);
    assert_eq!(code, Code::PayloadNestingTooDeep);
}

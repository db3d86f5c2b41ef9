//! Curl-P-81 over many inputs at once, one input per bit position of a register ("lane"):
//! a trit of the state is two registers (`encoding.rs`), and one pass hashes 128, 256 or
//! 512 nonces. The state is walked in place in the layouts of `layout.rs`, two rounds per
//! walk (`transform.rs`); `search.rs` is the nonce search around it and `batch.rs` hashes
//! many blocks' inputs at once. The generic code is `inline(always)` and compiled once per
//! instruction set inside the `target_feature` functions of `engines.rs`; `avx2.rs`,
//! `avx512.rs` and `portable.rs` only say what a register is.

pub mod avx2;
pub mod avx512;
pub mod batch;
pub mod portable;
pub mod search;
mod transform;

use super::encoding::Bits;

/// A register of lanes: `Bits` plus moving it from and to memory.
pub trait Lanes: Bits {
    /// u64 words in one register (lanes / 64).
    const WORDS: usize;
    /// # Safety
    /// `words` must point at `WORDS` readable u64.
    unsafe fn load(words: *const u64) -> Self;
    /// # Safety
    /// `words` must point at `WORDS` writable u64.
    unsafe fn store(self, words: *mut u64);
}

/// One trit of the state in every lane: its two planes.
pub type Trit<R> = [R; 2];

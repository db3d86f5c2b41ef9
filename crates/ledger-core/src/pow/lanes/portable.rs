//! Portable lanes: two u64 words a register (128 lanes), for every target; compilers turn
//! the word pairs into SSE2 or NEON operations.

use super::Lanes;

/// The portable register.
pub type Words = [u64; 2];

impl<const N: usize> Lanes for [u64; N] {
    const WORDS: usize = N;
    #[inline(always)]
    unsafe fn load(words: *const u64) -> Self {
        std::ptr::read_unaligned(words.cast())
    }
    #[inline(always)]
    unsafe fn store(self, words: *mut u64) {
        std::ptr::write_unaligned(words.cast(), self)
    }
}

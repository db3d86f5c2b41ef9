//! Which lane width the miner runs.
//!
//! Measured on this project's machines (AMD EPYC with AVX2 and AVX-512): the bit-sliced
//! search is bound by memory traffic (two 729-trit states are read and written every round),
//! and two u64 words per trit — 128 nonces a pass, compiled to 128-bit SSE2/NEON
//! instructions that every x86-64 and aarch64 CPU has — ran fastest (≈1.9 MH/s per thread)
//! because both states stay near L1. The same generic code compiled with
//! `target_feature(avx2)` / `avx512f` at 256 and 512 lanes ran slower (0.5–1.4 MH/s per
//! thread), so no run-time dispatch to them is made; `Engine` keeps the choice in one place
//! for when a wider layout wins.

use super::search::{search, SearchJob};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// 128 lanes: two u64 words per trit.
    Lanes128,
}

impl Engine {
    pub fn name(self) -> &'static str {
        match self {
            Engine::Lanes128 => "bitsliced-128",
        }
    }

    pub fn lanes(self) -> u64 {
        match self {
            Engine::Lanes128 => 128,
        }
    }

    pub fn detect() -> Engine {
        Engine::Lanes128
    }

    pub fn available() -> Vec<Engine> {
        vec![Engine::Lanes128]
    }

    pub fn search(self, job: &SearchJob) -> Option<u64> {
        match self {
            Engine::Lanes128 => search::<2>(job),
        }
    }
}

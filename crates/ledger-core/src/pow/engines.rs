//! Which instruction set the miner runs, chosen at run time: AVX-512 (512 nonces a pass,
//! `vpternlogq`), AVX2 (256), or the portable 128-lane code (two u64 words per trit; SSE2 or
//! NEON after auto-vectorisation) that every target compiles. Measured on this project's
//! AMD EPYC: 2.67, 2.6 and 1.8 M hashes/s per thread. The transform is bound by memory
//! traffic (two 729-trit states are read and written every round), which is why AVX-512
//! gains little over AVX2. `LEDGER_NODE_POW_ENGINE=avx2-256` (or another name) forces a
//! narrower engine, for benchmarks and tests of the fallbacks.

use super::search::{search, SearchJob};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// 512 lanes with AVX-512 intrinsics (vpternlogq).
    Avx512,
    /// 256 lanes with AVX2 intrinsics.
    Avx2,
    /// 128 lanes: two u64 words per trit.
    Lanes128,
}

impl Engine {
    pub fn name(self) -> &'static str {
        match self {
            Engine::Avx512 => "avx512-512",
            Engine::Avx2 => "avx2-256",
            Engine::Lanes128 => "bitsliced-128",
        }
    }

    pub fn lanes(self) -> u64 {
        match self {
            Engine::Avx512 => 512,
            Engine::Avx2 => 256,
            Engine::Lanes128 => 128,
        }
    }

    pub fn detect() -> Engine {
        let available = Self::available();
        let forced = std::env::var("LEDGER_NODE_POW_ENGINE").ok();
        forced
            .and_then(|name| available.iter().copied().find(|e| e.name() == name))
            .unwrap_or(available[0])
    }

    /// Supported engines, fastest first.
    pub fn available() -> Vec<Engine> {
        let mut engines = Vec::new();
        #[cfg(target_arch = "x86_64")]
        {
            if is_x86_feature_detected!("avx512f") {
                engines.push(Engine::Avx512);
            }
            if is_x86_feature_detected!("avx2") {
                engines.push(Engine::Avx2);
            }
        }
        engines.push(Engine::Lanes128);
        engines
    }

    pub fn search(self, job: &SearchJob) -> Option<u64> {
        match self {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: only listed by `available` when the CPU reports AVX2.
            Engine::Avx2 => unsafe { super::avx2::search(job) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: only listed by `available` when the CPU reports AVX-512F.
            Engine::Avx512 => unsafe { super::avx512::search(job) },
            _ => search::<2>(job),
        }
    }
}

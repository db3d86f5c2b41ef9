//! Which instruction set the miner and the batch scorer run, chosen at run time: AVX-512
//! (512 nonces a pass), AVX2 (256), or the portable 128-lane code (two u64 words a register;
//! SSE2 or NEON after auto-vectorisation) that every target compiles. The code is the same
//! generic `lanes/` code compiled once per instruction set. `LEDGER_NODE_POW_ENGINE` set to
//! an engine's name forces that engine (when the CPU has it), for benchmarks and tests of
//! the fallbacks.

use super::lanes::search::SearchJob;
use super::lanes::{batch, portable, search};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// 512 lanes with AVX-512F.
    Avx512,
    /// 256 lanes with AVX2.
    Avx2,
    /// 128 lanes in portable code.
    Portable,
}

impl Engine {
    pub fn name(self) -> &'static str {
        match self {
            Engine::Avx512 => "avx512-512",
            Engine::Avx2 => "avx2-256",
            Engine::Portable => "portable-128",
        }
    }

    pub fn lanes(self) -> u64 {
        match self {
            Engine::Avx512 => 512,
            Engine::Avx2 => 256,
            Engine::Portable => 128,
        }
    }

    /// The fastest engine, or the one `LEDGER_NODE_POW_ENGINE` names.
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
        engines.push(Engine::Portable);
        engines
    }

    /// Search nonces until one reaches the job's target (None when stopped).
    pub fn search(self, job: &SearchJob) -> Option<u64> {
        match self {
            // SAFETY: only listed by `available` when the CPU reports AVX-512F.
            #[cfg(target_arch = "x86_64")]
            Engine::Avx512 => unsafe { avx512::search(job) },
            // SAFETY: only listed by `available` when the CPU reports AVX2.
            #[cfg(target_arch = "x86_64")]
            Engine::Avx2 => unsafe { avx2::search(job) },
            // SAFETY: plain Rust, valid on every target.
            _ => unsafe { search::search::<[u64; 2]>(job) },
        }
    }

    /// Trailing zero trits of the Curl hash of each 40-byte input (digest and nonce).
    pub fn trailing_zeros_many(self, inputs: &[[u8; 40]]) -> Vec<u32> {
        match self {
            #[cfg(target_arch = "x86_64")]
            Engine::Avx512 => unsafe { avx512::trailing_zeros_many(inputs) },
            #[cfg(target_arch = "x86_64")]
            Engine::Avx2 => unsafe { avx2::trailing_zeros_many(inputs) },
            _ => unsafe { batch::trailing_zeros_many::<portable::Words>(inputs) },
        }
    }
}

/// The generic lanes code compiled with AVX2 enabled.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::super::lanes::avx2::Ymm;
    use super::super::lanes::{batch, search};
    use super::SearchJob;

    #[target_feature(enable = "avx2")]
    pub unsafe fn search(job: &SearchJob) -> Option<u64> {
        search::search::<Ymm>(job)
    }

    #[target_feature(enable = "avx2")]
    pub unsafe fn trailing_zeros_many(inputs: &[[u8; 40]]) -> Vec<u32> {
        batch::trailing_zeros_many::<Ymm>(inputs)
    }
}

/// The generic lanes code compiled with AVX-512F enabled.
#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::super::lanes::avx512::Zmm;
    use super::super::lanes::{batch, search};
    use super::SearchJob;

    #[target_feature(enable = "avx512f")]
    pub unsafe fn search(job: &SearchJob) -> Option<u64> {
        search::search::<Zmm>(job)
    }

    #[target_feature(enable = "avx512f")]
    pub unsafe fn trailing_zeros_many(inputs: &[[u8; 40]]) -> Vec<u32> {
        batch::trailing_zeros_many::<Zmm>(inputs)
    }
}

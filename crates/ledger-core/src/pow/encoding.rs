//! Trits as two bits and the Curl truth table (pow.md §3) as bitwise operations, on any
//! group of bits (`Bits`: one machine word, a SIMD register, …), so that every bit position
//! is an independent trit.
//!
//! A trit is the pair (lo, hi): −1 = (1, 0), 0 = (1, 1), +1 = (0, 1); (0, 0) never occurs.
//! With a the first input and b the second, F is four operations:
//!
//! ```text
//! lo' = (a.lo & !b.lo) ^ a.hi
//! hi' = (lo' & b.hi) ^ a.lo
//! ```
//!
//! found by an exhaustive search over every encoding of the three trits in two bits and
//! every program of up to four `and`/`or`/`xor`/`andnot` operations (no program of three
//! exists for any encoding); it holds on the nine input pairs (checked in the tests below),
//! and its outputs are again valid codes, so rounds chain without conversion. The earlier
//! form, `d = (a.lo | !b.hi) & (b.lo ^ a.hi); lo' = !d; hi' = (a.lo ^ b.hi) | d`, took
//! seven.

/// Bitwise operations over a group of lanes.
pub trait Bits: Copy {
    fn and(self, other: Self) -> Self;
    fn xor(self, other: Self) -> Self;
    /// `!self & other`.
    fn andnot(self, other: Self) -> Self;
    fn ones() -> Self;
    fn zeros() -> Self;

    /// F(a, b) for every lane, in the four operations above; a register type with
    /// three-input logic (AVX-512's `vpternlogq`) does it in two.
    #[inline(always)]
    fn f(a_lo: Self, a_hi: Self, b_lo: Self, b_hi: Self) -> (Self, Self) {
        let lo = b_lo.andnot(a_lo).xor(a_hi);
        (lo, lo.and(b_hi).xor(a_lo))
    }
}

/// F(a, b) for every lane.
#[inline(always)]
pub fn f<B: Bits>(a_lo: B, a_hi: B, b_lo: B, b_hi: B) -> (B, B) {
    B::f(a_lo, a_hi, b_lo, b_hi)
}

/// The `vpternlogq` immediates of the two halves of F, over inputs (x, y, z) whose truth
/// tables are x = 0xF0, y = 0xCC, z = 0xAA: lo' = (a.lo & !b.lo) ^ a.hi with
/// (x, y, z) = (a.lo, b.lo, a.hi); hi' = (lo' & b.hi) ^ a.lo with (lo', b.hi, a.lo).
pub const TERNLOG_LO: i32 = (0xF0 & !0xCC) ^ 0xAA;
pub const TERNLOG_HI: i32 = (0xF0 & 0xCC) ^ 0xAA;

/// (lo, hi) of a trit.
pub const fn trit_bits(t: i8) -> (bool, bool) {
    match t {
        -1 => (true, false),
        1 => (false, true),
        _ => (true, true),
    }
}

/// The trit of a (lo, hi) pair (for tests against the reference).
#[cfg(test)]
pub fn decode(lo: bool, hi: bool) -> i8 {
    match (lo, hi) {
        (true, false) => -1,
        (false, true) => 1,
        _ => 0,
    }
}

/// Trit `t` in every lane.
pub fn broadcast<B: Bits>(t: i8) -> (B, B) {
    let (lo, hi) = trit_bits(t);
    (if lo { B::ones() } else { B::zeros() }, if hi { B::ones() } else { B::zeros() })
}

/// Lanes holding the zero trit (lo = hi = 1) as set bits.
#[inline(always)]
pub fn zero_lanes<B: Bits>(lo: B, hi: B) -> B {
    lo.and(hi)
}

impl Bits for u64 {
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        self & o
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        self ^ o
    }
    #[inline(always)]
    fn andnot(self, o: Self) -> Self {
        !self & o
    }
    #[inline(always)]
    fn ones() -> Self {
        !0
    }
    #[inline(always)]
    fn zeros() -> Self {
        0
    }
}

/// N machine words side by side (the portable lanes; compilers turn them into SSE2 or NEON).
impl<const N: usize> Bits for [u64; N] {
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        std::array::from_fn(|i| self[i] & o[i])
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        std::array::from_fn(|i| self[i] ^ o[i])
    }
    #[inline(always)]
    fn andnot(self, o: Self) -> Self {
        std::array::from_fn(|i| !self[i] & o[i])
    }
    #[inline(always)]
    fn ones() -> Self {
        [!0; N]
    }
    #[inline(always)]
    fn zeros() -> Self {
        [0; N]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn computes_the_truth_table_of_pow_md() {
        const TABLE: [[i8; 3]; 3] = [[1, 1, -1], [0, -1, 1], [-1, 0, 0]];
        for a in -1i8..=1 {
            for b in -1i8..=1 {
                let (a_lo, a_hi) = broadcast::<u64>(a);
                let (b_lo, b_hi) = broadcast::<u64>(b);
                let (lo, hi) = f(a_lo, a_hi, b_lo, b_hi);
                let expected = TABLE[(a + 1) as usize][(b + 1) as usize];
                assert_eq!(decode(lo & 1 == 1, hi & 1 == 1), expected, "F({a}, {b})");
                assert!(lo & 1 == 1 || hi & 1 == 1, "F({a}, {b}) is a valid code");
                assert_eq!(zero_lanes(lo, hi) & 1 == 1, expected == 0);
            }
        }
    }

    /// `vpternlogq` picks bit (x << 2 | y << 1 | z) of its immediate for each bit position;
    /// done in software here, the immediates compute the same F on all nine pairs (the
    /// AVX-512 engine itself runs only where the CPU has it).
    #[test]
    fn ternlog_immediates_compute_f() {
        let ternlog = |imm: i32, x: u64, y: u64, z: u64| -> u64 {
            (0..64)
                .map(|i| {
                    ((imm as u64) >> ((x >> i & 1) << 2 | (y >> i & 1) << 1 | (z >> i & 1)) & 1)
                        << i
                })
                .sum()
        };
        for a in -1i8..=1 {
            for b in -1i8..=1 {
                let (a_lo, a_hi) = broadcast::<u64>(a);
                let (b_lo, b_hi) = broadcast::<u64>(b);
                let lo = ternlog(TERNLOG_LO, a_lo, b_lo, a_hi);
                let hi = ternlog(TERNLOG_HI, lo, b_hi, a_lo);
                assert_eq!((lo, hi), f(a_lo, a_hi, b_lo, b_hi), "F({a}, {b})");
            }
        }
    }
}

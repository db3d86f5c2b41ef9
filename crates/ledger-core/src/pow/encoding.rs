//! Trits as two bits and the Curl truth table (pow.md §3) as bitwise operations, on any
//! group of bits (`Bits`: one machine word, a SIMD register, …), so that every bit position
//! is an independent trit.
//!
//! A trit is the pair (lo, hi): −1 = (1, 0), 0 = (1, 1), +1 = (0, 1). With x = a.lo,
//! y = b.hi, z = b.lo ^ a.hi (a the first input, b the second):
//! `d = (x | !y) & z; lo' = !d; hi' = (x ^ y) | d` — seven operations, two of them NOTs.
//! Storing some planes complemented removes the NOTs: each round below reads one encoding and
//! writes the next in five operations (`and`, `or`, `xor`, `andnot`), and the encodings go
//! round in a cycle, so a transform needs no conversion between rounds.
//!
//! | round | reads | writes |
//! |---|---|---|
//! | `Plain` (the first round) | lo, hi | !lo, hi |
//! | `FromNotLo` | !lo, hi | lo, !hi |
//! | `FromNotHi` | lo, !hi | !lo, !hi |
//! | `FromNotBoth` | !lo, !hi | !lo, hi |

/// Bitwise operations over a group of lanes.
pub trait Bits: Copy {
    fn and(self, other: Self) -> Self;
    fn or(self, other: Self) -> Self;
    fn xor(self, other: Self) -> Self;
    /// `!self & other`.
    fn andnot(self, other: Self) -> Self;
    fn ones() -> Self;
    fn zeros() -> Self;
}

/// A trit plane pair in one of the four encodings (which planes are complemented).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Plain,
    NotLo,
    NotHi,
    NotBoth,
}

impl Encoding {
    /// The encoding of the input of round `r` (0-based) of a transform that starts plain.
    pub const fn before_round(r: usize) -> Encoding {
        if r == 0 {
            return Encoding::Plain;
        }
        match (r - 1) % 3 {
            0 => Encoding::NotLo,
            1 => Encoding::NotHi,
            _ => Encoding::NotBoth,
        }
    }

    /// The encoding a round writes when it reads `self`.
    pub const fn next(self) -> Encoding {
        match self {
            Encoding::Plain => Encoding::NotLo,
            Encoding::NotLo => Encoding::NotHi,
            Encoding::NotHi => Encoding::NotBoth,
            Encoding::NotBoth => Encoding::NotLo,
        }
    }

    /// The stored (lo, hi) planes of trit `t` for every lane.
    pub fn broadcast<B: Bits>(self, t: i8) -> (B, B) {
        let (lo, hi) = plain_bits(t);
        let (lo, hi) = match self {
            Encoding::Plain => (lo, hi),
            Encoding::NotLo => (!lo, hi),
            Encoding::NotHi => (lo, !hi),
            Encoding::NotBoth => (!lo, !hi),
        };
        (if lo { B::ones() } else { B::zeros() }, if hi { B::ones() } else { B::zeros() })
    }

    /// Lanes holding the zero trit (lo = hi = 1) as set bits.
    #[inline(always)]
    pub fn zero_lanes<B: Bits>(self, lo: B, hi: B) -> B {
        match self {
            Encoding::Plain => lo.and(hi),
            Encoding::NotLo => lo.andnot(hi),
            Encoding::NotHi => hi.andnot(lo),
            Encoding::NotBoth => lo.or(hi).xor(B::ones()),
        }
    }

    /// The trit of one bit position, from its stored (lo, hi) bits.
    pub fn decode(self, lo: bool, hi: bool) -> i8 {
        let (lo, hi) = match self {
            Encoding::Plain => (lo, hi),
            Encoding::NotLo => (!lo, hi),
            Encoding::NotHi => (lo, !hi),
            Encoding::NotBoth => (!lo, !hi),
        };
        match (lo, hi) {
            (true, false) => -1,
            (false, true) => 1,
            _ => 0,
        }
    }
}

/// (lo, hi) of a trit in the plain encoding.
pub const fn plain_bits(t: i8) -> (bool, bool) {
    match t {
        -1 => (true, false),
        1 => (false, true),
        _ => (true, true),
    }
}

/// F(a, b) for every lane, reading encoding `from` and writing `from.next()`.
#[inline(always)]
pub fn f<B: Bits>(from: Encoding, a_lo: B, a_hi: B, b_lo: B, b_hi: B) -> (B, B) {
    match from {
        Encoding::Plain => {
            // t = !x & y, so x | !y = !t; d = !t & z; stored: !lo' = d, hi' = (x ^ y) | d.
            let d = a_lo.andnot(b_hi).andnot(b_lo.xor(a_hi));
            (d, a_lo.xor(b_hi).or(d))
        }
        Encoding::NotLo => {
            // x = !a.lo*, z = !(b.lo* ^ a.hi): !d = (a.lo* & y) | (b.lo* ^ a.hi) = lo';
            // !hi' = (a.lo* ^ y) & !d.
            let not_d = a_lo.and(b_hi).or(b_lo.xor(a_hi));
            (not_d, a_lo.xor(b_hi).and(not_d))
        }
        Encoding::NotHi => {
            // y = !b.hi*, z = !(b.lo ^ a.hi*): d = (x | b.hi*) & !(b.lo ^ a.hi*) = !lo';
            // !hi' = (x ^ b.hi*) & !d.
            let d = b_lo.xor(a_hi).andnot(a_lo.or(b_hi));
            (d, d.andnot(a_lo.xor(b_hi)))
        }
        Encoding::NotBoth => {
            // x = !a.lo*, y = !b.hi*, z = b.lo* ^ a.hi*: x | !y = !(a.lo* & !b.hi*);
            // d = !lo'; hi' = (a.lo* ^ b.hi*) | d.
            let d = b_hi.andnot(a_lo).andnot(b_lo.xor(a_hi));
            (d, a_lo.xor(b_hi).or(d))
        }
    }
}

impl Bits for u64 {
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        self & o
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        self | o
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
    fn or(self, o: Self) -> Self {
        std::array::from_fn(|i| self[i] | o[i])
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

    /// Every round kind, on all nine input pairs, against the table of pow.md §3.
    #[test]
    fn every_encoding_computes_the_truth_table() {
        const TABLE: [[i8; 3]; 3] = [[1, 1, -1], [0, -1, 1], [-1, 0, 0]];
        for from in [Encoding::Plain, Encoding::NotLo, Encoding::NotHi, Encoding::NotBoth] {
            for a in -1i8..=1 {
                for b in -1i8..=1 {
                    let (a_lo, a_hi) = from.broadcast::<u64>(a);
                    let (b_lo, b_hi) = from.broadcast::<u64>(b);
                    let (lo, hi) = f(from, a_lo, a_hi, b_lo, b_hi);
                    let to = from.next();
                    let expected = TABLE[(a + 1) as usize][(b + 1) as usize];
                    assert_eq!(to.decode(lo & 1 == 1, hi & 1 == 1), expected, "{from:?}: F({a}, {b})");
                    assert_eq!(to.zero_lanes(lo, hi) & 1 == 1, expected == 0, "{from:?} zero test");
                }
            }
        }
    }

    #[test]
    fn encodings_cycle_through_the_rounds() {
        for r in 0..81 {
            assert_eq!(Encoding::before_round(r).next(), Encoding::before_round(r + 1));
        }
    }
}

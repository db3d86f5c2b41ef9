//! The simple token scheme of a foundry across one transaction (validation.md §8.5).
//!
//! `d` = (sum of the foundry's token on the output side) − (sum on the input side):
//! d > 0 mints exactly d (Minted grows by d, Melted unchanged); d < 0 melts at most |d|,
//! the rest being burned (Melted grows by at most |d|, and Minted stays); d = 0 changes
//! neither counter. Maximum Supply never changes.

use crate::model::*;
use crate::validate::u256;
use std::cmp::Ordering;

const ZERO: U256 = [0; 32];

fn parts(scheme: &TokenScheme) -> (&U256, &U256, &U256) {
    let TokenScheme::Simple { minted_tokens, melted_tokens, maximum_supply } = scheme;
    (minted_tokens, melted_tokens, maximum_supply)
}

/// `current` → `next` while the token's sum goes from `in_sum` to `out_sum`.
pub(super) fn transition_valid(
    current: &TokenScheme,
    next: &TokenScheme,
    in_sum: &U256,
    out_sum: &U256,
) -> bool {
    let (minted, melted, maximum) = parts(current);
    counters_valid(minted, melted, maximum, next, in_sum, out_sum)
}

/// A new foundry starts from Minted = Melted = 0 with its own Maximum Supply.
pub(super) fn creation_valid(next: &TokenScheme, in_sum: &U256, out_sum: &U256) -> bool {
    counters_valid(&ZERO, &ZERO, parts(next).2, next, in_sum, out_sum)
}

/// A foundry may go only with every circulating token: Minted + d = Melted, i.e. the
/// tokens removed (in − out) are exactly Minted − Melted.
pub(super) fn destruction_valid(current: &TokenScheme, in_sum: &U256, out_sum: &U256) -> bool {
    let (minted, melted, _) = parts(current);
    match (u256::sub(in_sum, out_sum), u256::sub(minted, melted)) {
        (Some(removed), Some(circulating)) => removed == circulating,
        _ => false,
    }
}

fn counters_valid(
    minted: &U256,
    melted: &U256,
    maximum: &U256,
    next: &TokenScheme,
    in_sum: &U256,
    out_sum: &U256,
) -> bool {
    let (next_minted, next_melted, next_maximum) = parts(next);
    if next_maximum != maximum {
        return false;
    }
    let within_supply = match u256::sub(next_minted, next_melted) {
        Some(circulating) => u256::cmp(&circulating, next_maximum).is_le(),
        None => false,
    };
    if !within_supply {
        return false;
    }
    match u256::cmp(out_sum, in_sum) {
        Ordering::Greater => {
            let d = u256::sub(out_sum, in_sum).expect("out > in");
            next_melted == melted && u256::add(minted, &d).as_ref() == Some(next_minted)
        }
        Ordering::Equal => next_minted == minted && next_melted == melted,
        Ordering::Less => {
            let burned = u256::sub(in_sum, out_sum).expect("in > out");
            next_minted == minted
                && match u256::sub(next_melted, melted) {
                    Some(newly_melted) => u256::cmp(&newly_melted, &burned).is_le(),
                    None => false,
                }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(x: u64) -> U256 {
        let mut out = [0u8; 32];
        out[..8].copy_from_slice(&x.to_le_bytes());
        out
    }

    fn scheme(minted: u64, melted: u64, maximum: u64) -> TokenScheme {
        TokenScheme::Simple {
            minted_tokens: n(minted),
            melted_tokens: n(melted),
            maximum_supply: n(maximum),
        }
    }

    #[test]
    fn minting_melting_burning() {
        let cur = scheme(100, 10, 1000);
        // mint 50
        assert!(transition_valid(&cur, &scheme(150, 10, 1000), &n(90), &n(140)));
        assert!(!transition_valid(&cur, &scheme(149, 10, 1000), &n(90), &n(140)));
        assert!(!transition_valid(&cur, &scheme(150, 11, 1000), &n(90), &n(140)));
        // 30 leave circulation: melt 20, burn 10
        assert!(transition_valid(&cur, &scheme(100, 30, 1000), &n(90), &n(60)));
        assert!(!transition_valid(&cur, &scheme(100, 41, 1000), &n(90), &n(60)));
        assert!(!transition_valid(&cur, &scheme(101, 30, 1000), &n(90), &n(60)));
        // nothing moves
        assert!(transition_valid(&cur, &scheme(100, 10, 1000), &n(90), &n(90)));
        assert!(!transition_valid(&cur, &scheme(100, 10, 999), &n(90), &n(90)));
        // beyond the maximum supply
        assert!(!transition_valid(&cur, &scheme(1100, 10, 1000), &n(90), &n(1090)));
    }

    #[test]
    fn creation_and_destruction() {
        assert!(creation_valid(&scheme(100, 0, 1000), &n(0), &n(100)));
        assert!(!creation_valid(&scheme(100, 0, 1000), &n(0), &n(99)));
        assert!(creation_valid(&scheme(0, 0, 1000), &n(0), &n(0)));
        assert!(destruction_valid(&scheme(100, 40, 1000), &n(60), &n(0)));
        assert!(!destruction_valid(&scheme(100, 40, 1000), &n(60), &n(1)));
        assert!(!destruction_valid(&scheme(100, 40, 1000), &n(50), &n(0)));
    }
}

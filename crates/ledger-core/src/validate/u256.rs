//! Minimal unsigned 256-bit arithmetic on the wire's little-endian byte form.

use std::cmp::Ordering;

pub type U256 = [u8; 32];

pub fn is_zero(v: &U256) -> bool {
    v.iter().all(|&b| b == 0)
}

pub fn cmp(a: &U256, b: &U256) -> Ordering {
    a.iter().rev().cmp(b.iter().rev())
}

/// a + b, or None on overflow.
pub fn add(a: &U256, b: &U256) -> Option<U256> {
    let mut out = [0u8; 32];
    let mut carry = 0u16;
    for i in 0..32 {
        let s = a[i] as u16 + b[i] as u16 + carry;
        out[i] = s as u8;
        carry = s >> 8;
    }
    (carry == 0).then_some(out)
}

/// a − b, or None when b > a.
pub fn sub(a: &U256, b: &U256) -> Option<U256> {
    let mut out = [0u8; 32];
    let mut borrow = 0i16;
    for i in 0..32 {
        let mut d = a[i] as i16 - b[i] as i16 - borrow;
        borrow = 0;
        if d < 0 {
            d += 256;
            borrow = 1;
        }
        out[i] = d as u8;
    }
    (borrow == 0).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(x: u128) -> U256 {
        let mut out = [0u8; 32];
        out[..16].copy_from_slice(&x.to_le_bytes());
        out
    }

    #[test]
    fn arithmetic() {
        assert_eq!(add(&n(255), &n(1)), Some(n(256)));
        assert_eq!(sub(&n(256), &n(1)), Some(n(255)));
        assert_eq!(sub(&n(1), &n(2)), None);
        assert_eq!(add(&[0xff; 32], &n(1)), None);
        assert_eq!(cmp(&n(1 << 100), &n(5)), Ordering::Greater);
    }
}

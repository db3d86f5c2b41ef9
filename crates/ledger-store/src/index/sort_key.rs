//! The order of every indexer answer (indexer.md §3.2, D39): created time (the booking
//! milestone's timestamp, u32 big-endian) ‖ output id (34 bytes). Every index key ends in
//! it, so one page is one ordered range read, and a cursor is this key in hex (D31).

use crate::storage_error;
use ledger_core::model::OutputId;
use ledger_core::{Code, Error, Result};

pub const SORT_KEY_LEN: usize = 38;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct SortKey([u8; SORT_KEY_LEN]);

impl SortKey {
    pub const MIN: SortKey = SortKey([0; SORT_KEY_LEN]);

    pub fn new(created: u32, output_id: &OutputId) -> SortKey {
        let mut key = [0u8; SORT_KEY_LEN];
        key[..4].copy_from_slice(&created.to_be_bytes());
        key[4..].copy_from_slice(output_id);
        SortKey(key)
    }

    /// The first key of outputs created at `created`.
    pub fn first_at(created: u32) -> SortKey {
        SortKey::new(created, &[0; 34])
    }

    /// From the tail of a stored key: exactly 38 bytes, or the record is corrupt.
    pub fn from_bytes(bytes: &[u8]) -> Result<SortKey> {
        bytes
            .try_into()
            .map(SortKey)
            .map_err(|_| storage_error(format!("indexer sort key of {} bytes", bytes.len())))
    }

    /// The 76 hex digits of a cursor (either case).
    pub fn from_hex(text: &str) -> Result<SortKey> {
        let mut key = [0u8; SORT_KEY_LEN];
        hex::decode_to_slice(text, &mut key).map_err(|_| {
            Error::new(Code::InvalidCursor, "cursor", "the key is not 76 hex digits")
        })?;
        Ok(SortKey(key))
    }

    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    pub fn created(&self) -> u32 {
        u32::from_be_bytes(self.0[..4].try_into().expect("4 bytes"))
    }

    pub fn output_id(&self) -> OutputId {
        self.0[4..].try_into().expect("34 bytes")
    }

    pub fn as_bytes(&self) -> &[u8; SORT_KEY_LEN] {
        &self.0
    }

    /// The next possible key in byte order; None after the last one.
    pub fn successor(&self) -> Option<SortKey> {
        let mut next = self.0;
        let last = next.iter().rposition(|&b| b != 0xff)?;
        next[last] += 1;
        next[last + 1..].fill(0);
        Some(SortKey(next))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sort_key_orders_by_time_then_output_id_and_round_trips_through_hex() {
        let a = SortKey::new(1, &[0xff; 34]);
        let b = SortKey::new(2, &[0; 34]);
        assert!(a < b);
        assert_eq!(a.successor(), Some(SortKey::first_at(2)));
        assert_eq!(SortKey::new(u32::MAX, &[0xff; 34]).successor(), None);
        let text = "6553f10a77827a30b374637d6bd16e854ec1fd7a252e514efbc53b971e663d904ad085710100";
        let key = SortKey::from_hex(text).unwrap();
        assert_eq!(key.created(), 1_700_000_010);
        assert_eq!(key.to_hex(), text);
        assert_eq!(SortKey::from_hex(&text.to_uppercase()).unwrap(), key);
        assert_eq!(SortKey::from_bytes(key.as_bytes()).unwrap(), key);
        assert!(SortKey::from_hex(&text[2..]).is_err());
        assert!(SortKey::from_bytes(&[0; 37]).is_err());
    }

    #[test]
    fn the_successor_is_the_next_byte_string() {
        // Keys with a run of 0xff bytes (the carry) ending at every position.
        let mut keys = vec![SortKey::MIN, SortKey([0xff; SORT_KEY_LEN])];
        for at in 0..SORT_KEY_LEN {
            for value in [0x00, 0x01, 0x7f, 0xfe, 0xff] {
                let mut bytes = [0xff; SORT_KEY_LEN];
                bytes[..at].fill(0x80);
                bytes[at] = value;
                keys.push(SortKey(bytes));
            }
        }
        for a in &keys {
            if let Some(next) = a.successor() {
                assert!(next > *a);
                // Nothing lies between: the byte string one above, with the carry.
                let mut carried = a.0;
                for byte in carried.iter_mut().rev() {
                    let (sum, overflow) = byte.overflowing_add(1);
                    *byte = sum;
                    if !overflow {
                        break;
                    }
                }
                assert_eq!(next.0, carried);
            } else {
                assert_eq!(a.0, [0xff; SORT_KEY_LEN]);
            }
        }
    }
}

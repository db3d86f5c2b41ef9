//! `indexer_outputs`: kind ‖ sort key → the output's filterable fields (indexer.md §6).
//! Walked in order for queries without an address-like filter; read by key to check a
//! candidate found through another index against the remaining filters.

use super::entry::{IndexedOutput, OutputKind};
use super::sort_key::{SortKey, SORT_KEY_LEN};
use crate::columns::{TypedColumn, INDEXER_OUTPUTS};
use crate::storage_error;
use ledger_core::model::Address;
use ledger_core::Result;

pub struct IndexerOutputs;

pub const KEY_LEN: usize = 1 + SORT_KEY_LEN;

pub fn key(kind: OutputKind, sort_key: &SortKey) -> Vec<u8> {
    let mut key = Vec::with_capacity(KEY_LEN);
    key.push(kind.code());
    key.extend_from_slice(sort_key.as_bytes());
    key
}

// Presence bits of the value, in the order the fields follow them.
const ADDRESS: u16 = 1 << 0;
const SDR: u16 = 1 << 1;
const TIMELOCK: u16 = 1 << 2;
const EXPIRATION: u16 = 1 << 3;
const SENDER: u16 = 1 << 4;
const ISSUER: u16 = 1 << 5;
const TAG: u16 = 1 << 6;
const STATE_CONTROLLER: u16 = 1 << 7;
const GOVERNOR: u16 = 1 << 8;
const ALIAS_ADDRESS: u16 = 1 << 9;

impl TypedColumn for IndexerOutputs {
    const NAME: &'static str = INDEXER_OUTPUTS;
    type Key = (OutputKind, SortKey);
    type Value = IndexedOutput;

    fn encode_key((kind, sort_key): &Self::Key) -> Vec<u8> {
        key(*kind, sort_key)
    }

    fn decode_key(bytes: &[u8]) -> Result<Self::Key> {
        if bytes.len() != KEY_LEN {
            return Err(storage_error(format!("indexer output key of {} bytes", bytes.len())));
        }
        let kind = OutputKind::from_code(bytes[0])
            .ok_or_else(|| storage_error(format!("indexer output key of kind {}", bytes[0])))?;
        Ok((kind, SortKey::from_bytes(&bytes[1..])?))
    }

    /// u16 LE presence bits ‖ native token count ‖ the present fields in bit order:
    /// addresses as 33 bytes (kind ‖ id), times u32 LE, the tag as u8 length ‖ bytes.
    fn encode_value(e: &IndexedOutput) -> Vec<u8> {
        fn address(bit: u16, a: &Option<Address>, bits: &mut u16, body: &mut Vec<u8>) {
            if let Some(a) = a {
                *bits |= bit;
                body.extend_from_slice(&a.to_bytes());
            }
        }
        let mut bits = 0u16;
        let mut body = Vec::with_capacity(64);
        address(ADDRESS, &e.address, &mut bits, &mut body);
        address(SDR, &e.storage_deposit_return, &mut bits, &mut body);
        if let Some(t) = e.timelock {
            bits |= TIMELOCK;
            body.extend_from_slice(&t.to_le_bytes());
        }
        if let Some((a, t)) = e.expiration {
            bits |= EXPIRATION;
            body.extend_from_slice(&a.to_bytes());
            body.extend_from_slice(&t.to_le_bytes());
        }
        address(SENDER, &e.sender, &mut bits, &mut body);
        address(ISSUER, &e.issuer, &mut bits, &mut body);
        if let Some(tag) = &e.tag {
            bits |= TAG;
            body.push(tag.len() as u8);
            body.extend_from_slice(tag);
        }
        address(STATE_CONTROLLER, &e.state_controller, &mut bits, &mut body);
        address(GOVERNOR, &e.governor, &mut bits, &mut body);
        address(ALIAS_ADDRESS, &e.alias_address, &mut bits, &mut body);
        let mut out = Vec::with_capacity(3 + body.len());
        out.extend_from_slice(&bits.to_le_bytes());
        out.push(e.native_tokens);
        out.extend_from_slice(&body);
        out
    }

    fn decode_value(bytes: &[u8]) -> Result<IndexedOutput> {
        let corrupt = || {
            storage_error(format!("indexer output record of {} bytes does not decode", bytes.len()))
        };
        let mut r = Bytes { bytes, at: 0 };
        let bits = u16::from_le_bytes(r.take(2).ok_or_else(corrupt)?.try_into().expect("2 bytes"));
        if bits >> 10 != 0 {
            return Err(corrupt());
        }
        let mut e = IndexedOutput {
            native_tokens: r.take(1).ok_or_else(corrupt)?[0],
            ..Default::default()
        };
        let has = |bit: u16| bits & bit != 0;
        if has(ADDRESS) {
            e.address = Some(r.address().ok_or_else(corrupt)?);
        }
        if has(SDR) {
            e.storage_deposit_return = Some(r.address().ok_or_else(corrupt)?);
        }
        if has(TIMELOCK) {
            e.timelock = Some(r.u32().ok_or_else(corrupt)?);
        }
        if has(EXPIRATION) {
            e.expiration = Some((r.address().ok_or_else(corrupt)?, r.u32().ok_or_else(corrupt)?));
        }
        if has(SENDER) {
            e.sender = Some(r.address().ok_or_else(corrupt)?);
        }
        if has(ISSUER) {
            e.issuer = Some(r.address().ok_or_else(corrupt)?);
        }
        if has(TAG) {
            let len = r.take(1).ok_or_else(corrupt)?[0] as usize;
            e.tag = Some(r.take(len).ok_or_else(corrupt)?.to_vec());
        }
        if has(STATE_CONTROLLER) {
            e.state_controller = Some(r.address().ok_or_else(corrupt)?);
        }
        if has(GOVERNOR) {
            e.governor = Some(r.address().ok_or_else(corrupt)?);
        }
        if has(ALIAS_ADDRESS) {
            e.alias_address = Some(r.address().ok_or_else(corrupt)?);
        }
        if r.at != bytes.len() {
            return Err(corrupt());
        }
        Ok(e)
    }
}

struct Bytes<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Bytes<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let slice = self.bytes.get(self.at..self.at + n)?;
        self.at += n;
        Some(slice)
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }

    fn address(&mut self) -> Option<Address> {
        decode_address(self.take(33)?)
    }
}

/// A serialized address (kind ‖ 32 bytes), as keys and values hold them.
pub fn decode_address(bytes: &[u8]) -> Option<Address> {
    let id: [u8; 32] = bytes.get(1..33)?.try_into().ok()?;
    match bytes[0] {
        0 => Some(Address::Ed25519(id)),
        8 => Some(Address::Alias(id)),
        16 => Some(Address::Nft(id)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indexer_outputs_round_trip() {
        let full = IndexedOutput {
            address: Some(Address::Ed25519([1; 32])),
            storage_deposit_return: Some(Address::Alias([2; 32])),
            timelock: Some(3),
            expiration: Some((Address::Nft([4; 32]), 5)),
            sender: Some(Address::Ed25519([6; 32])),
            issuer: Some(Address::Ed25519([7; 32])),
            tag: Some(vec![8; 64]),
            state_controller: Some(Address::Ed25519([9; 32])),
            governor: Some(Address::Ed25519([10; 32])),
            alias_address: Some(Address::Alias([11; 32])),
            native_tokens: 64,
        };
        for e in [full, IndexedOutput::default()] {
            let bytes = IndexerOutputs::encode_value(&e);
            assert_eq!(IndexerOutputs::decode_value(&bytes).unwrap(), e);
            assert!(
                IndexerOutputs::decode_value(&bytes[..bytes.len() - 1]).is_err()
                    || bytes.len() == 3 && IndexerOutputs::decode_value(&bytes[..2]).is_err()
            );
            let mut longer = bytes.clone();
            longer.push(0);
            assert!(IndexerOutputs::decode_value(&longer).is_err());
        }
        let key = (OutputKind::Foundry, SortKey::new(9, &[3; 34]));
        assert_eq!(IndexerOutputs::decode_key(&IndexerOutputs::encode_key(&key)).unwrap(), key);
        assert!(IndexerOutputs::decode_key(&[2; KEY_LEN]).is_err());
    }
}

//! `indexer_fields`: kind ‖ field code ‖ field value ‖ sort key → () (indexer.md §6).
//! One key per address-like field and tag of an output, so that a filter on one of them is
//! a range read over exactly the matching outputs, already in answer order.
//!
//! Field codes 0–8 are those of indexer.md §6. Code 9 ("holds native tokens", no value) is
//! this node's addition: it serves `hasNativeTokens=true` and `minNativeTokenCount` ≥ 1
//! without walking every output of the kind, since few outputs hold native tokens.

use super::entry::{IndexedOutput, OutputKind};
use super::sort_key::{SortKey, SORT_KEY_LEN};
use crate::columns::{TypedColumn, INDEXER_FIELDS};
use crate::storage_error;
use ledger_core::model::Address;
use ledger_core::Result;

#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Field {
    Address(Address),
    StorageDepositReturn(Address),
    ExpirationReturn(Address),
    Sender(Address),
    Issuer(Address),
    /// 1 to 64 bytes.
    Tag(Vec<u8>),
    StateController(Address),
    Governor(Address),
    AliasAddress(Address),
    NativeTokens,
}

/// A field constructor for an address-valued field.
pub type AddressField = fn(Address) -> Field;

impl Field {
    pub fn code(&self) -> u8 {
        match self {
            Field::Address(_) => 0,
            Field::StorageDepositReturn(_) => 1,
            Field::ExpirationReturn(_) => 2,
            Field::Sender(_) => 3,
            Field::Issuer(_) => 4,
            Field::Tag(_) => 5,
            Field::StateController(_) => 6,
            Field::Governor(_) => 7,
            Field::AliasAddress(_) => 8,
            Field::NativeTokens => 9,
        }
    }

    /// Every field key of an output.
    pub fn all_of(e: &IndexedOutput) -> Vec<Field> {
        let mut fields = Vec::with_capacity(4);
        let addresses: [(Option<Address>, AddressField); 8] = [
            (e.address, Field::Address),
            (e.storage_deposit_return, Field::StorageDepositReturn),
            (e.expiration.map(|(a, _)| a), Field::ExpirationReturn),
            (e.sender, Field::Sender),
            (e.issuer, Field::Issuer),
            (e.state_controller, Field::StateController),
            (e.governor, Field::Governor),
            (e.alias_address, Field::AliasAddress),
        ];
        fields.extend(addresses.into_iter().filter_map(|(a, field)| a.map(field)));
        if let Some(tag) = &e.tag {
            fields.push(Field::Tag(tag.clone()));
        }
        if e.native_tokens > 0 {
            fields.push(Field::NativeTokens);
        }
        fields
    }
}

/// kind ‖ code ‖ value: every key of this field value starts with it.
pub fn prefix(kind: OutputKind, field: &Field) -> Vec<u8> {
    let mut out = Vec::with_capacity(2 + 65 + SORT_KEY_LEN);
    out.push(kind.code());
    out.push(field.code());
    match field {
        Field::Address(a)
        | Field::StorageDepositReturn(a)
        | Field::ExpirationReturn(a)
        | Field::Sender(a)
        | Field::Issuer(a)
        | Field::StateController(a)
        | Field::Governor(a)
        | Field::AliasAddress(a) => out.extend_from_slice(&a.to_bytes()),
        Field::Tag(tag) => {
            out.push(tag.len() as u8);
            out.extend_from_slice(tag);
        }
        Field::NativeTokens => {}
    }
    out
}

/// The length of the kind ‖ code ‖ value part of a key, read from the key itself.
fn prefix_len(key: &[u8]) -> Option<usize> {
    let len = match *key.get(1)? {
        0..=4 | 6..=8 => 2 + 33,
        5 => 3 + *key.get(2)? as usize,
        9 => 2,
        _ => return None,
    };
    (key.len() >= len).then_some(len)
}

/// RocksDB's prefix extractor for this family (bloom filters and prefix seeks).
pub fn field_prefix(key: &[u8]) -> &[u8] {
    &key[..prefix_len(key).unwrap_or(key.len())]
}

pub fn has_field_prefix(key: &[u8]) -> bool {
    prefix_len(key).is_some()
}

pub struct FieldKey {
    pub kind: OutputKind,
    pub field: Field,
    pub sort_key: SortKey,
}

pub struct IndexerFields;

impl TypedColumn for IndexerFields {
    const NAME: &'static str = INDEXER_FIELDS;
    type Key = FieldKey;
    type Value = ();

    fn encode_key(k: &FieldKey) -> Vec<u8> {
        let mut key = prefix(k.kind, &k.field);
        key.extend_from_slice(k.sort_key.as_bytes());
        key
    }

    fn decode_key(bytes: &[u8]) -> Result<FieldKey> {
        let corrupt =
            || storage_error(format!("indexer field key of {} bytes does not decode", bytes.len()));
        let len = prefix_len(bytes).ok_or_else(corrupt)?;
        let kind = OutputKind::from_code(bytes[0]).ok_or_else(corrupt)?;
        let address = || super::outputs::decode_address(&bytes[2..35]).ok_or_else(corrupt);
        let field = match bytes[1] {
            0 => Field::Address(address()?),
            1 => Field::StorageDepositReturn(address()?),
            2 => Field::ExpirationReturn(address()?),
            3 => Field::Sender(address()?),
            4 => Field::Issuer(address()?),
            5 => Field::Tag(bytes[3..len].to_vec()),
            6 => Field::StateController(address()?),
            7 => Field::Governor(address()?),
            8 => Field::AliasAddress(address()?),
            _ => Field::NativeTokens,
        };
        Ok(FieldKey { kind, field, sort_key: SortKey::from_bytes(&bytes[len..])? })
    }

    fn encode_value(_: &()) -> Vec<u8> {
        Vec::new()
    }

    fn decode_value(bytes: &[u8]) -> Result<()> {
        if bytes.is_empty() {
            Ok(())
        } else {
            Err(storage_error(format!("indexer field value of {} bytes", bytes.len())))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indexer_fields_round_trip_and_the_prefix_extractor_finds_the_value() {
        let fields = [
            Field::Address(Address::Ed25519([1; 32])),
            Field::StorageDepositReturn(Address::Alias([2; 32])),
            Field::ExpirationReturn(Address::Nft([3; 32])),
            Field::Sender(Address::Ed25519([4; 32])),
            Field::Issuer(Address::Ed25519([5; 32])),
            Field::Tag(vec![6; 64]),
            Field::Tag(vec![7]),
            Field::StateController(Address::Ed25519([8; 32])),
            Field::Governor(Address::Ed25519([9; 32])),
            Field::AliasAddress(Address::Alias([10; 32])),
            Field::NativeTokens,
        ];
        for field in fields {
            let key = FieldKey {
                kind: OutputKind::Nft,
                field: field.clone(),
                sort_key: SortKey::new(5, &[0xee; 34]),
            };
            let bytes = IndexerFields::encode_key(&key);
            let back = IndexerFields::decode_key(&bytes).unwrap();
            assert_eq!(
                (back.kind, &back.field, back.sort_key),
                (key.kind, &key.field, key.sort_key)
            );
            assert_eq!(field_prefix(&bytes), &prefix(OutputKind::Nft, &field)[..]);
            assert!(has_field_prefix(&bytes));
        }
        assert!(IndexerFields::decode_key(&[6, 0, 0]).is_err());
        assert!(IndexerFields::decode_key(&[6, 12]).is_err());
        assert!(IndexerFields::decode_value(&[1]).is_err());
    }
}

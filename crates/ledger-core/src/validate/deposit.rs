//! Minimum storage deposit (validation.md §6, TIP-19).

use crate::codec::output_len;
use crate::model::Output;
use crate::protocol::RentStructure;

/// vByte offset of every output: its id as a lookup key (34 bytes) plus the block id,
/// booking milestone index and timestamp stored with it (32 + 4 + 4 bytes).
fn offset(rent: &RentStructure) -> u128 {
    rent.v_byte_factor_key as u128 * 34 + rent.v_byte_factor_data as u128 * (32 + 4 + 4)
}

/// The deposit of an output of `len` serialized bytes. Computed in u128, where no rent
/// structure can overflow (u32 × u8 × usize); a result beyond u64 (unreachable for any
/// output that fits a block) saturates, which no amount can meet.
fn deposit_of_len(len: usize, rent: &RentStructure) -> u64 {
    let vbytes = offset(rent) + rent.v_byte_factor_data as u128 * len as u128;
    u64::try_from(rent.v_byte_cost as u128 * vbytes).unwrap_or(u64::MAX)
}

pub fn min_deposit(output: &Output, rent: &RentStructure) -> u64 {
    deposit_of_len(output_len(output), rent)
}

/// The deposit of the smallest Basic output (only an Address condition, 46 bytes): the
/// minimum a storage deposit return must give back.
pub fn min_return_deposit(rent: &RentStructure) -> u64 {
    deposit_of_len(46, rent)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::output_from_json;

    #[test]
    fn deposits_of_the_spec() {
        let dev = RentStructure { v_byte_cost: 100, v_byte_factor_data: 1, v_byte_factor_key: 10 };
        let iota = RentStructure { v_byte_cost: 250, v_byte_factor_data: 1, v_byte_factor_key: 10 };
        let basic = output_from_json(&serde_json::json!({"type":3,"amount":"1000000","unlockConditions":[{"type":0,"address":{"type":0,"pubKeyHash":"0x94974ee57aef2316fbbaab22273f911485ad99cc688b4a39893f2316147b258b"}}]})).unwrap();
        assert_eq!(min_deposit(&basic, &dev), 42600);
        assert_eq!(min_deposit(&basic, &iota), 106500);
        assert_eq!(min_return_deposit(&dev), 42600);
        let largest = RentStructure {
            v_byte_cost: u32::MAX,
            v_byte_factor_data: 255,
            v_byte_factor_key: 255,
        };
        assert_eq!(min_deposit(&basic, &largest), u32::MAX as u64 * 255 * (34 + 40 + 46));
        assert_eq!(deposit_of_len(usize::MAX, &largest), u64::MAX);
    }
}

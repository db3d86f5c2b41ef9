//! Minimum storage deposit (validation.md §6, TIP-19).

use crate::codec::output_len;
use crate::model::Output;
use crate::protocol::RentStructure;

/// vByte offset of every output: its id as a lookup key (34 bytes) plus the block id,
/// booking milestone index and timestamp stored with it (32 + 4 + 4 bytes).
fn offset(rent: &RentStructure) -> u64 {
    rent.v_byte_factor_key as u64 * 34 + rent.v_byte_factor_data as u64 * (32 + 4 + 4)
}

pub fn min_deposit(output: &Output, rent: &RentStructure) -> u64 {
    let vbytes = offset(rent) + rent.v_byte_factor_data as u64 * output_len(output) as u64;
    // vByteCost (u32) × vbytes (bounded by the block size) cannot overflow u64.
    rent.v_byte_cost as u64 * vbytes
}

/// The deposit of the smallest Basic output (only an Address condition, 46 bytes): the
/// minimum a storage deposit return must give back.
pub fn min_return_deposit(rent: &RentStructure) -> u64 {
    rent.v_byte_cost as u64 * (offset(rent) + rent.v_byte_factor_data as u64 * 46)
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
    }
}

//! Treasury transaction (payload type 4, wire-format §8.1): only found inside a receipt
//! milestone option.

use super::input::{read_input, write_input};
use super::output::{read_output, write_output};
use super::reader::{field, Reader};
use crate::error::Result;
use crate::model::*;

/// Treasury transaction body (after its u32 type 4): treasury input, treasury output.
pub fn write_treasury_transaction_body(out: &mut Vec<u8>, t: &TreasuryTransaction) {
    write_input(out, &t.input);
    write_output(out, &t.output);
}

pub fn read_treasury_transaction_body(r: &mut Reader, path: &str) -> Result<TreasuryTransaction> {
    let input = read_input(r, &field(path, "input"))?;
    let output = read_output(r, &field(path, "output"))?;
    Ok(TreasuryTransaction { input, output })
}

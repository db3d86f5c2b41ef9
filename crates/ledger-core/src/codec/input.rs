//! Inputs (wire-format §7.1): UTXO inputs in essences, the treasury input in treasury
//! transactions.

use super::reader::{field, Reader};
use super::writer::Write;
use crate::error::{Code, Error, Result};
use crate::model::*;

pub fn write_input(out: &mut Vec<u8>, input: &Input) {
    match input {
        Input::Utxo { transaction_id, output_index } => {
            out.u8(0);
            out.bytes(transaction_id);
            out.u16(*output_index);
        }
        Input::Treasury { milestone_id } => {
            out.u8(1);
            out.bytes(milestone_id);
        }
    }
}

pub fn read_input(r: &mut Reader, path: &str) -> Result<Input> {
    let kind = r.u8(&field(path, "type"))?;
    match kind {
        0 => Ok(Input::Utxo {
            transaction_id: r.array(&field(path, "transactionId"))?,
            output_index: r.u16(&field(path, "transactionOutputIndex"))?,
        }),
        1 => Ok(Input::Treasury { milestone_id: r.array(&field(path, "milestoneId"))? }),
        other => Err(Error::new(
            Code::UnknownInputType,
            field(path, "type"),
            format!("unknown input type {other}"),
        )),
    }
}

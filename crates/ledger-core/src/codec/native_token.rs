//! Native tokens and the simple token scheme (wire-format §7.3): fixed-size records of
//! token ids and u256 amounts, kept little-endian as on the wire.

use super::reader::{at, field, Reader};
use super::writer::Write;
use crate::error::{Code, Error, Result};
use crate::model::*;

pub fn write_native_tokens(out: &mut Vec<u8>, tokens: &[NativeToken]) {
    out.u8(tokens.len() as u8);
    for t in tokens {
        out.bytes(&t.id);
        out.bytes(&t.amount);
    }
}

pub fn read_native_tokens(r: &mut Reader, path: &str) -> Result<Vec<NativeToken>> {
    let count = r.u8(path)? as usize;
    r.check_len(count, 70, path)?;
    let mut tokens = Vec::with_capacity(count);
    for i in 0..count {
        let p = at(path, i);
        tokens.push(NativeToken {
            id: r.array(&field(&p, "id"))?,
            amount: r.array(&field(&p, "amount"))?,
        });
    }
    Ok(tokens)
}

pub fn write_token_scheme(out: &mut Vec<u8>, scheme: &TokenScheme) {
    let TokenScheme::Simple { minted_tokens, melted_tokens, maximum_supply } = scheme;
    out.u8(0);
    out.bytes(minted_tokens);
    out.bytes(melted_tokens);
    out.bytes(maximum_supply);
}

pub fn read_token_scheme(r: &mut Reader, path: &str) -> Result<TokenScheme> {
    let kind = r.u8(&field(path, "type"))?;
    if kind != 0 {
        return Err(Error::new(
            Code::UnknownTokenSchemeType,
            field(path, "type"),
            format!("unknown token scheme type {kind}"),
        ));
    }
    Ok(TokenScheme::Simple {
        minted_tokens: r.array(&field(path, "mintedTokens"))?,
        melted_tokens: r.array(&field(path, "meltedTokens"))?,
        maximum_supply: r.array(&field(path, "maximumSupply"))?,
    })
}

//! A bounds-checked cursor over untrusted bytes. Every read says what it was reading (the
//! JSON path of the field) so that a short or oversized input is reported where it broke.

use crate::error::{Code, Error, Result};

/// How many payloads may sit inside one another. A valid block needs two (a transaction
/// with tagged data in its essence; a milestone with the treasury transaction of a
/// receipt); deeper nesting already breaks a rule at its second level, which the rules
/// report. The limit only keeps the recursive decoder's stack use small and bounded: a
/// 32 KiB block could otherwise nest about 600 transactions.
pub const MAX_PAYLOAD_DEPTH: u8 = 8;

pub struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    /// Payload slots entered to get here (0 for the outermost object).
    depth: u8,
}

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, pos: 0, depth: 0 }
    }

    /// A reader over a bare payload: it counts as one level, as it would inside a block.
    pub fn for_payload(bytes: &'a [u8]) -> Self {
        Reader { bytes, pos: 0, depth: 1 }
    }

    /// A reader over the bytes of a payload slot inside this one, one level deeper.
    pub fn nested(&self, bytes: &'a [u8], path: &str) -> Result<Reader<'a>> {
        if self.depth >= MAX_PAYLOAD_DEPTH {
            return Err(Error::new(
                Code::PayloadNestingTooDeep,
                path,
                format!("payloads nest at most {MAX_PAYLOAD_DEPTH} deep"),
            ));
        }
        Ok(Reader { bytes, pos: 0, depth: self.depth + 1 })
    }

    pub fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    pub fn position(&self) -> usize {
        self.pos
    }

    pub fn take(&mut self, n: usize, path: &str) -> Result<&'a [u8]> {
        if n > self.remaining() {
            return Err(Error::new(
                Code::TruncatedBytes,
                path,
                format!(
                    "needs {n} bytes at offset {} but only {} remain",
                    self.pos,
                    self.remaining()
                ),
            ));
        }
        let slice = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(slice)
    }

    pub fn array<const N: usize>(&mut self, path: &str) -> Result<[u8; N]> {
        Ok(self.take(N, path)?.try_into().expect("length checked"))
    }

    pub fn u8(&mut self, path: &str) -> Result<u8> {
        Ok(self.take(1, path)?[0])
    }

    pub fn u16(&mut self, path: &str) -> Result<u16> {
        Ok(u16::from_le_bytes(self.array(path)?))
    }

    pub fn u32(&mut self, path: &str) -> Result<u32> {
        Ok(u32::from_le_bytes(self.array(path)?))
    }

    pub fn u64(&mut self, path: &str) -> Result<u64> {
        Ok(u64::from_le_bytes(self.array(path)?))
    }

    pub fn bool(&mut self, path: &str) -> Result<bool> {
        match self.u8(path)? {
            0 => Ok(false),
            1 => Ok(true),
            v => Err(Error::new(
                Code::InvalidBool,
                path,
                format!("a boolean must be 0 or 1, got {v}"),
            )),
        }
    }

    /// A length-prefixed byte string; the length is checked against what remains before
    /// anything is copied.
    pub fn prefixed(&mut self, len: usize, path: &str) -> Result<Vec<u8>> {
        self.check_len(len, 1, path)?;
        Ok(self.take(len, path)?.to_vec())
    }

    pub fn u8_prefixed(&mut self, path: &str) -> Result<Vec<u8>> {
        let len = self.u8(path)? as usize;
        self.prefixed(len, path)
    }

    pub fn u16_prefixed(&mut self, path: &str) -> Result<Vec<u8>> {
        let len = self.u16(path)? as usize;
        self.prefixed(len, path)
    }

    pub fn u32_prefixed(&mut self, path: &str) -> Result<Vec<u8>> {
        let len = self.u32(path)? as usize;
        self.prefixed(len, path)
    }

    /// A list count: each element takes at least `min_element_size` bytes, so a count that
    /// cannot fit in what remains is rejected before a vector is sized by it.
    pub fn check_len(&self, count: usize, min_element_size: usize, path: &str) -> Result<()> {
        if count.saturating_mul(min_element_size) > self.remaining() {
            return Err(Error::new(
                Code::LengthPrefixTooLarge,
                path,
                format!(
                    "declares {count} element(s) of at least {min_element_size} byte(s) but only {} bytes remain",
                    self.remaining()
                ),
            ));
        }
        Ok(())
    }

    pub fn finish(&self, path: &str) -> Result<()> {
        if self.remaining() != 0 {
            return Err(Error::new(
                Code::TrailingBytes,
                path,
                format!("{} unexpected byte(s) after offset {}", self.remaining(), self.pos),
            ));
        }
        Ok(())
    }
}

pub use crate::path::{index as at, key as field};

//! A strict cursor over JSON text for the direct reader (`direct.rs`): whitespace, plain
//! strings, unsigned integers, booleans, objects and arrays, nothing else.
//!
//! Every method answers `None` for whatever it does not take — malformed text, and also
//! legal JSON outside the plain subset (escapes, null, signs, fractions, exponents, leading
//! zeros) — and the caller then hands the whole text to the full reader (serde_json and
//! `Value`), which accepts or reports it exactly as before. So this cursor may refuse more
//! than JSON does, but never accepts anything serde_json would refuse.

pub type Scan<T> = Option<T>;

pub struct Cursor<'a> {
    text: &'a [u8],
    at: usize,
    /// Set by `typed` when the type was not the first key: `members` then starts at the
    /// first key (no comma before it) and passes over the `type` key already read.
    reordered: bool,
}

/// How deep `skip` follows nested values (only when looking for a `type` that is not
/// the first key); deeper text goes to the full reader.
const MAX_SKIP_DEPTH: u32 = 32;

impl<'a> Cursor<'a> {
    pub fn new(text: &'a str) -> Self {
        Cursor { text: text.as_bytes(), at: 0, reordered: false }
    }

    fn ws(&mut self) {
        while let Some(&b) = self.text.get(self.at) {
            if !matches!(b, b' ' | b'\n' | b'\r' | b'\t') {
                break;
            }
            self.at += 1;
        }
    }

    /// The next non-whitespace byte, not consumed.
    fn peek(&mut self) -> Scan<u8> {
        self.ws();
        self.text.get(self.at).copied()
    }

    fn eat(&mut self, b: u8) -> Scan<()> {
        if self.peek()? == b {
            self.at += 1;
            Some(())
        } else {
            None
        }
    }

    /// Only whitespace may follow the root value.
    pub fn end(&mut self) -> Scan<()> {
        self.ws();
        (self.at == self.text.len()).then_some(())
    }

    /// The bytes of a string without escapes or control characters.
    pub fn str(&mut self) -> Scan<&'a [u8]> {
        self.eat(b'"')?;
        let rest = &self.text[self.at..];
        let len = rest.iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
        if rest[len] != b'"' {
            return None;
        }
        self.at += len + 1;
        Some(&rest[..len])
    }

    /// A string `"0x…"` of exactly 2·N hex digits (either case), decoded as it is read.
    pub fn hex_fixed<const N: usize>(&mut self) -> Scan<[u8; N]> {
        self.eat(b'"')?;
        let rest = &self.text[self.at..];
        if rest.len() < 2 * N + 3 || &rest[..2] != b"0x" || rest[2 * N + 2] != b'"' {
            return None;
        }
        let mut out = [0u8; N];
        decode_hex(&rest[2..2 * N + 2], &mut out)?;
        self.at += 2 * N + 3;
        Some(out)
    }

    /// A string of hex digit pairs after `0x`, of at most `max` bytes, decoded as it is
    /// read; "" is empty too (D15).
    pub fn hex_bytes(&mut self, max: usize) -> Scan<Vec<u8>> {
        self.eat(b'"')?;
        let rest = &self.text[self.at..];
        if rest.first() == Some(&b'"') {
            self.at += 1;
            return Some(Vec::new());
        }
        let digits = rest.strip_prefix(b"0x")?;
        // Hex digits run to the closing quote; anything else there (an escape, a control
        // character, a letter past f) is not hex and goes to the full reader.
        let len = digits.iter().position(|&b| HEX[b as usize] == 0xff)?;
        if digits[len] != b'"' || len % 2 != 0 || len / 2 > max {
            return None;
        }
        let mut out = vec![0u8; len / 2];
        decode_hex(&digits[..len], &mut out)?;
        self.at += 2 + len + 1;
        Some(out)
    }

    /// A JSON integer ≥ 0 that fits u64, written as JSON writes one (no leading zeros).
    pub fn uint(&mut self) -> Scan<u64> {
        self.ws();
        let rest = &self.text[self.at..];
        let len = rest.iter().position(|b| !b.is_ascii_digit()).unwrap_or(rest.len());
        if len == 0 || len > 19 || (len > 1 && rest[0] == b'0') {
            return None;
        }
        // A fraction or exponent makes it a float, which the full reader rejects or reads.
        if matches!(rest.get(len), Some(b'.' | b'e' | b'E')) {
            return None;
        }
        self.at += len;
        Some(rest[..len].iter().fold(0u64, |n, &d| n * 10 + (d - b'0') as u64))
    }

    pub fn uint_max(&mut self, max: u64) -> Scan<u64> {
        self.uint().filter(|&n| n <= max)
    }

    pub fn bool(&mut self) -> Scan<bool> {
        self.ws();
        let rest = &self.text[self.at..];
        let (value, len) = if rest.starts_with(b"true") {
            (true, 4)
        } else if rest.starts_with(b"false") {
            (false, 5)
        } else {
            return None;
        };
        self.at += len;
        Some(value)
    }

    /// Whether the next value is a string (for fields read two ways).
    pub fn at_string(&mut self) -> Scan<bool> {
        Some(self.peek()? == b'"')
    }

    /// `{ "key": value, … }`: `field` reads the value of each key in turn. Keys are plain
    /// strings; `field` refuses the keys it does not know and the ones seen twice (serde
    /// keeps the last of those, the full reader decides).
    pub fn object(&mut self, mut field: impl FnMut(&mut Self, &'a [u8]) -> Scan<()>) -> Scan<()> {
        self.eat(b'{')?;
        if self.peek()? == b'}' {
            self.at += 1;
            return Some(());
        }
        let key = self.str()?;
        self.eat(b':')?;
        field(self, key)?;
        self.members(field)
    }

    /// The opening of `{ "type": n, … }`: the type. The caller reads the other keys with
    /// `members`. Writers put the type first; when it is not, it is looked up ahead.
    pub fn typed(&mut self, max: u64) -> Scan<u64> {
        self.eat(b'{')?;
        let open = self.at;
        if self.str()? == b"type" {
            self.eat(b':')?;
            return self.uint_max(max);
        }
        self.at = open;
        let mut kind = None;
        loop {
            let key = self.str()?;
            self.eat(b':')?;
            if key == b"type" {
                if kind.is_some() {
                    return None;
                }
                kind = Some(self.uint_max(max)?);
            } else {
                self.skip(0)?;
            }
            match self.peek()? {
                b',' => self.at += 1,
                b'}' => break,
                _ => return None,
            }
        }
        self.at = open;
        self.reordered = true;
        kind
    }

    /// Past one value, without reading it (strings plain, numbers and literals loosely:
    /// the value is read properly afterwards).
    fn skip(&mut self, depth: u32) -> Scan<()> {
        if depth > MAX_SKIP_DEPTH {
            return None;
        }
        match self.peek()? {
            b'"' => self.str().map(drop),
            b'{' => self.object(|c, _| c.skip(depth + 1)),
            b'[' => self.array(|c| c.skip(depth + 1)),
            _ => {
                let rest = &self.text[self.at..];
                let len = rest.iter().position(
                    |b| !matches!(b, b'0'..=b'9' | b'a'..=b'z' | b'.' | b'+' | b'-' | b'E'),
                );
                let len = len.unwrap_or(rest.len());
                if len == 0 {
                    return None;
                }
                self.at += len;
                Some(())
            }
        }
    }

    /// The keys after the type, through the closing brace.
    pub fn members(&mut self, mut field: impl FnMut(&mut Self, &'a [u8]) -> Scan<()>) -> Scan<()> {
        let mut first = std::mem::take(&mut self.reordered);
        let skip_type = first;
        loop {
            if first {
                first = false;
            } else {
                match self.peek()? {
                    b',' => self.at += 1,
                    b'}' => {
                        self.at += 1;
                        return Some(());
                    }
                    _ => return None,
                }
            }
            let key = self.str()?;
            self.eat(b':')?;
            if skip_type && key == b"type" {
                self.uint()?;
            } else {
                field(self, key)?;
            }
        }
    }

    /// `[ value, … ]`: `item` reads each value.
    pub fn array(&mut self, mut item: impl FnMut(&mut Self) -> Scan<()>) -> Scan<()> {
        self.eat(b'[')?;
        if self.peek()? == b']' {
            self.at += 1;
            return Some(());
        }
        loop {
            item(self)?;
            match self.peek()? {
                b',' => self.at += 1,
                b']' => {
                    self.at += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }
}

/// The value of each hex digit (either case); 0xff for every other byte.
pub const HEX: [u8; 256] = {
    let mut t = [0xffu8; 256];
    let mut i = 0;
    while i < 10 {
        t[b'0' as usize + i] = i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < 6 {
        t[b'a' as usize + i] = 10 + i as u8;
        t[b'A' as usize + i] = 10 + i as u8;
        i += 1;
    }
    t
};

/// Hex digit pairs into `out` (exactly twice as many digits as bytes).
pub fn decode_hex(digits: &[u8], out: &mut [u8]) -> Scan<()> {
    let mut bad = 0u8;
    for (byte, pair) in out.iter_mut().zip(digits.chunks_exact(2)) {
        let (hi, lo) = (HEX[pair[0] as usize], HEX[pair[1] as usize]);
        bad |= hi | lo;
        *byte = hi << 4 | lo;
    }
    // Every digit is below 16; 0xff marks the others.
    (bad < 16).then_some(())
}

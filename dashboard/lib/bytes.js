// Hex text and a little-endian reader over the wire format's bytes (wire-format.md §1).

export function toHex(bytes) {
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}

/** Bytes of hex text, with or without `0x`; throws on anything else. */
export function fromHex(hex) {
  const clean = hex.startsWith('0x') ? hex.slice(2) : hex;
  if (clean.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(clean)) throw new Error('not hex');
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Reads fields in order; throws RangeError when the bytes run out. */
export class Reader {
  constructor(bytes, offset = 0) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.offset = offset;
  }

  take(n) {
    if (this.offset + n > this.bytes.length) throw new RangeError('truncated');
    const at = this.offset;
    this.offset += n;
    return at;
  }

  u8() {
    return this.view.getUint8(this.take(1));
  }

  u16() {
    return this.view.getUint16(this.take(2), true);
  }

  u32() {
    return this.view.getUint32(this.take(4), true);
  }

  u64() {
    return this.view.getBigUint64(this.take(8), true);
  }

  bytesOf(n) {
    const at = this.take(n);
    return this.bytes.subarray(at, at + n);
  }

  hex(n) {
    return '0x' + toHex(this.bytesOf(n));
  }
}

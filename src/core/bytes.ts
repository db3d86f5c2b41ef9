// Normalising the inputs the public API accepts: objects or JSON text, bytes as any
// Uint8Array or 0x-hex.

export function toBuffer(bytes: Uint8Array | string, name = 'bytes'): Buffer {
  if (typeof bytes === 'string') {
    if (!/^0x([0-9a-fA-F]{2})*$/.test(bytes)) throw new TypeError(`${name} must be 0x-prefixed hex`);
    return Buffer.from(bytes.slice(2), 'hex');
  }
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function toJsonText(value: object | string): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Bytes stay bytes; objects and JSON text become JSON text. */
export function bytesOrJson(input: object | string | Uint8Array): Buffer | string {
  return input instanceof Uint8Array ? toBuffer(input) : toJsonText(input);
}

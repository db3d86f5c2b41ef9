// Bech32 (BIP-173, not bech32m) for Stardust addresses (TIP-11, wire-format.md §3): the
// data part is the address type byte (0 Ed25519, 8 alias, 16 NFT) followed by 32 bytes.

import { fromHex, toHex } from './bytes.js';

const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const GENERATOR = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];

export const ADDRESS_KINDS = { 0: 'Ed25519', 8: 'Alias', 16: 'NFT' };
/** The JSON key that holds each address kind's 32 bytes (wire-format.md §3). */
export const ADDRESS_KEYS = { 0: 'pubKeyHash', 8: 'aliasId', 16: 'nftId' };

function polymod(values) {
  let chk = 1;
  for (const value of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ value;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= GENERATOR[i];
  }
  return chk;
}

function hrpExpand(hrp) {
  const out = [];
  for (const c of hrp) out.push(c.charCodeAt(0) >>> 5);
  out.push(0);
  for (const c of hrp) out.push(c.charCodeAt(0) & 31);
  return out;
}

/** Regroup bits: 8 → 5 with padding (encode), 5 → 8 refusing non-zero padding (decode). */
function convertBits(data, from, to, pad) {
  let acc = 0;
  let bits = 0;
  const out = [];
  const max = (1 << to) - 1;
  for (const value of data) {
    acc = (acc << from) | value;
    bits += from;
    while (bits >= to) {
      bits -= to;
      out.push((acc >>> bits) & max);
    }
  }
  if (pad) {
    if (bits > 0) out.push((acc << (to - bits)) & max);
  } else if (bits >= from || ((acc << (to - bits)) & max) !== 0) {
    throw new Error('invalid padding');
  }
  return out;
}

export function bech32Encode(hrp, bytes) {
  const words = convertBits(bytes, 8, 5, true);
  const mod = polymod([...hrpExpand(hrp), ...words, 0, 0, 0, 0, 0, 0]) ^ 1;
  const checksum = [];
  for (let i = 0; i < 6; i++) checksum.push((mod >>> (5 * (5 - i))) & 31);
  return hrp + '1' + [...words, ...checksum].map((w) => CHARSET[w]).join('');
}

/** { hrp, bytes } of a bech32 string; throws with a reason a person can read. */
export function bech32Decode(text) {
  if (text.length > 90) throw new Error('too long for bech32');
  if (text !== text.toLowerCase() && text !== text.toUpperCase()) throw new Error('mixes upper and lower case');
  const lower = text.toLowerCase();
  const sep = lower.lastIndexOf('1');
  if (sep < 1) throw new Error('no human-readable part before the separator "1"');
  if (sep + 7 > lower.length) throw new Error('too short for a bech32 checksum');
  const hrp = lower.slice(0, sep);
  for (const c of hrp) {
    const code = c.charCodeAt(0);
    if (code < 33 || code > 126) throw new Error('invalid character in the human-readable part');
  }
  const words = [];
  for (const c of lower.slice(sep + 1)) {
    const w = CHARSET.indexOf(c);
    if (w < 0) throw new Error(`invalid character '${c}'`);
    words.push(w);
  }
  if (polymod([...hrpExpand(hrp), ...words]) !== 1) throw new Error('checksum does not match');
  return { hrp, bytes: Uint8Array.from(convertBits(words.slice(0, -6), 5, 8, false)) };
}

/** A Stardust address: { hrp, type, kind, hex } (hex of the 32 bytes, 0x-prefixed). */
export function decodeAddress(text) {
  const { hrp, bytes } = bech32Decode(text.trim());
  const type = bytes[0];
  if (!(type in ADDRESS_KINDS)) throw new Error(`unknown address type ${type}`);
  if (bytes.length !== 33) throw new Error(`an address holds 33 bytes, this one ${bytes.length}`);
  return { hrp, type, kind: ADDRESS_KINDS[type], hex: '0x' + toHex(bytes.subarray(1)) };
}

/** The bech32 form of an address object of the API ({type, pubKeyHash|aliasId|nftId}). */
export function encodeAddress(hrp, address) {
  const key = ADDRESS_KEYS[address.type];
  if (key === undefined || typeof address[key] !== 'string') throw new Error('not an address object');
  const bytes = new Uint8Array(33);
  bytes[0] = address.type;
  bytes.set(fromHex(address[key]), 1);
  return bech32Encode(hrp, bytes);
}

// BLAKE2b (RFC 7693), one-shot, for block, transaction and milestone IDs in the browser
// (wire-format.md §4: every ID is BLAKE2b-256 of serialized bytes). WebCrypto has no
// BLAKE2, so the 64-bit words are kept as pairs of 32-bit halves: v[2i] low, v[2i+1] high.

// The SHA-512 initialization vector, as (low, high) pairs.
const IV = new Uint32Array([
  0xf3bcc908, 0x6a09e667, 0x84caa73b, 0xbb67ae85, 0xfe94f82b, 0x3c6ef372, 0x5f1d36f1, 0xa54ff53a, 0xade682d1,
  0x510e527f, 0x2b3e6c1f, 0x9b05688c, 0xfb41bd6b, 0x1f83d9ab, 0x137e2179, 0x5be0cd19,
]);

// Message word order per round; rounds 10 and 11 repeat rounds 0 and 1.
const SIGMA = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
  [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
  [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
  [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
  [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
  [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
  [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
  [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
  [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
  [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
].map((row) => row.map((i) => 2 * i)); // as offsets into the (low, high) word array

const TWO_32 = 0x100000000;
const v = new Uint32Array(32);
const m = new Uint32Array(32);

/** v[a] += v[b] + m[x] (64-bit, offsets of the low halves). */
function add3(a, b, x) {
  const lo = v[a] + v[b] + m[x];
  v[a + 1] = v[a + 1] + v[b + 1] + m[x + 1] + Math.floor(lo / TWO_32);
  v[a] = lo;
}

function add2(a, b) {
  const lo = v[a] + v[b];
  v[a + 1] = v[a + 1] + v[b + 1] + (lo >= TWO_32 ? 1 : 0);
  v[a] = lo;
}

/** v[d] = (v[d] ^ v[a]) rotated right by `r` (32, 24, 16 or 63). */
function xorRotate(d, a, r) {
  const lo = v[d] ^ v[a];
  const hi = v[d + 1] ^ v[a + 1];
  if (r === 32) {
    v[d] = hi;
    v[d + 1] = lo;
  } else if (r === 63) {
    v[d] = (lo << 1) | (hi >>> 31);
    v[d + 1] = (hi << 1) | (lo >>> 31);
  } else {
    v[d] = (lo >>> r) | (hi << (32 - r));
    v[d + 1] = (hi >>> r) | (lo << (32 - r));
  }
}

function mix(a, b, c, d, x, y) {
  add3(a, b, x);
  xorRotate(d, a, 32);
  add2(c, d);
  xorRotate(b, c, 24);
  add3(a, b, y);
  xorRotate(d, a, 16);
  add2(c, d);
  xorRotate(b, c, 63);
}

/** Compress one 128-byte block at `offset` of `block` into `h`; `t` = bytes hashed so far. */
function compress(h, block, offset, t, last) {
  for (let i = 0; i < 32; i++) {
    const at = offset + 4 * i;
    m[i] = block[at] | (block[at + 1] << 8) | (block[at + 2] << 16) | (block[at + 3] << 24);
  }
  v.set(h, 0);
  v.set(IV, 16);
  v[24] ^= t >>> 0;
  v[25] ^= Math.floor(t / TWO_32);
  if (last) {
    v[28] = ~v[28];
    v[29] = ~v[29];
  }
  for (let round = 0; round < 12; round++) {
    const s = SIGMA[round % 10];
    mix(0, 8, 16, 24, s[0], s[1]);
    mix(2, 10, 18, 26, s[2], s[3]);
    mix(4, 12, 20, 28, s[4], s[5]);
    mix(6, 14, 22, 30, s[6], s[7]);
    mix(0, 10, 20, 30, s[8], s[9]);
    mix(2, 12, 22, 24, s[10], s[11]);
    mix(4, 14, 16, 26, s[12], s[13]);
    mix(6, 8, 18, 28, s[14], s[15]);
  }
  for (let i = 0; i < 16; i++) h[i] ^= v[i] ^ v[i + 16];
}

/** BLAKE2b of `data` (no key), `outLength` bytes (1..64; 32 for Stardust IDs). */
export function blake2b(data, outLength = 32) {
  if (!Number.isInteger(outLength) || outLength < 1 || outLength > 64) throw new RangeError('outLength must be 1..64');
  const h = new Uint32Array(IV);
  h[0] ^= 0x01010000 ^ outLength; // parameter block: fanout 1, depth 1, no key
  const full = data.length === 0 ? 0 : Math.ceil(data.length / 128) - 1;
  for (let i = 0; i < full; i++) compress(h, data, i * 128, (i + 1) * 128, false);
  const tail = new Uint8Array(128);
  tail.set(data.subarray(full * 128));
  compress(h, tail, 0, data.length, true);
  const out = new Uint8Array(outLength);
  for (let i = 0; i < outLength; i++) out[i] = h[i >> 2] >>> (8 * (i & 3));
  return out;
}

// What the dashboard reads out of binary blocks and payloads (wire-format.md §4–§8): the
// IDs, which are BLAKE2b-256 hashes of serialized bytes, and a short summary for the live
// lists. The explorer shows full blocks from the REST API's JSON; only the IDs that JSON
// does not carry (transaction ID, milestone ID) are computed here.

import { blake2b } from './blake2b.js';
import { Reader, toHex } from './bytes.js';

export const PAYLOAD_NAMES = { 5: 'tagged data', 6: 'transaction', 7: 'milestone' };

export const hashHex = (bytes) => '0x' + toHex(blake2b(bytes, 32));

/** The parents and the payload slot of a serialized block (payload empty when there is none). */
export function payloadOf(block) {
  const r = new Reader(block);
  r.u8(); // protocol version
  const parents = [];
  for (let n = r.u8(); n > 0; n--) parents.push(r.hex(32));
  const length = r.u32();
  return { parents, payload: r.bytesOf(length) };
}

/**
 * Block ID, parents, payload kind and the IDs a person looks for next: the transaction ID
 * (with input and output counts), the milestone index, the tag of tagged data.
 */
export function summarizeBlock(block) {
  const { parents, payload } = payloadOf(block);
  const summary = { blockId: hashHex(block), parents, size: block.length, payloadType: null };
  if (payload.length === 0) return summary;
  const r = new Reader(payload);
  summary.payloadType = r.u32();
  if (summary.payloadType === 5) {
    summary.tag = r.hex(r.u8());
  } else if (summary.payloadType === 6) {
    summary.transactionId = hashHex(payload);
    r.u8(); // essence type
    r.u64(); // network ID
    summary.inputs = r.u16();
    r.take(35 * summary.inputs + 32); // UTXO inputs (type, transaction ID, index), inputs commitment
    summary.outputs = r.u16();
  } else if (summary.payloadType === 7) {
    summary.milestoneIndex = r.u32();
    summary.milestoneTimestamp = r.u32();
  }
  return summary;
}

/** The transaction ID of a block's transaction payload, or null if it carries none. */
export function transactionIdOf(block) {
  const { payload } = payloadOf(block);
  if (payload.length < 4 || new Reader(payload).u32() !== 6) return null;
  return hashHex(payload);
}

/**
 * The milestone ID of a serialized milestone payload (type code first): the hash of its
 * essence, which ends with the options list. Null when an option is one this node never
 * issues (a receipt), whose length would need the whole receipt format.
 */
export function milestoneIdOf(payload) {
  const r = new Reader(payload);
  if (r.u32() !== 7) throw new Error('not a milestone payload');
  r.take(4 + 4 + 1 + 32); // index, timestamp, protocol version, previous milestone ID
  r.take(32 * r.u8()); // parents
  r.take(64); // inclusion and applied Merkle roots
  r.take(r.u16()); // metadata
  for (let n = r.u8(); n > 0; n--) {
    if (r.u8() !== 1) return null;
    r.take(4 + 1); // target milestone index, protocol version
    r.take(r.u16()); // protocol parameters
  }
  return hashHex(payload.subarray(4, r.offset));
}

/** The output ID of output `index` of a transaction: transaction ID ‖ u16 LE index. */
export function outputIdOf(transactionId, index) {
  return transactionId + toHex([index & 0xff, index >> 8]);
}

// Ed25519 from 32-byte seeds (RFC 8032). Bytes may be given as Uint8Array or 0x-hex;
// results are 0x-hex.

import native from '../native';
import { toBuffer } from './bytes';
import { fromNative } from './errors';

type Bytes = Uint8Array | string;
const hex = (b: Buffer) => `0x${b.toString('hex')}`;

export function publicKey(seed: Bytes): string {
  return hex(fromNative(() => native.ed25519PublicKey(toBuffer(seed, 'seed'))));
}

export function sign(seed: Bytes, message: Bytes): string {
  return hex(fromNative(() => native.ed25519Sign(toBuffer(seed, 'seed'), toBuffer(message, 'message'))));
}

export function verify(publicKey: Bytes, message: Bytes, signature: Bytes): boolean {
  return fromNative(() =>
    native.ed25519Verify(
      toBuffer(publicKey, 'publicKey'),
      toBuffer(message, 'message'),
      toBuffer(signature, 'signature'),
    ),
  );
}

/** True only if every signature verifies (batch verification). */
export function verifyBatch(items: { publicKey: Bytes; message: Bytes; signature: Bytes }[]): boolean {
  return fromNative(() =>
    native.ed25519VerifyBatch(
      items.map((i) => toBuffer(i.publicKey)),
      items.map((i) => toBuffer(i.message)),
      items.map((i) => toBuffer(i.signature)),
    ),
  );
}

/** Ed25519 address = BLAKE2b-256 of the public key. */
export function ed25519Address(key: Bytes): string {
  return fromNative(() => native.ed25519Address(toBuffer(key, 'publicKey')));
}

// Whose funds the faucet hands out. On the dev network (the default genesis address of
// D23, no genesis file or snapshot) that is the published dev key, which owns the genesis output;
// anywhere else only a key the operator configures (`faucet.privateKey`), so that a node
// of a network that carries value never offers its genesis funds by default.

import type { NodeConfig } from '../config/schema';
import { ed25519Address, publicKey } from '../core/crypto';
import { bech32Encode } from '../core/ids';

/** The Ed25519 seed of D23's first address (ledger.md §1.1): public, dev network only. */
export const DEV_SEED = '0xffbf22719c9ea8d3d31bcf5d5eaa03ffb3a2a2e71abfd2b2ef0e56b692897f71';
export const DEV_ADDRESS = '0x10d98fb75b13332c21bf6d03046ae46b3a2ecef7d5a683096eef0b15ab7a167d';

export interface FaucetKey {
  seed: string;
  publicKey: string;
  /** The Ed25519 address (BLAKE2b-256 of the public key), 0x hex. */
  address: string;
  bech32: string;
}

/** The built-in genesis on the dev address: no genesis file, no snapshot to start from. */
export function isDevNetwork(config: NodeConfig): boolean {
  return (
    config.genesis.file === '' &&
    config.snapshot.loadPath === '' &&
    config.genesis.address.toLowerCase() === DEV_ADDRESS
  );
}

/** The faucet's key, or why the faucet stays off. */
export function faucetKey(config: NodeConfig, hrp: string): FaucetKey | { off: string } {
  if (!config.faucet.enabled) return { off: 'disabled by configuration' };
  let seed = config.faucet.privateKey;
  if (seed === '') {
    if (!isDevNetwork(config)) return { off: 'not the dev network and no faucet.privateKey configured' };
    seed = DEV_SEED;
  }
  const key = publicKey(seed);
  const address = ed25519Address(key);
  return { seed, publicKey: key, address, bech32: bech32Encode(hrp, { type: 0, pubKeyHash: address }) };
}

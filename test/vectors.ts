// Loading the conformance vectors (vectors/ at the repository root; provenance in its README).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProtocolJson } from '../src/core/types';

export const VECTORS = join(__dirname, '..', 'vectors');

/** One line of a vector file: its fields depend on the file and the record's kind (vectors/README.md). */
// biome-ignore lint/suspicious/noExplicitAny: the tests read each kind's fields as the vectors' README describes them.
export type Record = any;

export function records(file: string): Record[] {
  return readFileSync(join(VECTORS, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

export const bytesOf = (hex: string) => Buffer.from(hex.slice(2), 'hex');

/** The parameter table of vectors/README.md, PoW check off so it masks no reason. */
export function protocolOf(network: string): ProtocolJson {
  return {
    version: 2,
    networkName: network,
    bech32Hrp: 'tst',
    minPowScore: 0,
    belowMaxDepth: 15,
    rentStructure: { vByteCost: 100, vByteFactorData: 1, vByteFactorKey: 10 },
    tokenSupply: network === 'iota-mainnet' ? '4600000000000000' : '1813620509061365',
  };
}

// Loading the conformance vectors (vectors/ at the repository root; provenance in its README),
// the spec's worked examples among them (wire-format.md §9, ledger.md §7.4).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type {
  BlockJson,
  MilestonePayloadJson,
  ProtocolJson,
  TaggedDataPayloadJson,
  TransactionPayloadJson,
} from '../src/core/types';

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

/** A key of wire-format §9's table; hex values with `0x`. */
export interface WorkedKey {
  derivation: string;
  seed: string;
  publicKey: string;
  address?: string;
  bech32?: string;
}

/** One worked example: a block, with the fields the vector files give one (vectors/README.md). */
interface WorkedBlock {
  title: string;
  spec: string;
  kind: 'block';
  bytes: string;
  id: string;
}

/** A block's JSON whose payload is of a known kind. */
type BlockWith<P> = BlockJson & { payload: P };

/** The shape of vectors/worked-examples.json: the keys and Examples A–D of the spec. */
export interface WorkedExamples {
  keys: { genesis: Required<WorkedKey>; recipient: Required<WorkedKey>; coordinator: WorkedKey };
  /** Milestone 1 (wire-format §9.1). */
  A: WorkedBlock & { json: BlockWith<MilestonePayloadJson>; extra: { milestoneId: string } };
  /** A tagged-data block (§9.2). */
  B: WorkedBlock & { json: BlockWith<TaggedDataPayloadJson> };
  /** The genesis spend (§9.3). */
  C: WorkedBlock & {
    json: BlockWith<TransactionPayloadJson>;
    extra: {
      networkName: string;
      transactionId: string;
      essenceHash: string;
      inputsCommitment: string;
      consumedOutputs: { outputId: string; output: string; outputHash: string }[];
      outputIds: string[];
      chainIdOfOutput0: string;
    };
  };
  /** Milestone 2 (ledger.md §7.4), which the spec shows as bytes only: no `json`. */
  D: WorkedBlock & {
    extra: {
      milestoneId: string;
      previousMilestoneId: string;
      timestamp: number;
      parents: string[];
      whiteFlagOrder: string[];
      inclusionMerkleRoot: string;
      appliedMerkleRoot: string;
      signature: string;
    };
  };
}

/** The spec's worked examples, read once from vectors/worked-examples.json. */
export const WORKED: WorkedExamples = JSON.parse(readFileSync(join(VECTORS, 'worked-examples.json'), 'utf8'));

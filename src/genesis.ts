// The genesis outputs handed to the store when it creates a ledger (ledger.md §3): the
// whole token supply on `genesis.address`, or the outputs of `genesis.file`
// ({"outputs":[<output JSON>, …]}), which must add up to the token supply (the store
// checks every output's rules and the sum).

import { readFileSync } from 'node:fs';
import type { NodeConfig } from './config/schema';
import { encodeOutput } from './core/codec';
import { LedgerError } from './core/errors';

export class GenesisError extends Error {}

export function genesisOutputs(config: NodeConfig): Buffer[] {
  if (config.genesis.file === '') {
    const output = {
      type: 3,
      amount: config.protocol.tokenSupply,
      unlockConditions: [{ type: 0, address: { type: 0, pubKeyHash: config.genesis.address } }],
    };
    return [encodeOutput(output)];
  }
  const file = config.genesis.file;
  let outputs: unknown;
  try {
    outputs = (JSON.parse(readFileSync(file, 'utf8')) as { outputs?: unknown }).outputs;
  } catch (err) {
    throw new GenesisError(`cannot read genesis file ${file}: ${(err as Error).message}`);
  }
  if (!Array.isArray(outputs) || outputs.length === 0)
    throw new GenesisError(`genesis file ${file} must hold {"outputs":[…]} with at least one output`);
  return outputs.map((output, i) => {
    try {
      return encodeOutput(output as object);
    } catch (err) {
      if (err instanceof LedgerError)
        throw new GenesisError(`genesis file ${file}: outputs[${i}]${err.path ? '.' + err.path : ''}: ${err.detail}`);
      throw err;
    }
  });
}

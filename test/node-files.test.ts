// Files the node keeps or reads beside its store: the coordinator's keys (generated once,
// then reused) and a genesis file of outputs.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load';
import { coordinatorKeys, CoordinatorKeysError } from '../src/coordinator-keys';
import { decodeOutput } from '../src/core/codec';
import { genesisOutputs, GenesisError } from '../src/genesis';

const tempDir = () => mkdtempSync(join(tmpdir(), 'ledger-node-files-'));

describe('coordinator keys', () => {
  it('uses configured keys and writes nothing', () => {
    const dir = tempDir();
    const key = '0x' + '01'.repeat(32);
    expect(coordinatorKeys([key], dir)).toEqual([key]);
    expect(() => readFileSync(join(dir, 'coordinator-keys.json'))).toThrow();
  });

  it('generates one key on first use and returns the same afterwards', () => {
    const dir = tempDir();
    const [first] = coordinatorKeys([], dir);
    expect(first).toMatch(/^0x[0-9a-f]{64}$/);
    expect(coordinatorKeys([], dir)).toEqual([first]);
    expect(JSON.parse(readFileSync(join(dir, 'coordinator-keys.json'), 'utf8'))).toEqual({ privateKeys: [first] });
  });

  it('refuses a damaged key file instead of replacing it', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'coordinator-keys.json'), '{"privateKeys":["0x12"]}');
    expect(() => coordinatorKeys([], dir)).toThrow(CoordinatorKeysError);
  });
});

describe('genesis outputs', () => {
  it('puts the whole supply on the genesis address by default', () => {
    const config = loadConfig([], {});
    const [output] = genesisOutputs(config).map(
      (b) => decodeOutput(b) as { amount: string; unlockConditions: { address: { pubKeyHash: string } }[] },
    );
    expect(output.amount).toBe('4600000000000000');
    expect(output.unlockConditions[0].address.pubKeyHash).toBe(config.genesis.address);
  });

  it('reads the outputs of a genesis file, and names a bad one', () => {
    const dir = tempDir();
    const file = join(dir, 'genesis.json');
    const address = { type: 0, pubKeyHash: '0x' + '11'.repeat(32) };
    writeFileSync(
      file,
      JSON.stringify({
        outputs: [1, 2].map(() => ({ type: 3, amount: '2300000000000000', unlockConditions: [{ type: 0, address }] })),
      }),
    );
    expect(genesisOutputs(loadConfig(['--genesis-file', file], {}))).toHaveLength(2);
    writeFileSync(file, JSON.stringify({ outputs: [{ type: 3, amount: 'lots' }] }));
    expect(() => genesisOutputs(loadConfig(['--genesis-file', file], {}))).toThrow(/outputs\[0\]\.amount/);
    writeFileSync(file, '{}');
    expect(() => genesisOutputs(loadConfig(['--genesis-file', file], {}))).toThrow(GenesisError);
  });
});

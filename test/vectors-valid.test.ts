import { describe, expect, it } from 'vitest';
import {
  blockId,
  decodeBlock,
  decodeBlockWithId,
  decodeOutput,
  decodePayload,
  encodeBlock,
  encodeBlockWithId,
  encodeOutput,
  encodePayload,
  essenceHash,
  inputsCommitment,
  milestoneId,
  networkId,
  outputId,
  storageDeposit,
  transactionId,
  validateBlock,
} from '../src/index';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bytesOf, protocolOf, records, VECTORS } from './vectors';

const valid = records('valid.jsonl');
const hex = (b: Buffer) => `0x${b.toString('hex')}`;

describe('valid.jsonl through the JS API', () => {
  it.each(valid.filter((r) => r.kind === 'block').map((r) => [r.name, r]))('block %s', (_name, r) => {
    expect(hex(encodeBlock(r.json))).toBe(r.bytes);
    expect(decodeBlock(bytesOf(r.bytes))).toEqual(r.json);
    expect(blockId(r.json)).toBe(r.id);
    expect(blockId(bytesOf(r.bytes))).toBe(r.id);
    const encoded = encodeBlockWithId(r.json);
    expect([hex(encoded.bytes), encoded.id]).toEqual([r.bytes, r.id]);
    expect(encodeBlockWithId(JSON.stringify(r.json, null, 2)).id).toBe(r.id);
    expect(decodeBlockWithId(bytesOf(r.bytes))).toEqual({ block: r.json, id: r.id });
    if (r.extra?.transactionId) {
      expect(transactionId(r.json)).toBe(r.extra.transactionId);
      expect(transactionId(bytesOf(r.bytes))).toBe(r.extra.transactionId);
      expect(essenceHash(r.json)).toBe(r.extra.essenceHash);
    }
    if (r.extra?.milestoneId) expect(milestoneId(bytesOf(r.bytes))).toBe(r.extra.milestoneId);
    validateBlock(bytesOf(r.bytes), {
      ...protocolOf(r.extra?.networkName ?? 'shimmer'),
      tokenSupply: '4600000000000000',
    });
  });

  it.each(valid.filter((r) => r.kind === 'networkId').map((r) => [r.name, r]))('network id %s', (_n, r) => {
    expect(networkId(r.json.networkName)).toBe(r.id);
  });

  it.each(valid.filter((r) => r.kind === 'milestone').map((r) => [r.name, r]))('milestone %s', (_n, r) => {
    expect(hex(encodePayload(r.json))).toBe(r.bytes);
    expect(decodePayload(bytesOf(r.bytes))).toEqual(r.json);
    expect(milestoneId(r.json)).toBe(r.id);
    expect(milestoneId(bytesOf(r.bytes))).toBe(r.id);
  });
});

describe('transactions.jsonl', () => {
  const txs = [...records('transactions.jsonl'), ...valid.filter((r) => r.kind === 'transaction')];
  it.each(txs.map((r) => [r.name, r]))('%s', (_n, r) => {
    expect(hex(encodePayload(r.json))).toBe(r.bytes);
    expect(decodePayload(bytesOf(r.bytes))).toEqual(r.json);
    expect(transactionId(r.json)).toBe(r.id);
    expect(transactionId(bytesOf(r.bytes))).toBe(r.id);
    expect(essenceHash(r.json)).toBe(r.extra.essenceHash);
    expect(essenceHash(bytesOf(r.bytes))).toBe(r.extra.essenceHash);
    expect(inputsCommitment(r.extra.consumedOutputs.map((c: { output: object }) => c.output))).toBe(
      r.extra.inputsCommitment,
    );
    expect(networkId(r.extra.networkName)).toBe(r.extra.networkId);
    for (const [i, id] of (r.extra.outputIds as string[]).entries()) expect(outputId(r.id, i)).toBe(id);
  });
});

describe('outputs.jsonl', () => {
  const outputs = [...records('outputs.jsonl'), ...valid.filter((r) => r.kind === 'output')];
  it.each(outputs.map((r) => [r.name, r]))('%s', (_n, r) => {
    expect(hex(encodeOutput(r.json))).toBe(r.bytes);
    expect(decodeOutput(bytesOf(r.bytes))).toEqual(r.json);
    expect(outputId(r.extra.transactionId, r.extra.outputIndex)).toBe(r.id);
    if (r.extra.storageDeposit) {
      const rent = (c: number) => ({ vByteCost: c, vByteFactorData: 1, vByteFactorKey: 10 });
      expect(storageDeposit(r.json, rent(100))).toBe(r.extra.storageDeposit.rent100);
      expect(storageDeposit(r.json, rent(500))).toBe(r.extra.storageDeposit.rent500);
    }
  });
});

describe('network-ids.json', () => {
  const table: Record<string, string> = JSON.parse(readFileSync(join(VECTORS, 'network-ids.json'), 'utf8'));
  it.each(Object.entries(table))('%s', (name, id) => {
    expect(networkId(name)).toBe(id);
  });
});

// Value transfers for the end-to-end tests, built and signed with the package's own
// functions: Basic outputs with one Address unlock condition (optionally a Timelock),
// Ed25519 signature unlocks (reference unlocks for repeated owners), deterministic keys,
// and small HTTP helpers (submit, wait for a milestone to reference or include a block).

import { createHash } from 'node:crypto';
import { core } from './node-harness';

export const GENESIS_SEED = '0xffbf22719c9ea8d3d31bcf5d5eaa03ffb3a2a2e71abfd2b2ef0e56b692897f71';
export const GENESIS_OUTPUT_ID = '0x' + '00'.repeat(34);
export const SERIALIZER = 'application/vnd.ledger.serializer-v1';
export const IOTA_SERIALIZER = 'application/vnd.iota.serializer-v1';

export interface Key {
  seed: string;
  publicKey: string;
  /** Ed25519 address (BLAKE2b-256 of the public key), the `pubKeyHash` of address JSON. */
  address: string;
}

export function keyOf(seed: string): Key {
  const publicKey = core.publicKey(seed);
  return { seed, publicKey, address: core.ed25519Address(publicKey) };
}

/** A fixed test key: its seed is SHA-256 of a label, so every run uses the same keys. */
export function testKey(label: string | number): Key {
  return keyOf('0x' + createHash('sha256').update(`ledger-node e2e key ${label}`).digest('hex'));
}

export const genesisKey = keyOf(GENESIS_SEED);

/** An output this side knows how to spend. `output` is its JSON as the API returns it. */
export interface Spendable {
  outputId: string;
  output: BasicOutput;
  key: Key;
}

export interface BasicOutput {
  type: 3;
  amount: string;
  unlockConditions: object[];
}

export interface Target {
  to: Key;
  amount: bigint | string | number;
  /** Timelock unlock condition (type 2): not spendable before this Unix time. */
  timelock?: number;
}

export function basicOutput(address: string, amount: bigint | string | number, timelock?: number): BasicOutput {
  const unlockConditions: object[] = [{ type: 0, address: { type: 0, pubKeyHash: address } }];
  if (timelock !== undefined) unlockConditions.push({ type: 2, unixTime: timelock });
  return { type: 3, amount: BigInt(amount).toString(), unlockConditions };
}

export function inputOf(outputId: string) {
  const bytes = Buffer.from(outputId.slice(2), 'hex');
  return {
    type: 0,
    transactionId: '0x' + bytes.subarray(0, 32).toString('hex'),
    transactionOutputIndex: bytes.readUInt16LE(32),
  };
}

export interface Transfer {
  payload: { type: 6; essence: object; unlocks: object[] };
  transactionId: string;
  inputs: string[];
  /** The created outputs, in order, with the key that owns each. */
  outputs: Spendable[];
}

/** Ways to make a transfer semantically invalid while keeping it well-formed. */
export interface Tamper {
  /** Sign with this seed while presenting the owner's public key (conflict reason 5). */
  signWith?: string;
  /** Commit to these outputs instead of the consumed ones (conflict reason 10). */
  commitTo?: object[];
}

export function buildTransfer(
  networkId: string,
  inputs: Spendable[],
  targets: Target[],
  tamper: Tamper = {},
): Transfer {
  const outputs = targets.map((t) => basicOutput(t.to.address, t.amount, t.timelock));
  const essence = {
    type: 1,
    networkId,
    inputs: inputs.map((i) => inputOf(i.outputId)),
    inputsCommitment: core.inputsCommitment(tamper.commitTo ?? inputs.map((i) => i.output)),
    outputs,
  };
  const placeholder = (key: Key) => ({
    type: 0,
    signature: { type: 0, publicKey: key.publicKey, signature: '0x' + '00'.repeat(64) },
  });
  const hash = core.essenceHash({ type: 6, essence, unlocks: inputs.map((i) => placeholder(i.key)) });
  const signedAt = new Map<string, number>();
  const unlocks = inputs.map((input, index) => {
    const first = signedAt.get(input.key.address);
    if (first !== undefined) return { type: 1, reference: first };
    signedAt.set(input.key.address, index);
    const signature = core.sign(tamper.signWith ?? input.key.seed, hash);
    return { type: 0, signature: { type: 0, publicKey: input.key.publicKey, signature } };
  });
  const payload = { type: 6 as const, essence, unlocks };
  const transactionId = core.transactionId(payload);
  return {
    payload,
    transactionId,
    inputs: inputs.map((i) => i.outputId),
    outputs: outputs.map((output, index) => ({
      outputId: core.outputId(transactionId, index),
      output,
      key: targets[index].to,
    })),
  };
}

/** Split `total` into `parts` amounts (the last takes the remainder). */
export function split(total: bigint | string, parts: number): bigint[] {
  const whole = BigInt(total);
  const each = whole / BigInt(parts);
  return Array.from({ length: parts }, (_, i) => (i === parts - 1 ? whole - each * BigInt(parts - 1) : each));
}

// ---- HTTP ----

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A JSON answer of the node under test, read as it comes: its shape is what the tests assert. */
// biome-ignore lint/suspicious/noExplicitAny: a type here would restate the assertions the tests make on the answer.
export type RestJson = any;

export async function getJson(url: string, path: string): Promise<{ status: number; body: RestJson }> {
  const res = await fetch(url + path);
  return { status: res.status, body: await res.json() };
}

export async function networkIdOf(url: string): Promise<string> {
  const info = (await getJson(url, '/api/core/v2/info')).body;
  return core.networkId(info.protocol.networkName);
}

/** The genesis output as a Spendable of the dev genesis key. */
export async function genesisSpendable(url: string): Promise<Spendable> {
  const { status, body } = await getJson(url, `/api/core/v2/outputs/${GENESIS_OUTPUT_ID}`);
  if (status !== 200) throw new Error(`genesis output: ${status}`);
  return { outputId: GENESIS_OUTPUT_ID, output: body.output, key: genesisKey };
}

export function postBlock(url: string, block: object | Uint8Array): Promise<Response> {
  const binary = block instanceof Uint8Array;
  return fetch(`${url}/api/core/v2/blocks`, {
    method: 'POST',
    headers: { 'Content-Type': binary ? SERIALIZER : 'application/json' },
    body: binary ? (block as unknown as BodyInit) : JSON.stringify(block),
  });
}

/** Submit a block (the node picks parents and mines unless they are given); 201 or throw. */
export async function submit(url: string, block: object | Uint8Array): Promise<string> {
  const res = await postBlock(url, block);
  const text = await res.text();
  if (res.status !== 201) throw new Error(`submit: ${res.status} ${text}`);
  return JSON.parse(text).blockId;
}

export const submitPayload = (url: string, payload: object) => submit(url, { protocolVersion: 2, payload });

/** A block with the given parents and a nonce mined here, with its ID. */
export async function minedBlock(parents: string[], payload: object | undefined, targetScore = 5) {
  const block: Record<string, unknown> = { protocolVersion: 2, parents: [...parents].sort() };
  if (payload !== undefined) block.payload = payload;
  const { nonce } = await core.mine(block, { targetScore, threads: 1 });
  const mined = { ...block, nonce };
  return { block: mined, blockId: core.blockId(mined) as string, bytes: core.encodeBlock(mined) as Buffer };
}

/** Poll until `test` returns a value (not undefined), at most `timeoutMs`. */
export async function poll<T>(
  what: string,
  test: () => Promise<T | undefined>,
  timeoutMs = 15_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await test();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** Once the node's `/health` answers `status`: 200 healthy, 503 not (D50, a full disk). */
export function waitForHealth(url: string, status: 200 | 503 = 200, timeoutMs = 60_000): Promise<true> {
  return poll(
    `${url}/health to answer ${status}`,
    async () => ((await fetch(`${url}/health`)).status === status ? true : undefined),
    timeoutMs,
    200,
  );
}

/** Block metadata once a milestone has referenced the block. */
export async function waitForReferenced(url: string, blockId: string, timeoutMs?: number): Promise<RestJson> {
  // The last answer goes into the timeout's message: `shouldReattach` there tells a block
  // that went lazy from one that never arrived.
  let last = 'no answer';
  try {
    return await poll(
      `block ${blockId} to be referenced`,
      async () => {
        const { status, body } = await getJson(url, `/api/core/v2/blocks/${blockId}/metadata`);
        last = `${status} ${JSON.stringify(body)}`;
        return status === 200 && body.referencedByMilestoneIndex !== undefined ? body : undefined;
      },
      timeoutMs,
    );
  } catch (error) {
    throw new Error(`${(error as Error).message} at ${url}; its metadata was: ${last}`);
  }
}

/** included-block metadata of a transaction once it is included. */
export function waitForInclusion(url: string, transactionId: string, timeoutMs?: number): Promise<RestJson> {
  return poll(
    `transaction ${transactionId} to be included`,
    async () => {
      const { status, body } = await getJson(url, `/api/core/v2/transactions/${transactionId}/included-block/metadata`);
      return status === 200 ? body : undefined;
    },
    timeoutMs,
  );
}

/** Submit a transfer, wait until it is included, return the including block's metadata. */
export async function transferAndWait(url: string, transfer: Transfer, timeoutMs?: number): Promise<RestJson> {
  await submitPayload(url, transfer.payload);
  return waitForInclusion(url, transfer.transactionId, timeoutMs);
}

/** Sum of the amounts of those outputs that exist and are unspent. */
export async function unspentSum(url: string, outputIds: Iterable<string>): Promise<bigint> {
  let sum = 0n;
  for (const id of new Set(outputIds)) {
    const { status, body } = await getJson(url, `/api/core/v2/outputs/${id}`);
    if (status === 404) continue;
    if (status !== 200) throw new Error(`output ${id}: ${status}`);
    if (!body.metadata.isSpent) sum += BigInt(body.output.amount);
  }
  return sum;
}

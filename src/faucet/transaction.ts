// One faucet transaction: the faucet's outputs in, one Basic output per recipient and the
// remainder back to the faucet out, signed with the faucet's key (as the README's spend
// example does: inputs commitment over the consumed outputs, essence hash, one signature
// unlock, reference unlocks for the other inputs of the same address).

import { sign } from '../core/crypto';
import { essenceHash, inputsCommitment, transactionId } from '../core/ids';
import { storageDeposit } from '../core/validate';
import type { AddressJson, RentStructureJson } from '../core/types';
import type { FaucetKey } from './key';
import type { FaucetOutput } from './outputs';

/** Protocol limits (TIP-20): inputs and outputs of one transaction. */
export const MAX_INPUTS = 128;
export const MAX_OUTPUTS = 128;

export interface Recipient {
  address: AddressJson;
  amount: bigint;
}

export interface FaucetTransaction {
  transactionId: string;
  payload: { type: 6; essence: object; unlocks: object[] };
  consumed: string[];
  /** The remainder back to the faucet (0 when the inputs match the payout exactly). */
  remainder: bigint;
}

export class InsufficientFunds extends Error {}

const basicOutput = (address: AddressJson, amount: bigint) => ({
  type: 3,
  amount: amount.toString(),
  unlockConditions: [{ type: 0, address }],
});

/**
 * Largest outputs first until they pay every recipient and leave either nothing or a
 * remainder that covers its own storage deposit.
 */
export function selectInputs(
  outputs: FaucetOutput[],
  payout: bigint,
  remainderDeposit: bigint,
): { inputs: FaucetOutput[]; remainder: bigint } {
  const sorted = [...outputs].sort((a, b) =>
    a.amount < b.amount ? 1 : a.amount > b.amount ? -1 : a.outputId.localeCompare(b.outputId),
  );
  const inputs: FaucetOutput[] = [];
  let sum = 0n;
  for (const output of sorted) {
    if (inputs.length === MAX_INPUTS) break;
    inputs.push(output);
    sum += output.amount;
    if (sum === payout || sum >= payout + remainderDeposit) return { inputs, remainder: sum - payout };
  }
  throw new InsufficientFunds(`the faucet's outputs do not cover ${payout} (have ${sum} in ${inputs.length} outputs)`);
}

export function buildFaucetTransaction(
  networkId: string,
  key: FaucetKey,
  outputs: FaucetOutput[],
  recipients: Recipient[],
  rent: RentStructureJson,
): FaucetTransaction {
  if (recipients.length === 0 || recipients.length > MAX_OUTPUTS - 1)
    throw new RangeError(`1..${MAX_OUTPUTS - 1} recipients per transaction`);
  const owner: AddressJson = { type: 0, pubKeyHash: key.address };
  const payout = recipients.reduce((sum, r) => sum + r.amount, 0n);
  const remainderDeposit = BigInt(storageDeposit(basicOutput(owner, 1n) as never, rent));
  const { inputs, remainder } = selectInputs(outputs, payout, remainderDeposit);
  const created = recipients.map((r) => basicOutput(r.address, r.amount));
  if (remainder > 0n) created.push(basicOutput(owner, remainder));
  const essence = {
    type: 1,
    networkId,
    inputs: inputs.map(({ outputId }) => ({
      type: 0,
      transactionId: outputId.slice(0, 66),
      transactionOutputIndex: Buffer.from(outputId.slice(66), 'hex').readUInt16LE(0),
    })),
    inputsCommitment: inputsCommitment(inputs.map((i) => i.output)),
    outputs: created,
  };
  const unlocks = (signature: string) =>
    inputs.map((_, i) =>
      i === 0 ? { type: 0, signature: { type: 0, publicKey: key.publicKey, signature } } : { type: 1, reference: 0 },
    );
  // The essence hash does not cover the unlocks: hash with a placeholder, then sign.
  const payload = { type: 6 as const, essence, unlocks: unlocks('0x' + '00'.repeat(64)) };
  payload.unlocks = unlocks(sign(key.seed, essenceHash(payload)));
  return { transactionId: transactionId(payload), payload, consumed: inputs.map((i) => i.outputId), remainder };
}

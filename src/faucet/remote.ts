// The faucet seen from an HTTP worker thread (server/http-workers.ts). The faucet keeps
// one queue, one cool-down table and one set of funds, so it lives on the main thread
// only; a worker's faucet routes ask it through the worker's message port. A refusal
// crosses as its status, reason and Retry-After, and is thrown again on this side as the
// same FaucetRefusal, so the routes answer exactly as on the main thread.

import type { FaucetInfo, FaucetService } from './faucet';
import { FaucetRefusal } from './requests';

export type FaucetCall =
  | { type: 'faucet-call'; id: number; method: 'enqueue'; value: unknown }
  | { type: 'faucet-call'; id: number; method: 'info' }
  | { type: 'faucet-call'; id: number; method: 'admit'; ip: string };

export type FaucetAnswer =
  | { type: 'faucet-answer'; id: number; value: unknown }
  | { type: 'faucet-answer'; id: number; refusal: { status: number; reason: string; retryAfterSeconds?: number } }
  | { type: 'faucet-answer'; id: number; error: string };

/** The worker's side: calls go out as messages, answers settle them. */
export class RemoteFaucet implements FaucetService {
  private readonly waiting = new Map<number, { resolve: (value: unknown) => void; reject: (err: Error) => void }>();
  private nextId = 0;

  constructor(private readonly send: (call: FaucetCall) => void) {}

  enqueue(value: unknown): Promise<{ address: string; waitingRequests: number }> {
    return this.call({ method: 'enqueue', value }) as Promise<{ address: string; waitingRequests: number }>;
  }

  info(): Promise<FaucetInfo> {
    return this.call({ method: 'info' }) as Promise<FaucetInfo>;
  }

  admit(ip: string): Promise<number> {
    return this.call({ method: 'admit', ip }) as Promise<number>;
  }

  /** An answer from the main thread. */
  settle(answer: FaucetAnswer): void {
    const waiting = this.waiting.get(answer.id);
    if (waiting === undefined) return;
    this.waiting.delete(answer.id);
    if ('refusal' in answer)
      waiting.reject(new FaucetRefusal(answer.refusal.status, answer.refusal.reason, answer.refusal.retryAfterSeconds));
    else if ('error' in answer) waiting.reject(new Error(answer.error));
    else waiting.resolve(answer.value);
  }

  private call(
    call: { method: 'enqueue'; value: unknown } | { method: 'info' } | { method: 'admit'; ip: string },
  ): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.send({ type: 'faucet-call', id, ...call } as FaucetCall);
    });
  }
}

/** The main thread's side: run a worker's call on the faucet and say how it went. */
export async function answerFaucetCall(faucet: FaucetService, call: FaucetCall): Promise<FaucetAnswer> {
  try {
    const value =
      call.method === 'enqueue'
        ? await faucet.enqueue(call.value)
        : call.method === 'admit'
          ? await faucet.admit(call.ip)
          : await faucet.info();
    return { type: 'faucet-answer', id: call.id, value };
  } catch (err) {
    if (err instanceof FaucetRefusal)
      return {
        type: 'faucet-answer',
        id: call.id,
        refusal: { status: err.status, reason: err.reason, retryAfterSeconds: err.retryAfterSeconds },
      };
    return { type: 'faucet-answer', id: call.id, error: (err as Error).message };
  }
}

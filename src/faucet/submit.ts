// The faucet submits its blocks as any client does: POST /api/core/v2/blocks on this
// node's own REST port, so they pass the same pipeline (shape, tips, proof of work, every
// validation rule) and the same metrics and logs. It carries a token of the node's own
// secret, in case an operator made the route non-public.

import type { BlockSubmit } from './faucet';

/** Longer than the node's mining timeout (D27), which answers 503 first. */
const SUBMIT_TIMEOUT_MS = 120_000;

export function restSubmitter(url: string, token: string): BlockSubmit {
  return async (block) => {
    const response = await fetch(`${url}/api/core/v2/blocks`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify(block),
      signal: AbortSignal.timeout(SUBMIT_TIMEOUT_MS),
    });
    const text = await response.text();
    if (response.status !== 201) throw new Error(`the node refused the faucet's block: ${response.status} ${text}`);
    return (JSON.parse(text) as { blockId: string }).blockId;
  };
}

// The embedded coordinator's Ed25519 seeds: configured, or generated once from a CSPRNG
// and kept in the data directory as coordinator-keys.json (ledger.md §1), so that a
// restarted node goes on signing with the same key.

import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const HEX32 = /^0x[0-9a-fA-F]{64}$/;

export class CoordinatorKeysError extends Error {}

export function coordinatorKeys(configured: string[], dataDir: string): string[] {
  if (configured.length > 0) return configured;
  const file = join(dataDir, 'coordinator-keys.json');
  if (existsSync(file)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new CoordinatorKeysError(`${file} is not valid JSON: ${(err as Error).message}`);
    }
    const keys = (parsed as { privateKeys?: unknown })?.privateKeys;
    if (!Array.isArray(keys) || keys.length === 0 || keys.some((k) => typeof k !== 'string' || !HEX32.test(k))) {
      throw new CoordinatorKeysError(`${file} must hold {"privateKeys":["0x…64 hex…"]}`);
    }
    return keys as string[];
  }
  const keys = ['0x' + randomBytes(32).toString('hex')];
  writeFileSync(file, JSON.stringify({ privateKeys: keys }, null, 2) + '\n', { mode: 0o600, flag: 'wx' });
  return keys;
}

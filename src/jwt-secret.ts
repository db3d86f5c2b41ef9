// The HS256 secret of protected routes: configured, or generated once (32 random bytes)
// and kept in the data directory as `jwt-secret` so tokens survive restarts.

import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT } from 'jose';

export function jwtSecret(configured: string, dataDir: string): string {
  if (configured !== '') return configured;
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored !== '') return stored;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret + '\n', { mode: 0o600, flag: 'w' });
  return secret;
}

/** A token without expiry, for operators (`ledger-node jwt`) and tests. */
export function issueToken(secret: string): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setSubject('ledger-node')
    .sign(new TextEncoder().encode(secret));
}

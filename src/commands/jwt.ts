// `ledger-node jwt [flags]`: print a non-expiring HS256 token for the configured secret
// (or the one persisted in the data directory, generated there if none exists yet).

import { loadConfig } from '../config/load';
import { issueToken, jwtSecret } from '../jwt-secret';

export async function jwtCommand(args: string[]): Promise<void> {
  const config = loadConfig(args);
  const secret = jwtSecret(config.restApi.jwtSecret, config.dataDir);
  process.stdout.write((await issueToken(secret)) + '\n');
}

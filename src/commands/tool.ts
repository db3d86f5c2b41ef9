// `ledger-node tool db-health [options]`: check the data directory's ledger as Hornet's
// `tool db-health` does, read-only (a running node may keep it). Exit code 0 when healthy;
// 1 with one line per problem on stderr, and what to do, when not.

import { resolve } from 'node:path';
import { ConfigError, loadConfig } from '../config/load';
import { checkDatabaseHealth } from '../core/db-health';
import { LedgerError } from '../core/errors';

export async function toolCommand(args: string[]): Promise<void> {
  const [tool, ...flags] = args;
  if (tool !== 'db-health') throw new ConfigError(`tool: unknown tool '${tool ?? ''}' (use: tool db-health)`);
  const config = loadConfig(flags);
  let report: ReturnType<typeof checkDatabaseHealth>;
  try {
    report = checkDatabaseHealth(config.dataDir);
  } catch (err) {
    if (err instanceof LedgerError) throw new ConfigError(`tool db-health: ${err.detail} (${err.code})`);
    throw err;
  }
  const where = resolve(config.dataDir);
  const checked = `${report.milestones} milestone(s), ${report.blocks} block(s), ${report.unspentOutputs} unspent output(s)${report.indexerChecked ? ', the indexer' : ''}`;
  if (report.problems.length === 0) {
    process.stdout.write(`${where}: healthy (${checked})\n`);
    return;
  }
  for (const problem of report.problems) process.stderr.write(`${where}: ${problem}\n`);
  process.stderr.write(
    `${where}: the database is damaged; start a new data directory from a snapshot (snapshot.loadPath) or from the network\n`,
  );
  process.exitCode = 1;
}

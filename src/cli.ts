// The `ledger-node` command line: one subcommand per file under commands/.
//   ledger-node [start] [flags]   run the node (default)
//   ledger-node devnet [--nodes N] [flags]   a local network: coordinator + followers
//   ledger-node jwt [flags]       print a token for protected routes
//   ledger-node bench pow|codec|node   benchmark the native core or a whole node
//   ledger-node snapshot write    write the genesis as a Hornet full snapshot
//   ledger-node tool db-health    check the data directory's ledger
//   --version, --help
// Configuration errors end the process with a one-line message and exit code 2.

import { benchCommand } from './commands/bench';
import { devnetCommand } from './commands/devnet';
import { jwtCommand } from './commands/jwt';
import { snapshotCommand } from './commands/snapshot';
import { startCommand } from './commands/start';
import { toolCommand } from './commands/tool';
import { ConfigError, optionsHelp } from './config/load';
import { StartupError } from './node';
const { version } = require('../package.json') as { version: string };

const COMMANDS: Record<string, (args: string[]) => Promise<void>> = {
  start: startCommand,
  devnet: devnetCommand,
  jwt: jwtCommand,
  bench: benchCommand,
  snapshot: snapshotCommand,
  tool: toolCommand,
};

function help(): string {
  return `ledger-node ${version}: a Stardust (protocol 2) node

Usage:
  ledger-node [start] [options]   run the node
  ledger-node devnet [--nodes N] [--p2p-port P] [options]
                                  a local network on loopback: node1 runs the
                                  coordinator, node2..nodeN follow it over gossip;
                                  REST on --port and the next ports, p2p on P (15600)
                                  and the next, data in --data-dir/nodeI (default 3 nodes)
  ledger-node jwt [options]       print a non-expiring JWT for protected routes
  ledger-node bench pow [--score <n>] [--blocks <n>]
                                  proof-of-work hash rate per thread, scaling, and the
                                  time to mine blocks to a score (default 1500, 5 blocks)
  ledger-node bench codec         block encode/decode throughput
  ledger-node bench node [--seconds <n>] [--clients <n>]
                                  a node on a temporary data directory under load:
                                  submitted blocks/s, confirmed tx/s, latencies
                                  (default 10 s per load, 16 clients)
  ledger-node snapshot write --out <file> [options]
                                  write the genesis of the data directory as a Hornet
                                  full snapshot (never over an existing file)
  ledger-node tool db-health [options]
                                  check the data directory's ledger: supply, outputs,
                                  indexer, milestones, blocks (read-only; exit code 1
                                  and one line per problem when damaged)
  ledger-node --version
  ledger-node --help

Options (later sources win: defaults, --config file, environment, flags):
${optionsHelp()}
`;
}

export async function main(argv: string[]): Promise<void> {
  if (argv.includes('--version') || argv[0] === '-v') return void console.log(version);
  if (argv.includes('--help') || argv[0] === '-h' || argv[0] === 'help') return void process.stdout.write(help());
  const named = argv[0] !== undefined && !argv[0].startsWith('-');
  const command = named ? argv[0] : 'start';
  const run = COMMANDS[command];
  if (run === undefined) {
    process.stderr.write(`ledger-node: unknown command '${command}' (see --help)\n`);
    process.exitCode = 2;
    return;
  }
  try {
    await run(named ? argv.slice(1) : argv);
  } catch (err) {
    if (err instanceof ConfigError || err instanceof StartupError) {
      process.stderr.write(`ledger-node: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
}

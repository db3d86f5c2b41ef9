// `ledger-node [start] [flags]`: run the node until SIGINT/SIGTERM. On a terminal it
// prints a banner (src/terminal/banner.ts) once the node listens; the log lines, formatted
// in pino-pretty's worker, follow it.

import { loadConfig } from '../config/load';
import { startNode } from '../node';
import { banner } from '../terminal/banner';
import { runUntilSignal } from './stop-on-signal';
const { version } = require('../../package.json') as { version: string };

export async function startCommand(args: string[]): Promise<void> {
  const config = loadConfig(args);
  const { started: node, stopping } = await runUntilSignal(
    () => startNode(config),
    (n) => n.logger,
    'the node',
  );
  if (process.stdout.isTTY && !stopping) {
    const { networkName, bech32Hrp } = node.protocol;
    const facts = {
      version,
      networkName,
      bech32Hrp,
      url: node.url,
      dataDir: config.dataDir,
      dashboard: config.dashboard.enabled,
      events: config.events.enabled,
    };
    process.stdout.write(banner(facts, !process.env.NO_COLOR));
  }
}

// `ledger-node [start] [flags]`: run the node until SIGINT/SIGTERM. On a terminal it
// prints a banner (src/terminal/banner.ts) once the node listens; the log lines, formatted
// in pino-pretty's worker, follow it.

import { loadConfig } from '../config/load';
import { startNode, type RunningNode } from '../node';
import { banner } from '../terminal/banner';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { version } = require('../../package.json') as { version: string };

export async function startCommand(args: string[]): Promise<void> {
  const config = loadConfig(args);
  // Signals are taken from the start: the node may log "listening" and answer before
  // startNode returns, and a signal in that gap must stop it cleanly, not kill the
  // process halfway. One that arrives while starting stops the node once it is up.
  let node: RunningNode | undefined;
  let pending: NodeJS.Signals | undefined;
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    if (++signals > 1) {
      // A second signal means "now": leave without waiting for requests.
      process.exit(130);
    }
    if (node === undefined) pending = signal;
    else stopOn(node, signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  node = await startNode(config);
  if (process.stdout.isTTY && pending === undefined) {
    const { networkName, bech32Hrp } = node.protocol;
    const facts = { version, networkName, bech32Hrp, url: node.url, dataDir: config.dataDir, dashboard: config.dashboard.enabled, events: config.events.enabled };
    process.stdout.write(banner(facts, !process.env.NO_COLOR));
  }
  if (pending !== undefined) stopOn(node, pending);
}

function stopOn(node: RunningNode, signal: NodeJS.Signals): void {
  node.logger.info({ signal }, 'signal received');
  node.stop().then(
    () => node.logger.flush(() => process.exit(0)),
    (err) => {
      node.logger.error({ err }, 'shutdown failed');
      node.logger.flush();
      process.exit(1);
    },
  );
}

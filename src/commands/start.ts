// `ledger-node [start] [flags]`: run the node until SIGINT/SIGTERM. On a terminal it
// prints a banner (src/terminal/banner.ts) once the node listens; the log lines, formatted
// in pino-pretty's worker, follow it.

import { loadConfig } from '../config/load';
import { startNode } from '../node';
import { banner } from '../terminal/banner';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { version } = require('../../package.json') as { version: string };

export async function startCommand(args: string[]): Promise<void> {
  const config = loadConfig(args);
  const node = await startNode(config);
  if (process.stdout.isTTY) {
    const { networkName, bech32Hrp } = node.protocol;
    const facts = { version, networkName, bech32Hrp, url: node.url, dataDir: config.dataDir, dashboard: config.dashboard.enabled, events: config.events.enabled };
    process.stdout.write(banner(facts, !process.env.NO_COLOR));
  }
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    if (++signals > 1) {
      // A second signal means "now": leave without waiting for requests.
      process.exit(130);
    }
    node.logger.info({ signal }, 'signal received');
    node.stop().then(
      () => node.logger.flush(() => process.exit(0)),
      (err) => {
        node.logger.error({ err }, 'shutdown failed');
        node.logger.flush();
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

// `ledger-node [start] [flags]`: run the node until SIGINT/SIGTERM.

import { loadConfig } from '../config/load';
import { startNode } from '../node';

export async function startCommand(args: string[]): Promise<void> {
  const config = loadConfig(args);
  const node = await startNode(config);
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

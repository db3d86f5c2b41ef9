// How `start` and `devnet` end: SIGINT or SIGTERM stops what they started, cleanly, and the
// process exits 0 (1 if stopping failed); a second signal exits at once with 130.
//
// The handlers go in before anything starts: a node may log "listening" and answer before
// its start returns, and a signal in that gap must stop it cleanly, not kill the process
// halfway. A signal that arrives while starting stops it as soon as it is up.

import type { Logger } from 'pino';

export interface Stoppable {
  stop(): Promise<void>;
}

/** Start with `start`, then stop on the first SIGINT/SIGTERM. Resolves once started. */
export async function runUntilSignal<T extends Stoppable>(
  start: () => Promise<T>,
  loggerOf: (started: T) => Logger,
  what: string,
): Promise<{ started: T; stopping: boolean }> {
  let started: T | undefined;
  let pending: NodeJS.Signals | undefined;
  let signals = 0;
  const stopOn = (target: T, signal: NodeJS.Signals) => {
    const logger = loggerOf(target);
    logger.info({ signal }, `signal received: stopping ${what}`);
    target.stop().then(
      () => logger.flush(() => process.exit(0)),
      (err) => {
        logger.error({ err }, `stopping ${what} failed`);
        logger.flush();
        process.exit(1);
      },
    );
  };
  const onSignal = (signal: NodeJS.Signals) => {
    // A second signal means "now": leave without waiting for requests.
    if (++signals > 1) process.exit(130);
    if (started === undefined) pending = signal;
    else stopOn(started, signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  started = await start();
  if (pending !== undefined) stopOn(started, pending);
  return { started, stopping: pending !== undefined };
}

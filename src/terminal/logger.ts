// The node's log: JSON lines on stdout (pino), for log collectors and scripts. When stdout
// is a terminal, a person reads it instead: the same records go through pino-pretty's
// transport, which runs in a worker thread so that formatting never holds up requests.

import pino, { type Logger } from 'pino';

export function createLogger(level: string, stdout: { isTTY?: boolean } = process.stdout): Logger {
  const options = { level, base: { name: 'ledger-node' } };
  if (!stdout.isTTY) return pino(options, pino.destination({ dest: 1, sync: false }));
  return pino(
    options,
    pino.transport({
      target: 'pino-pretty',
      options: {
        destination: 1,
        // Synchronous writes inside the worker: a line is on the terminal once formatted.
        sync: true,
        colorize: !process.env.NO_COLOR,
        translateTime: 'SYS:HH:MM:ss.l',
        ignore: 'pid,hostname,name',
        singleLine: true,
      },
    }),
  );
}

// What a person sees in the terminal (issue 13 item 4): on a TTY a banner and
// human-readable log lines; anywhere else JSON lines only, as log collectors expect. The TTY
// is a real pseudo-terminal from util-linux `script`, and the node is stopped as a person
// stops it: Ctrl+C typed into that terminal.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort, LOW_POW, tempDataDir } from './node-harness';

const BIN = resolve(__dirname, '../../bin/ledger-node.js');
const SCRIPT = '/usr/bin/script';
// `script -c` runs the command through $SHELL. A shell that stays as the node's parent (dash
// does) is in the terminal's foreground group too and dies of the Ctrl+C itself, so script
// would report its 130 rather than the node's exit: `exec` makes the node the only process
// there, as it is when a person types `ledger-node` at a prompt. The shell is pinned so the
// test does not depend on the login shell of the machine running it.
const SHELL_ENV = { SHELL: '/bin/sh' };
const { version } = require('../../package.json') as { version: string };
// A progress line erased in place (\r ESC[K) ends a line as far as the text is concerned:
// whatever is written next starts at the line's beginning, whenever it comes.
const stripAnsi = (text: string) =>
  text
    // biome-ignore lint/suspicious/noControlCharactersInRegex: ESC [ K erases the rest of the line.
    .replace(/\r\u001b\[K/g, '\n')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: ESC [ … letter is an ANSI sequence.
    .replace(/\u001b\[[0-9;]*[A-Za-z]/g, '')
    .replace(/\r/g, '');

async function waitFor(
  what: string,
  read: () => string,
  test: (text: string) => boolean,
  timeoutMs = 30_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = read();
    if (test(text)) return text;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; output so far:\n${text}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const exitOf = (child: ReturnType<typeof spawn>) =>
  new Promise<number | null>((r) =>
    child.exitCode !== null ? r(child.exitCode) : child.once('exit', (code) => r(code)),
  );

describe('the terminal', () => {
  it('writes JSON lines and no banner when stdout is not a terminal', async () => {
    const port = await freePort();
    const dataDir = tempDataDir();
    const child = spawn(
      process.execPath,
      [BIN, '--port', String(port), '--bind', '127.0.0.1', '--data-dir', dataDir, '--min-pow-score', LOW_POW],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    try {
      await waitFor(
        'the listening line',
        () => out,
        (t) => t.includes('"msg":"listening"'),
      );
      child.kill('SIGTERM');
      expect(await exitOf(child)).toBe(0);
      const lines = out.split('\n').filter((l) => l !== '');
      for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
      const listening = lines.map((l) => JSON.parse(l)).find((r) => r.msg === 'listening');
      expect(listening).toMatchObject({
        level: 30,
        name: 'ledger-node',
        dashboard: `http://127.0.0.1:${port}/dashboard/`,
      });
      expect(out).not.toContain('Ctrl+C');
    } finally {
      child.kill('SIGKILL');
    }
  });

  it.skipIf(!existsSync(SCRIPT))(
    'prints a banner and readable log lines on a terminal, and stops on Ctrl+C',
    async () => {
      const port = await freePort();
      const dataDir = tempDataDir();
      const command = `exec ${[process.execPath, BIN, '--port', String(port), '--bind', '127.0.0.1', '--data-dir', dataDir, '--min-pow-score', LOW_POW].map((a) => `'${a}'`).join(' ')}`;
      // -e: script's exit code is the node's; stdin (a pipe) is typed into the terminal.
      const child = spawn(SCRIPT, ['-qec', command, '/dev/null'], {
        stdio: ['pipe', 'pipe', 'pipe'],
        env: { ...process.env, ...SHELL_ENV, NO_COLOR: '' },
      });
      let raw = '';
      child.stdout!.on('data', (c: Buffer) => (raw += c.toString()));
      try {
        const text = await waitFor(
          'the banner and the listening line',
          () => stripAnsi(raw),
          (t) => t.includes('Ctrl+C stops the node.') && /INFO.*listening/.test(t),
        );
        expect(text).toContain(`ledger-node ${version} · Stardust protocol 2 · network ledger-devnet-v2 (tst)`);
        expect(text).toMatch(new RegExp(`REST API +http://127\\.0\\.0\\.1:${port}/api/core/v2/info`));
        expect(text).toMatch(new RegExp(`Dashboard +http://127\\.0\\.0\\.1:${port}/dashboard/`));
        expect(text).toMatch(new RegExp(`Events +ws://127\\.0\\.0\\.1:${port}/api/mqtt/v1`));
        expect(text).toContain(`Data       ${resolve(dataDir)}`);
        expect(text).toContain('README.md');
        // Log lines are pino-pretty's: time, level, message; no JSON records.
        expect(text).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: bootstrap milestone issued/m);
        expect(text).not.toMatch(/^\{"level"/m);
        // biome-ignore lint/suspicious/noControlCharactersInRegex: ESC [ starts an ANSI colour sequence.
        expect(raw).toMatch(/\u001b\[/); // colours on a terminal
        child.stdin!.write('\u0003');
        expect(await exitOf(child)).toBe(0);
        expect(stripAnsi(raw)).toMatch(/INFO: stopped/);
      } finally {
        child.kill('SIGKILL');
      }
    },
  );

  it.skipIf(!existsSync(SCRIPT))(
    'leaves colours out when NO_COLOR is set and says where a turned-off part went',
    async () => {
      const port = await freePort();
      const dataDir = join(tempDataDir(), 'nested');
      const command = `exec ${[process.execPath, BIN, '--port', String(port), '--bind', '127.0.0.1', '--data-dir', dataDir, '--min-pow-score', LOW_POW, '--no-dashboard'].map((a) => `'${a}'`).join(' ')}`;
      const child = spawn(SCRIPT, ['-qec', command, '/dev/null'], {
        stdio: ['pipe', 'pipe', 'pipe'],
        env: { ...process.env, ...SHELL_ENV, NO_COLOR: '1' },
      });
      let raw = '';
      child.stdout!.on('data', (c: Buffer) => (raw += c.toString()));
      try {
        const text = await waitFor(
          'the banner',
          () => raw.replace(/\r/g, ''),
          (t) => t.includes('Ctrl+C stops the node.') && t.includes('listening'),
        );
        expect(text).toMatch(/Dashboard +off \(--no-dashboard\)/);
        // Only the progress line of opening the ledger (stderr) may move the cursor.
        // biome-ignore lint/suspicious/noControlCharactersInRegex: ESC [ … m is an ANSI colour sequence.
        expect(text.slice(text.indexOf('ledger-node '))).not.toMatch(/\u001b\[\d*m/);
        child.stdin!.write('\u0003');
        expect(await exitOf(child)).toBe(0);
      } finally {
        child.kill('SIGKILL');
      }
    },
  );
});

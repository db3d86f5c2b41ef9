// `ledger-node bench node` (src/commands/bench-node.ts), run short: it starts a node on a
// temporary data directory, drives the three loads, prints the table and removes the
// directory. Only the table's shape is checked, never its figures.

import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const BIN = resolve(__dirname, '../../bin/ledger-node.js');

function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...process.env, ...env }, timeout: 120_000 },
      (err, stdout, stderr) => {
        done({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

describe('ledger-node bench node', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'ledger-node-bench-test-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('prints one row per load with rates and latencies, and leaves no data directory behind', async () => {
    const { code, stdout, stderr } = await run(['bench', 'node', '--seconds', '3', '--clients', '4'], {
      TMPDIR: scratch,
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const lines = stdout.split('\n').filter((l) => l.startsWith('|'));
    expect(lines[0]).toBe(
      '| load | submitted | submitted blocks/s | submit p50 / p99 ms | confirmed tx/s | submit → included p50 / p99 ms |',
    );
    expect(lines[1]).toBe('|---|---|---|---|---|---|');
    const rows = lines.slice(2).map((l) =>
      l
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    );
    expect(rows.map((r) => r[0])).toEqual([
      'tagged data, parents and nonce from the client (bytes)',
      'tagged data, the node selects parents and mines (JSON)',
      'value transfers, the node selects parents and mines (JSON)',
    ]);
    const latency = /^\d+(\.\d)? \/ \d+(\.\d)?$/;
    for (const [, submitted, rate, submitMs] of rows) {
      expect(Number(submitted)).toBeGreaterThan(0);
      expect(Number(rate)).toBeGreaterThan(0);
      expect(submitMs).toMatch(latency);
    }
    // Data blocks report no confirmation; transfers report both, and all were included.
    expect(rows[0].slice(4)).toEqual(['—', '—']);
    expect(rows[1].slice(4)).toEqual(['—', '—']);
    const included = /^(\d+) \((\d+) of (\d+) included\)$/.exec(rows[2][4]);
    expect(included).not.toBeNull();
    expect(Number(included![1])).toBeGreaterThan(0);
    expect(included![2]).toBe(included![3]);
    expect(included![3]).toBe(rows[2][1]);
    expect(rows[2][5]).toMatch(latency);
    expect(readdirSync(scratch)).toEqual([]);
  }, 150_000);

  it('refuses options it does not know with exit code 2', async () => {
    const { code, stderr } = await run(['bench', 'node', '--seconds', 'x'], {});
    expect(code).toBe(2);
    expect(stderr).toContain('expected [--seconds <1..600>] [--clients <1..256>]');
  });
});

// Configuration: precedence of the sources, flag parsing, and clear errors.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/load';
import { protocolOf } from '../src/config/schema';

const GENESIS_HEX = '0x10d98fb75b13332c21bf6d03046ae46b3a2ecef7d5a683096eef0b15ab7a167d';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const c = loadConfig([], {});
    expect(c.restApi.bindAddress).toBe('0.0.0.0:14265');
    expect(c.protocol.minPowScore).toBe(1500);
    expect(c.coordinator.interval).toBe(5);
    expect(c.genesis.address).toBe(GENESIS_HEX); // the bech32 default, converted
    expect(protocolOf(c).networkName).toBe('ledger-devnet-v2');
    expect(c.restApi.maxBodyBytes).toBe(1048576);
  });

  it('applies file, then environment, then flags', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cfg-')), 'c.json');
    writeFileSync(
      file,
      JSON.stringify({ dataDir: '/from-file', protocol: { minPowScore: 10 }, coordinator: { interval: 3 } }),
    );
    const c = loadConfig(['--config', file, '--min-pow-score', '1', '--port', '0', '--no-pow'], {
      LEDGER_NODE_MIN_POW_SCORE: '20',
      LEDGER_NODE_DATA_DIR: '/from-env',
    });
    expect(c.dataDir).toBe('/from-env');
    expect(c.protocol.minPowScore).toBe(1);
    expect(c.coordinator.interval).toBe(3);
    expect(c.restApi.bindAddress).toBe('0.0.0.0:0');
    expect(c.restApi.pow.enabled).toBe(false);
  });

  it('takes a milestone interval in whole seconds or fractions down to 0.1 s', () => {
    expect(loadConfig(['--milestone-interval', '2'], {}).coordinator.interval).toBe(2);
    expect(loadConfig(['--milestone-interval', '0.25'], {}).coordinator.interval).toBe(0.25);
    expect(loadConfig([], { LEDGER_NODE_MILESTONE_INTERVAL: '0.1' }).coordinator.interval).toBe(0.1);
    const file = join(mkdtempSync(join(tmpdir(), 'cfg-')), 'c.json');
    writeFileSync(file, JSON.stringify({ coordinator: { interval: 1.5 } }));
    expect(loadConfig(['--config', file], {}).coordinator.interval).toBe(1.5);
    writeFileSync(file, JSON.stringify({ coordinator: { interval: 0.05 } }));
    expect(() => loadConfig(['--config', file], {})).toThrow(/coordinator.interval must be a number of seconds ≥ 0.1/);
    writeFileSync(file, JSON.stringify({ coordinator: { interval: '1' } }));
    expect(() => loadConfig(['--config', file], {})).toThrow(/coordinator.interval/);
  });

  it('reads repeatable and --flag=value forms', () => {
    const k1 = '0x' + '01'.repeat(32);
    const k2 = '0x' + '02'.repeat(32);
    const c = loadConfig(
      [
        '--coordinator-key',
        k1,
        `--coordinator-key=${k2}`,
        '--bind',
        '127.0.0.1',
        '--genesis-address',
        GENESIS_HEX.toUpperCase().replace('0X', '0x'),
      ],
      {},
    );
    expect(c.coordinator.privateKeys).toEqual([k1, k2]);
    expect(c.restApi.bindAddress).toBe('127.0.0.1:14265');
    expect(c.genesis.address).toBe(GENESIS_HEX);
  });

  it('reads the follower, genesis-file and durability options', () => {
    const pub = '0x' + 'ab'.repeat(32);
    const c = loadConfig(
      ['--no-coordinator', '--coordinator-public-key', pub, '--genesis-file', '/tmp/g.json', '--sync-writes'],
      {},
    );
    expect(c.coordinator.enabled).toBe(false);
    expect(c.coordinator.publicKeys).toEqual([pub]);
    expect(c.genesis.file).toBe('/tmp/g.json');
    expect(c.storage.syncWrites).toBe(true);
    expect(loadConfig([], { LEDGER_NODE_SYNC_WRITES: '1' }).storage.syncWrites).toBe(true);
    expect(loadConfig([], {}).storage.syncWrites).toBe(false);
  });

  it('bounds RocksDB memory: block cache and write buffers, 64 MiB each by default', () => {
    expect(loadConfig([], {}).storage).toMatchObject({ blockCacheMiB: 64, writeBuffersMiB: 64 });
    const c = loadConfig(['--block-cache-mib', '256', '--write-buffers-mib=16'], {});
    expect(c.storage).toMatchObject({ blockCacheMiB: 256, writeBuffersMiB: 16 });
    expect(loadConfig([], { LEDGER_NODE_BLOCK_CACHE_MIB: '8' }).storage.blockCacheMiB).toBe(8);
  });

  it('reads the mining options', () => {
    expect(loadConfig([], {}).restApi.pow).toEqual({ enabled: true, timeout: 60, threads: 0, queueSize: 16 });
    const c = loadConfig(['--pow-threads', '1', '--pow-queue-size', '0'], {});
    expect(c.restApi.pow.threads).toBe(1);
    expect(c.restApi.pow.queueSize).toBe(0);
    expect(loadConfig([], { LEDGER_NODE_POW_QUEUE_SIZE: '64' }).restApi.pow.queueSize).toBe(64);
    expect(() => loadConfig(['--pow-queue-size', '-1'], {})).toThrow(ConfigError);
  });

  it('turns the dashboard off by flag, environment or file, and keeps it public by default', () => {
    expect(loadConfig([], {}).dashboard.enabled).toBe(true);
    expect(loadConfig(['--no-dashboard'], {}).dashboard.enabled).toBe(false);
    expect(loadConfig([], { LEDGER_NODE_NO_DASHBOARD: '1' }).dashboard.enabled).toBe(false);
    const file = join(mkdtempSync(join(tmpdir(), 'cfg-')), 'c.json');
    writeFileSync(file, JSON.stringify({ dashboard: { enabled: false } }));
    expect(loadConfig(['--config', file], {}).dashboard.enabled).toBe(false);
    writeFileSync(file, JSON.stringify({ dashboard: { enabled: 'no' } }));
    expect(() => loadConfig(['--config', file], {})).toThrow('dashboard.enabled must be true or false');
    expect(loadConfig([], {}).restApi.publicRoutes).toEqual(
      expect.arrayContaining(['/dashboard', '/dashboard/*', '/api/dashboard-metrics/v1/*']),
    );
  });

  it('reads the snapshot, genesis style and network name options', () => {
    const c = loadConfig(
      ['--snapshot', '/tmp/full_snapshot.bin', '--genesis-style', 'hornet', '--network-name', 'private_tangle1'],
      {},
    );
    expect(c.snapshot.loadPath).toBe('/tmp/full_snapshot.bin');
    expect(c.genesis.style).toBe('hornet');
    expect(protocolOf(c).networkName).toBe('private_tangle1');
    const d = loadConfig([], { LEDGER_NODE_GENESIS_STYLE: 'hornet' });
    expect([d.genesis.style, d.snapshot.loadPath, protocolOf(d).networkName]).toEqual([
      'hornet',
      '',
      'ledger-devnet-v2',
    ]);
    expect(loadConfig([], {}).genesis.style).toBe('ledger');
  });

  it("reads Hornet's milestone key ranges and count (D42) from the file, outside the protocol parameters", () => {
    const k1 = 'ed3c3f1a319ff4e909cf2771d79fece0ac9bd9fd2ee49ea6c0885c9cb3b1248c';
    const k2 = '0xf6752f5f46a53364e2ee9c4d662d762a81efd51010282a75cd6bd03f28ef349c';
    const ranges = [
      { key: k1, start: 0, end: 0 },
      { key: k2, start: 10, end: 20 },
    ];
    const file = join(mkdtempSync(join(tmpdir(), 'cfg-')), 'c.json');
    writeFileSync(file, JSON.stringify({ protocol: { milestonePublicKeyCount: 2, publicKeyRanges: ranges } }));
    const c = loadConfig(['--config', file, '--no-coordinator'], {});
    expect(c.protocol.publicKeyRanges).toEqual(ranges);
    expect(c.protocol.milestonePublicKeyCount).toBe(2);
    // The persisted protocol parameters do not carry them.
    expect(Object.keys(protocolOf(c))).not.toContain('publicKeyRanges');
    expect(Object.keys(protocolOf(c))).not.toContain('milestonePublicKeyCount');
    const d = loadConfig([], {});
    expect([d.protocol.publicKeyRanges, d.protocol.milestonePublicKeyCount]).toEqual([[], 0]);
  });

  it.each([
    [{ milestonePublicKeyCount: -1 }, 'milestonePublicKeyCount'],
    [{ publicKeyRanges: {} }, 'publicKeyRanges must be a list'],
    [{ publicKeyRanges: [{ key: '12', start: 0, end: 0 }] }, 'publicKeyRanges[0].key'],
    [{ publicKeyRanges: [{ key: 'ab'.repeat(32), start: 5, end: 4 }] }, 'end 4 is before start 5'],
    [{ publicKeyRanges: [{ key: 'ab'.repeat(32), start: -1, end: 0 }] }, 'publicKeyRanges[0].start'],
    [{ publicKeyRanges: [{ key: 'ab'.repeat(32), start: 0, end: 0, from: 1 }] }, 'publicKeyRanges[0] must be'],
    [
      {
        milestonePublicKeyCount: 2,
        publicKeyRanges: [
          { key: 'ab'.repeat(32), start: 0, end: 0 },
          { key: '0x' + 'AB'.repeat(32), start: 5, end: 0 },
        ],
      },
      'more than the 1 key(s)',
    ],
  ])('refuses the key setting %j', (protocol, message) => {
    const file = join(mkdtempSync(join(tmpdir(), 'cfg-')), 'c.json');
    writeFileSync(file, JSON.stringify({ protocol }));
    expect(() => loadConfig(['--config', file], {})).toThrow(ConfigError);
    expect(() => loadConfig(['--config', file], {})).toThrow(message);
  });

  it('refuses key ranges together with coordinator.publicKeys', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cfg-')), 'c.json');
    writeFileSync(
      file,
      JSON.stringify({
        protocol: { publicKeyRanges: [{ key: 'ab'.repeat(32), start: 0, end: 0 }] },
        coordinator: { publicKeys: ['0x' + 'cd'.repeat(32)] },
      }),
    );
    expect(() => loadConfig(['--config', file], {})).toThrow(
      /either as coordinator.publicKeys or as protocol.publicKeyRanges/,
    );
  });

  it.each([
    [['--genesis-style', 'chrysalis']],
    [['--network-name', 'n'.repeat(256)]],
    [['--coordinator-public-key', '0x1234']],
    [['--sync-writes=yes']],
    [['--port', 'x']],
    [['--port', '70000']],
    [['--unknown']],
    [['--milestone-interval', '0']],
    [['--milestone-interval', '0.09']],
    [['--milestone-interval', '0.1005']],
    [['--milestone-interval', '1e3']],
    [['--milestone-interval', '-1']],
    [['--coordinator-key', '0x12']],
    [['--log-level', 'loud']],
    [['--genesis-address', 'iota1qqgdnrahtvfnxtpphaksxpr2u34n5tkw7l26dqcfdmhsk9dt0gt86dxc8zc']],
    [['--genesis-address', 'tst1qqgdnrahtvfnxtpphaksxpr2u34n5tkw7l26dqcfdmhsk9dt0gt86dxc8zd']],
    [['--config', '/does/not/exist.json']],
    [['--data-dir']],
    [['--block-cache-mib', '0']],
    [['--write-buffers-mib', '100000']],
  ])('refuses %j with a one-line ConfigError', (argv) => {
    let error: unknown;
    try {
      loadConfig(argv, {});
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).not.toContain('\n');
  });
});

describe('HTTP event loops by default (restApi.workers 0)', () => {
  it('takes one per core but one, and at least one', async () => {
    const { defaultHttpLoops } = await import('../src/node.js');
    expect([1, 2, 4, 16].map(defaultHttpLoops)).toEqual([1, 1, 3, 15]);
  });
});

// Hornet's snapshots.* keys (snapshot.md §9): how they are read and checked, and the rules the
// periodic snapshots follow with them (Hornet's shouldTakeSnapshot and optimalSnapshotType).

import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseByteSize } from '../src/config/load';
import { effectiveDepth, optimalSnapshotType, shouldTakeSnapshot } from '../src/snapshots/periodic';

describe('snapshots.* configuration', () => {
  it("has Hornet's defaults and reads the flags", () => {
    const d = loadConfig([], {});
    expect(d.snapshots).toMatchObject({
      enabled: false,
      depth: 50,
      interval: 200,
      deltaSizeThresholdPercentage: 50,
      deltaSizeThresholdMinSize: '50M',
      downloadURLs: [],
    });
    const c = loadConfig(
      [
        '--snapshots',
        '--snapshot-full-path',
        '/s/full.bin',
        '--snapshot-delta',
        '/s/delta.bin',
        '--snapshot-download',
        'https://a.example/full.bin,https://a.example/delta.bin',
        '--snapshot-download',
        'http://b.example/full.bin',
      ],
      {},
    );
    expect(c.snapshots).toMatchObject({
      enabled: true,
      fullPath: '/s/full.bin',
      deltaPath: '/s/delta.bin',
      downloadURLs: [
        { full: 'https://a.example/full.bin', delta: 'https://a.example/delta.bin' },
        { full: 'http://b.example/full.bin' },
      ],
    });
  });

  it('refuses a download URL that is not HTTP(S)', () => {
    expect(() => loadConfig(['--snapshot-download', 'ftp://x/full.bin'], {})).toThrow(ConfigError);
    expect(() => loadConfig(['--snapshot-download', 'ftp://x/full.bin'], {})).toThrow(/http:\/\/ or https:\/\//);
  });

  it("reads sizes in Hornet's units", () => {
    expect(parseByteSize('50M')).toBe(50_000_000);
    expect(parseByteSize('1GB')).toBe(1_000_000_000);
    expect(parseByteSize('512MiB')).toBe(512 * 1024 * 1024);
    expect(parseByteSize(1234)).toBe(1234);
    expect(() => parseByteSize('lots')).toThrow(/invalid size/);
  });
});

describe('periodic snapshot rules', () => {
  const rules = { depth: 50, interval: 200, thresholdPast: 20 };

  it('raises the depth to belowMaxDepth + 5', () => {
    expect(effectiveDepth(10, 15)).toBe(20);
    expect(effectiveDepth(50, 15)).toBe(50);
  });

  it('takes one every interval milestones, depth behind the confirmed one', () => {
    expect(shouldTakeSnapshot(249, rules, 0, 0)).toBe(false);
    expect(shouldTakeSnapshot(250, rules, 0, 0)).toBe(true);
    // The last one was at 200: the next is due at 200 + 250.
    expect(shouldTakeSnapshot(449, rules, 200, 0)).toBe(false);
    expect(shouldTakeSnapshot(450, rules, 200, 0)).toBe(true);
    // Never into pruned history: confirmed − depth must exceed pruning index + 20.
    expect(shouldTakeSnapshot(300, rules, 0, 230)).toBe(false);
    expect(shouldTakeSnapshot(301, rules, 0, 230)).toBe(true);
  });

  it('chooses full or delta by the file sizes', () => {
    expect(optimalSnapshotType(0, 100, 1000, 5000)).toBe('delta');
    expect(optimalSnapshotType(50, 100, undefined, undefined)).toBe('full');
    expect(optimalSnapshotType(50, 100, 1000, undefined)).toBe('delta');
    expect(optimalSnapshotType(50, 100, 1000, 100)).toBe('delta');
    expect(optimalSnapshotType(50, 100, 1000, 500)).toBe('delta');
    expect(optimalSnapshotType(50, 100, 1000, 501)).toBe('full');
  });
});

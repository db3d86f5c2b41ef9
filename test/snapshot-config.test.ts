// Hornet's snapshots.* keys (snapshot.md §9): how they are read and checked.

import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseByteSize } from '../src/config/load';

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

// Hornet's pruning keys (docs/configuration.md#pruning): defaults, the provisioning checks
// of Hornet's pruning component, and the size and duration texts as Hornet reads them.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/load';
import { parseDuration, parseSize } from '../src/core/sizes';

function withPruning(pruning: object) {
  const file = join(mkdtempSync(join(tmpdir(), 'cfg-')), 'c.json');
  writeFileSync(file, JSON.stringify({ pruning }));
  return () => loadConfig(['--config', file], {});
}

describe('pruning configuration', () => {
  it("has Hornet 2.0.1's defaults", () => {
    expect(loadConfig([], {}).pruning).toEqual({
      milestones: { enabled: false, maxMilestonesToKeep: 60480 },
      size: { enabled: true, targetSize: '30GB', thresholdPercentage: 10, cooldownTime: '5m' },
      pruneReceipts: false,
    });
  });

  it('reads the keys from the file and refuses what Hornet refuses', () => {
    const c = withPruning({ milestones: { enabled: true, maxMilestonesToKeep: 100 }, size: { targetSize: '2GiB' } })();
    expect(c.pruning.milestones).toEqual({ enabled: true, maxMilestonesToKeep: 100 });
    expect(c.pruning.size.targetSize).toBe('2GiB');
    expect(withPruning({ milestones: { enabled: true, maxMilestonesToKeep: 0 } })).toThrow(
      new ConfigError(
        'pruning.milestones.maxMilestonesToKeep has to be specified if pruning.milestones.enabled is enabled',
      ),
    );
    expect(withPruning({ size: { targetSize: '0' } })).toThrow(
      new ConfigError('pruning.size.targetSize has to be specified if pruning.size.enabled is enabled'),
    );
    expect(withPruning({ size: { enabled: false, targetSize: '0' } })).not.toThrow();
    expect(withPruning({ size: { targetSize: 'big' } })).toThrow(
      new ConfigError('parameter pruning.size.targetSize invalid'),
    );
    expect(withPruning({ size: { cooldownTime: '5 minutes' } })).toThrow(ConfigError);
    expect(withPruning({ size: { thresholdPercentage: 100 } })).toThrow(ConfigError);
    expect(withPruning({ interval: 3 })).toThrow(new ConfigError("unknown configuration key 'pruning.interval'"));
  });

  it('reads sizes as gommon and durations as Go', () => {
    expect(parseSize('30GB')).toBe(30e9);
    expect(parseSize('50M')).toBe(50e6);
    expect(parseSize('2GiB')).toBe(2 * 2 ** 30);
    expect(parseSize('2Gi')).toBe(2 * 2 ** 30);
    expect(parseSize('1.5kb')).toBe(1500);
    expect(parseSize('4096')).toBe(4096);
    expect(parseSize('12B')).toBe(12);
    for (const bad of ['', 'GB', '-1GB', '3XB', '1 2']) expect(() => parseSize(bad), bad).toThrow(RangeError);
    expect(parseDuration('5m')).toBe(300_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('250ms')).toBe(250);
    expect(parseDuration('1.5s')).toBe(1500);
    expect(parseDuration('0')).toBe(0);
    for (const bad of ['', '5', 'm', '5 m', '5d']) expect(() => parseDuration(bad), bad).toThrow(RangeError);
  });
});

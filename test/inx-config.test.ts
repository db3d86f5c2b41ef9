// The INX keys (docs/configuration.md#inx-extensions): Hornet's names and defaults, the flags
// and the environment, and a bind address that is not host:port refused.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/load';
import { reservedRoutes } from '../src/inx/service';

function withInx(inx: object) {
  const file = join(mkdtempSync(join(tmpdir(), 'cfg-')), 'c.json');
  writeFileSync(file, JSON.stringify({ inx }));
  return () => loadConfig(['--config', file], {});
}

describe('inx configuration', () => {
  it("has Hornet 2.0.1's defaults: off, localhost:9029", () => {
    expect(loadConfig([], {}).inx).toEqual({ enabled: false, bindAddress: 'localhost:9029' });
  });

  it('reads the file, the flags and the environment', () => {
    expect(withInx({ enabled: true, bindAddress: '0.0.0.0:9030' })().inx).toEqual({
      enabled: true,
      bindAddress: '0.0.0.0:9030',
    });
    expect(loadConfig(['--inx', '--inx-bind', '127.0.0.1:0'], {}).inx).toEqual({
      enabled: true,
      bindAddress: '127.0.0.1:0',
    });
    expect(loadConfig([], { LEDGER_NODE_INX: '1', LEDGER_NODE_INX_BIND: '[::1]:9029' }).inx).toEqual({
      enabled: true,
      bindAddress: '[::1]:9029',
    });
  });

  it('refuses a bind address that is not host:port and an enabled flag that is not a boolean', () => {
    for (const bindAddress of ['localhost', ':9029', 'localhost:70000', 'localhost:x', 9029]) {
      expect(withInx({ bindAddress })).toThrow(
        new ConfigError(`inx.bindAddress '${bindAddress}' must be host:port with a port 0..65535`),
      );
    }
    expect(withInx({ enabled: 'yes' })).toThrow(new ConfigError('inx.enabled must be true or false'));
  });

  it("reserves the route groups of the node's own parts, each with the flag that turns it off", () => {
    expect(reservedRoutes(loadConfig([], {}), true)).toEqual([
      { route: 'core/v2' },
      { route: 'dashboard-metrics/v1' },
      { route: 'indexer/v1', flag: '--no-indexer' },
      { route: 'mqtt/v1', flag: '--no-events' },
      { route: 'faucet/v1', flag: '--no-faucet' },
    ]);
    const bare = reservedRoutes(loadConfig(['--no-indexer', '--no-events'], {}), false);
    expect(bare.map((r) => r.route)).toEqual(['core/v2', 'dashboard-metrics/v1']);
  });
});

// The peer list across restarts (docs/gossip.md "Peer list"): a peer deleted over REST
// stays deleted at the next start even though `--peer` names it again, until it is added
// over REST again; a peer added over REST is dialled at the next start. One node, restarted
// on the same data directory with the same flags; the peers need not exist (a known peer
// that cannot be reached is still listed, as `connected: false`).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { freePortRange, issueToken, startTestNode, tempDataDir, type TestNode } from './node-harness';

const CONFIGURED = '12D3KooWSagdVaCrS14GeJhM8CbQr41AW2PiYMgptTyAybCbQuEY';
const ADDED = '12D3KooWCKwcTWevoRKa2kEBputeGASvEBuDfRDSbe8t1DWugUmL';
let node: TestNode | undefined;

afterEach(async () => {
  await node?.stop();
  node = undefined;
});

async function start(dataDir: string, p2pPort: number): Promise<{ url: string; headers: Record<string, string> }> {
  node = await startTestNode(
    [
      '--no-dashboard',
      '--gossip',
      '--p2p-bind',
      `/ip4/127.0.0.1/tcp/${p2pPort}`,
      '--peer',
      `/ip4/127.0.0.1/tcp/9/p2p/${CONFIGURED}`,
    ],
    dataDir,
  );
  const token = await issueToken(readFileSync(join(dataDir, 'jwt-secret'), 'utf8').trim());
  return { url: node.url, headers: { Authorization: `Bearer ${token}` } };
}

async function peerIds(url: string, headers: Record<string, string>): Promise<string[]> {
  const res = await fetch(`${url}/api/core/v2/peers`, { headers });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string }[]).map((p) => p.id).sort();
}

it('a peer deleted over REST stays deleted after a restart, though --peer names it; POST brings it back', async () => {
  const dataDir = tempDataDir();
  const p2pPort = await freePortRange(1); // kept across restarts: outside the ephemeral range
  const peering = () => JSON.parse(readFileSync(join(dataDir, 'peering.json'), 'utf8'));

  let { url, headers } = await start(dataDir, p2pPort);
  expect(await peerIds(url, headers)).toEqual([CONFIGURED]);
  const post = await fetch(`${url}/api/core/v2/peers`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify({ multiAddress: `/ip4/127.0.0.1/tcp/10/p2p/${ADDED}`, alias: 'added' }),
  });
  expect(post.status).toBe(200);
  expect((await fetch(`${url}/api/core/v2/peers/${CONFIGURED}`, { method: 'DELETE', headers })).status).toBe(204);
  // An id nobody knew: 204 as well, and nothing to remember.
  expect(
    (
      await fetch(`${url}/api/core/v2/peers/12D3KooWLpNdCSYpvTxsR5A6nmNrDUEeqb7v8kTSRzPPzDRFgEoh`, {
        method: 'DELETE',
        headers,
      })
    ).status,
  ).toBe(204);
  expect(await peerIds(url, headers)).toEqual([ADDED]);
  expect(peering()).toEqual({
    peers: [{ multiAddress: `/ip4/127.0.0.1/tcp/10/p2p/${ADDED}`, alias: 'added' }],
    deletedPeers: [CONFIGURED],
  });
  await node!.stop();
  node = undefined;

  // Same flags, same data directory: the deleted peer is not back, the added one is.
  ({ url, headers } = await start(dataDir, p2pPort));
  expect(await peerIds(url, headers)).toEqual([ADDED]);
  expect((await fetch(`${url}/api/core/v2/peers/${CONFIGURED}`, { headers })).status).toBe(404);
  const added = (await (await fetch(`${url}/api/core/v2/peers/${ADDED}`, { headers })).json()) as {
    relation: string;
    alias: string;
  };
  expect(added).toMatchObject({ relation: 'known', alias: 'added' });

  // Added again over REST: known now, no longer deleted, and there after the next start.
  const again = await fetch(`${url}/api/core/v2/peers`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify({ multiAddress: `/ip4/127.0.0.1/tcp/9/p2p/${CONFIGURED}` }),
  });
  expect(again.status).toBe(200);
  expect(peering().deletedPeers).toBeUndefined();
  await node!.stop();
  node = undefined;
  ({ url, headers } = await start(dataDir, p2pPort));
  expect(await peerIds(url, headers)).toEqual([ADDED, CONFIGURED].sort());
}, 60_000);

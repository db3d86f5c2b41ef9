// Five nodes on loopback (issue 24; the short version of `npm run bench:network` that CI
// runs): A the coordinator (a milestone every 6 s), B–E followers, each gossip link through
// a TCP proxy of the test's (link-proxy.ts) so that it can be cut:
//
//     A ── B ── E        a partition {A, B, C} | {D, E} cuts B–E and C–D:
//      \   |    |        D and E still have each other, but no milestone.
//       ── C ── D
//
// 1. Steady state: blocks and a transfer submitted at several nodes are referenced
//    everywhere.
// 2. Partition and heal (D50): D and E report themselves unhealthy within the follower's
//    milestone-age bound, answer 503 where they would have to select tips, confirm nothing
//    on their own; the blocks D acknowledged at the cut's start and a block with the
//    client's own parents taken during the cut are referenced after the heal, on every
//    node; no node forks.
// 3. kill -9 of E and a restart on its data directory: it catches up and serves the same
//    milestones and included-block bytes as the coordinator.
//
// Before the partition, a hostile peer (crates/ledger-sync/examples/hostile_peer, built by
// `npm run test:rust` or here) dials C directly, as an unknown peer with a fresh identity
// per connection, and runs short phases while clients submit to C: truncated frames and
// invalid blocks (C closes those streams, gossip.md §10), orphans and milestone requests
// (no offence, only load). C stays up and healthy and what it took meanwhile is referenced
// on every node.

import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LinkProxy } from './link-proxy';
import { exited, freePortRange, LOW_POW, spawnNode, tempDataDir, type ChildNode } from './node-harness';
import {
  SERIALIZER,
  buildTransfer,
  genesisSpendable,
  getJson,
  minedBlock,
  networkIdOf,
  poll,
  postBlock,
  sleep,
  submitPayload,
  testKey,
  waitForReferenced,
  waitForHealth,
} from './transactions';

const root = resolve(__dirname, '../..');
const native = (require(join(root, 'dist/native.js')) as typeof import('../../src/native')).default;
const { hostilePeerBinary } = require(join(root, 'scripts/hostile-peer.js')) as { hostilePeerBinary: () => string };

const K = testKey('network coordinator');
const NAMES = ['A', 'B', 'C', 'D', 'E'] as const;
type Name = (typeof NAMES)[number];
const LINKS: [Name, Name][] = [
  ['A', 'B'],
  ['A', 'C'],
  ['B', 'C'],
  ['C', 'D'],
  ['B', 'E'],
  ['D', 'E'],
];
const SMALL_SIDE: Name[] = ['D', 'E'];
// A follower is unhealthy after max(15 s, 3 intervals) without a milestone (D50): with 6 s
// milestones that is 3 milestones of the cut. Tip selection drops a block once the
// coordinator is more than 8 milestones past its youngest cone root (Hornet's
// maxDeltaBlockYoungestConeRootIndexToCMI), so the blocks D takes at the cut's start are
// still referenceable when the cut ends 5 milestones (30 s) later than it must.
const INTERVAL_S = 6;
const TIPSEL_WINDOW = 8;
const tagged = (text: string) => ({
  type: 5,
  tag: '0x' + Buffer.from('network').toString('hex'),
  data: '0x' + Buffer.from(text).toString('hex'),
});

interface Member {
  dir: string;
  flags: string[];
  p2pPort: number;
  node?: ChildNode;
}
const members = new Map<Name, Member>();
/** The proxies of one undirected link: one per dialling side. */
const links = new Map<string, LinkProxy[]>();

const url = (name: Name) => members.get(name)!.node!.url;
const crossing = ([x, y]: [Name, Name]) => SMALL_SIDE.includes(x) !== SMALL_SIDE.includes(y);

async function confirmed(name: Name): Promise<number> {
  return (await getJson(url(name), '/api/core/v2/info')).body.status.confirmedMilestone.index as number;
}

function reach(name: Name, index: number, timeoutMs = 90_000): Promise<true> {
  return poll(
    `${name} to confirm milestone ${index}`,
    async () => ((await confirmed(name)) >= index ? true : undefined),
    timeoutMs,
    200,
  );
}

const HOSTILE_PHASES = ['truncated', 'invalid-blocks', 'unknown-parents', 'milestone-requests'];

interface HostileReport {
  phase: string;
  messages: number;
  connections: number;
  closedByNode: number;
  leftOpen: number;
}

/** Run the hostile peer's `phases` against the p2p port `port`; one report a phase. */
function hostile(port: number, network: string, phases: string[]): Promise<HostileReport[]> {
  const args = ['--address', `/ip4/127.0.0.1/tcp/${port}`, '--network', network, '--phases', phases.join(',')];
  args.push('--messages', '5000', '--seconds', '2', '--close-wait', '15', '--pow', LOW_POW, '--json');
  return new Promise((resolve, reject) => {
    execFile(hostilePeer, args, { maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`hostile_peer failed: ${err.message}\n${stderr}`));
      resolve(
        stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as HostileReport),
      );
    });
  });
}

async function stop(node: ChildNode | undefined): Promise<void> {
  if (!node || node.child.exitCode !== null || node.child.signalCode !== null) return;
  node.child.kill('SIGTERM');
  await exited(node.child);
}

let hostilePeer: string;

beforeAll(async () => {
  // Built by `npm run test:rust` (cargo test builds the examples); built here otherwise,
  // before any node runs (the build blocks this process).
  hostilePeer = hostilePeerBinary();
  for (const name of NAMES) members.set(name, { dir: tempDataDir(), flags: [], p2pPort: await freePortRange(1) });
  const peerId = new Map(
    NAMES.map((n) => [n, native.identityPeerId(join(members.get(n)!.dir, 'p2p-identity.key'), undefined) as string]),
  );
  const p2pPort = new Map<Name, number>(NAMES.map((n) => [n, members.get(n)!.p2pPort]));
  const peers = new Map<Name, string[]>(NAMES.map((n) => [n, []]));
  for (const [x, y] of LINKS) {
    const toY = await LinkProxy.open(p2pPort.get(y)!);
    const toX = await LinkProxy.open(p2pPort.get(x)!);
    links.set(`${x}${y}`, [toY, toX]);
    peers.get(x)!.push(`/ip4/127.0.0.1/tcp/${toY.port}/p2p/${peerId.get(y)}`);
    peers.get(y)!.push(`/ip4/127.0.0.1/tcp/${toX.port}/p2p/${peerId.get(x)}`);
  }
  for (const name of NAMES) {
    const member = members.get(name)!;
    const config = join(member.dir, 'network-test.json');
    // Redial a lost peer after 1 s, not Hornet's 30 s: the heal is measured, not waited for.
    writeFileSync(config, JSON.stringify({ p2p: { reconnectInterval: 1 } }));
    const role =
      name === 'A'
        ? ['--milestone-interval', String(INTERVAL_S), '--coordinator-key', K.seed]
        : ['--no-coordinator', '--coordinator-public-key', K.publicKey];
    member.flags = [
      '--config',
      config,
      '--no-dashboard',
      '--gossip',
      '--p2p-bind',
      `/ip4/127.0.0.1/tcp/${p2pPort.get(name)}`,
      ...peers.get(name)!.flatMap((p) => ['--peer', p]),
      ...role,
    ];
  }
  await Promise.all(
    NAMES.map(async (name) => {
      const member = members.get(name)!;
      member.node = await spawnNode(member.flags, member.dir);
    }),
  );
}, 1_800_000);

afterAll(async () => {
  await Promise.all([...members.values()].map((m) => stop(m.node)));
  await Promise.all([...links.values()].flat().map((p) => p.close()));
});

it('stays one network through a partition, its heal and a kill -9; nothing acknowledged is lost', async () => {
  // 1. Steady state.
  await Promise.all(NAMES.map((n) => reach(n, 2)));
  await Promise.all(NAMES.map((n) => waitForHealth(url(n), 200, 90_000)));
  const acknowledged: string[] = [];
  for (const name of NAMES) acknowledged.push(await submitPayload(url(name), tagged(`steady at ${name}`)));
  const genesis = await genesisSpendable(url('A'));
  const transfer = buildTransfer(
    await networkIdOf(url('A')),
    [genesis],
    [{ to: testKey('network receiver'), amount: BigInt(genesis.output.amount) }],
  );
  acknowledged.push(await submitPayload(url('B'), transfer.payload));
  for (const id of acknowledged) await Promise.all(NAMES.map((n) => waitForReferenced(url(n), id, 60_000)));

  // 1b. A hostile peer at C while clients submit to it.
  const network = (await getJson(url('C'), '/api/core/v2/info')).body.protocol.networkName as string;
  const attack = hostile(members.get('C')!.p2pPort, network, HOSTILE_PHASES);
  const underAttack: string[] = [];
  let attacking = true;
  void attack.finally(() => (attacking = false));
  while (attacking || underAttack.length < 3) {
    underAttack.push(await submitPayload(url('C'), tagged(`C under attack ${underAttack.length}`)));
    await sleep(250);
  }
  const reports = await attack;
  expect(reports.map((r) => r.phase)).toEqual(HOSTILE_PHASES);
  for (const r of reports) {
    expect(r.messages, r.phase).toBeGreaterThan(0);
    // The offences: every stream the attacker opened was closed by C.
    if (['truncated', 'invalid-blocks'].includes(r.phase)) {
      expect(r.closedByNode, r.phase).toBe(r.connections);
      expect(r.leftOpen, r.phase).toBe(0);
    }
  }
  await waitForHealth(url('C'), 200, 90_000);
  for (const id of underAttack) await Promise.all(NAMES.map((n) => waitForReferenced(url(n), id, 60_000)));
  acknowledged.push(...underAttack);

  // 2. The partition. D still sees a fresh milestone and a peer (E): it takes blocks and
  // attaches them itself, and only E hears of them.
  for (const link of LINKS.filter(crossing)) for (const proxy of links.get(link.join(''))!) proxy.sever();
  const atCut = await confirmed('A');
  const takenAtCut: string[] = [];
  for (let i = 0; i < 3; i++) takenAtCut.push(await submitPayload(url('D'), tagged(`D at the cut ${i}`)));
  // Within the follower's bound (max(15 s, 3 intervals)) and a heartbeat, D and E say they
  // are cut off, and refuse to choose parents.
  await Promise.all(SMALL_SIDE.map((n) => waitForHealth(url(n), 503, 90_000)));
  for (const name of SMALL_SIDE) {
    const info = (await getJson(url(name), '/api/core/v2/info')).body;
    expect(info.status.isHealthy, name).toBe(false);
    const refused = await postBlock(url(name), { protocolVersion: 2, payload: tagged(`${name} cut off`) });
    expect(refused.status, name).toBe(503);
    expect((await refused.json()).error.message, name).toMatch(/not healthy/);
    expect((await fetch(`${url(name)}/api/core/v2/tips`)).status, name).toBe(503);
  }
  // A block whose parents the client chose is still taken.
  const chosen = await minedBlock(takenAtCut.slice(0, 2), tagged('D, parents chosen by the client'), Number(LOW_POW));
  const taken = await postBlock(url('D'), chosen.block);
  expect(taken.status).toBe(201);
  // The large side went on; the small one confirmed nothing meanwhile.
  const atHeal = await reach('A', atCut + 1).then(() => confirmed('A'));
  for (const name of SMALL_SIDE) expect(await confirmed(name), name).toBeLessThanOrEqual(atCut);
  // What D took at the cut's start stays selectable while the coordinator's milestones
  // since then stay within tip selection's window: a loaded machine stretches the cut in
  // seconds, but the interval keeps it about 3 milestones long, well inside the window.
  expect(atHeal - atCut, 'milestones during the cut').toBeLessThan(TIPSEL_WINDOW);

  // The heal: every node reaches the coordinator's milestone, and what D took is referenced
  // everywhere.
  for (const link of LINKS.filter(crossing)) for (const proxy of links.get(link.join(''))!) proxy.heal();
  const healed = Date.now();
  const target = (await confirmed('A')) + 1;
  await Promise.all(NAMES.map((n) => reach(n, target)));
  const catchUpMs = Date.now() - healed;
  for (const id of [...takenAtCut, chosen.blockId])
    await Promise.all(NAMES.map((n) => waitForReferenced(url(n), id, 60_000)));
  await Promise.all(SMALL_SIDE.map((n) => waitForHealth(url(n), 200, 90_000)));
  console.log(
    `network: a cut of ${atHeal - atCut} milestones; the small side confirmed milestone ${target} ${catchUpMs} ms after the heal`,
  );

  // 3. kill -9 of E under load, and its restart.
  const e = members.get('E')!;
  const duringKill = [submitPayload(url('B'), tagged('B before the kill'))];
  e.node!.child.kill('SIGKILL');
  await exited(e.node!.child);
  for (let i = 0; i < 3; i++) duringKill.push(submitPayload(url('C'), tagged(`C while E is down ${i}`)));
  acknowledged.push(...(await Promise.all(duringKill)));
  await reach('A', (await confirmed('A')) + 2);
  e.node = await spawnNode(e.flags, e.dir);
  await reach('E', await confirmed('A'));
  await waitForHealth(url('E'), 200, 90_000);
  acknowledged.push(await submitPayload(url('E'), tagged('E after its restart')));
  for (const id of acknowledged) await Promise.all(NAMES.map((n) => waitForReferenced(url(n), id, 60_000)));

  // One network: the same milestones everywhere, and the same included block.
  const last = await confirmed('A');
  await Promise.all(NAMES.map((n) => reach(n, last)));
  for (let index = 1; index <= last; index++) {
    const path = `/api/core/v2/milestones/by-index/${index}`;
    const bodies = await Promise.all(NAMES.map(async (n) => (await getJson(url(n), path)).body));
    for (const body of bodies.slice(1)) expect(body, path).toEqual(bodies[0]);
  }
  const included = await Promise.all(
    NAMES.map(async (n) =>
      Buffer.from(
        await (
          await fetch(`${url(n)}/api/core/v2/transactions/${transfer.transactionId}/included-block`, {
            headers: { Accept: SERIALIZER },
          })
        ).arrayBuffer(),
      ),
    ),
  );
  for (const bytes of included.slice(1)) expect(bytes.equals(included[0])).toBe(true);
}, 420_000);

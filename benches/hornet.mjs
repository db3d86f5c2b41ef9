// Hornet 2.0.1, the reference node, as a benchmark peer: started with the team's interop
// scripts (`start-hornet-pair.sh` with its coordinator; they are not part of this
// repository) on free ports in a temporary state folder, so that the HTTP benchmark can
// drive it next to our node.
//
// Where from, both named explicitly (nothing outside the clone is guessed): HORNET_BIN (a
// folder holding `hornet` and `inx-coordinator`, as build.sh leaves them) and
// HORNET_INTEROP (the folder of start-hornet-pair.sh). Without them the benchmark runs
// our node alone and `hornetUnavailable()` says why.
//
// The pair's second node only serves gossip: once the coordinator has issued milestones,
// it is stopped so that it does not take CPU time from the node under test.
//
// A Hornet follower of our coordinator (`startHornetFollower`, bench:sync and
// bench:gossip-cost): `start-hornet-follower.sh` from the genesis snapshot our coordinator
// writes (`writeGenesisSnapshot`, i.e. `ledger-node snapshot write`), trusting our
// coordinator's key and dialing it over gossip.

import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './node-process.mjs';

function locate() {
  const bin =
    process.env.HORNET_BIN && existsSync(join(process.env.HORNET_BIN, 'hornet')) ? process.env.HORNET_BIN : undefined;
  const scripts =
    process.env.HORNET_INTEROP && existsSync(join(process.env.HORNET_INTEROP, 'start-hornet-pair.sh'))
      ? process.env.HORNET_INTEROP
      : undefined;
  return { bin, scripts };
}

/** `undefined` when Hornet can be started, else why not. */
export function hornetUnavailable() {
  const { bin, scripts } = locate();
  if (!bin) return 'no Hornet binary (set HORNET_BIN to the folder build.sh of the interop scripts fills)';
  if (!existsSync(join(bin, 'inx-coordinator'))) return `no inx-coordinator in ${bin} (WITH_COORDINATOR=1 build.sh)`;
  if (!scripts) return 'no interop scripts (set HORNET_INTEROP to the folder of start-hornet-pair.sh)';
  return undefined;
}

function run(file, args, env = {}, timeout = 180_000) {
  return new Promise((resolveRun, reject) => {
    execFile(file, args, { env: { ...process.env, ...env }, timeout }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${file} ${args.join(' ')} failed: ${err.message}\n${stdout}\n${stderr}`));
      else resolveRun(stdout);
    });
  });
}

function stopPid(file) {
  if (!existsSync(file)) return;
  const pid = Number(readFileSync(file, 'utf8').trim());
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    // already gone
  }
}

/**
 * Start Hornet (with its coordinator) and return `{ url, pid, stop() }`; `url` is the REST
 * API of the node under test.
 */
export async function startHornet() {
  const { bin, scripts } = locate();
  const state = join(mkdtempSync(join(tmpdir(), 'ledger-node-bench-hornet-')), 'pair');
  const [rest1, rest2, p2p1, p2p2, inx] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const env = {
    BIN: bin,
    STATE: state,
    WITH_COORDINATOR: '1',
    REST_1: `127.0.0.1:${rest1}`,
    REST_2: `127.0.0.1:${rest2}`,
    P2P_PORT_1: String(p2p1),
    P2P_PORT_2: String(p2p2),
    INX_1: `127.0.0.1:${inx}`,
  };
  const stop = async () => {
    await run('bash', [join(scripts, 'stop.sh'), state], {}).catch(() => {});
    rmSync(dirname(state), { recursive: true, force: true });
  };
  try {
    await run('bash', [join(scripts, 'start-hornet-pair.sh')], env);
    const url = `http://127.0.0.1:${rest1}`;
    // Wait until the coordinator's milestones arrive (POST answers 503 before).
    const deadline = Date.now() + 60_000;
    for (;;) {
      const info = await (await fetch(`${url}/api/core/v2/info`)).json();
      if (info.status.isHealthy && info.status.confirmedMilestone.index >= 2) break;
      if (Date.now() > deadline)
        throw new Error(`Hornet did not confirm milestones within 60 s (${JSON.stringify(info.status)}); see ${state}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    stopPid(join(state, 'hornet-2.pid'));
    const pid = Number(readFileSync(join(state, 'hornet-1.pid'), 'utf8').trim());
    return { url, pid, state, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Hornet's private-tangle wallet (public test key of Hornet's private_tangle_keys.md): seed, and its genesis output of 1 Ti. */
export const HORNET_WALLET_SEED = '0x52d23081a626b1eca34b63f1eaeeafcbd66bf545635befc12cd0f19926efefb0';

/** `undefined` when a Hornet follower can be started, else why not. */
export function hornetFollowerUnavailable() {
  const bin = process.env.HORNET_BIN;
  const scripts = process.env.HORNET_INTEROP;
  if (!bin || !existsSync(join(bin, 'hornet'))) return 'no Hornet (set HORNET_BIN to the folder holding `hornet`)';
  if (!scripts || !existsSync(join(scripts, 'start-hornet-follower.sh')))
    return 'no interop scripts (set HORNET_INTEROP to the folder of start-hornet-follower.sh)';
  return undefined;
}

/**
 * The genesis snapshot of our node's data directory (`ledger-node snapshot write`, the node
 * may be running), in a temporary folder: `{ file, remove() }`.
 */
export async function writeGenesisSnapshot(dataDir) {
  const file = join(mkdtempSync(join(tmpdir(), 'ledger-node-bench-genesis-')), 'genesis.bin');
  const bin = fileURLToPath(new URL('../bin/ledger-node.js', import.meta.url));
  await run(process.execPath, [bin, 'snapshot', 'write', '--out', file, '--data-dir', dataDir], {}, 300_000);
  return { file, remove: () => rmSync(dirname(file), { recursive: true, force: true }) };
}

/**
 * A Hornet follower from `snapshotFile`, trusting `coordinatorPublicKey` (0x hex) and dialing
 * `peerAddress` (a multiaddress with /p2p/), or every address of `peers`:
 * `{ url, pid, state, restPort, stop(), remove() }`.
 *
 * Several followers in one network (bench:network --hornets): start-hornet-follower.sh gives
 * every follower the same p2p identity (common.sh's P2P_KEY_4), so `identityPrivateKey` (hex
 * of the 64-byte key, seed ‖ public key) gives this one its own, and `flags` adds more of
 * Hornet's flags (INX, …). Both go through a `hornet` wrapper in the follower's temporary
 * folder, given to the script as its BIN: for the node's run (`-c config.json …`) it runs
 * the real binary with these flags after the script's (the last value of a flag wins), for
 * the script's `tool` calls the binary unchanged; the wrapper execs, so the pid is Hornet's.
 * `restPort`/`p2pPort` choose the ports (free ones otherwise).
 */
export async function startHornetFollower({
  snapshotFile,
  coordinatorPublicKey,
  peerAddress,
  peers = [peerAddress],
  identityPrivateKey,
  flags = [],
  restPort,
  p2pPort,
}) {
  const folder = mkdtempSync(join(tmpdir(), 'ledger-node-bench-hornet-follower-'));
  const state = join(folder, 'follower');
  const rest = restPort ?? (await freePort());
  const p2p = p2pPort ?? (await freePort());
  const extra = [...(identityPrivateKey ? [`--p2p.identityPrivateKey=${identityPrivateKey}`] : []), ...flags];
  let bin = process.env.HORNET_BIN;
  if (extra.length > 0) {
    bin = join(folder, 'bin');
    mkdirSync(bin);
    const quoted = extra.map((f) => `'${f.replaceAll("'", "'\\''")}'`).join(' ');
    const real = join(process.env.HORNET_BIN, 'hornet');
    writeFileSync(
      join(bin, 'hornet'),
      `#!/bin/sh\nif [ "$1" = -c ]; then exec '${real}' "$@" ${quoted}; fi\nexec '${real}' "$@"\n`,
      { mode: 0o755 },
    );
  }
  const stop = async () => {
    await run('bash', [join(process.env.HORNET_INTEROP, 'stop.sh'), state]).catch(() => {});
  };
  const remove = () => rmSync(folder, { recursive: true, force: true });
  try {
    await run('bash', [join(process.env.HORNET_INTEROP, 'start-hornet-follower.sh')], {
      BIN: bin,
      SNAPSHOT: snapshotFile,
      COO_PUBLIC_KEYS: coordinatorPublicKey.slice(2),
      LEDGER_PEER: peers.join(','),
      STATE: state,
      REST_F: `127.0.0.1:${rest}`,
      P2P_PORT_F: String(p2p),
    });
  } catch (err) {
    await stop();
    remove();
    throw err;
  }
  const pid = Number(readFileSync(join(state, 'hornet-follower.pid'), 'utf8').trim());
  return { url: `http://127.0.0.1:${rest}`, pid, state, restPort: rest, stop, remove };
}

// Hornet 2.0.1, the reference node, as a benchmark peer: started with the interop scripts
// (../shared/interop, `start-hornet-pair.sh` with its coordinator) on free ports in a
// temporary state folder, so that the HTTP benchmark can drive it next to our node.
//
// Where from: HORNET_BIN (a folder holding `hornet` and `inx-coordinator`, default
// /work/cache/hornet/bin, or `${TMPDIR:-/tmp}/hornet-interop/bin` as build.sh leaves it)
// and HORNET_INTEROP (the scripts' folder, default ../shared/interop beside the clone, or
// /work/shared/interop). `hornetAvailable()` says why not when something is missing.
//
// The pair's second node only serves gossip: once the coordinator has issued milestones,
// it is stopped so that it does not take CPU time from the node under test.

import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

function firstExisting(candidates) {
  return candidates.find((p) => p && existsSync(p));
}

function locate() {
  const bin = firstExisting([process.env.HORNET_BIN, '/work/cache/hornet/bin', join(process.env.TMPDIR ?? '/tmp', 'hornet-interop/bin')].filter((d) => d && existsSync(join(d, 'hornet'))));
  const scripts = firstExisting([process.env.HORNET_INTEROP, resolve(here, '../../shared/interop'), resolve(here, '../../../shared/interop'), '/work/shared/interop'].filter((d) => d && existsSync(join(d ?? '', 'start-hornet-pair.sh'))));
  return { bin, scripts };
}

/** `undefined` when Hornet can be started, else why not. */
export function hornetUnavailable() {
  const { bin, scripts } = locate();
  if (!bin) return 'no Hornet binary (set HORNET_BIN, or build it with ../shared/interop/build.sh)';
  if (!existsSync(join(bin, 'inx-coordinator'))) return `no inx-coordinator in ${bin} (WITH_COORDINATOR=1 build.sh)`;
  if (!scripts) return 'no interop scripts (set HORNET_INTEROP to the folder of start-hornet-pair.sh)';
  return undefined;
}

function freePort() {
  return new Promise((resolvePort) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

function run(file, args, env) {
  return new Promise((resolveRun, reject) => {
    execFile(file, args, { env: { ...process.env, ...env }, timeout: 180_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${file} failed: ${err.message}\n${stdout}\n${stderr}`));
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
  const [rest1, rest2, p2p1, p2p2, inx] = [await freePort(), await freePort(), await freePort(), await freePort(), await freePort()];
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
      if (Date.now() > deadline) throw new Error(`Hornet did not confirm milestones within 60 s (${JSON.stringify(info.status)}); see ${state}`);
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

// `ledger-node devnet [--nodes N] [flags]`: a local network in one process — node1 runs
// the coordinator, node2…nodeN follow it (D42/D43) — all on loopback and peered with each
// other over gossip. REST on --port and the next ports, p2p on 15600 and the next, data
// under --data-dir/nodeI (kept between runs: identities, coordinator key, ledgers). Every
// other start flag applies to all nodes. Each log line carries the node's name; SIGINT or
// SIGTERM stops the followers, then the coordinator.

import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import type { Logger } from 'pino';
import { ConfigError, loadConfig, splitBind } from '../config/load';
import type { NodeConfig } from '../config/schema';
import { coordinatorKeys } from '../coordinator-keys';
import native from '../native';
import { startNode, type RunningNode } from '../node';
import { createLogger } from '../terminal/logger';
import { runUntilSignal } from './stop-on-signal';

/** The first p2p port; node I listens on P2P_BASE_PORT + I − 1. */
export const P2P_BASE_PORT = 15600;
const MAX_NODES = 16;

export interface DevnetOptions {
  nodes: number;
  /** The first node's p2p port (default 15600). */
  p2pPort: number;
  config: NodeConfig;
}

export interface RunningDevnet {
  /** `inx`: the node's INX address, when INX is on. */
  nodes: { name: string; node: RunningNode; peerId: string; p2p: string; inx?: string }[];
  stop(): Promise<void>;
}

/** Split `--nodes N` and `--p2p-port N` from the start flags. */
export function parseDevnetArgs(args: string[]): DevnetOptions {
  let nodes = 3;
  let p2pPort = P2P_BASE_PORT;
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i].split('=', 2);
    if (flag === '--nodes' || flag === '--p2p-port') {
      const text = inline ?? args[++i];
      if (text === undefined || !/^\d+$/.test(text)) throw new ConfigError(`${flag} needs a whole number`);
      const value = Number(text);
      if (flag === '--nodes') {
        if (value < 1 || value > MAX_NODES) throw new ConfigError(`--nodes must be 1..${MAX_NODES}`);
        nodes = value;
      } else {
        if (value < 1 || value > 65535 - MAX_NODES) throw new ConfigError('--p2p-port must be a port 1..65519');
        p2pPort = value;
      }
    } else {
      rest.push(args[i]);
    }
  }
  return { nodes, p2pPort, config: loadConfig(rest) };
}

/** `host:port` moved `i` ports on (port 0 stays 0: the system picks one). */
function nthPort(bindAddress: string, i: number): string {
  const { host, port } = splitBind(bindAddress);
  return `${host}:${port === 0 ? 0 : port + i}`;
}

/** The configuration of each node: its folder, ports, role and peers. */
export function devnetConfigs(
  options: DevnetOptions,
): { name: string; config: NodeConfig; peerId: string; p2p: string }[] {
  const base = options.config;
  const names = Array.from({ length: options.nodes }, (_, i) => `node${i + 1}`);
  const dirs = names.map((name) => join(base.dataDir, name));
  for (const dir of dirs) mkdirSync(dir, { recursive: true });
  const seeds = coordinatorKeys(base.coordinator.privateKeys, dirs[0]);
  const publicKeys = seeds.map(
    (seed) => '0x' + native.ed25519PublicKey(Buffer.from(seed.slice(2), 'hex')).toString('hex'),
  );
  const peerIds = dirs.map((dir) => native.identityPeerId(join(dir, 'p2p-identity.key'), undefined));
  const p2p = names.map((_, i) => `/ip4/127.0.0.1/tcp/${options.p2pPort + i}`);
  return names.map((name, i) => {
    const config = structuredClone(base);
    config.dataDir = dirs[i];
    config.restApi.bindAddress = nthPort(base.restApi.bindAddress, i);
    // INX, when on, on the next ports too: each node serves its own extensions (one INX
    // port shared would let only node1 start).
    if (base.inx.enabled) config.inx.bindAddress = nthPort(base.inx.bindAddress, i);
    config.gossip.enabled = true;
    config.p2p.bindMultiAddresses = [p2p[i]];
    config.p2p.identityFile = '';
    config.p2p.identityPrivateKey = '';
    config.p2p.peers = names.flatMap((other, j) =>
      j === i ? [] : [{ multiAddress: `${p2p[j]}/p2p/${peerIds[j]}`, alias: other }],
    );
    if (i === 0) {
      config.coordinator.enabled = true;
      config.coordinator.privateKeys = seeds;
    } else {
      config.coordinator.enabled = false;
      config.coordinator.privateKeys = [];
      config.coordinator.publicKeys = publicKeys;
    }
    return { name, config, peerId: peerIds[i], p2p: p2p[i] };
  });
}

/** Start every node (the coordinator first, so milestone 1 exists when followers ask). */
export async function startDevnet(options: DevnetOptions, logger: Logger): Promise<RunningDevnet> {
  const started: RunningDevnet['nodes'] = [];
  const stop = async () => {
    // Followers first: the coordinator keeps answering their last requests meanwhile.
    for (const { node } of [...started].reverse()) await node.stop();
  };
  try {
    for (const { name, config, peerId, p2p } of devnetConfigs(options)) {
      const node = await startNode(config, { logger: logger.child({ node: name }, { msgPrefix: `[${name}] ` }) });
      started.push({ name, node, peerId, p2p, inx: config.inx.enabled ? config.inx.bindAddress : undefined });
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { nodes: started, stop };
}

export async function devnetCommand(args: string[]): Promise<void> {
  const options = parseDevnetArgs(args);
  const logger = createLogger(options.config.logLevel);
  const { started: devnet } = await runUntilSignal(
    () => startDevnet(options, logger),
    () => logger,
    'the devnet',
  );
  for (const { name, node, peerId, p2p, inx } of devnet.nodes) {
    const role = node.gossip && name === 'node1' ? 'coordinator' : 'follower';
    process.stdout.write(
      `${name}  ${role.padEnd(11)}  ${node.url}  ${p2p}/p2p/${peerId}${inx ? `  INX ${inx}` : ''}\n`,
    );
  }
}

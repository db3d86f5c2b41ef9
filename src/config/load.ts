// Configuration sources, merged in this order (later wins): defaults → JSON file
// (--config) → environment variables (LEDGER_NODE_*) → command-line flags. Anything
// invalid throws ConfigError with a one-line message; the CLI prints it and exits with 2.

import { readFileSync } from 'node:fs';
import { bech32Decode } from '../core/ids';
import { parseDuration, parseSize } from '../core/sizes';
import { defaultConfig, type NodeConfig } from './schema';

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** One command-line flag: its config path, how to parse the value, its help text. */
interface Option {
  flag: string;
  env: string;
  path: string;
  kind: 'string' | 'int' | 'seconds' | 'bool' | 'list' | 'negate' | 'bind-port' | 'bind-host' | 'peers' | 'downloads';
  help: string;
}

export const OPTIONS: Option[] = [
  {
    flag: '--config',
    env: 'LEDGER_NODE_CONFIG',
    path: '',
    kind: 'string',
    help: 'JSON configuration file (keys as in ledger.md §1)',
  },
  {
    flag: '--data-dir',
    env: 'LEDGER_NODE_DATA_DIR',
    path: 'dataDir',
    kind: 'string',
    help: 'data directory (default ./data)',
  },
  {
    flag: '--port',
    env: 'LEDGER_NODE_PORT',
    path: 'restApi.bindAddress',
    kind: 'bind-port',
    help: 'HTTP port (default 14265; 0 = any free port)',
  },
  {
    flag: '--bind',
    env: 'LEDGER_NODE_BIND',
    path: 'restApi.bindAddress',
    kind: 'bind-host',
    help: 'HTTP bind address, host or host:port (default 0.0.0.0:14265)',
  },
  {
    flag: '--min-pow-score',
    env: 'LEDGER_NODE_MIN_POW_SCORE',
    path: 'protocol.minPowScore',
    kind: 'int',
    help: 'protocol minPowScore (default 1500; persisted on first start)',
  },
  {
    flag: '--milestone-interval',
    env: 'LEDGER_NODE_MILESTONE_INTERVAL',
    path: 'coordinator.interval',
    kind: 'seconds',
    help: 'seconds between milestones, fractions down to 0.1 allowed (default 5)',
  },
  {
    flag: '--pow-threads',
    env: 'LEDGER_NODE_POW_THREADS',
    path: 'restApi.pow.threads',
    kind: 'int',
    help: 'threads that mine one block (default 0 = all cores); the node mines cores ÷ threads blocks at once',
  },
  {
    flag: '--pow-queue-size',
    env: 'LEDGER_NODE_POW_QUEUE_SIZE',
    path: 'restApi.pow.queueSize',
    kind: 'int',
    help: 'blocks that may wait for mining; more are answered 503 (default 16)',
  },
  {
    flag: '--rest-workers',
    env: 'LEDGER_NODE_REST_WORKERS',
    path: 'restApi.workers',
    kind: 'int',
    help: 'HTTP event loops (threads) serving the port (default 0 = one per core but one, at least one; 1 = the main thread alone)',
  },
  {
    flag: '--no-pow',
    env: 'LEDGER_NODE_NO_POW',
    path: 'restApi.pow.enabled',
    kind: 'negate',
    help: 'do not mine nonces for submitted blocks',
  },
  {
    flag: '--no-coordinator',
    env: 'LEDGER_NODE_NO_COORDINATOR',
    path: 'coordinator.enabled',
    kind: 'negate',
    help: 'do not run the embedded coordinator',
  },
  {
    flag: '--genesis-address',
    env: 'LEDGER_NODE_GENESIS_ADDRESS',
    path: 'genesis.address',
    kind: 'string',
    help: 'genesis owner: bech32 (network HRP) or 0x Ed25519 address',
  },
  {
    flag: '--genesis-file',
    env: 'LEDGER_NODE_GENESIS_FILE',
    path: 'genesis.file',
    kind: 'string',
    help: 'JSON file {"outputs":[…]} with the genesis outputs (instead of one output on --genesis-address)',
  },
  {
    flag: '--genesis-style',
    env: 'LEDGER_NODE_GENESIS_STYLE',
    path: 'genesis.style',
    kind: 'string',
    help: 'ledger (default) or hornet: hornet-style networks can be followed by Hornet (persisted on first start)',
  },
  {
    flag: '--snapshot',
    env: 'LEDGER_NODE_SNAPSHOT',
    path: 'snapshot.loadPath',
    kind: 'string',
    help: 'Hornet full snapshot to create a new data directory from (ignored once it exists)',
  },
  {
    flag: '--snapshot-delta',
    env: 'LEDGER_NODE_SNAPSHOT_DELTA',
    path: 'snapshots.deltaPath',
    kind: 'string',
    help: 'delta snapshot: applied on top of the full one when a new data directory is created; where periodic deltas go',
  },
  {
    flag: '--snapshot-full-path',
    env: 'LEDGER_NODE_SNAPSHOT_FULL_PATH',
    path: 'snapshots.fullPath',
    kind: 'string',
    help: 'full snapshot a new data directory starts from when it exists; where periodic full snapshots go (default <dataDir>/snapshots/full_snapshot.bin)',
  },
  {
    flag: '--snapshot-download',
    env: 'LEDGER_NODE_SNAPSHOT_DOWNLOADS',
    path: 'snapshots.downloadURLs',
    kind: 'downloads',
    help: 'where a new data directory downloads its snapshots: <full URL>[,<delta URL>] (repeatable; env: separated by spaces)',
  },
  {
    flag: '--snapshots',
    env: 'LEDGER_NODE_SNAPSHOTS',
    path: 'snapshots.enabled',
    kind: 'bool',
    help: 'write snapshots periodically (snapshots.interval, .depth; default off)',
  },
  {
    flag: '--network-name',
    env: 'LEDGER_NODE_NETWORK_NAME',
    path: 'network.name',
    kind: 'string',
    help: 'whole network name, e.g. private_tangle1 (default: network.baseName + protocol version)',
  },
  {
    flag: '--coordinator-key',
    env: 'LEDGER_NODE_COORDINATOR_KEYS',
    path: 'coordinator.privateKeys',
    kind: 'list',
    help: 'coordinator Ed25519 seed, 0x + 64 hex (repeatable; env: comma-separated)',
  },
  {
    flag: '--coordinator-public-key',
    env: 'LEDGER_NODE_COORDINATOR_PUBLIC_KEYS',
    path: 'coordinator.publicKeys',
    kind: 'list',
    help: 'with --no-coordinator: accept milestones signed by this key, 0x + 64 hex (repeatable)',
  },
  {
    flag: '--sync-writes',
    env: 'LEDGER_NODE_SYNC_WRITES',
    path: 'storage.syncWrites',
    kind: 'bool',
    help: 'fsync every acknowledged write (default off: writes survive a crash, not a power loss)',
  },
  {
    flag: '--block-cache-mib',
    env: 'LEDGER_NODE_BLOCK_CACHE_MIB',
    path: 'storage.blockCacheMiB',
    kind: 'int',
    help: 'RocksDB block cache in MiB, shared by all column families (default 64)',
  },
  {
    flag: '--write-buffers-mib',
    env: 'LEDGER_NODE_WRITE_BUFFERS_MIB',
    path: 'storage.writeBuffersMiB',
    kind: 'int',
    help: 'all RocksDB memtables together, in MiB (default 64)',
  },
  {
    flag: '--no-indexer',
    env: 'LEDGER_NODE_NO_INDEXER',
    path: 'indexer.enabled',
    kind: 'negate',
    help: 'do not keep the UTXO indexer (/api/indexer/v1); rebuilt at the next start with it',
  },
  {
    flag: '--indexer-max-page-size',
    env: 'LEDGER_NODE_INDEXER_MAX_PAGE_SIZE',
    path: 'indexer.maxPageSize',
    kind: 'int',
    help: 'indexer page size when none is asked, and the largest (default 1000, 1..10000)',
  },
  {
    flag: '--jwt-secret',
    env: 'LEDGER_NODE_JWT_SECRET',
    path: 'restApi.jwtSecret',
    kind: 'string',
    help: 'HS256 secret for protected routes (default: generated and kept in the data dir)',
  },
  {
    flag: '--no-events',
    env: 'LEDGER_NODE_NO_EVENTS',
    path: 'events.enabled',
    kind: 'negate',
    help: 'do not serve the event API (MQTT over WebSocket at /api/mqtt/v1)',
  },
  {
    flag: '--no-dashboard',
    env: 'LEDGER_NODE_NO_DASHBOARD',
    path: 'dashboard.enabled',
    kind: 'negate',
    help: 'do not serve the web dashboard at /dashboard',
  },
  {
    flag: '--no-faucet',
    env: 'LEDGER_NODE_NO_FAUCET',
    path: 'faucet.enabled',
    kind: 'negate',
    help: 'do not serve the faucet (/api/faucet/v1, /faucet; on by default on the dev network only)',
  },
  {
    flag: '--faucet-private-key',
    env: 'LEDGER_NODE_FAUCET_PRIVATE_KEY',
    path: 'faucet.privateKey',
    kind: 'string',
    help: 'faucet Ed25519 seed, 0x + 64 hex (default: the dev key of D23, dev network only)',
  },
  {
    flag: '--faucet-amount',
    env: 'LEDGER_NODE_FAUCET_AMOUNT',
    path: 'faucet.amount',
    kind: 'int',
    help: 'base-token units the faucet sends per request (default 1000000000 = 1000 TST)',
  },
  {
    flag: '--faucet-cooldown',
    env: 'LEDGER_NODE_FAUCET_COOLDOWN',
    path: 'faucet.cooldown',
    kind: 'int',
    help: 'seconds before an address may ask the faucet again (default 300)',
  },
  {
    flag: '--gossip',
    env: 'LEDGER_NODE_GOSSIP',
    path: 'gossip.enabled',
    kind: 'bool',
    help: "gossip with other nodes (p2p, Hornet's protocol; default off: a single-node network)",
  },
  {
    flag: '--inx',
    env: 'LEDGER_NODE_INX',
    path: 'inx.enabled',
    kind: 'bool',
    help: "serve INX, Hornet's extension interface, for inx-indexer, inx-mqtt and the like (default off)",
  },
  {
    flag: '--inx-bind',
    env: 'LEDGER_NODE_INX_BIND',
    path: 'inx.bindAddress',
    kind: 'string',
    help: 'INX listen address host:port (default localhost:9029; port 0 = any free port)',
  },
  {
    flag: '--p2p-bind',
    env: 'LEDGER_NODE_P2P_BIND',
    path: 'p2p.bindMultiAddresses',
    kind: 'list',
    help: 'p2p listen multiaddress (repeatable; default /ip4/0.0.0.0/tcp/15600 and /ip6/::/tcp/15600)',
  },
  {
    flag: '--peer',
    env: 'LEDGER_NODE_PEERS',
    path: 'p2p.peers',
    kind: 'peers',
    help: 'static peer /ip4/…/tcp/…/p2p/<peerId> (repeatable; env: comma-separated)',
  },
  {
    flag: '--p2p-identity-key',
    env: 'LEDGER_NODE_P2P_IDENTITY_KEY',
    path: 'p2p.identityPrivateKey',
    kind: 'string',
    help: 'p2p identity: hex of a 64-byte Ed25519 private key or 32-byte seed (default: generated, kept in the data dir)',
  },
  {
    flag: '--log-level',
    env: 'LEDGER_NODE_LOG_LEVEL',
    path: 'logLevel',
    kind: 'string',
    help: 'fatal, error, warn, info, debug, trace or silent (default info)',
  },
];

export function optionsHelp(): string {
  const width = Math.max(...OPTIONS.map((o) => o.flag.length)) + 8;
  return OPTIONS.map((o) => {
    const name =
      o.kind === 'negate' || o.kind === 'bool'
        ? o.flag
        : `${o.flag} <${o.kind === 'list' ? 'key' : o.kind === 'int' || o.kind === 'bind-port' ? 'n' : 'value'}>`;
    return `  ${name.padEnd(width)}${o.help}  [${o.env}]`;
  }).join('\n');
}

/** Load the configuration; `argv` holds only flags (the subcommand is already removed). */
export function loadConfig(argv: string[], env: NodeJS.ProcessEnv = process.env): NodeConfig {
  const flags = parseFlags(argv);
  const config = defaultConfig() as unknown as Record<string, unknown>;
  const file = flags.get('--config')?.at(-1) ?? env.LEDGER_NODE_CONFIG;
  if (file !== undefined) mergeFile(config, file);
  for (const option of OPTIONS) {
    if (option.path === '') continue;
    const raw = env[option.env];
    if (raw !== undefined && raw !== '') {
      const values =
        option.kind === 'list'
          ? raw
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean)
          : option.kind === 'downloads'
            ? raw.split(/\s+/).filter(Boolean)
            : [raw];
      apply(config, option, values, option.env);
    }
  }
  for (const option of OPTIONS) {
    const values = flags.get(option.flag);
    if (values !== undefined && option.path !== '') apply(config, option, values, option.flag);
  }
  const result = config as unknown as NodeConfig;
  check(result);
  return result;
}

function parseFlags(argv: string[]): Map<string, string[]> {
  const flags = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i];
    let value: string | undefined;
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0) {
      value = arg.slice(eq + 1);
      arg = arg.slice(0, eq);
    }
    const option = OPTIONS.find((o) => o.flag === arg);
    if (option === undefined) throw new ConfigError(`unknown option '${arg}' (see --help)`);
    if (option.kind === 'negate' || option.kind === 'bool') {
      if (value !== undefined) throw new ConfigError(`option ${arg} takes no value`);
      value = 'true';
    } else if (value === undefined) {
      value = argv[++i];
      if (value === undefined) throw new ConfigError(`option ${arg} needs a value`);
    }
    const list = flags.get(arg) ?? [];
    list.push(value);
    flags.set(arg, list);
  }
  return flags;
}

function mergeFile(config: Record<string, unknown>, file: string): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ConfigError(`cannot read configuration file ${file}: ${(err as Error).message}`);
  }
  if (!isObject(parsed)) throw new ConfigError(`configuration file ${file} must hold a JSON object`);
  mergeInto(config, parsed, '');
}

function mergeInto(target: Record<string, unknown>, source: Record<string, unknown>, prefix: string): void {
  for (const [key, value] of Object.entries(source)) {
    const where = prefix + key;
    if (!(key in target)) throw new ConfigError(`unknown configuration key '${where}'`);
    const current = target[key];
    if (isObject(current) && !Array.isArray(current)) {
      if (!isObject(value)) throw new ConfigError(`configuration key '${where}' must be an object`);
      mergeInto(current, value, where + '.');
    } else {
      target[key] = value;
    }
  }
}

function apply(config: Record<string, unknown>, option: Option, values: string[], source: string): void {
  const last = values[values.length - 1];
  const keys = option.path.split('.');
  const parent = keys.slice(0, -1).reduce((o, k) => o[k] as Record<string, unknown>, config);
  const key = keys[keys.length - 1];
  switch (option.kind) {
    case 'string':
      parent[key] = last;
      break;
    case 'int':
      parent[key] = parseInteger(last, source);
      break;
    case 'seconds':
      parent[key] = parseSeconds(last, source);
      break;
    case 'negate':
      parent[key] = !/^(1|true|yes)$/i.test(last);
      break;
    case 'bool':
      parent[key] = /^(1|true|yes)$/i.test(last);
      break;
    case 'list':
      parent[key] = values;
      break;
    case 'peers':
      parent[key] = values.map((multiAddress) => ({ multiAddress }));
      break;
    case 'downloads':
      parent[key] = values.map((pair) => {
        const [full, delta] = pair.split(',').map((u) => u.trim());
        return delta ? { full, delta } : { full };
      });
      break;
    case 'bind-port': {
      const port = parseInteger(last, source);
      parent[key] = `${splitBind(String(parent[key])).host}:${port}`;
      break;
    }
    case 'bind-host': {
      const current = splitBind(String(parent[key]));
      parent[key] =
        last.includes(':') && !last.startsWith('[') && last.split(':').length === 2 ? last : `${last}:${current.port}`;
      break;
    }
  }
}

function parseInteger(text: string, source: string): number {
  if (!/^\d+$/.test(text)) throw new ConfigError(`${source}: '${text}' is not a non-negative integer`);
  return Number(text);
}

/** A duration in seconds, whole or decimal (`5`, `0.25`); its range is checked with the rest. */
function parseSeconds(text: string, source: string): number {
  if (!/^\d+(\.\d+)?$/.test(text)) throw new ConfigError(`${source}: '${text}' is not a number of seconds`);
  return Number(text);
}

export function splitBind(bind: string): { host: string; port: number } {
  const at = bind.lastIndexOf(':');
  if (at < 0) return { host: bind, port: 14265 };
  return { host: bind.slice(0, at).replace(/^\[|\]$/g, ''), port: Number(bind.slice(at + 1)) };
}

/** The shortest milestone interval the embedded coordinator takes. */
export const MIN_INTERVAL_SECONDS = 0.1;
const HEX32 = /^0x[0-9a-fA-F]{64}$/;
const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function check(c: NodeConfig): void {
  const fail = (msg: string) => {
    throw new ConfigError(msg);
  };
  if (typeof c.dataDir !== 'string' || c.dataDir === '') fail('dataDir must be a non-empty path');
  const { host, port } = splitBind(String(c.restApi.bindAddress));
  if (host === '' || !Number.isInteger(port) || port < 0 || port > 65535)
    fail(`restApi.bindAddress '${c.restApi.bindAddress}' must be host:port with a port 0..65535`);
  const p = c.protocol;
  if (p.version !== 2) fail('protocol.version must be 2');
  if (!isU32(p.minPowScore)) fail('protocol.minPowScore must be an integer 0..4294967295');
  if (!Number.isInteger(p.belowMaxDepth) || p.belowMaxDepth < 1 || p.belowMaxDepth > 255)
    fail('protocol.belowMaxDepth must be an integer 1..255');
  if (typeof p.bech32Hrp !== 'string' || !/^[a-z]{1,83}$/.test(p.bech32Hrp))
    fail('protocol.bech32Hrp must be lower-case letters');
  for (const k of ['vByteCost', 'vByteFactorData', 'vByteFactorKey'] as const) {
    if (!isU32(p.rentStructure?.[k])) fail(`protocol.rentStructure.${k} must be an integer 0..4294967295`);
  }
  if (typeof p.tokenSupply !== 'string' || !/^[1-9]\d*$/.test(p.tokenSupply) || BigInt(p.tokenSupply) >= 1n << 64n)
    fail('protocol.tokenSupply must be a decimal u64 string greater than 0');
  if (typeof c.network.baseName !== 'string' || c.network.baseName === '')
    fail('network.baseName must be a non-empty string');
  if (typeof c.network.name !== 'string' || Buffer.byteLength(c.network.name) > 255)
    fail('network.name must be a string of at most 255 bytes');
  if (c.genesis.style !== 'ledger' && c.genesis.style !== 'hornet') fail(`genesis.style must be 'ledger' or 'hornet'`);
  if (typeof c.snapshot.loadPath !== 'string') fail('snapshot.loadPath must be a path');
  checkSnapshots(c.snapshots, fail);
  // Fractions of a second as inx-coordinator's interval (a duration) allows them, for test
  // networks that must build a long history quickly; a millisecond is the timer's grain.
  if (
    typeof c.coordinator.interval !== 'number' ||
    !Number.isFinite(c.coordinator.interval) ||
    c.coordinator.interval < MIN_INTERVAL_SECONDS ||
    Math.abs(c.coordinator.interval * 1000 - Math.round(c.coordinator.interval * 1000)) > 1e-6
  )
    fail(`coordinator.interval must be a number of seconds ≥ ${MIN_INTERVAL_SECONDS} (whole milliseconds)`);
  if (typeof c.coordinator.enabled !== 'boolean') fail('coordinator.enabled must be true or false');
  if (
    !Array.isArray(c.coordinator.privateKeys) ||
    c.coordinator.privateKeys.some((k) => typeof k !== 'string' || !HEX32.test(k))
  )
    fail('coordinator.privateKeys must be 0x + 64 hex digits each');
  if (
    !Array.isArray(c.coordinator.publicKeys) ||
    c.coordinator.publicKeys.some((k) => typeof k !== 'string' || !HEX32.test(k))
  )
    fail('coordinator.publicKeys must be 0x + 64 hex digits each');
  checkMilestoneKeys(c, fail);
  if (typeof c.genesis.file !== 'string') fail('genesis.file must be a path');
  if (typeof c.storage.syncWrites !== 'boolean') fail('storage.syncWrites must be true or false');
  for (const k of ['blockCacheMiB', 'writeBuffersMiB'] as const) {
    if (!Number.isInteger(c.storage[k]) || c.storage[k] < 1 || c.storage[k] > 65536)
      fail(`storage.${k} must be an integer 1..65536 (MiB)`);
  }
  if (typeof c.restApi.jwtSecret !== 'string') fail('restApi.jwtSecret must be a string');
  if (!Array.isArray(c.restApi.publicRoutes) || c.restApi.publicRoutes.some((r) => typeof r !== 'string'))
    fail('restApi.publicRoutes must be a list of strings');
  if (typeof c.restApi.pow.enabled !== 'boolean') fail('restApi.pow.enabled must be true or false');
  if (!(c.restApi.pow.timeout > 0)) fail('restApi.pow.timeout must be a positive number of seconds');
  if (!Number.isInteger(c.restApi.pow.threads) || c.restApi.pow.threads < 0 || c.restApi.pow.threads > 1024)
    fail('restApi.pow.threads must be an integer 0..1024');
  if (!Number.isInteger(c.restApi.pow.queueSize) || c.restApi.pow.queueSize < 0 || c.restApi.pow.queueSize > 100_000)
    fail('restApi.pow.queueSize must be an integer 0..100000');
  if (!Number.isInteger(c.restApi.maxBodyBytes) || c.restApi.maxBodyBytes < 1)
    fail('restApi.maxBodyBytes must be a positive integer');
  if (!Number.isInteger(c.restApi.workers) || c.restApi.workers < 0 || c.restApi.workers > 256)
    fail('restApi.workers must be an integer 0..256 (0 = one per core but one)');
  if (typeof c.events.enabled !== 'boolean') fail('events.enabled must be true or false');
  for (const k of ['maxClients', 'maxSubscriptionsPerClient', 'maxClientBufferBytes'] as const) {
    if (!Number.isInteger(c.events[k]) || c.events[k] < 1) fail(`events.${k} must be a positive integer`);
  }
  checkPruning(c.pruning, fail);
  if (typeof c.indexer.enabled !== 'boolean') fail('indexer.enabled must be true or false');
  if (!Number.isInteger(c.indexer.maxPageSize) || c.indexer.maxPageSize < 1 || c.indexer.maxPageSize > 10000)
    fail('indexer.maxPageSize must be an integer 1..10000');
  if (typeof c.dashboard.enabled !== 'boolean') fail('dashboard.enabled must be true or false');
  checkFaucet(c.faucet, fail);
  checkP2p(c, fail);
  checkInx(c, fail);
  if (!LEVELS.includes(c.logLevel)) fail(`logLevel must be one of ${LEVELS.join(', ')}`);
  c.genesis.address = genesisHex(c.genesis.address, p.bech32Hrp);
}

/** D42: key ranges in Hornet's shape (hex with or without 0x), and a count they can meet. */
function checkMilestoneKeys(c: NodeConfig, fail: (msg: string) => void): void {
  const { publicKeyRanges: ranges, milestonePublicKeyCount: count } = c.protocol;
  if (!Number.isInteger(count) || count < 0 || count > 255)
    fail('protocol.milestonePublicKeyCount must be an integer 0..255 (0 = every key applicable at the index)');
  if (!Array.isArray(ranges))
    fail('protocol.publicKeyRanges must be a list of {"key": "<hex>", "start": <index>, "end": <index>}');
  ranges.forEach((r, i) => {
    if (!isObject(r) || Object.keys(r).some((k) => !['key', 'start', 'end'].includes(k)))
      fail(`protocol.publicKeyRanges[${i}] must be {"key": "<hex>", "start": <index>, "end": <index>}`);
    if (typeof r.key !== 'string' || !/^(0x)?[0-9a-fA-F]{64}$/.test(r.key))
      fail(`protocol.publicKeyRanges[${i}].key must be 64 hex digits (an Ed25519 public key)`);
    if (!isU32(r.start) || !isU32(r.end))
      fail(`protocol.publicKeyRanges[${i}].start and .end must be milestone indexes 0..4294967295`);
    if (r.end !== 0 && r.end < r.start)
      fail(`protocol.publicKeyRanges[${i}]: end ${r.end} is before start ${r.start} (0 = no end)`);
  });
  if (ranges.length > 0 && c.coordinator.publicKeys.length > 0)
    fail(
      "give the followed coordinator's keys either as coordinator.publicKeys or as protocol.publicKeyRanges, not both",
    );
  const distinct = new Set(ranges.map((r) => r.key.replace(/^0x/, '').toLowerCase())).size;
  if (ranges.length > 0 && count > distinct)
    fail(
      `protocol.milestonePublicKeyCount ${count} is more than the ${distinct} key(s) of protocol.publicKeyRanges: no milestone could be valid`,
    );
}

/** Hornet's provisioning checks (`components/pruning/component.go`) and the value types. */
function checkPruning(p: NodeConfig['pruning'], fail: (msg: string) => void): void {
  const { milestones, size } = p;
  if (typeof milestones.enabled !== 'boolean') fail('pruning.milestones.enabled must be true or false');
  if (!isU32(milestones.maxMilestonesToKeep))
    fail('pruning.milestones.maxMilestonesToKeep must be a whole number of milestones');
  if (milestones.enabled && milestones.maxMilestonesToKeep === 0)
    fail('pruning.milestones.maxMilestonesToKeep has to be specified if pruning.milestones.enabled is enabled');
  if (typeof size.enabled !== 'boolean') fail('pruning.size.enabled must be true or false');
  if (typeof size.targetSize !== 'string') fail('pruning.size.targetSize must be a size text such as "30GB"');
  let bytes = 0;
  try {
    bytes = parseSize(size.targetSize);
  } catch {
    fail('parameter pruning.size.targetSize invalid');
  }
  if (size.enabled && bytes === 0)
    fail('pruning.size.targetSize has to be specified if pruning.size.enabled is enabled');
  if (
    typeof size.thresholdPercentage !== 'number' ||
    !(size.thresholdPercentage >= 0 && size.thresholdPercentage < 100)
  )
    fail('pruning.size.thresholdPercentage must be a number from 0 to below 100');
  try {
    if (typeof size.cooldownTime !== 'string' || parseDuration(size.cooldownTime) < 0) throw new RangeError();
  } catch {
    fail('pruning.size.cooldownTime must be a duration such as "5m"');
  }
  if (typeof p.pruneReceipts !== 'boolean') fail('pruning.pruneReceipts must be true or false');
}

function checkSnapshots(s: NodeConfig['snapshots'], fail: (msg: string) => void): void {
  if (typeof s.enabled !== 'boolean') fail('snapshots.enabled must be true or false');
  if (!Number.isInteger(s.depth) || s.depth < 1 || s.depth > 0xffffffff)
    fail('snapshots.depth must be a positive number of milestones');
  if (!Number.isInteger(s.interval) || s.interval < 1 || s.interval > 0xffffffff)
    fail('snapshots.interval must be a positive number of milestones');
  if (typeof s.fullPath !== 'string' || typeof s.deltaPath !== 'string')
    fail('snapshots.fullPath and snapshots.deltaPath must be paths (empty: in <dataDir>/snapshots)');
  if (
    typeof s.deltaSizeThresholdPercentage !== 'number' ||
    !(s.deltaSizeThresholdPercentage >= 0) ||
    s.deltaSizeThresholdPercentage > 100
  )
    fail('snapshots.deltaSizeThresholdPercentage must be a number 0..100 (0: always write a delta)');
  try {
    parseByteSize(s.deltaSizeThresholdMinSize);
  } catch (err) {
    fail(`snapshots.deltaSizeThresholdMinSize: ${(err as Error).message}`);
  }
  if (!Array.isArray(s.downloadURLs))
    fail('snapshots.downloadURLs must be a list of {"full": "<url>", "delta": "<url>"}');
  s.downloadURLs.forEach((t, i) => {
    if (!isObject(t) || Object.keys(t).some((k) => k !== 'full' && k !== 'delta'))
      fail(`snapshots.downloadURLs[${i}] must be {"full": "<url>", "delta": "<url>"}`);
    for (const k of ['full', 'delta'] as const) {
      const url = t[k];
      if (url === undefined || (k === 'delta' && url === '')) continue;
      if (typeof url !== 'string' || !/^https?:\/\/\S+$/i.test(url))
        fail(`snapshots.downloadURLs[${i}].${k} must be an http:// or https:// URL`);
    }
  });
}

/** A size as Hornet reads `deltaSizeThresholdMinSize`: a number of bytes, or a size text (core/sizes.ts). */
export function parseByteSize(value: string | number): number {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) throw new RangeError(`invalid size: ${value}`);
    return Math.floor(value);
  }
  return parseSize(value);
}

function checkFaucet(f: NodeConfig['faucet'], fail: (msg: string) => void): void {
  if (typeof f.enabled !== 'boolean') fail('faucet.enabled must be true or false');
  if (typeof f.privateKey !== 'string' || (f.privateKey !== '' && !HEX32.test(f.privateKey)))
    fail('faucet.privateKey must be empty or 0x + 64 hex digits');
  if (!Number.isSafeInteger(f.amount) || f.amount < 1)
    fail('faucet.amount must be a positive integer (base-token units)');
  if (!Number.isInteger(f.cooldown) || f.cooldown < 0) fail('faucet.cooldown must be a whole number of seconds ≥ 0');
  if (!Number.isInteger(f.maxOutputs) || f.maxOutputs < 1 || f.maxOutputs > 127)
    fail('faucet.maxOutputs must be an integer 1..127');
  if (!Number.isInteger(f.maxQueueSize) || f.maxQueueSize < 1) fail('faucet.maxQueueSize must be a positive integer');
  const r = f.rateLimit;
  if (!isObject(r) || !Number.isInteger(r.maxRequests) || r.maxRequests < 1)
    fail('faucet.rateLimit.maxRequests must be a positive integer');
  if (!(r.period > 0)) fail('faucet.rateLimit.period must be a positive number of seconds');
  if (!Number.isInteger(r.maxBurst) || r.maxBurst < 1) fail('faucet.rateLimit.maxBurst must be a positive integer');
}

function checkInx(c: NodeConfig, fail: (msg: string) => void): void {
  if (typeof c.inx.enabled !== 'boolean') fail('inx.enabled must be true or false');
  const bind = c.inx.bindAddress;
  const { host, port } = typeof bind === 'string' && bind.includes(':') ? splitBind(bind) : { host: '', port: -1 };
  if (host === '' || !Number.isInteger(port) || port < 0 || port > 65535)
    fail(`inx.bindAddress '${bind}' must be host:port with a port 0..65535`);
}

function checkP2p(c: NodeConfig, fail: (msg: string) => void): void {
  if (typeof c.gossip.enabled !== 'boolean') fail('gossip.enabled must be true or false');
  const p = c.p2p;
  if (
    !Array.isArray(p.bindMultiAddresses) ||
    p.bindMultiAddresses.length === 0 ||
    p.bindMultiAddresses.some((a) => typeof a !== 'string' || !a.startsWith('/'))
  )
    fail('p2p.bindMultiAddresses must be a non-empty list of multiaddresses');
  if (
    typeof p.identityPrivateKey !== 'string' ||
    !/^(0x)?([0-9a-fA-F]{64}|[0-9a-fA-F]{128})?$/.test(p.identityPrivateKey)
  )
    fail('p2p.identityPrivateKey must be hex of a 64-byte private key or a 32-byte seed');
  if (typeof p.identityFile !== 'string') fail('p2p.identityFile must be a path');
  if (!Array.isArray(p.peers))
    fail('p2p.peers must be a list of {"multiAddress": "/ip4/…/tcp/…/p2p/<peerId>", "alias": "…"}');
  p.peers.forEach((peer, i) => {
    if (
      !isObject(peer) ||
      typeof peer.multiAddress !== 'string' ||
      !/\/p2p\/[1-9A-HJ-NP-Za-km-z]+$/.test(peer.multiAddress)
    )
      fail(`p2p.peers[${i}].multiAddress must be a multiaddress ending in /p2p/<peerId>`);
    if (peer.alias !== undefined && typeof peer.alias !== 'string') fail(`p2p.peers[${i}].alias must be a string`);
  });
  if (!Number.isInteger(p.unknownPeersLimit) || p.unknownPeersLimit < 0)
    fail('p2p.unknownPeersLimit must be a non-negative integer');
  if (!Number.isInteger(p.reconnectInterval) || p.reconnectInterval < 1 || p.reconnectInterval > 86400)
    fail('p2p.reconnectInterval must be a whole number of seconds 1..86400');
  const cm = p.connectionManager;
  if (
    !Number.isInteger(cm.lowWatermark) ||
    !Number.isInteger(cm.highWatermark) ||
    cm.lowWatermark < 0 ||
    cm.highWatermark < cm.lowWatermark
  )
    fail('p2p.connectionManager needs integers lowWatermark ≤ highWatermark');
  if (
    !Number.isInteger(c.warpsync.advancementRange) ||
    c.warpsync.advancementRange < 1 ||
    c.warpsync.advancementRange > 10000
  )
    fail('warpsync.advancementRange must be an integer 1..10000');
}

/** The genesis address as 0x hex (the store's form); bech32 must carry the network's HRP. */
function genesisHex(address: string, hrp: string): string {
  if (typeof address !== 'string') throw new ConfigError('genesis.address must be a string');
  if (HEX32.test(address)) return address.toLowerCase();
  let decoded: ReturnType<typeof bech32Decode>;
  try {
    decoded = bech32Decode(address);
  } catch (err) {
    throw new ConfigError(
      `genesis.address '${address}' is neither 0x + 64 hex nor a valid bech32 address (${(err as Error).message})`,
    );
  }
  if (decoded.hrp !== hrp)
    throw new ConfigError(`genesis.address has HRP '${decoded.hrp}' but the network uses '${hrp}'`);
  const a = decoded.address as unknown as { type: number; pubKeyHash?: string };
  if (a.type !== 0 || typeof a.pubKeyHash !== 'string')
    throw new ConfigError('genesis.address must be an Ed25519 address');
  return a.pubKeyHash.toLowerCase();
}

function isU32(v: unknown): boolean {
  return Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 0xffffffff;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

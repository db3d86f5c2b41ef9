#!/usr/bin/env bash
# Wasp 1.0.3 (IOTA Smart Contracts, the real binary) and wasp-cli 1.0.3 against this node over
# INX: a single-node ISC chain with EVM, and an EVM transfer made with ethers v6 through the
# chain's JSON-RPC (docs/evm.md says how to do the same by hand).
#
#   network: two ledger-nodes on loopback, gossiping (Wasp wants at least one connected peer):
#            node1 runs the embedded coordinator (milestones every MS_INTERVAL s), the built-in
#            indexer and faucet, INX; node2 follows it.
#   wasp:    Wasp attaches to node1's INX (its start-up gates: indexer/v1 in /api/routes, a
#            connected peer, the latest milestone confirmed, /api/core/v2/info within 500 ms).
#   cli:     wasp-cli with the in-memory testing seed: request-funds from node1's faucet
#            (wasp-cli posts to <l1.faucetaddress>/api/enqueue: the node serves the faucet's
#            API under /faucet/api as inx-faucet does at its root), `chain deploy --evm-chainid`,
#            `chain deposit` of base tokens to the EVM address of a key this script holds.
#   evm:     ethers (installed into the temporary directory at run time, see below) on
#            /v1/chains/<chainId>/evm: eth_chainId, the deposit's balance, a value transfer
#            to a second address with its receipt (status 1) and both balances after it, a
#            tiny storage contract deployed and called.
#   restarts: once the chain's last block is anchored on L1, Wasp is stopped and started
#            again (the contract keeps its value, another transfer goes through); then node1
#            is stopped under Wasp (Wasp shuts itself down, as on Hornet), node1 and Wasp are
#            started again, and the chain goes on.
#
#   scripts/interop/wasp-evm.sh             # needs `npm run build`, root (network namespace)
#   BIN=/work/interop/bin REST_PORT=14565 scripts/interop/wasp-evm.sh
#
# Wasp 1.0.3's peering listens on every interface (0.0.0.0, fixed in its code) at its port, so
# everything runs inside a network namespace of its own (NS), removed at the end. ethers is
# not a dependency of the repository (13 MB unpacked, and nothing else uses it): it is
# installed with npm into the temporary directory on each run (ETHERS_DIR=<dir with
# node_modules/ethers> reuses one).
#
# Prints one ok/FAIL line per check; exits 1 on any FAIL. Everything lives in a temporary
# directory that is removed at the end (KEEP=1 keeps it).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
BIN="${BIN:-/work/interop/bin}"
WASP="${WASP:-$BIN/wasp-rocksdb}" # the RocksDB build: Wasp's EVM JSON-RPC needs it
CLI="${CLI:-$BIN/wasp-cli}"
for b in "$WASP" "$CLI"; do [ -x "$b" ] || { echo "no $b (set BIN, WASP, CLI)"; exit 2; }; done
[ -f "$ROOT/dist/index.js" ] || { echo "dist/ missing: run npm run build first"; exit 2; }
[ "$(id -u)" = 0 ] || { echo "needs root (ip netns)"; exit 2; }

NS="${NS:-ledger-wasp-$$}"
REST_PORT="${REST_PORT:-14565}"; REST2_PORT=$((REST_PORT + 1)); INX_PORT="${INX_PORT:-9029}"
P2P_PORT="${P2P_PORT:-15700}"; WASP_API_PORT="${WASP_API_PORT:-9090}"
MS_INTERVAL="${MS_INTERVAL:-1}"
# wasp-cli mines its blocks itself (Wasp 1.0.3 has no remote-PoW setting for it), in Go on
# this machine's cores: the network asks for none, as Hornet's private tangle does.
MIN_POW_SCORE="${MIN_POW_SCORE:-0}"
CHAIN_ID="${EVM_CHAIN_ID:-1074}"
URL="http://127.0.0.1:$REST_PORT"; URL2="http://127.0.0.1:$REST2_PORT"; WURL="http://127.0.0.1:$WASP_API_PORT"
WORK="$(mktemp -d /tmp/ledger-node-wasp-XXXXXX)"

PIDS=(); failed=0
cleanup() {
  local i # Wasp first, the nodes last
  for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do [ -n "${PIDS[$i]}" ] && kill "${PIDS[$i]}" 2>/dev/null && wait "${PIDS[$i]}" 2>/dev/null || true; done
  ip netns delete "$NS" 2>/dev/null || true
  if [ "${KEEP:-0}" = 1 ]; then echo "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
report() { # ok? what
  if [ "$1" = 1 ]; then echo "ok   $2"; else echo "FAIL $2"; failed=1; fi
}
in_ns() { ip netns exec "$NS" "$@"; }
json() { node -e 'let t="";process.stdin.on("data",d=>t+=d).on("end",()=>{const j=JSON.parse(t);console.log(eval(process.argv[1]))})' "$1"; }
launch() { # name command… : runs in the namespace, in $WORK/<name>, log $WORK/<name>.log
  local name="$1"; shift
  mkdir -p "$WORK/$name"
  (cd "$WORK/$name" && exec ip netns exec "$NS" "$@" >>"$WORK/$name.log" 2>&1) &
  PIDS+=($!)
}
wait_healthy() { # url log
  for _ in $(seq 1 300); do in_ns curl -sf "$1/health" >/dev/null && return 0; sleep 0.1; done
  echo "the node at $1 did not become healthy:"; tail -20 "$2"; exit 1
}
cli() { in_ns "$CLI" -c "$WORK/wasp-cli.json" "$@"; }
ms() { date +%s%3N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b - a) / 1000 }'; } # from-ms to-ms

ip netns add "$NS"
ip -n "$NS" link set lo up

# --- ethers (meanwhile the network starts) ------------------------------------------------
ETHERS_DIR="${ETHERS_DIR:-$WORK/evm}"
if [ ! -d "$ETHERS_DIR/node_modules/ethers" ]; then
  mkdir -p "$ETHERS_DIR"
  (cd "$ETHERS_DIR" && npm install --no-save --no-audit --no-fund --loglevel=error ethers@6 >"$WORK/npm.log" 2>&1) &
  NPM_PID=$!
else
  NPM_PID=""
fi

# --- the network --------------------------------------------------------------------------
# Keys made for this run: the coordinator's seed and both nodes' p2p identities (seeds). Only
# node2 names its peer (node1 takes it as an unknown peer), as docs/evm.md does by hand.
hex32() { head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n'; }
COO_SEED="0x$(hex32)"; P2P_1="$(hex32)"; P2P_2="$(hex32)"
peer_id() { # seed: its peer id (the binding writes the identity file it is given: a scratch one)
  node -e 'const n=require(process.argv[1]);console.log(n.identityPeerId(process.argv[2],process.argv[3]))' \
    "$ROOT/native" "$WORK/scratch-$1.key" "$1"
  rm -f "$WORK/scratch-$1.key"
}
ID_1="$(peer_id "$P2P_1")"; ID_2="$(peer_id "$P2P_2")"
COO_PUB="0x$(node -e 'const n=require(process.argv[1]);console.log(n.ed25519PublicKey(Buffer.from(process.argv[2].slice(2),"hex")).toString("hex"))' "$ROOT/native" "$COO_SEED")"

echo "node1: REST $URL, INX 127.0.0.1:$INX_PORT; node2: REST $URL2; namespace $NS; in $WORK"
start_node1() { # extra flags
  launch node1 node "$ROOT/bin/ledger-node.js" --data-dir "$WORK/data1" --bind 127.0.0.1 --port "$REST_PORT" \
    --milestone-interval "$MS_INTERVAL" --min-pow-score "$MIN_POW_SCORE" --coordinator-key "$COO_SEED" \
    --inx --inx-bind "127.0.0.1:$INX_PORT" --gossip --p2p-bind "/ip4/127.0.0.1/tcp/$P2P_PORT" --p2p-identity-key "$P2P_1" "$@"
  NODE1_PID=$!
  wait_healthy "$URL" "$WORK/node1.log"
}
start_node1
launch node2 node "$ROOT/bin/ledger-node.js" --data-dir "$WORK/data2" --bind 127.0.0.1 --port "$REST2_PORT" \
  --min-pow-score "$MIN_POW_SCORE" --no-coordinator --coordinator-public-key "$COO_PUB" --no-faucet \
  --gossip --p2p-bind "/ip4/127.0.0.1/tcp/$((P2P_PORT + 1))" --p2p-identity-key "$P2P_2" \
  --peer "/ip4/127.0.0.1/tcp/$P2P_PORT/p2p/$ID_1"
wait_healthy "$URL2" "$WORK/node2.log"
AUTH="Authorization: Bearer $(node "$ROOT/bin/ledger-node.js" jwt --data-dir "$WORK/data1")"
wait_peer() {
  connected=""
  for _ in $(seq 1 150); do
    connected="$(in_ns curl -s -H "$AUTH" "$URL/api/core/v2/peers" | json 'j.filter(p=>p.connected).length' 2>/dev/null || true)"
    [ "${connected:-0}" -ge 1 ] && break
    sleep 0.2
  done
}
wait_peer
report "$([ "${connected:-0}" -ge 1 ] && echo 1)" "network: node1 has ${connected:-0} connected peer(s), milestones every $MS_INTERVAL s"

# --- Wasp ---------------------------------------------------------------------------------
# --prometheus.enabled stays on: Wasp 1.0.3 panics at start without its metrics provider.
start_wasp() { # its database (waspdb/) lives in $WORK/wasp and survives a restart
  launch wasp "$WASP" --app.checkForUpdates=false --inx.address="127.0.0.1:$INX_PORT" --logger.level=debug \
    --db.engine=rocksdb --peering.peeringURL=127.0.0.1:4000 --peering.port=4000 \
    --webapi.bindAddress="127.0.0.1:$WASP_API_PORT" --webapi.auth.scheme=none \
    --prometheus.enabled=true --prometheus.bindAddress=127.0.0.1:2112 --profiling.enabled=false
  WASP_PID=$!
  info=""
  for _ in $(seq 1 300); do info="$(in_ns curl -sf "$WURL/v1/node/info" 2>/dev/null)" && break; sleep 0.2; done
  version="$(echo "${info:-{\}}" | json 'j.version' 2>/dev/null || echo "")"
}
start_wasp
report "$([ "$version" = 1.0.3 ] && echo 1)" "wasp: /v1/node/info: version ${version:-none}, network $(echo "${info:-{\}}" | json 'j.l1Params?.protocol?.networkName' 2>/dev/null)"
[ "$version" = 1.0.3 ] || { tail -30 "$WORK/wasp.log"; exit 1; }
# What Wasp read from the node (ReadProtocolParameters over INX, the base token from
# core/v2/info over PerformAPIRequest) against the node's own /info. belowMaxDepth aside:
# Wasp 1.0.3 renders it 0 whatever the node says (the same against Hornet 2.0.1).
node_info="$(in_ns curl -s "$URL/api/core/v2/info")"
echo "$info" >"$WORK/wasp-info.json"; echo "$node_info" >"$WORK/node-info.json"
l1diff="$(node -e '
  const [w, n] = [JSON.parse(process.argv[1]).l1Params, JSON.parse(process.argv[2])];
  const p = n.protocol, pick = (o, keys) => Object.fromEntries(keys.map((k) => [k, o?.[k]]));
  const keys = ["version", "networkName", "bech32Hrp", "minPowScore", "rentStructure", "tokenSupply"];
  const pairs = [
    ["protocol", pick(w.protocol, keys), pick(p, keys)],
    ["baseToken", w.baseToken, n.baseToken],
  ];
  const missing = keys.filter((k) => w.protocol?.[k] === undefined).concat(w.baseToken?.name ? [] : ["baseToken"]);
  const diff = missing.length > 0 ? [`Wasp shows no ${missing.join(", ")}`] : pairs.filter(([, a, b]) => JSON.stringify(a) !== JSON.stringify(b)).map(([k, a, b]) => `${k}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
  console.log(diff.join("; ") || "same");' "$info" "$node_info" 2>&1 || true)"
report "$([ "$l1diff" = same ] && echo 1)" "wasp: its L1 parameters (protocol, base token) equal the node's /info: $l1diff"

# --- wasp-cli -----------------------------------------------------------------------------
cli wallet-provider unsafe_inmemory_testing_seed >/dev/null
cli init >/dev/null
cli set l1.apiaddress "$URL" >/dev/null
cli set l1.faucetaddress "$URL/faucet" >/dev/null
cli wasp add 0 "$WURL" >/dev/null
versions="$(cli check-versions 2>&1 || true)"
report "$(echo "$versions" | grep -q 'matches' && echo 1)" "wasp-cli: check-versions: $(echo "$versions" | tr '\n' ' ' | cut -c1-100)"
L1_ADDRESS="$(cli address 2>&1 | sed -nE 's/.*Address: *([a-z0-9]+).*/\1/p' | head -1)"
t0=$(ms)
funds="$(cli request-funds 2>&1 || true)"
t1=$(ms)
balance="$(in_ns curl -s "$URL/api/indexer/v1/outputs/basic?address=$L1_ADDRESS" | json 'j.items.length' 2>/dev/null || echo 0)"
report "$([ "${balance:-0}" -ge 1 ] && echo 1)" "wasp-cli: request-funds for $L1_ADDRESS paid by the node's faucet in $(secs "$t0" "$t1") s ($(echo "$funds" | tail -1 | cut -c1-80))"

t0=$(ms)
deploy="$(cli chain deploy --chain=evmchain --evm-chainid "$CHAIN_ID" 2>&1 || true)"
t1=$(ms); DEPLOY_S="$(secs "$t0" "$t1")"
CHAIN="$(echo "$deploy" | sed -nE 's/.*ChainID: *([a-z0-9]+).*/\1/p' | head -1)"
report "$([ -n "$CHAIN" ] && echo 1)" "wasp-cli: chain deploy --evm-chainid $CHAIN_ID: chain ${CHAIN:-none} in $DEPLOY_S s"
if [ -z "$CHAIN" ]; then echo "$deploy" | tail -20; tail -30 "$WORK/wasp.log"; exit 1; fi
echo "$deploy" >"$WORK/deploy.txt"

# The EVM key of this script (a fresh one per run) and the deposit to its address.
EVM_KEY="0x$(hex32)"
wait_ethers() { [ -z "$NPM_PID" ] || { wait "$NPM_PID" || { echo "npm install ethers failed:"; cat "$WORK/npm.log"; exit 1; }; NPM_PID=""; }; }
wait_ethers
EVM_ADDRESS="$(cd "$ETHERS_DIR" && node -e 'const {Wallet}=require("ethers");console.log(new Wallet(process.argv[1]).address)' "$EVM_KEY")"
DEPOSIT=50000000 # base-token units (6 decimals): 50 TST, 50·10^18 wei on the EVM side
t0=$(ms)
deposit="$(cli chain deposit "$EVM_ADDRESS" "base:$DEPOSIT" --chain=evmchain 2>&1 || true)"
t1=$(ms)
echo "$deposit" >"$WORK/deposit.txt"
EVM_URL="$WURL/v1/chains/$CHAIN/evm"
arrived=""
for _ in $(seq 1 120); do
  arrived="$(in_ns curl -s -X POST -H 'Content-Type: application/json' \
    -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"eth_getBalance\",\"params\":[\"$EVM_ADDRESS\",\"latest\"]}" "$EVM_URL" |
    json 'BigInt(j.result ?? 0) > 0n ? j.result : ""' 2>/dev/null || true)"
  [ -n "$arrived" ] && break
  sleep 0.5
done
t2=$(ms); DEPOSIT_S="$(secs "$t0" "$t2")"
report "$([ -n "$arrived" ] && echo 1)" "wasp-cli: chain deposit base:$DEPOSIT to $EVM_ADDRESS posted in $(secs "$t0" "$t1") s, on the EVM side after $DEPOSIT_S s (eth_getBalance ${arrived:-0})"

# --- ethers -------------------------------------------------------------------------------
evm() { # label, extra arguments of wasp-evm.mjs
  local label="$1"; shift
  in_ns node "$ROOT/scripts/interop/wasp-evm.mjs" "$EVM_URL" "$CHAIN_ID" "$EVM_KEY" "$ETHERS_DIR" "$@" >"$WORK/evm-$label.txt" || true
  grep -E '^(ok|FAIL)' "$WORK/evm-$label.txt"
  grep -q '^FAIL' "$WORK/evm-$label.txt" && failed=1
  grep -q '^ok' "$WORK/evm-$label.txt" || failed=1
}
[ -n "$arrived" ] || exit 1
evm first
STORE="$(sed -nE 's/^store: (0x[0-9a-fA-F]{40})$/\1/p' "$WORK/evm-first.txt")"

# --- the chain's blocks anchored on L1 ------------------------------------------------------
# A receipt comes from Wasp's newest chain state, before the chain's anchor (its alias output,
# whose stateIndex is the block index = the EVM block number) is confirmed on L1. Wasp 1.0.3
# keeps an unanchored block only in memory: stopped before the anchor is confirmed, it loses
# it and builds on the last anchored one. So wait for the anchor first, as an operator must.
evm_block() { # the chain's newest EVM block number, if it answers
  in_ns curl -s -X POST -H 'Content-Type: application/json' \
    -d '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}' "$EVM_URL" | json 'j.result ? Number(j.result) : ""' 2>/dev/null || true
}
ALIAS_ID="$(node -e 'const c=require(process.argv[1]);console.log(c.bech32Decode(process.argv[2]).address.aliasId)' "$ROOT/dist/index.js" "$CHAIN")"
anchored_index() { # the stateIndex of the chain's alias output on L1
  local out
  out="$(in_ns curl -s "$URL/api/indexer/v1/outputs/alias/$ALIAS_ID" | json 'j.items[0] ?? ""' 2>/dev/null || true)"
  [ -z "$out" ] || in_ns curl -s "$URL/api/core/v2/outputs/$out" | json 'j.output.stateIndex' 2>/dev/null || true
}
wait_anchored() {
  local t0 t1 head_block anchored=""
  t0=$(ms); head_block="$(evm_block)"
  for _ in $(seq 1 120); do
    anchored="$(anchored_index)"
    [ -n "$anchored" ] && [ -n "$head_block" ] && [ "$anchored" -ge "$head_block" ] && break
    sleep 0.25
  done
  t1=$(ms)
  report "$([ -n "$anchored" ] && [ -n "$head_block" ] && [ "$anchored" -ge "$head_block" ] && echo 1)" \
    "l1: the chain's block ${head_block:-?} anchored (alias output $ALIAS_ID at stateIndex ${anchored:-none}) $(secs "$t0" "$t1") s after the last receipt"
}
wait_anchored

# --- Wasp restarts ------------------------------------------------------------------------
# From its database and the node: it replays ListenToLedgerUpdates, finds the chain's alias
# output through the node's indexer, and the chain goes on with the same state.
kill "$WASP_PID"; wait "$WASP_PID" 2>/dev/null || true
PIDS=("${PIDS[@]/#$WASP_PID/}") # not killed twice (cleanup skips the empty entry)
restart_wasp() { # what came before
  local t0 t1 chain_up=""
  t0=$(ms)
  start_wasp
  for _ in $(seq 1 120); do
    chain_up="$(evm_block)"
    [ -n "$chain_up" ] && break
    sleep 0.5
  done
  t1=$(ms)
  report "$([ "$version" = 1.0.3 ] && [ -n "$chain_up" ] && echo 1)" "wasp: started again $1, chain answering after $(secs "$t0" "$t1") s (EVM block ${chain_up:-none})"
  WASP_UP="$chain_up"
}
restart_wasp "after its own stop"
if [ -n "$WASP_UP" ] && [ -n "$STORE" ]; then evm again --store "$STORE"; fi

# --- node1 restarts under Wasp -------------------------------------------------------------
# As on Hornet, Wasp shuts itself down when its INX connection closes. node1 comes back from
# its data directory (naming node2 this time, so that it dials at once rather than waiting for
# node2's redial), then Wasp, and the chain goes on.
if [ -n "$WASP_UP" ]; then
  wait_anchored
  kill "$NODE1_PID"; wait "$NODE1_PID" 2>/dev/null || true
  PIDS=("${PIDS[@]/#$NODE1_PID/}")
  gone=""
  for _ in $(seq 1 120); do ps -o stat= -p "$WASP_PID" | grep -qv Z || { gone=1; break; }; sleep 0.25; done
  report "$gone" "wasp: shut itself down when node1 stopped ($(grep -oE 'self-shutdown: INX connection [a-z ]+' "$WORK/wasp.log" | tail -1 || true))"
  if [ -n "$gone" ]; then
    wait "$WASP_PID" 2>/dev/null || true
    PIDS=("${PIDS[@]/#$WASP_PID/}")
    start_node1 --peer "/ip4/127.0.0.1/tcp/$((P2P_PORT + 1))/p2p/$ID_2"
    wait_peer
    restart_wasp "after node1's restart"
    if [ -n "$WASP_UP" ] && [ -n "$STORE" ]; then evm third --store "$STORE"; fi
  fi
fi

grep -E '\s(ERROR|WARN)\s|^panic' "$WORK/wasp.log" | head -5 | sed 's/^/wasp: /' || true
[ "$failed" = 0 ] || { echo "--- node1 log (last lines)"; tail -5 "$WORK/node1.log"; }
exit "$failed"

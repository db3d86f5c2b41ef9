#!/usr/bin/env bash
# Interop with Hornet 2.0.1, both ways (README "A network"). Development only, not in CI:
# it needs Hornet and inx-coordinator built with the team's interop scripts.
#
#   HORNET_BIN=<dir with hornet and inx-coordinator> HORNET_INTEROP=<dir with start-hornet-pair.sh …> \
#     scripts/interop/hornet.sh setup1      # ledger-node follows a Hornet network
#     scripts/interop/hornet.sh setup2      # Hornet follows a network whose coordinator is ledger-node
#     scripts/interop/hornet.sh snapshots   # snapshots after genesis, both ways (docs/snapshots.md);
#                                           # RICH=0 leaves out the chains, tokens and NFTs of part 1
#
# Nothing outside this clone is guessed: both variables are required. State (databases, logs,
# configs) goes to $STATE (default ${TMPDIR:-/tmp}/ledger-node-interop/<setup>), wiped first.
# Ports: ledger-node REST $LEDGER_REST_PORT (14265) and p2p $LEDGER_P2P_PORT (15600); Hornet's
# as the interop scripts' common.sh sets them (REST_1, P2P_PORT_1, INX_1, REST_2, P2P_PORT_2,
# REST_F, P2P_PORT_F may be exported to move them). Every process started here is stopped
# on exit, by PID, unless KEEP=1. Needs `npm run build` done in this clone.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
SETUP="${1:-}"
case "$SETUP" in setup1 | setup2 | snapshots) ;; *) echo "usage: $0 setup1|setup2|snapshots (with HORNET_BIN and HORNET_INTEROP set)"; exit 2 ;; esac
: "${HORNET_BIN:?set HORNET_BIN to the folder holding hornet (and inx-coordinator for setup1)}"
: "${HORNET_INTEROP:?set HORNET_INTEROP to the folder of the interop scripts (start-hornet-pair.sh, common.sh, …)}"
[ -f "$ROOT/dist/cli.js" ] || { echo "build this clone first: npm run build"; exit 2; }
export BIN="$HORNET_BIN"
# shellcheck source=/dev/null
. "$HORNET_INTEROP/common.sh" # keys, peer ids and ports of the Hornet side
[ -x "$H" ] || { echo "no $H"; exit 2; }
STATE="${STATE:-${TMPDIR:-/tmp}/ledger-node-interop/$SETUP}"
rm -rf "$STATE"
mkdir -p "$STATE"
LEDGER_REST_PORT="${LEDGER_REST_PORT:-14265}"
LEDGER_P2P_PORT="${LEDGER_P2P_PORT:-15600}"
OURS="http://127.0.0.1:$LEDGER_REST_PORT"
CHECK=(node "$ROOT/scripts/interop/check.mjs")
GENESIS_OUTPUT=0x$(printf '00%.0s' $(seq 1 34)) # output ID of the first genesis output (both networks)

cleanup() {
  if [ "${KEEP:-0}" = 1 ]; then echo "KEEP=1: left running; stop with: kill \$(cat $STATE/ledger-node.pid); $HORNET_INTEROP/stop.sh <state>"; return; fi
  if [ -f "$STATE/ledger-node.pid" ]; then
    local pid; pid=$(cat "$STATE/ledger-node.pid")
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    rm -f "$STATE/ledger-node.pid"
  fi
  for s in "$STATE/pair" "$STATE/follower" "$STATE/joiner"; do [ -d "$s" ] && "$HORNET_INTEROP/stop.sh" "$s" >/dev/null || true; done
}
trap cleanup EXIT

status() { # URL -> "confirmed latest healthy"
  curl -s "$1/api/core/v2/info" | python3 -c 'import json,sys; s=json.load(sys.stdin)["status"]; print(s["confirmedMilestone"]["index"], s["latestMilestone"]["index"], s["isHealthy"])'
}

confirmed() { status "$1" | cut -d' ' -f1; }

# Aliases, foundries and their native tokens, NFTs, and basic outputs with every unlock
# condition and feature, made on ledger-node by indexer-load.ts (the inx-indexer interop's
# load) from the dev key's $change, which puts half of it aside for a reserve key: the
# transfers go on from there ($change and $dev_key).
rich_ledger() {
  echo "== aliases, foundries, native tokens, NFTs and unlock conditions in the ledger (indexer-load.ts)"
  FUNDING_OUTPUT="$change" SEED="${SEED:-23}" npx --prefix "$ROOT" vite-node "$ROOT/scripts/interop/indexer-load.ts" \
    "$OURS" "$STATE/plan.json" >"$STATE/load.log" 2>&1 || { echo "FAIL the load, see $STATE/load.log"; tail -5 "$STATE/load.log"; exit 1; }
  grep -v "^reserve: " "$STATE/load.log" | tail -2
  # The transfers go on from the reserve the load put aside, with its key.
  read -r change dev_key < <(sed -n 's/^reserve: //p' "$STATE/load.log")
}

wait_confirmed() { # URL INDEX SECONDS: until URL has confirmed INDEX
  local i
  for i in $(seq 1 "$3"); do
    [ "$(confirmed "$1" 2>/dev/null || echo 0)" -ge "$2" ] && return 0
    sleep 1
  done
  echo "FAIL $1 did not confirm milestone $2 within $3 s"; return 1
}

wait_synced() { # A B SECONDS: until B has confirmed at least A's confirmed index (read once) and is healthy
  local target i b
  target=$(status "$1" | cut -d' ' -f1)
  for i in $(seq 1 "$3"); do
    b=$(status "$2" 2>/dev/null || echo "0 0 False")
    if [ "$(echo "$b" | cut -d' ' -f1)" -ge "$target" ] && [ "$(echo "$b" | cut -d' ' -f3)" = True ]; then
      echo "synced after ${i} s: $2 at $(echo "$b" | cut -d' ' -f1) (target $target)"; return 0
    fi
    sleep 1
  done
  echo "FAIL $2 did not reach milestone $target within $3 s (status: $b)"; return 1
}

start_ledger_node() { # CONFIG_FILE
  (exec node "$ROOT/bin/ledger-node.js" --config "$1" >>"$STATE/ledger-node.log" 2>&1) </dev/null &
  echo $! >"$STATE/ledger-node.pid"
  for _ in $(seq 1 60); do curl -s -o /dev/null "$OURS/api/core/v2/info" && return 0; sleep 1; done
  echo "ledger-node did not start, see $STATE/ledger-node.log"; tail -5 "$STATE/ledger-node.log"; return 1
}

transfer() { # SUBMIT_URL CHECK_URL SEED OUTPUT_ID: prints the check, then sets $change to the change output
  local out="$STATE/transfer-$RANDOM.txt" rc=0
  "${CHECK[@]}" transfer "$1" "$2" --seed "$3" --output "$4" >"$out" || rc=$?
  cat "$out"
  [ "$rc" = 0 ] || exit "$rc"
  change=$(sed -n 's/^change output (owned by the seed): //p' "$out")
}

echo "== versions: $("$H" --version), ledger-node $(node -p "require('$ROOT/package.json').version") ($(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown))"

if [ "$SETUP" = setup1 ]; then
  echo "== Hornet pair with inx-coordinator (network private_tangle1)"
  STATE="$STATE/pair" WITH_COORDINATOR=1 "$HORNET_INTEROP/start-hornet-pair.sh" | grep -E "health|hornet-. (REST|p2p)"
  H1="http://$REST_1"; H2="http://$REST_2"
  key_ranges=$(python3 -c 'import json,sys; print(json.dumps([{"key":k,"start":0,"end":0} for k in sys.argv[1].split(",")]))' "$PT_COO_PUB_KEYS")
  cat >"$STATE/ledger-node.json" <<JSON
{
  "dataDir": "$STATE/ledger-node",
  "network": { "name": "private_tangle1" },
  "snapshot": { "loadPath": "$STATE/pair/genesis_snapshot.bin" },
  "protocol": { "milestonePublicKeyCount": 2, "publicKeyRanges": $key_ranges },
  "coordinator": { "enabled": false },
  "restApi": { "bindAddress": "127.0.0.1:$LEDGER_REST_PORT" },
  "gossip": { "enabled": true },
  "p2p": {
    "bindMultiAddresses": ["/ip4/127.0.0.1/tcp/$LEDGER_P2P_PORT"],
    "identityPrivateKey": "$P2P_KEY_3",
    "peers": [{ "multiAddress": "/ip4/127.0.0.1/tcp/$P2P_PORT_1/p2p/$ID_1", "alias": "hornet-1" }]
  }
}
JSON
  echo "== ledger-node follows: snapshot of the pair, Hornet's two coordinator keys, dials hornet-1"
  start_ledger_node "$STATE/ledger-node.json"
  wait_synced "$H1" "$OURS" 60
  echo "== hornet-2 dials ledger-node (REST POST of its multiaddress)"
  curl -s -o /dev/null -w "POST /peers on hornet-2: %{http_code}\n" -X POST -H 'Content-Type: application/json' \
    -d "{\"multiAddress\":\"/ip4/127.0.0.1/tcp/$LEDGER_P2P_PORT/p2p/$ID_3\",\"alias\":\"ledger-node\"}" "$H2/api/core/v2/peers"
  sleep 3
  curl -s "$H2/api/core/v2/peers/$ID_3" | python3 -c 'import json,sys; p=json.load(sys.stdin); print("hornet-2 sees ledger-node:", p["relation"], "connected" if p["connected"] else "NOT connected", "heartbeat", json.dumps(p.get("gossip",{}).get("heartbeat")))'
  echo "== blocks both ways"
  "${CHECK[@]}" tagged "$OURS" "$H1"
  "${CHECK[@]}" tagged "$H2" "$OURS" --one-parent
  # The wallet key of Hornet's private tangle (its public test keys) owns genesis output 2.
  wallet=0x52d23081a626b1eca34b63f1eaeeafcbd66bf545635befc12cd0f19926efefb0
  transfer "$OURS" "$H1" "$wallet" 0x02000000000000000000000000000000000000000000000000000000000000000000
  transfer "$H2" "$OURS" "$wallet" "$change"
  echo "== restart: ledger-node stopped for 20 s, then catches up"
  kill -TERM "$(cat "$STATE/ledger-node.pid")"; sleep 20
  start_ledger_node "$STATE/ledger-node.json"
  wait_synced "$H1" "$OURS" 60
  echo "== every milestone: payload, utxo-changes, created outputs, referenced blocks (bytes, metadata)"
  "${CHECK[@]}" compare "$H1" "$OURS" | tail -3
  "${CHECK[@]}" outputs "$H1" "$OURS" "$GENESIS_OUTPUT" 0x01000000000000000000000000000000000000000000000000000000000000000000 0x02000000000000000000000000000000000000000000000000000000000000000000
elif [ "$SETUP" = snapshots ]; then
  COO_SEED=0x$(printf 'ledger-node interop coordinator' | sha256sum | cut -c1-64) # a public test key
  COO_PUB=$(node -e "console.log(require('$ROOT/dist/index.js').publicKey(process.argv[1]))" "$COO_SEED")
  dev_key=0xffbf22719c9ea8d3d31bcf5d5eaa03ffb3a2a2e71abfd2b2ef0e56b692897f71 # the dev genesis key (D23)
  # PARTS="1 2" by default: 1 = Hornet from our snapshot, 2 = ledger-node from Hornet's.
  if [[ " ${PARTS:-1 2} " == *" 1 "* ]]; then
  echo "== 1. Hornet joins a ledger-node network from a full + delta snapshot that ledger-node wrote"
  cat >"$STATE/ledger-node.json" <<JSON
{
  "dataDir": "$STATE/ledger-node",
  "genesis": { "style": "hornet" },
  "coordinator": { "privateKeys": ["$COO_SEED"], "interval": 1 },
  "restApi": { "bindAddress": "127.0.0.1:$LEDGER_REST_PORT" },
  "gossip": { "enabled": true },
  "p2p": {
    "bindMultiAddresses": ["/ip4/127.0.0.1/tcp/$LEDGER_P2P_PORT"],
    "identityPrivateKey": "$P2P_KEY_3",
    "peers": [{ "multiAddress": "/ip4/127.0.0.1/tcp/$P2P_PORT_F/p2p/$ID_4", "alias": "hornet-joiner" }]
  }
}
JSON
  start_ledger_node "$STATE/ledger-node.json"
  change=$GENESIS_OUTPUT
  for at in 40 110 180; do # transfers on the way: the snapshot's ledger is not the genesis
    wait_confirmed "$OURS" "$at" 400
    transfer "$OURS" "$OURS" "$dev_key" "$change" >"$STATE/transfer-$at.log"; grep -c "^ok" "$STATE/transfer-$at.log" | sed "s/^/transfer at $at: ok checks: /"
    if [ "$at" = 40 ] && [ "${RICH:-1}" = 1 ]; then rich_ledger; fi
  done
  wait_confirmed "$OURS" 226 400
  token=$(node "$ROOT/bin/ledger-node.js" jwt --config "$STATE/ledger-node.json")
  full=$(curl -s -X POST -H "Authorization: Bearer $token" -H 'Content-Type: application/json' -d '{"index":200}' \
    "$OURS/api/core/v2/control/snapshots/create" | python3 -c 'import json,sys; print(json.load(sys.stdin)["filePath"])')
  node "$ROOT/bin/ledger-node.js" snapshot create --delta --index 206 --full "$full" --out "$STATE/delta_206.bin" \
    --config "$STATE/ledger-node.json"
  echo "full snapshot at 200: $full ($(wc -c <"$full") bytes); delta at 206: $(wc -c <"$STATE/delta_206.bin") bytes"
  J="$STATE/joiner"
  mkdir -p "$J/snapshots"
  cp "$full" "$J/snapshots/full_snapshot.bin"
  cp "$STATE/delta_206.bin" "$J/snapshots/delta_snapshot.bin"
  (
    cd "$J"
    node_config config.json ledger-devnet-v2 1 "$(public_key_ranges "${COO_PUB#0x}")"
    echo '{"peers":[]}' >peering.json
    started=$(date +%s.%N)
    ( exec "$H" -c config.json --peering=peering.json --db.engine=pebble --node.alias=hornet-joiner \
        --p2p.identityPrivateKey=$P2P_KEY_4 --p2p.bindMultiAddresses=/ip4/127.0.0.1/tcp/$P2P_PORT_F \
        --restAPI.bindAddress=$REST_F --p2p.peers="/ip4/127.0.0.1/tcp/$LEDGER_P2P_PORT/p2p/$ID_3" \
        --p2p.peerAliases=ledger-node >hornet.log 2>&1 ) </dev/null &
    echo $! >hornet-follower.pid
    echo "$started" >started
  )
  HF="http://$REST_F"
  [ "$(wait_http "$HF/api/core/v2/info" 60)" = 200 ] || { echo "FAIL Hornet did not start, see $J/hornet.log"; exit 1; }
  grep -m1 -iE "snapshot.*(loaded|solid entry)|loading snapshot" "$J/hornet.log" || true
  wait_synced "$OURS" "$HF" 120
  echo "Hornet's pruning index: $(curl -s "$HF/api/core/v2/info" | python3 -c 'import json,sys; print(json.load(sys.stdin)["status"]["pruningIndex"])')"
  transfer "$HF" "$OURS" "$dev_key" "$change"
  wait_synced "$OURS" "$HF" 60
  echo "== every milestone after the delta's target, on both: payload, utxo-changes, outputs, cone blocks"
  "${CHECK[@]}" compare "$OURS" "$HF" --from 207 | tail -3
  "${CHECK[@]}" outputs "$OURS" "$HF" "$change" | tail -2
  echo "== every unspent output (ledger-node's indexer lists them), on both"
  "${CHECK[@]}" ledger "$OURS" "$HF" | grep -v "^ok" | tail -5
  "$HORNET_INTEROP/stop.sh" "$J" >/dev/null || true
  kill -TERM "$(cat "$STATE/ledger-node.pid")"; rm -f "$STATE/ledger-node.pid"; sleep 3
  fi
  [[ " ${PARTS:-1 2} " == *" 2 "* ]] || exit 0

  echo "== 2. ledger-node joins a Hornet network from a snapshot that Hornet wrote (control/snapshots/create)"
  STATE="$STATE/pair" WITH_COORDINATOR=1 "$HORNET_INTEROP/start-hornet-pair.sh" | grep -E "health|hornet-. (REST|p2p)"
  H1="http://$REST_1"
  wallet=0x52d23081a626b1eca34b63f1eaeeafcbd66bf545635befc12cd0f19926efefb0 # owns genesis output 2 there
  wait_confirmed "$H1" 5 120
  transfer "$H1" "$H1" "$wallet" 0x02000000000000000000000000000000000000000000000000000000000000000000 >"$STATE/transfer-h1.log"
  # Hornet writes a full snapshot with the diffs down to target − 29, and its snap-gen
  # genesis has no diff 0: below target 30 it fails ("unable to get next LS milestone diff").
  # A target also needs belowMaxDepth + 5 = 20 milestones above it: confirmed ≥ 51.
  wait_confirmed "$H1" 52 600
  for _ in 1 2 3; do
    target=$(($(confirmed "$H1") - 21))
    answer=$(curl -s -X POST -H 'Content-Type: application/json' -d "{\"index\":$target}" "$H1/api/core/v2/control/snapshots/create")
    echo "Hornet control/snapshots/create $target: $answer"
    case "$answer" in *filePath*) break ;; esac
    sleep 6
  done
  file=$(echo "$answer" | python3 -c 'import json,sys; print(json.load(sys.stdin)["filePath"])')
  case "$file" in /*) ;; *) file="$STATE/pair/hornet-1/$file" ;; esac
  key_ranges=$(python3 -c 'import json,sys; print(json.dumps([{"key":k,"start":0,"end":0} for k in sys.argv[1].split(",")]))' "$PT_COO_PUB_KEYS")
  cat >"$STATE/joiner.json" <<JSON
{
  "dataDir": "$STATE/ledger-node-joiner",
  "network": { "name": "private_tangle1" },
  "snapshot": { "loadPath": "$file" },
  "protocol": { "milestonePublicKeyCount": 2, "publicKeyRanges": $key_ranges },
  "coordinator": { "enabled": false },
  "restApi": { "bindAddress": "127.0.0.1:$LEDGER_REST_PORT" },
  "gossip": { "enabled": true },
  "p2p": {
    "bindMultiAddresses": ["/ip4/127.0.0.1/tcp/$LEDGER_P2P_PORT"],
    "identityPrivateKey": "$P2P_KEY_3",
    "peers": [{ "multiAddress": "/ip4/127.0.0.1/tcp/$P2P_PORT_1/p2p/$ID_1", "alias": "hornet-1" }]
  }
}
JSON
  start_ledger_node "$STATE/joiner.json"
  echo "ledger-node started from Hornet's snapshot at $target: $(status "$OURS")"
  wait_synced "$H1" "$OURS" 120
  transfer "$OURS" "$H1" "$wallet" "$change"
  wait_synced "$H1" "$OURS" 60
  echo "== every milestone after Hornet's snapshot target, on both"
  "${CHECK[@]}" compare "$H1" "$OURS" --from $((target + 1)) | tail -3
  "${CHECK[@]}" outputs "$H1" "$OURS" "$change" | tail -2
else
  COO_SEED=0x$(printf 'ledger-node interop coordinator' | sha256sum | cut -c1-64) # a public test key
  COO_PUB=$(node -e "console.log(require('$ROOT/dist/index.js').publicKey(process.argv[1]))" "$COO_SEED")
  echo "== ledger-node: coordinator, genesis style hornet (network ledger-devnet-v2), coordinator key $COO_PUB"
  cat >"$STATE/ledger-node.json" <<JSON
{
  "dataDir": "$STATE/ledger-node",
  "genesis": { "style": "hornet" },
  "coordinator": { "privateKeys": ["$COO_SEED"] },
  "restApi": { "bindAddress": "127.0.0.1:$LEDGER_REST_PORT" },
  "gossip": { "enabled": true },
  "p2p": {
    "bindMultiAddresses": ["/ip4/127.0.0.1/tcp/$LEDGER_P2P_PORT"],
    "identityPrivateKey": "$P2P_KEY_3",
    "peers": [{ "multiAddress": "/ip4/127.0.0.1/tcp/$P2P_PORT_F/p2p/$ID_4", "alias": "hornet-follower" }]
  }
}
JSON
  start_ledger_node "$STATE/ledger-node.json"
  node "$ROOT/bin/ledger-node.js" snapshot write --out "$STATE/ledger-genesis.bin" --config "$STATE/ledger-node.json"
  "$HORNET_INTEROP/make-genesis-snapshot.sh" "$STATE/ref-genesis.bin" >/dev/null
  if cmp -s "$STATE/ledger-genesis.bin" "$STATE/ref-genesis.bin"; then echo "ok   our genesis snapshot equals hornet tool snap-gen's ($(wc -c <"$STATE/ref-genesis.bin") bytes)"; else echo "FAIL our genesis snapshot differs from snap-gen's"; fi
  follower() {
    SNAPSHOT="$STATE/ledger-genesis.bin" COO_PUBLIC_KEYS="${COO_PUB#0x}" LEDGER_PEER="/ip4/127.0.0.1/tcp/$LEDGER_P2P_PORT/p2p/$ID_3" \
      RESET=1 STATE="$STATE/follower" "$HORNET_INTEROP/start-hornet-follower.sh" | grep -E "^(hornet|network)"
  }
  echo "== Hornet follows ledger-node (snapshot written by ledger-node, trusts its coordinator key)"
  follower
  HF="http://$REST_F"
  wait_synced "$OURS" "$HF" 60
  echo "== blocks both ways"
  "${CHECK[@]}" tagged "$HF" "$OURS"
  "${CHECK[@]}" tagged "$HF" "$OURS" --one-parent
  dev_key=0xffbf22719c9ea8d3d31bcf5d5eaa03ffb3a2a2e71abfd2b2ef0e56b692897f71 # the dev genesis key (D23)
  transfer "$HF" "$OURS" "$dev_key" "$GENESIS_OUTPUT"
  transfer "$OURS" "$HF" "$dev_key" "$change"
  "${CHECK[@]}" tagged "$OURS" "$HF"
  echo "== a Hornet started late (fresh database 20 s later) syncs every milestone from ledger-node"
  "$HORNET_INTEROP/stop.sh" "$STATE/follower" >/dev/null; sleep 20
  follower
  wait_synced "$OURS" "$HF" 90
  curl -s -o /dev/null -w "hornet /health: %{http_code}\n" "$HF/health"
  echo "== every milestone: payload, utxo-changes, created outputs, referenced blocks (bytes, metadata)"
  "${CHECK[@]}" compare "$OURS" "$HF" | tail -3
fi
echo "== done ($SETUP); logs and databases in $STATE"

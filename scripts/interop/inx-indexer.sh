#!/usr/bin/env bash
# Hornet's inx-indexer (v1.0.1, the real binary) against this node over INX: the node runs
# with --no-indexer (the built-in indexer owns the route group indexer/v1 otherwise) and
# --inx; inx-indexer reads the unspent outputs, follows the ledger updates and registers
# indexer/v1, which the node proxies; a transfer made after that reaches it as a ledger update. A few TIP-26 queries through the node's proxy are
# then compared with the built-in indexer's answers on the same ledger (the node started
# again on the same data directory with its indexer, which it rebuilds from the ledger).
#
#   scripts/interop/inx-indexer.sh            # needs `npm run build` and the binary below
#   INX_INDEXER=/path/to/inx-indexer scripts/interop/inx-indexer.sh
#
# Prints one PASS/FAIL line per query; exits 1 on any FAIL. Everything lives in a temporary
# directory that is removed at the end (KEEP=1 keeps it).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
INX_INDEXER="${INX_INDEXER:-/work/interop/bin/inx-indexer}"
[ -x "$INX_INDEXER" ] || { echo "no inx-indexer binary at $INX_INDEXER (set INX_INDEXER)"; exit 2; }
[ -f "$ROOT/dist/index.js" ] || { echo "dist/ missing: run npm run build first"; exit 2; }

WORK="$(mktemp -d /tmp/ledger-node-inx-indexer-XXXXXX)"
free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
REST_PORT="$(free_port)"; INX_PORT="$(free_port)"; IDX_PORT="$(free_port)"
URL="http://127.0.0.1:$REST_PORT"
NODE_PID=""; IDX_PID=""
cleanup() {
  [ -n "$IDX_PID" ] && kill "$IDX_PID" 2>/dev/null && wait "$IDX_PID" 2>/dev/null || true
  [ -n "$NODE_PID" ] && kill "$NODE_PID" 2>/dev/null && wait "$NODE_PID" 2>/dev/null || true
  if [ "${KEEP:-0}" = 1 ]; then echo "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

start_node() { # extra flags…
  node "$ROOT/bin/ledger-node.js" --data-dir "$WORK/data" --bind 127.0.0.1 --port "$REST_PORT" \
    --milestone-interval 1 --min-pow-score 5 "$@" >>"$WORK/node.log" 2>&1 &
  NODE_PID=$!
  for _ in $(seq 1 300); do
    curl -sf "$URL/health" >/dev/null && return 0
    sleep 0.1
  done
  echo "the node did not become healthy:"; tail -20 "$WORK/node.log"; exit 1
}
stop_node() { kill "$NODE_PID"; wait "$NODE_PID" 2>/dev/null || true; NODE_PID=""; }
ledger_index() { curl -s "$URL/api/core/v2/info" | node -e 'let t="";process.stdin.on("data",d=>t+=d).on("end",()=>console.log(JSON.parse(t).status.confirmedMilestone.index))'; }
# The sorted items of an indexer query (the ledger index and paging left out).
items() { curl -s "$URL/api/indexer/v1/$1" | node -e 'let t="";process.stdin.on("data",d=>t+=d).on("end",()=>{const j=JSON.parse(t);console.log(JSON.stringify(j.items===undefined?j:[...j.items].sort()))})'; }

echo "node: REST $URL, INX 127.0.0.1:$INX_PORT; inx-indexer API 127.0.0.1:$IDX_PORT; in $WORK"
start_node --no-indexer --inx --inx-bind "127.0.0.1:$INX_PORT"
"$INX_INDEXER" --app.checkForUpdates=false --inx.address="127.0.0.1:$INX_PORT" \
  --indexer.db.engine=sqlite --indexer.db.sqlite.path="$WORK/inx-indexer/database" \
  --restAPI.bindAddress="127.0.0.1:$IDX_PORT" --prometheus.enabled=false >"$WORK/inx-indexer.log" 2>&1 &
IDX_PID=$!
for _ in $(seq 1 300); do
  curl -s "$URL/api/routes" | grep -q '"indexer/v1"' && break
  kill -0 "$IDX_PID" 2>/dev/null || { echo "inx-indexer exited:"; tail -30 "$WORK/inx-indexer.log"; exit 1; }
  sleep 0.1
done
curl -s "$URL/api/routes" | grep -q '"indexer/v1"' || { echo "inx-indexer did not register indexer/v1"; tail -30 "$WORK/inx-indexer.log"; exit 1; }
# The transfer after the extension imported the ledger (the genesis output): it reaches
# inx-indexer as a ledger update.
mapfile -t ADDRESSES < <(node "$ROOT/scripts/interop/split-genesis.mjs" "$URL")
echo "outputs for: ${ADDRESSES[*]}"
# Wait until the extension has applied the milestone that holds the transfer.
TARGET="$(ledger_index)"
for _ in $(seq 1 300); do
  seen="$(curl -s "$URL/api/indexer/v1/outputs/basic" | node -e 'let t="";process.stdin.on("data",d=>t+=d).on("end",()=>{try{console.log(JSON.parse(t).ledgerIndex??0)}catch{console.log(0)}})')"
  [ "$seen" -ge "$TARGET" ] && break
  sleep 0.1
done

QUERIES=(
  "outputs/basic"
  "outputs/basic?hasStorageDepositReturn=false&hasTimelock=false"
  "outputs/alias"
  "outputs/nft"
  "outputs/foundry"
)
for a in "${ADDRESSES[@]}"; do QUERIES+=("outputs/basic?address=$a"); done
declare -A FROM_EXTENSION
for q in "${QUERIES[@]}"; do FROM_EXTENSION[$q]="$(items "$q")"; done
kill "$IDX_PID"; wait "$IDX_PID" 2>/dev/null || true; IDX_PID=""
stop_node

start_node
failed=0
for q in "${QUERIES[@]}"; do
  builtin="$(items "$q")"
  if [ "$builtin" = "${FROM_EXTENSION[$q]}" ]; then
    echo "PASS $q: $builtin"
  else
    echo "FAIL $q: inx-indexer ${FROM_EXTENSION[$q]} built-in $builtin"
    failed=1
  fi
done
grep -E 'Importing initial ledger|Applying milestone .* with [1-9]' "$WORK/inx-indexer.log" || true
exit "$failed"

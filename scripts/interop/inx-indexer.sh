#!/usr/bin/env bash
# Hornet's inx-indexer (v1.0.1, the real binary) against this node over INX, on SQLite and on
# PostgreSQL (issue 22). For each engine: a fresh node with the embedded coordinator runs
# with --no-indexer (the built-in indexer owns the route group indexer/v1 otherwise) and
# --inx; inx-indexer imports the genesis ledger, registers indexer/v1 (which the node
# proxies) and follows the ledger updates of a load (indexer-load.ts: random basic
# transfers, outputs with every unlock condition and feature TIP-26 filters on, an alias, a
# foundry and native tokens, NFTs, some of each spent again; the wallet in it syncs through
# inx-indexer). Every TIP-26 route and filter inx-indexer takes is then asked through the
# proxy (indexer-queries.mjs), the node is started again on the same data directory with its
# own indexer (which it rebuilds from the ledger at start-up), the same queries are asked,
# and the answers (sorted items and status; the ledger index aside) are compared.
#
#   scripts/interop/inx-indexer.sh                      # both engines; needs `npm run build`
#   ENGINE=postgresql SEED=42 scripts/interop/inx-indexer.sh
#   INX_INDEXER=/path/to/inx-indexer scripts/interop/inx-indexer.sh
#
# PostgreSQL: a throwaway cluster (initdb as user postgres, trust authentication, no TCP,
# its unix socket in the temporary directory) made for the run and stopped at the end; needs
# root (runuser) and PostgreSQL 15's binaries (PG_BIN). Prints one ok/FAIL line per query
# (`known` where inx-indexer is known to be wrong, see indexer-queries.mjs and docs/inx.md)
# and `N/N queries equal` per engine; exits 1 on any FAIL. Everything lives in a temporary
# directory that is removed at the end (KEEP=1 keeps it).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
. "$ROOT/scripts/interop/lib.sh"
INX_INDEXER="${INX_INDEXER:-/work/interop/bin/inx-indexer}"
PG_BIN="${PG_BIN:-/usr/lib/postgresql/15/bin}"
ENGINES="${ENGINE:-sqlite postgresql}"
SEED="${SEED:-$((RANDOM * 32768 + RANDOM))}"
[ -x "$INX_INDEXER" ] || { echo "no inx-indexer binary at $INX_INDEXER (set INX_INDEXER)"; exit 2; }
[ -f "$ROOT/dist/index.js" ] || { echo "dist/ missing: run npm run build first"; exit 2; }
for engine in $ENGINES; do
  case "$engine" in
    sqlite) ;;
    postgresql) [ -x "$PG_BIN/initdb" ] || { echo "no PostgreSQL at $PG_BIN (set PG_BIN)"; exit 2; } ;;
    *) echo "ENGINE must be sqlite or postgresql"; exit 2 ;;
  esac
done

WORK="$(mktemp -d /tmp/ledger-node-inx-indexer-XXXXXX)"
chmod 711 "$WORK" # the postgres user reaches its cluster below it
NODE_PID=""; IDX_PID=""; PG_DIR=""
stop_pg() {
  [ -n "$PG_DIR" ] && PG_BIN="$PG_BIN" "$ROOT/scripts/interop/pg-cluster.sh" stop "$PG_DIR"
  PG_DIR=""
}
cleanup() {
  [ -n "$IDX_PID" ] && kill "$IDX_PID" 2>/dev/null && wait "$IDX_PID" 2>/dev/null || true
  [ -n "$NODE_PID" ] && kill "$NODE_PID" 2>/dev/null && wait "$NODE_PID" 2>/dev/null || true
  stop_pg
  if [ "${KEEP:-0}" = 1 ]; then echo "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

start_node() { # data dir, extra flags…
  local data="$1"; shift
  node "$ROOT/bin/ledger-node.js" --data-dir "$data" --bind 127.0.0.1 --port "$REST_PORT" \
    --milestone-interval 1 --min-pow-score 5 "$@" >>"$RUN/node.log" 2>&1 &
  NODE_PID=$!
  wait_healthy "$RUN/node.log"
}
stop_node() { kill "$NODE_PID"; wait "$NODE_PID" 2>/dev/null || true; NODE_PID=""; }
ledger_index() { curl -s "$URL/api/core/v2/info" | node -e 'let t="";process.stdin.on("data",d=>t+=d).on("end",()=>console.log(JSON.parse(t).status.confirmedMilestone.index))'; }
indexer_index() { curl -s "$URL/api/indexer/v1/outputs/basic?pageSize=1" | node -e 'let t="";process.stdin.on("data",d=>t+=d).on("end",()=>{try{console.log(JSON.parse(t).ledgerIndex??0)}catch{console.log(0)}})'; }

# A cluster of our own (pg-cluster.sh: initdb as postgres, the socket in $RUN/pg, a role
# and database named as inx-indexer's defaults).
start_pg() {
  PG_PORT="$(free_port)"
  PG_DIR="$RUN/pg"
  PG_BIN="$PG_BIN" "$ROOT/scripts/interop/pg-cluster.sh" start "$PG_DIR" "$PG_PORT"
  PG_SOCKET_DIR="$PG_DIR"
}

run_engine() {
  local engine="$1"
  RUN="$WORK/$engine"; mkdir -p "$RUN"
  REST_PORT="$(free_port)"; INX_PORT="$(free_port)"; IDX_PORT="$(free_port)"
  URL="http://127.0.0.1:$REST_PORT"
  local db_flags=(--indexer.db.engine=sqlite --indexer.db.sqlite.path="$RUN/inx-indexer/database")
  if [ "$engine" = postgresql ]; then
    start_pg
    db_flags=(--indexer.db.engine=postgresql --indexer.db.postgresql.host="$PG_SOCKET_DIR"
      --indexer.db.postgresql.port="$PG_PORT" --indexer.db.postgresql.database=indexer
      --indexer.db.postgresql.username=indexer --indexer.db.postgresql.password=indexer)
  fi
  echo "== $engine: node REST $URL, INX 127.0.0.1:$INX_PORT; inx-indexer API 127.0.0.1:$IDX_PORT; seed $SEED; in $RUN"
  start_node "$RUN/data" --no-indexer --inx --inx-bind "127.0.0.1:$INX_PORT"
  "$INX_INDEXER" --app.checkForUpdates=false --inx.address="127.0.0.1:$INX_PORT" "${db_flags[@]}" \
    --restAPI.bindAddress="127.0.0.1:$IDX_PORT" --prometheus.enabled=false >"$RUN/inx-indexer.log" 2>&1 &
  IDX_PID=$!
  for _ in $(seq 1 300); do
    curl -s "$URL/api/routes" | grep -q '"indexer/v1"' && break
    kill -0 "$IDX_PID" 2>/dev/null || { echo "inx-indexer exited:"; tail -30 "$RUN/inx-indexer.log"; exit 1; }
    sleep 0.1
  done
  curl -s "$URL/api/routes" | grep -q '"indexer/v1"' || { echo "inx-indexer did not register indexer/v1"; tail -30 "$RUN/inx-indexer.log"; exit 1; }

  # The load, made after the extension imported the genesis ledger: all of it reaches
  # inx-indexer as ledger updates.
  (cd "$ROOT" && SEED="$SEED" npx vite-node scripts/interop/indexer-load.ts "$URL" "$RUN/plan.json")
  local target; target="$(ledger_index)"
  for _ in $(seq 1 300); do
    [ "$(indexer_index)" -ge "$target" ] && break
    sleep 0.1
  done
  node "$ROOT/scripts/interop/indexer-queries.mjs" collect "$URL" "$RUN/plan.json" "$RUN/extension.json"
  echo "inx-indexer: ledger updates with new outputs applied: $(grep -cE 'Applying milestone .* with [1-9]' "$RUN/inx-indexer.log" || true)"
  kill "$IDX_PID"; wait "$IDX_PID" 2>/dev/null || true; IDX_PID=""
  stop_node
  stop_pg

  start_node "$RUN/data"
  for _ in $(seq 1 300); do # the index is rebuilt from the ledger at start-up (503 until then)
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$URL/api/indexer/v1/outputs/basic?pageSize=1")" = 200 ] && break
    sleep 0.1
  done
  node "$ROOT/scripts/interop/indexer-queries.mjs" collect "$URL" "$RUN/plan.json" "$RUN/built-in.json"
  stop_node
  node "$ROOT/scripts/interop/indexer-queries.mjs" compare "$RUN/extension.json" "$RUN/built-in.json" "$engine" || failed=1
}

failed=0
for engine in $ENGINES; do run_engine "$engine"; done
exit "$failed"

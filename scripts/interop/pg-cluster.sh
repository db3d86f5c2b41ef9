#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for inx-indexer's postgresql engine, shared by
# scripts/interop/inx-indexer.sh and bench:inx (benches/inx-indexer.mjs):
#
#   pg-cluster.sh start DIR PORT   # initdb in DIR/data as user postgres (trust, no TCP), the
#                                  # server's unix socket in DIR on PORT, a role and database
#                                  # `indexer` (password `indexer`; inx-indexer's defaults)
#   pg-cluster.sh stop DIR         # fast shutdown; DIR itself is left to the caller
#
# Needs root (runuser) and PostgreSQL's binaries in PG_BIN (default: version 15 of Debian's
# packages). Every folder above DIR must be traversable by the postgres user (chmod 711).
# The logs go to DIR/initdb.log and DIR/postgres.log.
set -euo pipefail

PG_BIN="${PG_BIN:-/usr/lib/postgresql/15/bin}"
cmd="${1:-}"
dir="${2:-}"
[ -n "$dir" ] || { echo "usage: $0 start DIR PORT | stop DIR" >&2; exit 2; }

case "$cmd" in
  start)
    port="${3:?usage: $0 start DIR PORT}"
    [ -x "$PG_BIN/initdb" ] || { echo "no PostgreSQL at $PG_BIN (set PG_BIN)" >&2; exit 2; }
    mkdir -p "$dir" && chown postgres "$dir" && chmod 700 "$dir"
    runuser -u postgres -- "$PG_BIN/initdb" -D "$dir/data" --auth=trust -U postgres >"$dir/initdb.log" 2>&1
    runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w \
      -o "-c listen_addresses='' -c port=$port -c unix_socket_directories=$dir" start >/dev/null
    chmod 711 "$dir" # clients (root, inx-indexer) reach the socket
    psql -q -h "$dir" -p "$port" -U postgres -d postgres \
      -c "CREATE ROLE indexer LOGIN PASSWORD 'indexer'" -c "CREATE DATABASE indexer OWNER indexer"
    ;;
  stop)
    [ -f "$dir/data/postmaster.pid" ] || exit 0
    runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    ;;
  *)
    echo "usage: $0 start DIR PORT | stop DIR" >&2
    exit 2
    ;;
esac

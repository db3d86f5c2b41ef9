# Shared by the interop scripts (sourced, never run): one ok/FAIL line per check, JSON from
# curl, free ports, processes started in the run's temporary directory and stopped at exit.
# A script sets WORK (its temporary directory) and URL (the node's REST API) before it
# uses what needs them.

failed=0
PIDS=()

report() { # ok? what
  if [ "$1" = 1 ]; then echo "ok   $2"; else echo "FAIL $2"; failed=1; fi
}

# The value of a JS expression over the JSON read from stdin, bound to `j`.
json() { node -e 'let t="";process.stdin.on("data",d=>t+=d).on("end",()=>{const j=JSON.parse(t);console.log(eval(process.argv[1]))})' "$1"; }

free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

launch() { # name command… : runs in $WORK/<name>, log $WORK/<name>.log; stopped at exit
  local name="$1"; shift
  mkdir -p "$WORK/$name"
  (cd "$WORK/$name" && exec "$@" >>"$WORK/$name.log" 2>&1) &
  PIDS+=($!)
}

# The launched processes in reverse (the extensions first, the node last), then $WORK
# unless KEEP=1.
stop_launched() {
  local i
  for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do kill "${PIDS[$i]}" 2>/dev/null && wait "${PIDS[$i]}" 2>/dev/null || true; done
  if [ "${KEEP:-0}" = 1 ]; then echo "kept $WORK"; else rm -rf "$WORK"; fi
}

wait_route() { # route seconds : until the node lists an extension's route in /api/routes
  local deadline=$((SECONDS + $2))
  while [ $SECONDS -lt $deadline ]; do
    curl -s "$URL/api/routes" | grep -q "\"$1\"" && return 0
    sleep 0.2
  done
  return 1
}

wait_healthy() { # log : until the node at $URL answers /health 200, else the log's tail and exit 1
  for _ in $(seq 1 300); do
    curl -sf "$URL/health" >/dev/null && return 0
    sleep 0.1
  done
  echo "the node did not become healthy:"; tail -20 "$1"; exit 1
}

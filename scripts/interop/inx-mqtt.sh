#!/usr/bin/env bash
# Hornet's inx-mqtt (v1.0.0, the real binary) against this node over INX, in two parts.
#
#  a. Both brokers on one run: the node with its own event API (/api/mqtt/v1) and --inx.
#     inx-mqtt with its WebSocket on registers mqtt/v1, which the node refuses
#     (ALREADY_EXISTS, naming --no-events), and inx-mqtt exits: checked first. So it runs a
#     second time with its WebSocket off and its TCP listener on (no route to register; the
#     same broker and the same INX streams), and mqtt-compare.mjs subscribes one client to
#     each broker (the node's over WebSocket, inx-mqtt's over TCP) to every topic family
#     inx-mqtt serves (TIP-28's and its own tip-score-updates), sends a load (tagged
#     data; a transfer with tagged data creating an alias, an NFT, a storage deposit return
#     and an expiration; a foundry under the alias minting native tokens; those outputs
#     spent and the chains transitioned; more tagged data) and
#     compares what both published, per topic family (chain and unlock-condition topics
#     included, created and spent).
#  b. With --no-events: inx-mqtt (WebSocket on) registers mqtt/v1, the node lists it in
#     /api/routes, and a client connected to ws://<node>/api/mqtt/v1 (through the node's
#     proxy) gets the same messages, milestones and the run's blocks included, as a client
#     on inx-mqtt's own WebSocket port (tip-score-updates included).
#
#   scripts/interop/inx-mqtt.sh                 # needs `npm run build` and the binary below
#   INX_MQTT=/path/to/inx-mqtt scripts/interop/inx-mqtt.sh
#
# Prints one ok/FAIL line per check; exits 1 on any FAIL. Everything lives in a temporary
# directory that is removed at the end (KEEP=1 keeps it). Ports are free ones picked at start.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
. "$ROOT/scripts/interop/lib.sh"
INX_MQTT="${INX_MQTT:-/work/interop/bin/inx-mqtt}"
[ -x "$INX_MQTT" ] || { echo "no inx-mqtt binary at $INX_MQTT (set INX_MQTT)"; exit 2; }
[ -f "$ROOT/dist/index.js" ] || { echo "dist/ missing: run npm run build first"; exit 2; }

WORK="$(mktemp -d /tmp/ledger-node-inx-mqtt-XXXXXX)"
REST_PORT="$(free_port)"; INX_PORT="$(free_port)"; WS_PORT="$(free_port)"; TCP_PORT="$(free_port)"; PROM_PORT="$(free_port)"
URL="http://127.0.0.1:$REST_PORT"
NODE_PID=""; MQTT_PID="";
cleanup() {
  [ -n "$MQTT_PID" ] && kill "$MQTT_PID" 2>/dev/null && wait "$MQTT_PID" 2>/dev/null || true
  [ -n "$NODE_PID" ] && kill "$NODE_PID" 2>/dev/null && wait "$NODE_PID" 2>/dev/null || true
  if [ "${KEEP:-0}" = 1 ]; then echo "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

start_node() { # data dir, extra flags…
  local data="$1"; shift
  node "$ROOT/bin/ledger-node.js" --data-dir "$data" --bind 127.0.0.1 --port "$REST_PORT" \
    --milestone-interval 1 --min-pow-score 5 --inx --inx-bind "127.0.0.1:$INX_PORT" "$@" >>"$WORK/node.log" 2>&1 &
  NODE_PID=$!
  wait_healthy "$WORK/node.log"
}
stop_node() { kill "$NODE_PID"; wait "$NODE_PID" 2>/dev/null || true; NODE_PID=""; }
# inx-mqtt reads config.json from its working directory: each run gets its own.
start_mqtt() { # name, extra flags…
  local name="$1"; shift
  mkdir -p "$WORK/$name"
  (cd "$WORK/$name" && exec "$INX_MQTT" --app.checkForUpdates=false --inx.address="127.0.0.1:$INX_PORT" \
    --prometheus.bindAddress="127.0.0.1:$PROM_PORT" "$@" >"$WORK/$name.log" 2>&1) &
  MQTT_PID=$!
}
stop_mqtt() { kill "$MQTT_PID" 2>/dev/null || true; wait "$MQTT_PID" 2>/dev/null || true; MQTT_PID=""; }
wait_for_log() { # name, pattern: until the log shows it, or the process ended
  for _ in $(seq 1 300); do
    grep -q "$2" "$WORK/$1.log" 2>/dev/null && return 0
    kill -0 "$MQTT_PID" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

echo "node: REST $URL, INX 127.0.0.1:$INX_PORT; inx-mqtt WebSocket 127.0.0.1:$WS_PORT, TCP 127.0.0.1:$TCP_PORT; in $WORK"

echo "== a. the node's event API and inx-mqtt on the same run"
start_node "$WORK/data-a"
start_mqtt mqtt-ws --mqtt.websocket.bindAddress="127.0.0.1:$WS_PORT"
code=0; wait "$MQTT_PID" || code=$?; MQTT_PID=""
grep -q 'AlreadyExists.*--no-events' "$WORK/mqtt-ws.log" && [ "$code" != 0 ] && r=1 || r=0
report "$r" "inx-mqtt with its WebSocket: mqtt/v1 refused with ALREADY_EXISTS naming --no-events, inx-mqtt exits ($code)"
start_mqtt mqtt-tcp --mqtt.websocket.enabled=false --mqtt.tcp.enabled=true --mqtt.tcp.bindAddress="127.0.0.1:$TCP_PORT"
wait_for_log mqtt-tcp 'Starting MQTT Broker ... done' && r=1 || r=0
report "$r" "inx-mqtt with TCP only: attached, broker started, no route registered"
[ "$r" = 1 ] || { tail -20 "$WORK/mqtt-tcp.log"; exit 1; }
node "$ROOT/scripts/interop/mqtt-compare.mjs" "$URL" "node=ws://127.0.0.1:$REST_PORT/api/mqtt/v1" \
  "inx-mqtt=mqtt://127.0.0.1:$TCP_PORT" || failed=1
stop_mqtt
stop_node

echo "== b. --no-events: inx-mqtt's mqtt/v1 through the node's proxy"
start_node "$WORK/data-b" --no-events
start_mqtt mqtt-proxied --mqtt.websocket.bindAddress="127.0.0.1:$WS_PORT"
wait_for_log mqtt-proxied 'Registering API route ... done' && r=1 || r=0
routes="$(curl -s "$URL/api/routes")"
[ "$r" = 1 ] && grep -q '"mqtt/v1"' <<<"$routes" && r=1 || r=0
report "$r" "inx-mqtt registered mqtt/v1, listed in /api/routes: $routes"
[ "$r" = 1 ] || { tail -20 "$WORK/mqtt-proxied.log"; exit 1; }
node "$ROOT/scripts/interop/mqtt-compare.mjs" "$URL" "proxied=ws://127.0.0.1:$REST_PORT/api/mqtt/v1" \
  "direct=ws://127.0.0.1:$WS_PORT" || failed=1
grep -E 'Listen to|Registering API route' "$WORK/mqtt-proxied.log" | sed 's/^/    /' || true
stop_mqtt
stop_node
exit "$failed"

#!/usr/bin/env bash
# Hornet's inx-coordinator (v1.0.1, the real binary) as this node's coordinator, over INX:
# the node runs without its embedded coordinator (coordinator.enabled false), trusts the two
# public keys of Hornet's private tangle from milestone 0 on (milestonePublicKeyCount 2),
# and serves INX. inx-coordinator bootstraps the network (--cooBootstrap: milestone 1 on
# top of the genesis), then issues a milestone every COO_INTERVAL through ComputeWhiteFlag
# and SubmitBlock, following the node's solid blocks and status. Checked: milestones are
# confirmed (latest == confirmed, each one signed by both keys, chained by
# previousMilestoneId), a transfer submitted to the node is confirmed by one of them, and
# inx-coordinator resumes from its state file after a restart.
#
#   scripts/interop/inx-coordinator.sh        # needs `npm run build` and the binary below
#   INX_COORDINATOR=/path/to/inx-coordinator REST_PORT=14465 INX_PORT=9129 scripts/interop/inx-coordinator.sh
#   KEYS=public scripts/interop/inx-coordinator.sh   # the keys as coordinator.publicKeys
#
# Prints one ok/FAIL line per check; exits 1 on any FAIL. Everything lives in a temporary
# directory that is removed at the end (KEEP=1 keeps it).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
. "$ROOT/scripts/interop/lib.sh"
INX_COORDINATOR="${INX_COORDINATOR:-/work/interop/bin/inx-coordinator}"
INX_SPAMMER="${INX_SPAMMER:-/work/interop/bin/inx-spammer}" # optional: the spam phase is skipped without it
[ -x "$INX_COORDINATOR" ] || { echo "no inx-coordinator binary at $INX_COORDINATOR (set INX_COORDINATOR)"; exit 2; }
[ -f "$ROOT/dist/index.js" ] || { echo "dist/ missing: run npm run build first"; exit 2; }

REST_PORT="${REST_PORT:-14465}"; INX_PORT="${INX_PORT:-9129}"; COO_INTERVAL="${COO_INTERVAL:-2s}"
SPAMMER_PORT="${SPAMMER_PORT:-9192}"; SPAM_SECONDS="${SPAM_SECONDS:-20}"
URL="http://127.0.0.1:$REST_PORT"
WORK="$(mktemp -d /tmp/ledger-node-inx-coordinator-XXXXXX)"
# The coordinator keys of Hornet's private tangle (public test keys; seed ‖ public key).
COO_PRV_KEYS=651941eddb3e68cb1f6ef4ef5b04625dcf5c70de1fdc4b1c9eadb2c219c074e0ed3c3f1a319ff4e909cf2771d79fece0ac9bd9fd2ee49ea6c0885c9cb3b1248c,0e324c6ff069f31890d496e9004636fd73d8e8b5bea08ec58a4178ca85462325f6752f5f46a53364e2ee9c4d662d762a81efd51010282a75cd6bd03f28ef349c
COO_PUB_1=ed3c3f1a319ff4e909cf2771d79fece0ac9bd9fd2ee49ea6c0885c9cb3b1248c
COO_PUB_2=f6752f5f46a53364e2ee9c4d662d762a81efd51010282a75cd6bd03f28ef349c
GENESIS_SEED=0xffbf22719c9ea8d3d31bcf5d5eaa03ffb3a2a2e71abfd2b2ef0e56b692897f71 # the dev genesis key (D23)
GENESIS_OUTPUT=0x$(printf '00%.0s' $(seq 1 34))

NODE_PID=""; COO_PID=""; SPAM_PID="";
cleanup() {
  [ -n "$SPAM_PID" ] && kill "$SPAM_PID" 2>/dev/null && wait "$SPAM_PID" 2>/dev/null || true
  [ -n "$COO_PID" ] && kill "$COO_PID" 2>/dev/null && wait "$COO_PID" 2>/dev/null || true
  [ -n "$NODE_PID" ] && kill "$NODE_PID" 2>/dev/null && wait "$NODE_PID" 2>/dev/null || true
  if [ "${KEEP:-0}" = 1 ]; then echo "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
status() { curl -sf "$URL/api/core/v2/info" | json "$1"; }

# KEYS=ranges (default): Hornet's shape, protocol.publicKeyRanges + milestonePublicKeyCount 2.
# KEYS=public: coordinator.publicKeys (--coordinator-public-key), every key must sign.
if [ "${KEYS:-ranges}" = public ]; then
  keys='"protocol": { "minPowScore": 5 },
  "coordinator": { "enabled": false, "publicKeys": ["0x'"$COO_PUB_1"'", "0x'"$COO_PUB_2"'"] },'
else
  keys='"protocol": {
    "minPowScore": 5,
    "milestonePublicKeyCount": 2,
    "publicKeyRanges": [{ "key": "'"$COO_PUB_1"'", "start": 0, "end": 0 }, { "key": "'"$COO_PUB_2"'", "start": 0, "end": 0 }]
  },
  "coordinator": { "enabled": false },'
fi
cat >"$WORK/config.json" <<JSON
{
  "dataDir": "$WORK/data",
  "restApi": { "bindAddress": "127.0.0.1:$REST_PORT" },
  $keys
  "inx": { "enabled": true, "bindAddress": "127.0.0.1:$INX_PORT" }
}
JSON

start_node() {
  node "$ROOT/bin/ledger-node.js" --config "$WORK/config.json" >>"$WORK/node.log" 2>&1 &
  NODE_PID=$!
  for _ in $(seq 1 300); do
    curl -sf "$URL/api/core/v2/info" >/dev/null && return 0
    kill -0 "$NODE_PID" 2>/dev/null || break
    sleep 0.1
  done
  echo "the node did not answer:"; tail -20 "$WORK/node.log"; exit 1
}
start_coo() { # extra flags…
  mkdir -p "$WORK/coo"
  (cd "$WORK/coo" && COO_PRV_KEYS="$COO_PRV_KEYS" exec "$INX_COORDINATOR" --app.checkForUpdates=false \
    --inx.address="127.0.0.1:$INX_PORT" --coordinator.stateFilePath=coordinator.state \
    --coordinator.blockBackups.enabled=false --coordinator.interval="$COO_INTERVAL" \
    --coordinator.checkpoints.maxTrackedBlocks=10 "$@" >>"$WORK/coo.log" 2>&1) &
  COO_PID=$!
}
stop_coo() { kill "$COO_PID"; wait "$COO_PID" 2>/dev/null || true; COO_PID=""; }
# wait_confirmed N SECONDS: until the node's confirmed milestone index is at least N.
wait_confirmed() {
  local deadline=$((SECONDS + $2)) cmi
  while [ $SECONDS -lt $deadline ]; do
    cmi="$(status 'j.status.confirmedMilestone.index' 2>/dev/null || echo 0)"
    [ "$cmi" -ge "$1" ] && return 0
    [ -n "$COO_PID" ] && ! kill -0 "$COO_PID" 2>/dev/null && { echo "inx-coordinator exited:"; tail -20 "$WORK/coo.log"; return 1; }
    sleep 0.2
  done
  return 1
}

echo "node: REST $URL, INX 127.0.0.1:$INX_PORT; inx-coordinator $("$INX_COORDINATOR" --version 2>&1 | head -1); in $WORK"
start_node
report "$([ "$(status 'j.status.confirmedMilestone.index')" = 0 ] && echo 1)" "before the coordinator: the node is at milestone 0"

start_coo --cooBootstrap
started=$SECONDS
if wait_confirmed 1 60; then
  report 1 "bootstrap: milestone 1 confirmed $((SECONDS - started)) s after inx-coordinator started"
else
  report 0 "bootstrap: no milestone 1 within 60 s"; tail -30 "$WORK/coo.log"; tail -30 "$WORK/node.log"; exit 1
fi
wait_confirmed 5 60 || { report 0 "no milestone 5 within 60 s"; tail -30 "$WORK/coo.log"; exit 1; }
report 1 "milestones 1..5 confirmed by $((SECONDS - started)) s (interval $COO_INTERVAL)"
report "$(status '+(j.status.latestMilestone.index===j.status.confirmedMilestone.index)' | sed 's/true/1/;s/false/0/')" \
  "latest milestone == confirmed milestone ($(status 'j.status.confirmedMilestone.index'))"

# Each milestone: two signatures; milestone 1 names no previous milestone, every later one
# names the id under which the node serves the milestone before it.
chain_ok=1
for i in 1 2 3 4 5; do
  line="$(curl -sf "$URL/api/core/v2/milestones/by-index/$i" | json '[j.index, j.signatures.length, j.previousMilestoneId].join(" ")')" || { chain_ok=0; echo "milestone $i missing"; continue; }
  read -r idx sigs previous <<<"$line"
  if [ "$i" = 1 ]; then want_prev="0x$(printf '00%.0s' $(seq 1 32))"; else want_prev="$previous"; fi
  prev_index="$([ "$i" = 1 ] && echo 0 || curl -sf "$URL/api/core/v2/milestones/$previous" | json 'j.index')"
  [ "$idx" = "$i" ] && [ "$sigs" = 2 ] && [ "$previous" = "$want_prev" ] && [ "$prev_index" = $((i - 1)) ] \
    || { chain_ok=0; echo "milestone $i: index $idx, $sigs signatures, previous $previous (index $prev_index)"; }
done
report "$chain_ok" "milestones 1..5: two signatures each, chained by previousMilestoneId"
health="$(curl -s -o /dev/null -w '%{http_code}' "$URL/health")"
report "$([ "$health" = 200 ] && echo 1)" "/health $health"

# A transfer from the genesis output, submitted to the node, confirmed by the coordinator.
if node "$ROOT/scripts/interop/check.mjs" transfer "$URL" "$URL" --seed "$GENESIS_SEED" --output "$GENESIS_OUTPUT" >"$WORK/transfer.log" 2>&1; then
  report 1 "transfer: $(grep -o 'transfer included by milestone [0-9]* .*' "$WORK/transfer.log" | head -1)"
else
  report 0 "transfer:"; cat "$WORK/transfer.log"
fi

# inx-coordinator stopped and started again: it resumes from its state file.
stop_coo
before="$(status 'j.status.confirmedMilestone.index')"
start_coo
started=$SECONDS
if wait_confirmed $((before + 2)) 60; then
  report 1 "restart: resumed at $before, milestone $((before + 2)) confirmed after $((SECONDS - started)) s"
else
  report 0 "restart: no milestone after $before within 60 s"; tail -20 "$WORK/coo.log"
fi
# The node stopped under inx-coordinator: it shuts itself down (INX connection dropped);
# the node started again on its data directory reports the milestone it stopped at, and
# inx-coordinator started again resumes there.
kill "$NODE_PID"; wait "$NODE_PID" 2>/dev/null || true; NODE_PID=""
for _ in $(seq 1 50); do kill -0 "$COO_PID" 2>/dev/null || break; sleep 0.2; done
if kill -0 "$COO_PID" 2>/dev/null; then
  report 0 "node stopped: inx-coordinator still runs after 10 s"; stop_coo
else
  wait "$COO_PID" 2>/dev/null || true; COO_PID=""
  report "$(grep -q 'INX connection to node dropped' "$WORK/coo.log" && echo 1)" "node stopped: inx-coordinator shut itself down (INX connection to node dropped)"
fi
start_node
before="$(status 'j.status.confirmedMilestone.index')"
start_coo
started=$SECONDS
if wait_confirmed $((before + 2)) 60; then
  report 1 "node restarted at milestone $before: inx-coordinator resumed, milestone $((before + 2)) confirmed after $((SECONDS - started)) s"
else
  report 0 "node restarted at milestone $before: no new milestone within 60 s"; tail -20 "$WORK/coo.log"
fi

# Data spam from Hornet's inx-spammer while inx-coordinator runs: with at most 10 tracked
# blocks it issues checkpoints (blocks without payload, nonce 0: the node mines them) to
# reference the spam, and milestones on top of them.
if [ -x "$INX_SPAMMER" ]; then
  mkdir -p "$WORK/spammer"
  (cd "$WORK/spammer" && exec "$INX_SPAMMER" --app.checkForUpdates=false --inx.address="127.0.0.1:$INX_PORT" \
    --restAPI.bindAddress="127.0.0.1:$SPAMMER_PORT" --spammer.autostart=true --spammer.bpsRateLimit=5 \
    --spammer.cpuMaxUsage=0 --spammer.workers=1 >>"$WORK/spammer.log" 2>&1) &
  SPAM_PID=$!
  from="$(status 'j.status.confirmedMilestone.index')"
  sleep "$SPAM_SECONDS"
  metrics="$(status '[j.metrics.blocksPerSecond, j.metrics.referencedRate].join(" ")')"
  kill "$SPAM_PID"; wait "$SPAM_PID" 2>/dev/null || true; SPAM_PID=""
  to="$(status 'j.status.confirmedMilestone.index')"
  wait_confirmed $((to + 2)) 30 || true # the last spam referenced
  to="$(status 'j.status.confirmedMilestone.index')"
  read -r bps rate <<<"$metrics"
  # Blocks referenced by the milestones of the spam phase, and how many of them were spam.
  counts="$(node -e '
    const [url, from, to] = process.argv.slice(1);
    (async () => {
      let blocks = 0, tagged = 0;
      const seen = new Set(), todo = [];
      for (let i = +to; i > +from; i--) {
        const ms = await (await fetch(`${url}/api/core/v2/milestones/by-index/${i}`)).json();
        todo.push(...ms.parents);
      }
      while (todo.length) {
        const id = todo.pop();
        if (seen.has(id)) continue;
        seen.add(id);
        const meta = await (await fetch(`${url}/api/core/v2/blocks/${id}/metadata`)).json();
        if (meta.referencedByMilestoneIndex === undefined || meta.referencedByMilestoneIndex <= +from) continue;
        const block = await (await fetch(`${url}/api/core/v2/blocks/${id}`)).json();
        blocks++;
        if (block.payload?.type === 5) tagged++;
        todo.push(...block.parents);
      }
      console.log(blocks, tagged);
    })();' "$URL" "$from" "$to")"
  read -r referenced spam <<<"$counts"
  checkpoints="$(grep -c 'checkpoint ([0-9]*) block issued' "$WORK/coo.log" || true)"
  report "$([ "${spam:-0}" -ge $((SPAM_SECONDS * 2)) ] && [ "$checkpoints" -ge 1 ] && echo 1)" \
    "spam for $SPAM_SECONDS s: $bps blocks/s, referenced rate $rate %; milestones $((from + 1))..$to reference $referenced blocks, $spam of them spam; $checkpoints checkpoints issued"
else
  echo "skip spam phase: no inx-spammer at $INX_SPAMMER"
fi

# Every milestone inx-coordinator logged as issued is served by the node under that id.
issued=0; same=0
while read -r index id; do
  issued=$((issued + 1))
  [ "$(curl -sf "$URL/api/core/v2/milestones/$id" | json 'j.index')" = "$index" ] && same=$((same + 1))
done < <(sed -nE 's/.*milestone issued \(([0-9]+)\) MilestoneID: (0x[0-9a-f]+).*/\1 \2/p' "$WORK/coo.log")
report "$([ "$issued" -gt 0 ] && [ "$same" = "$issued" ] && echo 1)" "the node serves all $issued milestones inx-coordinator issued under their ids ($same found)"
grep -E '\s(ERROR|WARN)\s|^panic' "$WORK/coo.log" | grep -v 'Received shutdown request' | head -5 || true
exit "$failed"

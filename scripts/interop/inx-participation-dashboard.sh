#!/usr/bin/env bash
# Hornet's inx-participation 1.0.0 and inx-dashboard 1.0.0 (the real binaries) against this
# node over INX. The node runs its embedded coordinator (a milestone a second) and built-in
# indexer, and a genesis file that gives a voter key of this script one output.
#
#   participation: a ballot event created through the node's proxy (admin route, with the
#                  operator's token), listed; once it holds, a vote (vote.mjs: a
#                  PARTICIPATE transaction back to the voter) is counted: the event's status
#                  shows the voter's amount on the chosen answer and the vote's output is
#                  tracked (ListenToLedgerUpdates, ReadBlock, ReadOutput).
#   dashboard:     its page, our node's info and milestones as it reads them through
#                  PerformAPIRequest (/dashboard/api/…), admin login (CSRF cookie + header),
#                  and, if chromium is there, a screenshot (kept with KEEP=1).
#
#   scripts/interop/inx-participation-dashboard.sh   # needs `npm run build`; binaries in $BIN
#
# Prints one ok/FAIL line per check; exits 1 on any FAIL. Everything lives in a temporary
# directory that is removed at the end (KEEP=1 keeps it).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
BIN="${BIN:-/work/interop/bin}"
for b in inx-participation inx-dashboard; do
  [ -x "$BIN/$b" ] || { echo "no $b binary in $BIN (set BIN)"; exit 2; }
done
[ -f "$ROOT/dist/index.js" ] || { echo "dist/ missing: run npm run build first"; exit 2; }

REST_PORT="${REST_PORT:-14465}"; INX_PORT="${INX_PORT:-9129}"
PART_PORT="${PART_PORT:-9992}"; DASH_PORT="${DASH_PORT:-8181}"
URL="http://127.0.0.1:$REST_PORT"
WORK="$(mktemp -d /tmp/ledger-node-inx-part-XXXXXX)"
VOTER_SEED=0x$(printf 'ledger-node interop voter' | sha256sum | cut -c1-64) # a public test key
REST_HASH=0x$(printf 'ledger-node interop rest' | sha256sum | cut -c1-64)
VOTE_AMOUNT=5000000000
# admin/admin of Hornet's private tangle (docker-compose.yml of hornet 2.0.1)
DASH_HASH=577eb97f8faf2af47ff957b00827d6bfe9d05b810981e3073dc42553505282c1
DASH_SALT=e5d8d0bd3bb9723236177b4713a11580c55b69a51e7055dd11fa1dad3b8f6d6c

. "$(dirname "$0")/lib.sh"
trap stop_launched EXIT
cmi() { curl -s "$URL/api/core/v2/info" | json 'j.status.confirmedMilestone.index'; }

VOTER_HASH="$(node -e 'const c=require(process.argv[1]);console.log(c.ed25519Address(c.publicKey(process.argv[2])))' "$ROOT/dist/index.js" "$VOTER_SEED")"
SUPPLY=4600000000000000
cat >"$WORK/genesis.json" <<JSON
{ "outputs": [
  { "type": 3, "amount": "$VOTE_AMOUNT", "unlockConditions": [{ "type": 0, "address": { "type": 0, "pubKeyHash": "$VOTER_HASH" } }] },
  { "type": 3, "amount": "$((SUPPLY - VOTE_AMOUNT))", "unlockConditions": [{ "type": 0, "address": { "type": 0, "pubKeyHash": "$REST_HASH" } }] }
] }
JSON

echo "node: REST $URL, INX 127.0.0.1:$INX_PORT; in $WORK"
launch node node "$ROOT/bin/ledger-node.js" --data-dir "$WORK/data" --bind 127.0.0.1 --port "$REST_PORT" \
  --milestone-interval 1 --min-pow-score 5 --genesis-file "$WORK/genesis.json" --no-faucet \
  --inx --inx-bind "127.0.0.1:$INX_PORT"
for _ in $(seq 1 300); do curl -sf "$URL/health" >/dev/null && break; sleep 0.1; done
curl -sf "$URL/health" >/dev/null || { echo "the node did not become healthy:"; tail -20 "$WORK/node.log"; exit 1; }
AUTH="Authorization: Bearer $(node "$ROOT/bin/ledger-node.js" jwt --data-dir "$WORK/data")"
HRP="$(curl -s "$URL/api/core/v2/info" | json 'j.protocol.bech32Hrp')"
COMMON=(--app.checkForUpdates=false --inx.address="127.0.0.1:$INX_PORT")

# --- inx-participation -------------------------------------------------------------------
launch inx-participation "$BIN/inx-participation" "${COMMON[@]}" --participation.db.engine=pebble \
  --participation.db.path="$WORK/inx-participation/database" --restAPI.bindAddress="127.0.0.1:$PART_PORT"
if wait_route participation/v1 30; then report 1 "participation: registered participation/v1"
else report 0 "participation: participation/v1 not registered"; tail -20 "$WORK/inx-participation.log"; exit 1; fi
P="$URL/api/participation/v1"
now="$(cmi)"; commence=$((now + 3)); start=$((now + 6)); end=$((now + 300))
event="{\"name\":\"ledger-node interop\",\"milestoneIndexCommence\":$commence,\"milestoneIndexStart\":$start,\"milestoneIndexEnd\":$end,\"payload\":{\"type\":0,\"questions\":[{\"text\":\"which?\",\"answers\":[{\"value\":1,\"text\":\"one\",\"additionalInfo\":\"\"},{\"value\":2,\"text\":\"two\",\"additionalInfo\":\"\"}],\"additionalInfo\":\"\"}]},\"additionalInfo\":\"\"}"
code="$(curl -s -H "$AUTH" -o "$WORK/event.json" -w '%{http_code}' -X POST -H 'Content-Type: application/json' -d "$event" "$P/admin/events")"
EVENT="$(json 'j.eventId ?? ""' <"$WORK/event.json" 2>/dev/null || true)"
listed="$(curl -s -H "$AUTH" "$P/events" | json 'j.eventIds.join(",")' 2>/dev/null || true)"
report "$([ "$code" = 201 ] && [ -n "$EVENT" ] && [ "$listed" = "$EVENT" ] && echo 1)" \
  "participation: event $EVENT created ($code; commence $commence, start $start, end $end), listed: $listed"
phase=""
for _ in $(seq 1 60); do
  phase="$(curl -s -H "$AUTH" "$P/events/$EVENT/status" | json 'j.status' 2>/dev/null || true)"
  [ "$phase" = holding ] && break
  sleep 0.5
done
report "$([ "$phase" = holding ] && echo 1)" "participation: the event reached 'holding' at milestone $(cmi)"

VOTER_ADDR="$(node -e 'const c=require(process.argv[1]);console.log(c.bech32Encode(process.argv[2],{type:0,pubKeyHash:process.argv[3]}))' "$ROOT/dist/index.js" "$HRP" "$VOTER_HASH")"
INPUT="$(curl -s "$URL/api/indexer/v1/outputs/basic?address=$VOTER_ADDR" | json 'j.items[0]')"
if VOTE_OUTPUT="$(node "$ROOT/scripts/interop/vote.mjs" "$URL" "$VOTER_SEED" "$INPUT" "$EVENT" 1 2>"$WORK/vote.err")"; then
  report 1 "participation: vote for answer 1 with $VOTE_AMOUNT (output $VOTE_OUTPUT) confirmed at milestone $(cmi)"
else
  report 0 "participation: vote: $(cat "$WORK/vote.err")"
fi
# A ballot counts an amount / 1000 (BallotDenominator) on every milestone while it holds.
WEIGHT=$((VOTE_AMOUNT / 1000)); current=""; accumulated=""
for _ in $(seq 1 40); do
  status="$(curl -s -H "$AUTH" "$P/events/$EVENT/status")"
  current="$(echo "$status" | json 'j.questions[0].answers.find(a=>a.value===1)?.current ?? ""' 2>/dev/null || true)"
  accumulated="$(echo "$status" | json 'j.questions[0].answers.find(a=>a.value===1)?.accumulated ?? ""' 2>/dev/null || true)"
  [ "$current" = "$WEIGHT" ] && [ "${accumulated:-0}" -gt 0 ] && break
  sleep 0.5
done
report "$([ "$current" = "$WEIGHT" ] && [ "${accumulated:-0}" -gt 0 ] && [ $((accumulated % WEIGHT)) = 0 ] && echo 1)" \
  "participation: answer 1 counts current $current (= $VOTE_AMOUNT / 1000), accumulated $accumulated ($((${accumulated:-0} / WEIGHT)) milestones), answer 2 $(echo "$status" | json 'j.questions[0].answers.find(a=>a.value===2)?.current')"
tracked="$(curl -s -H "$AUTH" "$P/outputs/$VOTE_OUTPUT" | json "Object.keys(j.participations ?? {}).join(',')" 2>/dev/null || true)"
report "$([ "$tracked" = "$EVENT" ] && echo 1)" "participation: the vote's output is tracked for event $tracked"

# --- inx-dashboard -----------------------------------------------------------------------
launch inx-dashboard "$BIN/inx-dashboard" "${COMMON[@]}" --dashboard.bindAddress="127.0.0.1:$DASH_PORT" \
  --dashboard.auth.passwordHash="$DASH_HASH" --dashboard.auth.passwordSalt="$DASH_SALT" \
  --dashboard.auth.identityFilePath="$WORK/inx-dashboard/identity.key"
D="http://127.0.0.1:$DASH_PORT"
jar="$WORK/inx-dashboard/cookies"
code=""
for _ in $(seq 1 100); do
  code="$(curl -s -c "$jar" -o "$WORK/inx-dashboard/index.html" -w '%{http_code}' "$D/dashboard/" || true)"
  [ "$code" = 200 ] && break
  sleep 0.2
done
report "$([ "$code" = 200 ] && grep -q '<title>' "$WORK/inx-dashboard/index.html" && echo 1)" "dashboard: page $code ($(grep -o '<title>[^<]*' "$WORK/inx-dashboard/index.html" | head -1 | sed 's/<title>//'))"
theirs="$(curl -s "$D/dashboard/api/core/v2/info" | json '[j.name, j.version, j.status.isHealthy, j.status.confirmedMilestone.index].join(" ")' 2>/dev/null || true)"
ours="$(curl -s "$URL/api/core/v2/info" | json '[j.name, j.version].join(" ")')"
report "$([ "${theirs% * *}" = "$ours" ] && echo 1)" "dashboard: node info through PerformAPIRequest: $theirs (the node says $ours)"
ms_index=$(( $(cmi) - 1 ))
theirs="$(curl -s "$D/dashboard/api/core/v2/milestones/by-index/$ms_index" | json 'j.index' 2>/dev/null || true)"
report "$([ "$theirs" = "$ms_index" ] && echo 1)" "dashboard: milestone $ms_index through PerformAPIRequest: index $theirs"
routes="$(curl -s "$D/dashboard/api/routes" | json 'j.routes.join(",")' 2>/dev/null || true)"
report "$(echo "$routes" | grep -q participation/v1 && echo 1)" "dashboard: routes through PerformAPIRequest: $routes"
tok="$(awk '$6=="_csrf"{print $7}' "$jar")"
jwt="$(curl -s -b "$jar" -X POST -H "X-CSRF-Token: $tok" -H 'Content-Type: application/json' -d '{"user":"admin","password":"admin"}' "$D/dashboard/auth" | json 'j.jwt ?? ""' 2>/dev/null || true)"
report "$([ -n "$jwt" ] && echo 1)" "dashboard: admin login (JWT of ${#jwt} characters)"
if command -v chromium >/dev/null; then
  (cd "$WORK/inx-dashboard" && timeout 90 chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars \
    --window-size=1400,1000 --virtual-time-budget=15000 --screenshot="$WORK/inx-dashboard/home.png" "$D/dashboard/" >chromium.log 2>&1) || true
  [ -s "$WORK/inx-dashboard/home.png" ] && echo "     screenshot: $WORK/inx-dashboard/home.png ($(wc -c <"$WORK/inx-dashboard/home.png") bytes)"
fi

for n in inx-participation inx-dashboard; do
  grep -E '\s(ERROR|WARN)\s|^panic' "$WORK/$n.log" | grep -v 'Received shutdown request' | head -3 | sed "s/^/$n: /" || true
done
exit "$failed"

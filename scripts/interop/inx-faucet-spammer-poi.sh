#!/usr/bin/env bash
# Hornet's inx-faucet 1.0.0, inx-spammer 1.0.0 and inx-poi 1.0.0 (the real binaries) against
# this node over INX. The node runs its embedded coordinator and built-in indexer (which
# both extensions look for in /api/routes), --no-faucet (its own faucet is not wanted here)
# and a genesis file that funds the keys of Hornet's private tangle the extensions use:
# the faucet key and the spammer's mnemonic (public test keys, never for value).
#
#   faucet:  its HTTP API (/api/info, /api/enqueue) pays a fresh address; the payout is
#            confirmed by a milestone of the node and listed by the node's indexer; a
#            second payout sent while the first is pending is chained on it (one parent).
#   spammer: spams (value spam, its own PoW, 1 worker) for SPAM_SECONDS; the node confirms
#            its blocks (referenced rate, spam outputs at the receiver address); its REST
#            routes (spammer/v1) answer through the node's proxy.
#   poi:     a proof of inclusion of the faucet's payout block, created and validated on
#            inx-poi's own port, a tampered proof is invalid; through the node's proxy
#            /api/poi/v1/… answers as on Hornet 2.0.1 (inx-poi 1.0.0 mounts its handlers at
#            the root but registers path /api/poi/v1, so the proxied request reaches it as
#            /api/poi/v1/create/… and it answers 404: the same on Hornet, see docs/inx.md).
#
#   scripts/interop/inx-faucet-spammer-poi.sh   # needs `npm run build`; binaries in $BIN
#   BIN=/work/interop/bin REST_PORT=14465 INX_PORT=9129 scripts/interop/inx-faucet-spammer-poi.sh
#
# Prints one ok/FAIL line per check; exits 1 on any FAIL. Everything lives in a temporary
# directory that is removed at the end (KEEP=1 keeps it).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
BIN="${BIN:-/work/interop/bin}"
for b in inx-faucet inx-spammer inx-poi; do
  [ -x "$BIN/$b" ] || { echo "no $b binary in $BIN (set BIN)"; exit 2; }
done
[ -f "$ROOT/dist/index.js" ] || { echo "dist/ missing: run npm run build first"; exit 2; }

REST_PORT="${REST_PORT:-14465}"; INX_PORT="${INX_PORT:-9129}"
FAUCET_PORT="${FAUCET_PORT:-8191}"; SPAMMER_PORT="${SPAMMER_PORT:-9192}"; POI_PORT="${POI_PORT:-9787}"
SPAM_SECONDS="${SPAM_SECONDS:-20}"
URL="http://127.0.0.1:$REST_PORT"
WORK="$(mktemp -d /tmp/ledger-node-inx-ext-XXXXXX)"
# Keys of Hornet's private tangle (private_tangle_keys.md): the faucet's Ed25519 key
# (seed ‖ public key) and the spammer's mnemonic, whose first address is SPAMMER_HASH.
FAUCET_PRV_KEY=887844b1e6bf9ca9e0b57584656add4370dbb49a8cb79e2e3032229f30fd80359e3df559ad0de8e5fa019b9ea46d1ee40879f3f3f74594a3306de9dfd43dcd25
FAUCET_HASH=0x15664f85080415d9081840367d6cea31885f5d929366dffdf063f1c0856baed1
SPAMMER_MNEMONIC="reward addict anger tongue denial supply cattle lawn foot climb ask friend base spring ensure spike alien equal burst bitter crowd august ignore animal"
SPAMMER_HASH=0x1d9e7a9f6849d9ce9282ee08775b7aee6aaf6034f12d70064d005f543b01a2f2
REST_HASH=0x$(printf 'ledger-node interop rest' | sha256sum | cut -c1-64)

. "$(dirname "$0")/lib.sh"
trap stop_launched EXIT

# The token supply of the dev network, split: 1 000 000 000 000 to the spammer, 10^15 to the
# faucet, the rest to a key of this script.
SUPPLY=4600000000000000
cat >"$WORK/genesis.json" <<JSON
{ "outputs": [
  { "type": 3, "amount": "1000000000000000", "unlockConditions": [{ "type": 0, "address": { "type": 0, "pubKeyHash": "$FAUCET_HASH" } }] },
  { "type": 3, "amount": "1000000000000", "unlockConditions": [{ "type": 0, "address": { "type": 0, "pubKeyHash": "$SPAMMER_HASH" } }] },
  { "type": 3, "amount": "$((SUPPLY - 1000000000000000 - 1000000000000))", "unlockConditions": [{ "type": 0, "address": { "type": 0, "pubKeyHash": "$REST_HASH" } }] }
] }
JSON

echo "node: REST $URL, INX 127.0.0.1:$INX_PORT; in $WORK"
launch node node "$ROOT/bin/ledger-node.js" --data-dir "$WORK/data" --bind 127.0.0.1 --port "$REST_PORT" \
  --milestone-interval "${MS_INTERVAL:-4}" --min-pow-score 5 --genesis-file "$WORK/genesis.json" --no-faucet \
  --inx --inx-bind "127.0.0.1:$INX_PORT"
for _ in $(seq 1 300); do curl -sf "$URL/health" >/dev/null && break; sleep 0.1; done
curl -sf "$URL/health" >/dev/null || { echo "the node did not become healthy:"; tail -20 "$WORK/node.log"; exit 1; }
HRP="$(curl -s "$URL/api/core/v2/info" | json 'j.protocol.bech32Hrp')"
# The routes spammer/v1 and poi/v1 are not public by default (restApi.publicRoutes): the
# operator's token.
AUTH="Authorization: Bearer $(node "$ROOT/bin/ledger-node.js" jwt --data-dir "$WORK/data")"
COMMON=(--app.checkForUpdates=false --inx.address="127.0.0.1:$INX_PORT")

# --- inx-faucet --------------------------------------------------------------------------
FAUCET_PRV_KEY="$FAUCET_PRV_KEY" launch inx-faucet "$BIN/inx-faucet" "${COMMON[@]}" \
  --faucet.bindAddress="127.0.0.1:$FAUCET_PORT" --faucet.batchTimeout=300ms
F="http://127.0.0.1:$FAUCET_PORT"
info=""
for _ in $(seq 1 150); do info="$(curl -sf "$F/api/info" 2>/dev/null)" && break; sleep 0.2; done
healthy="$(echo "${info:-{\}}" | json 'j.isHealthy')"
report "$([ "$healthy" = true ] && echo 1)" "faucet: /api/info ${info:-no answer}"
balance_before="$(echo "${info:-{\}}" | json 'j.balance')"
seed="0x$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')"
ADDR="$(node -e 'const c=require(process.argv[1]);console.log(c.bech32Encode(process.argv[2],{type:0,pubKeyHash:c.ed25519Address(c.publicKey(process.argv[3]))}))' "$ROOT/dist/index.js" "$HRP" "$seed")"
code="$(curl -s -o "$WORK/enqueue.json" -w '%{http_code}' -X POST -H 'Content-Type: application/json' -d "{\"address\":\"$ADDR\"}" "$F/api/enqueue")"
started=$SECONDS; paid=""
while [ $((SECONDS - started)) -lt 60 ]; do
  paid="$(curl -s "$URL/api/indexer/v1/outputs/basic?address=$ADDR" | json 'j.items?.[0] ?? ""' 2>/dev/null || true)"
  [ -n "$paid" ] && break
  sleep 0.5
done
BLOCK=""
if [ -n "$paid" ]; then
  out="$(curl -s "$URL/api/core/v2/outputs/$paid")"
  amount="$(echo "$out" | json 'j.output.amount')"; BLOCK="$(echo "$out" | json 'j.metadata.blockId')"
  ms="$(curl -s "$URL/api/core/v2/blocks/$BLOCK/metadata" | json '[j.ledgerInclusionState, j.referencedByMilestoneIndex].join(" ")')"
  report "$([ "$code" = 202 ] && [ "$amount" = 1000000000 ] && [ "${ms%% *}" = included ] && echo 1)" \
    "faucet: enqueue $code ($(cat "$WORK/enqueue.json")), $ADDR paid $amount in output $paid after $((SECONDS - started)) s, block $BLOCK $ms"
  for _ in $(seq 1 20); do
    balance_after="$(curl -sf "$F/api/info" | json 'j.balance')"
    [ "$balance_after" != "$balance_before" ] && break
    sleep 0.5
  done
  report "$([ "$((balance_before - balance_after))" = 1000000000 ] && echo 1)" "faucet: its balance fell from $balance_before to $balance_after"
else
  report 0 "faucet: enqueue $code ($(cat "$WORK/enqueue.json")), nothing paid to $ADDR within 60 s"; tail -20 "$WORK/inx-faucet.log"
fi

# Two payouts in a row: the second request comes while the first payout is not yet
# confirmed, so inx-faucet chains it on its unconfirmed remainder and submits it with its
# previous block as the only parent (SubmitBlock with one parent, nonce 0).
new_address() {
  node -e 'const c=require(process.argv[1]);const s="0x"+require("crypto").randomBytes(32).toString("hex");console.log(c.bech32Encode(process.argv[2],{type:0,pubKeyHash:c.ed25519Address(c.publicKey(s))}))' "$ROOT/dist/index.js" "$HRP"
}
# The id of a tip that holds a transaction not yet referenced by a milestone, if any.
pending_tx_tip() {
  node -e '
    const url = process.argv[1];
    (async () => {
      for (const id of (await (await fetch(`${url}/api/core/v2/tips`)).json()).tips) {
        const b = await (await fetch(`${url}/api/core/v2/blocks/${id}`)).json();
        const m = await (await fetch(`${url}/api/core/v2/blocks/${id}/metadata`)).json();
        if (b.payload?.type === 6 && m.referencedByMilestoneIndex === undefined) return console.log(id);
      }
    })();' "$URL"
}
paid_block() { # address: the block of its first output, once indexed
  local out
  out="$(curl -s "$URL/api/indexer/v1/outputs/basic?address=$1" | json 'j.items?.[0] ?? ""' 2>/dev/null || true)"
  if [ -n "$out" ]; then curl -s "$URL/api/core/v2/outputs/$out" | json 'j.metadata.blockId'; fi
}
A1="$(new_address)"; A2="$(new_address)"; first=""
curl -s -o /dev/null -X POST -H 'Content-Type: application/json' -d "{\"address\":\"$A1\"}" "$F/api/enqueue"
for _ in $(seq 1 100); do first="$(pending_tx_tip || true)"; [ -n "$first" ] && break; sleep 0.05; done
curl -s -o /dev/null -X POST -H 'Content-Type: application/json' -d "{\"address\":\"$A2\"}" "$F/api/enqueue"
b1=""; b2=""; started=$SECONDS
while [ $((SECONDS - started)) -lt 60 ]; do
  b1="$(paid_block "$A1")"; b2="$(paid_block "$A2")"
  [ -n "$b1" ] && [ -n "$b2" ] && break
  sleep 0.5
done
if [ -n "$b1" ] && [ -n "$b2" ] && [ "$b1" != "$b2" ]; then
  parents="$(curl -s "$URL/api/core/v2/blocks/$b2" | json 'j.parents.join(",")')"
  report 1 "faucet: two payouts in a row both confirmed in $((SECONDS - started)) s (blocks $b1, $b2); the second block's parents: $parents$([ "$parents" = "$b1" ] && echo " (only the first payout's block: chained)")"
  [ "$parents" = "$b1" ] || echo "     (not chained this time: the first payout ${first:-was not seen pending} was confirmed before the second was sent)"
else
  report 0 "faucet: two payouts in a row: ${b1:-none} and ${b2:-none} within 60 s"; tail -20 "$WORK/inx-faucet.log"
fi

refused="$(grep -c 'send faucet block failed' "$WORK/inx-faucet.log" || true)"
report "$([ "$refused" = 0 ] && echo 1)" "faucet: blocks the node refused: $refused$([ "$refused" = 0 ] || echo " ($(grep -m1 'send faucet block failed' "$WORK/inx-faucet.log" | cut -f4-))")"

# --- inx-poi -----------------------------------------------------------------------------
launch inx-poi "$BIN/inx-poi" "${COMMON[@]}" --restAPI.bindAddress="127.0.0.1:$POI_PORT"
if wait_route poi/v1 30; then report 1 "poi: registered poi/v1 ($(curl -s "$URL/api/routes" | json 'j.routes.join(",")'))"
else report 0 "poi: poi/v1 not registered"; tail -20 "$WORK/inx-poi.log"; fi
if [ -n "$BLOCK" ]; then
  P="http://127.0.0.1:$POI_PORT"
  code="$(curl -s -o "$WORK/proof.json" -w '%{http_code}' "$P/create/$BLOCK")"
  proof_ms="$(json 'j.milestone?.index' <"$WORK/proof.json" 2>/dev/null || echo "?")"
  valid="$(curl -s -X POST -H 'Content-Type: application/json' --data @"$WORK/proof.json" "$P/validate" | json 'j.valid' 2>/dev/null || echo "?")"
  node -e 'const fs=require("fs");const d=JSON.parse(fs.readFileSync(process.argv[1]));d.block.nonce=String(BigInt(d.block.nonce)+1n);fs.writeFileSync(process.argv[2],JSON.stringify(d))' "$WORK/proof.json" "$WORK/proof-bad.json" 2>/dev/null || true
  bad="$(curl -s -X POST -H 'Content-Type: application/json' --data @"$WORK/proof-bad.json" "$P/validate" | json 'j.valid' 2>/dev/null || echo "?")"
  report "$([ "$code" = 200 ] && [ "$valid" = true ] && [ "$bad" = false ] && echo 1)" \
    "poi: proof of block $BLOCK (milestone $proof_ms) created ($code, $(wc -c <"$WORK/proof.json") bytes), validated: $valid, with the nonce changed: $bad"
  # Through the node's proxy: the request reaches inx-poi as /api/poi/v1/create/<id>.
  proxied="$(curl -s -H "$AUTH" -o "$WORK/proxied.txt" -w '%{http_code}' "$URL/api/poi/v1/create/$BLOCK")"
  direct="$(curl -s -o "$WORK/direct.txt" -w '%{http_code}' "$P/api/poi/v1/create/$BLOCK")"
  report "$([ "$proxied" = "$direct" ] && cmp -s "$WORK/proxied.txt" "$WORK/direct.txt" && echo 1)" \
    "poi: through the node's proxy /api/poi/v1/create → $proxied ($(head -c 80 "$WORK/proxied.txt")), inx-poi itself at /api/poi/v1/create → $direct, the same body (as on Hornet 2.0.1: 404)"
fi

# --- inx-spammer -------------------------------------------------------------------------
SPAMMER_MNEMONIC="$SPAMMER_MNEMONIC" launch inx-spammer "$BIN/inx-spammer" "${COMMON[@]}" \
  --restAPI.bindAddress="127.0.0.1:$SPAMMER_PORT" --spammer.autostart=true --spammer.bpsRateLimit=2 \
  --spammer.cpuMaxUsage=0 --spammer.workers=1 --spammer.valueSpam.enabled=true
if wait_route spammer/v1 30; then report 1 "spammer: registered spammer/v1"
else report 0 "spammer: spammer/v1 not registered"; tail -20 "$WORK/inx-spammer.log"; fi
sleep "$SPAM_SECONDS"
public="$(curl -s -o /dev/null -w '%{http_code}' "$URL/api/spammer/v1/status")"
report "$([ "$public" = 403 ] && echo 1)" "spammer: /api/spammer/v1/status without a token → $public (not a public route)"
status="$(curl -s -H "$AUTH" "$URL/api/spammer/v1/status")"
report "$(echo "$status" | json '+(j.running===true)' | sed 's/^1$/1/;s/^0$//')" "spammer: /api/spammer/v1/status through the node: $status"
metrics="$(curl -s "$URL/api/core/v2/info" | json '[j.metrics.blocksPerSecond, j.metrics.referencedBlocksPerSecond, j.metrics.referencedRate].join(" ")')"
read -r bps rbps rate <<<"$metrics"
report "$(node -e 'process.stdout.write(+process.argv[1]>=1&&+process.argv[2]>=50?"1":"")' "$bps" "$rate")" \
  "spammer: the node sees $bps blocks/s, $rbps referenced/s, referenced rate $rate %"
RECEIVER="$(sed -nE 's/.*Address for Receiver: ([a-z0-9]+).*/\1/p' "$WORK/inx-spammer.log" | head -1)"
spam_outputs="$(curl -s "$URL/api/indexer/v1/outputs/basic?address=$RECEIVER" | json 'j.items.length' 2>/dev/null || echo 0)"
report "$([ "${spam_outputs:-0}" -ge 1 ] && echo 1)" "spammer: $spam_outputs confirmed value-spam outputs at the receiver $RECEIVER"
code="$(curl -s -H "$AUTH" -o /dev/null -w '%{http_code}' -X POST "$URL/api/spammer/v1/stop")"
report "$([ "$code" = 200 ] || [ "$code" = 202 ] || [ "$code" = 204 ] && echo 1)" "spammer: POST /api/spammer/v1/stop through the node → $code"

for n in inx-faucet inx-poi inx-spammer; do
  grep -E '\s(ERROR|WARN)\s|^panic' "$WORK/$n.log" | grep -v 'Received shutdown request' | head -3 | sed "s/^/$n: /" || true
done
exit "$failed"

#!/usr/bin/env bash
# Pack-install test (issue 5): what a user gets from npm, without a Rust toolchain.
#
#   1-2. make the main package and the platform package with scripts/pack-local.sh, as a
#      release would (the built binary goes into npm/<platform>/, then `npm pack` of both);
#   3. install both tarballs into an empty project, with cargo/rustc removed from PATH (the
#      main package's postinstall must do nothing there);
#   4. start `npx ledger-node` from that project and check GET /health, a tagged-data block
#      submitted without parents and nonce (POST /api/core/v2/blocks → 201), the block read
#      back as JSON and as bytes, the dashboard and faucet pages, and a clean exit (code 0) on SIGTERM.
#
# It builds nothing: run `npm run build:native` (or `npm install`) and `npm run build:ts`
# first. Every wait is bounded; the last line is PASS or FAIL.
# Environment: PACK_TEST_KEEP=1 keeps the temporary directory for inspection.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

STEP="setup"
WORK=""
NODE_PID=""

log() { printf '[pack-install] %s\n' "$*" >&2; }
fail() {
  log "FAIL at step '$STEP': $*"
  if [[ -n "$WORK" && -f "$WORK/node.out" ]]; then
    log "--- node stdout (last 20 lines) ---"; tail -n 20 "$WORK/node.out" >&2 || true
    log "--- node stderr (last 20 lines) ---"; tail -n 20 "$WORK/node.err" >&2 || true
  fi
  echo "pack-install test: FAIL ($STEP)"
  exit 1
}

cleanup() {
  local code=$?
  if [[ -n "$NODE_PID" ]] && kill -0 "$NODE_PID" 2>/dev/null; then
    # npx, its shell and the node: the processes this script started.
    local pids="$NODE_PID" p
    for p in $(pgrep -P "$NODE_PID" 2>/dev/null); do pids="$pids $p $(pgrep -P "$p" 2>/dev/null | tr '\n' ' ')"; done
    kill -KILL $pids 2>/dev/null || true
  fi
  if [[ -n "$WORK" ]]; then
    if [[ "${PACK_TEST_KEEP:-}" == "1" ]]; then log "kept $WORK"; else rm -rf "$WORK"; fi
  fi
  if [[ $code -ne 0 && $code -ne 1 ]]; then echo "pack-install test: FAIL ($STEP, exit $code)"; fi
  exit "$code"
}
trap cleanup EXIT
trap 'fail "interrupted"' INT TERM

# Milliseconds since the epoch (GNU date; falls back to node).
now_ms() { date +%s%3N 2>/dev/null || node -p 'Date.now()'; }

# ---------------------------------------------------------------------------------------
STEP="prerequisites"
PLATFORM="$(node -p '
  const { platform, arch } = process;
  const abi = platform === "linux" ? "-gnu" : platform === "win32" ? "-msvc" : "";
  `${platform}-${arch}${abi}`')"
VERSION="$(node -p 'require("./package.json").version')"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/ledger-node-pack.XXXXXX")"
mkdir -p "$WORK/tarballs" "$WORK/project" "$WORK/data" "$WORK/bin"
log "platform $PLATFORM, version $VERSION, work dir $WORK"

# ---------------------------------------------------------------------------------------
STEP="pack (scripts/pack-local.sh)"
t0=$(now_ms)
TARBALLS="$(timeout 300 bash "$ROOT/scripts/pack-local.sh" "$WORK/tarballs" 2>"$WORK/pack.err")" \
  || fail "$(cat "$WORK/pack.err")"
t_pack=$(( $(now_ms) - t0 ))
MAIN_TGZ="$(sed -n 1p <<< "$TARBALLS")"
PLAT_TGZ="$(sed -n 2p <<< "$TARBALLS")"
[[ -f "$MAIN_TGZ" && -f "$PLAT_TGZ" ]] || fail "tarballs not found: $TARBALLS"
log "packed $(basename "$MAIN_TGZ") ($(du -k "$MAIN_TGZ" | cut -f1) KiB) and $(basename "$PLAT_TGZ") ($(du -k "$PLAT_TGZ" | cut -f1) KiB) in ${t_pack} ms"

# What a published main package must carry, and must not.
STEP="main tarball contents"
tar -tzf "$MAIN_TGZ" > "$WORK/main.files"
for f in package/package.json package/bin/ledger-node.js package/dist/cli.js package/dist/index.js \
         package/dist/index.d.ts package/native/index.js package/native/index.d.ts package/scripts/postinstall.js \
         package/dashboard/index.html package/dashboard/app.js package/faucet/index.html package/faucet/faucet.js package/faucet/faucet.css; do
  grep -qx "$f" "$WORK/main.files" || fail "$f is not in the main tarball"
done
if grep -Eq '\.node$|^package/Cargo\.toml$|^package/crates/|^package/src/' "$WORK/main.files"; then
  fail "the main tarball carries build inputs or a binary: $(grep -E '\.node$|Cargo\.toml$|/crates/|^package/src/' "$WORK/main.files" | head -3 | tr '\n' ' ')"
fi
tar -tzf "$PLAT_TGZ" | grep -qx "package/ledger-node.$PLATFORM.node" || fail "the binary is not in the platform tarball"

# ---------------------------------------------------------------------------------------
# A PATH without cargo, rustc or rustup: every PATH directory holding one of them is
# replaced by a directory of links to its other programs.
STEP="PATH without a Rust toolchain"
RUST_TOOLS=" cargo rustc rustup rustdoc rustfmt cargo-clippy clippy-driver rust-gdb rust-lldb rust-analyzer "
NEW_PATH=""
i=0
IFS=':' read -r -a PATH_DIRS <<< "$PATH"
for dir in "${PATH_DIRS[@]}"; do
  [[ -n "$dir" && -d "$dir" ]] || continue
  if [[ -e "$dir/cargo" || -e "$dir/rustc" || -e "$dir/rustup" ]]; then
    i=$((i + 1))
    shim="$WORK/bin/$i"
    mkdir -p "$shim"
    for exe in "$dir"/*; do
      name="$(basename "$exe")"
      [[ "$RUST_TOOLS" == *" $name "* ]] && continue
      ln -s "$exe" "$shim/$name" 2>/dev/null || true
    done
    dir="$shim"
  fi
  NEW_PATH="${NEW_PATH:+$NEW_PATH:}$dir"
done
export PATH="$NEW_PATH"
unset CARGO CARGO_HOME RUSTUP_HOME RUSTC CARGO_TARGET_DIR LEDGER_NODE_SKIP_BUILD
if command -v cargo >/dev/null 2>&1 || command -v rustc >/dev/null 2>&1; then
  fail "cargo or rustc is still on PATH: $(command -v cargo rustc | tr '\n' ' ')"
fi
command -v node >/dev/null && command -v npm >/dev/null && command -v npx >/dev/null || fail "node/npm/npx lost from PATH"
log "cargo and rustc are not on PATH"

# ---------------------------------------------------------------------------------------
STEP="npm install of the tarballs"
cd "$WORK/project"
printf '{ "name": "ledger-node-pack-install-test", "version": "1.0.0", "private": true }\n' > package.json
t0=$(now_ms)
timeout 600 npm install --no-audit --no-fund --prefer-offline "$MAIN_TGZ" "$PLAT_TGZ" > "$WORK/install.log" 2>&1 \
  || fail "npm install: $(tail -n 15 "$WORK/install.log")"
t_install=$(( $(now_ms) - t0 ))
log "installed in ${t_install} ms"
[[ ! -e node_modules/ledger-node/Cargo.toml ]] || fail "Cargo.toml was installed"
[[ -z "$(find node_modules/ledger-node -name '*.node' -print -quit)" ]] || fail "a .node binary sits inside the main package"

# The binding must come from the platform package, found by its name.
STEP="binding resolution"
LOADED="$(timeout 30 node -e '
  const core = require("ledger-node");
  const id = core.blockId({ protocolVersion: 2, parents: ["0x" + "00".repeat(32), "0x" + "00".repeat(31) + "01"], nonce: "0" });
  const natives = Object.keys(require.cache).filter((k) => k.endsWith(".node"));
  const expected = require.resolve("ledger-node-'"$PLATFORM"'");
  if (natives.length !== 1 || natives[0] !== expected) { console.error("loaded", natives, "expected", expected); process.exit(1); }
  console.log(natives[0] + " " + id);
' 2>&1)" || fail "require('ledger-node'): $(printf '%s\n' "$LOADED" | head -n 25)"
log "binding: $LOADED"

# ---------------------------------------------------------------------------------------
# HTTP through node's fetch: `http METHOD URL [BODY] [ACCEPT]` prints "<status> <body>"
# (the body as hex for binary answers).
http() {
  timeout 40 node -e '
    const [method, url, body, accept] = process.argv.slice(1);
    const headers = {};
    if (body) headers["Content-Type"] = "application/json";
    if (accept) headers.Accept = accept;
    fetch(url, { method, headers, body: body || undefined, signal: AbortSignal.timeout(30000) })
      .then(async (r) => {
        const bytes = Buffer.from(await r.arrayBuffer());
        const binary = (r.headers.get("content-type") || "").includes("serializer");
        process.stdout.write(`${r.status} ${binary ? bytes.toString("hex") : bytes.toString("utf8")}`);
      })
      .catch((e) => { process.stdout.write(`000 ${e.message}`); });
  ' "$@"
}

STEP="start npx ledger-node"
t0=$(now_ms)
npx --no-install ledger-node --bind 127.0.0.1 --port 0 --data-dir "$WORK/data" --min-pow-score 1 --milestone-interval 1 \
  > "$WORK/node.out" 2> "$WORK/node.err" < /dev/null &
NODE_PID=$!
URL=""
deadline=$(( $(now_ms) + 60000 ))
while [[ -z "$URL" ]]; do
  kill -0 "$NODE_PID" 2>/dev/null || { wait "$NODE_PID" && code=0 || code=$?; NODE_PID=""; fail "the node exited with code $code before listening"; }
  (( $(now_ms) < deadline )) || fail "no 'listening' log line within 60 s"
  URL="$(grep -m1 '"msg":"listening"' "$WORK/node.out" 2>/dev/null | node -e '
    let s = ""; process.stdin.on("data", (c) => (s += c)).on("end", () => { if (s) process.stdout.write(JSON.parse(s).url); });' || true)"
  [[ -n "$URL" ]] || sleep 0.1
done
t_start=$(( $(now_ms) - t0 ))
log "listening on $URL after ${t_start} ms"

STEP="GET /health"
# Healthy once milestone 1 exists (issued before listening); allow a few seconds anyway.
deadline=$(( $(now_ms) + 15000 ))
while :; do
  answer="$(http GET "$URL/health")"
  [[ "${answer%% *}" == "200" ]] && break
  (( $(now_ms) < deadline )) || fail "GET /health answered '$answer'"
  sleep 0.2
done
log "GET /health → 200"

STEP="POST /api/core/v2/blocks"
TAG="0x$(printf 'pack-install' | od -An -tx1 | tr -d ' \n')"
DATA="0x$(printf 'hello from an installed package' | od -An -tx1 | tr -d ' \n')"
BLOCK="{\"protocolVersion\":2,\"payload\":{\"type\":5,\"tag\":\"$TAG\",\"data\":\"$DATA\"}}"
answer="$(http POST "$URL/api/core/v2/blocks" "$BLOCK")"
[[ "${answer%% *}" == "201" ]] || fail "expected 201, got '$answer'"
BLOCK_ID="$(node -p 'JSON.parse(process.argv[1]).blockId' "${answer#* }")"
[[ "$BLOCK_ID" =~ ^0x[0-9a-f]{64}$ ]] || fail "no block id in '$answer'"
log "POST /api/core/v2/blocks → 201 $BLOCK_ID"

STEP="GET the block back"
answer="$(http GET "$URL/api/core/v2/blocks/$BLOCK_ID")"
[[ "${answer%% *}" == "200" ]] || fail "JSON read: '$answer'"
node -e '
  const b = JSON.parse(process.argv[1]);
  const ok = b.protocolVersion === 2 && b.payload && b.payload.type === 5 && b.payload.tag === process.argv[2]
    && b.payload.data === process.argv[3] && b.parents.length >= 2 && /^\d+$/.test(b.nonce);
  process.exit(ok ? 0 : 1);' "${answer#* }" "$TAG" "$DATA" || fail "the block read back differs: ${answer#* }"
raw="$(http GET "$URL/api/core/v2/blocks/$BLOCK_ID" "" application/vnd.ledger.serializer-v1)"
[[ "${raw%% *}" == "200" ]] || fail "binary read: '$raw'"
# The bytes hash to the block id (checked with the installed package's own API).
node -e '
  const { blockId } = require("ledger-node");
  process.exit(blockId(Buffer.from(process.argv[1], "hex")) === process.argv[2] ? 0 : 1);' "${raw#* }" "$BLOCK_ID" \
  || fail "the raw bytes do not hash to $BLOCK_ID"
hex="${raw#* }"
log "GET block → 200 (JSON, and ${#hex} hex digits = $(( ${#hex} / 2 )) bytes)"

STEP="GET /dashboard/"
answer="$(http GET "$URL/dashboard/")"
[[ "${answer%% *}" == "200" && "$answer" == *"<title>ledger-node dashboard</title>"* ]] || fail "the dashboard page: '${answer:0:80}'"
log "GET /dashboard/ → 200"

STEP="GET /faucet"
answer="$(http GET "$URL/faucet")"
[[ "${answer%% *}" == "200" && "$answer" == *"<title>Faucet · ledger-node</title>"* ]] || fail "the faucet page: '${answer:0:80}'"
log "GET /faucet → 200"

STEP="SIGTERM"
# npx runs the bin through `sh -c` and does not forward SIGTERM, so the signal goes to the
# node process itself (the leaf below npx); npx then exits with its exit code.
children() {
  if command -v pgrep >/dev/null 2>&1; then pgrep -P "$1" || true
  else ps -A -o pid= -o ppid= | awk -v p="$1" '$2 == p { print $1 }'; fi
}
LEAF="$NODE_PID"
for _ in 1 2 3 4 5; do
  next="$(children "$LEAF" | head -n 1)"
  [[ -n "$next" ]] || break
  LEAF="$next"
done
grep -q 'ledger-node' "/proc/$LEAF/cmdline" 2>/dev/null || [[ ! -d /proc ]] || fail "process $LEAF is not the node: $(tr '\0' ' ' < "/proc/$LEAF/cmdline")"
kill -TERM "$LEAF"
deadline=$(( $(now_ms) + 20000 ))
while kill -0 "$NODE_PID" 2>/dev/null; do
  (( $(now_ms) < deadline )) || fail "the node did not stop within 20 s of SIGTERM"
  sleep 0.1
done
code=0
wait "$NODE_PID" || code=$?
NODE_PID=""
[[ $code -eq 0 ]] || fail "the node exited with code $code after SIGTERM"
grep -q '"msg":"stopped"' "$WORK/node.out" || fail "no 'stopped' log line"
log "stopped with exit code 0"

STEP="done"
echo "pack-install test: PASS (pack ${t_pack} ms, install ${t_install} ms, start to listening ${t_start} ms)"

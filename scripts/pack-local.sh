#!/usr/bin/env bash
# The two packages a release publishes for this machine's platform, made from this
# checkout: the main package (ledger-node-<version>.tgz) and its platform package with the
# binary (ledger-node-<platform>-<version>.tgz). Until the release workflow has published
# them, this is how to get `ledger-node` from npm's point of view:
#
#   npm run pack:local                     # in a built checkout (npm install did the build)
#   npm install <the two .tgz files>       # in any project; then: npx ledger-node
#
# Usage: scripts/pack-local.sh [destination folder, default packages/]. Prints the two
# tarball paths, main package first, one per line on stdout; everything else goes to
# stderr. It builds nothing, and leaves npm/<platform>/ as it found it.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEST="$(mkdir -p "${1:-$ROOT/packages}" && cd "${1:-$ROOT/packages}" && pwd)"
cd "$ROOT"

die() { printf 'pack-local: %s\n' "$*" >&2; exit 1; }

PLATFORM="$(node -p '
  const { platform, arch } = process;
  const abi = platform === "linux" ? "-gnu" : platform === "win32" ? "-msvc" : "";
  `${platform}-${arch}${abi}`')"
BINARY="native/ledger-node.$PLATFORM.node"
PKG_DIR="npm/$PLATFORM"
[[ -d "$PKG_DIR" ]] || die "no platform package $PKG_DIR for this machine"
[[ -f "$BINARY" ]] || die "$BINARY is missing: build it first (npm install, or npm run build:native)"
[[ -f dist/cli.js && -f dist/index.js ]] || die "dist/ is missing: compile it first (npm run build:ts)"
VERSION="$(node -p 'require("./package.json").version')"
[[ "$(node -p "require('./$PKG_DIR/package.json').version")" == "$VERSION" ]] \
  || die "$PKG_DIR/package.json version differs from the main package ($VERSION)"

# What `napi artifacts` does at release: the binary goes into its platform package.
IN_PACKAGE="$PKG_DIR/ledger-node.$PLATFORM.node"
COPIED=""
if [[ ! -f "$IN_PACKAGE" ]]; then COPIED="$IN_PACKAGE"; trap 'rm -f "$ROOT/$COPIED"' EXIT; fi
cmp -s "$BINARY" "$IN_PACKAGE" 2>/dev/null || cp "$BINARY" "$IN_PACKAGE"

# `npm pack --json` names the tarball it wrote.
pack() {
  local err
  err="$(mktemp)"
  if ! (cd "$1" && npm pack --json --pack-destination "$DEST" 2>"$err") \
    | node -e 'let s = ""; process.stdin.on("data", (c) => (s += c)).on("end", () => process.stdout.write(JSON.parse(s)[0].filename));'; then
    cat "$err" >&2; rm -f "$err"; die "npm pack in $1 failed"
  fi
  rm -f "$err"
}
MAIN="$DEST/$(pack "$ROOT")"
PLAT="$DEST/$(pack "$ROOT/$PKG_DIR")"
[[ -f "$MAIN" && -f "$PLAT" ]] || die "tarballs not found: $MAIN $PLAT"
printf 'pack-local: install both into a project with: npm install %q %q\n' "$MAIN" "$PLAT" >&2
printf '%s\n%s\n' "$MAIN" "$PLAT"

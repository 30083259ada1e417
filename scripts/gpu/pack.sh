#!/usr/bin/env bash
# Packs what a bare GPU machine (no Node.js, no internet) needs for scripts/gpu/run.sh into
# .gpu/ (ignored through .git/info/exclude), as folders p1, p2, ... of at most CHUNK_MIB each:
# one device call carries one folder beside the working tree. The CUDA execution provider
# (com.github.asus4.onnxruntime.linux-x64-gpu@0.4.9, the CUDA 13 build of onnxruntime 1.29.0
# that pairs with the project's onnxruntime-node), which never changes, fills the first
# folders; the last holds Node, the models' small files and the text, and the built project,
# so that a rebuilt project changes the last folder only.
#
#   bash scripts/gpu/pack.sh            # prints every folder's size and the carry per call
#
# Needs: node, npm (registry access for `npm pack`, or EP_TGZ=path of that tarball), xz, and
# the shared corpora (../shared or $TADPOLE_SHARED). Intermediate files stay in $PACK_WORK
# (default /tmp/tadpole-gpu-pack) and are reused when present; delete it to rebuild.
set -euo pipefail
ROOT=$(git rev-parse --show-toplevel)
cd "$ROOT"
WORK=${PACK_WORK:-/tmp/tadpole-gpu-pack}
STAGE=.gpu
CHUNK_MIB=${CHUNK_MIB:-53}
SHARED=${TADPOLE_SHARED:-$ROOT/../shared}
EP_PKG=com.github.asus4.onnxruntime.linux-x64-gpu@0.4.9
STANDIN=$SHARED/models/all-MiniLM-L6-v2-ARCH-STANDIN-random-weights
# Eval specs whose mixes travel (first MIX_MB of each mix), and how much real text the
# throughput runs get (documents of the Figure-5 mix, about 9,000 sentences a MB).
EVAL_SPECS=${EVAL_SPECS:-"corpora/figure5-bio.json corpora/figure5-cs.json corpora/suite-scarce/scarce-bio-chemprot.json corpora/suite-scarce/scarce-cs-aclarc.json corpora/suite-scarce/scarce-finance-phrasebank.json"}
MIX_MB=${MIX_MB:-3}
SCARCE_MIX_MB=${SCARCE_MIX_MB:-5}
TEXT_MB=${TEXT_MB:-20}

exclude=$(git rev-parse --git-path info/exclude)
mkdir -p "$(dirname "$exclude")"
grep -qxF '/.gpu/' "$exclude" 2>/dev/null || echo '/.gpu/' >>"$exclude"
mkdir -p "$WORK"
say() { echo "pack: $*" >&2; }

# 1. The CUDA execution provider: two libraries, xz -9.
if [ ! -s "$WORK/ep.tar.xz" ]; then
  if [ -z "${EP_TGZ:-}" ]; then
    (cd "$WORK" && npm pack --silent "$EP_PKG" >/dev/null)
    EP_TGZ=$(ls "$WORK"/com.github.asus4.onnxruntime.linux-x64-gpu-*.tgz | head -1)
  fi
  rm -rf "$WORK/ep" && mkdir -p "$WORK/ep"
  tar -xzf "$EP_TGZ" -C "$WORK/ep" --strip-components=4 \
    package/Plugins/Linux/x64/libonnxruntime_providers_cuda.so package/Plugins/Linux/x64/libonnxruntime_providers_shared.so
  say "compressing the CUDA provider (minutes)"
  tar -cf - -C "$WORK/ep" libonnxruntime_providers_cuda.so libonnxruntime_providers_shared.so | xz -9 -T2 -c >"$WORK/ep.tar.xz.tmp"
  mv "$WORK/ep.tar.xz.tmp" "$WORK/ep.tar.xz"
fi

# 2. Node: this machine's binary (official linux-x64 build: glibc only).
if [ ! -s "$WORK/node.xz" ]; then
  say "compressing $(command -v node) ($(node --version))"
  xz -9 -T2 -c "$(command -v node)" >"$WORK/node.xz.tmp" && mv "$WORK/node.xz.tmp" "$WORK/node.xz"
fi

# 3. The built project with the production modules it loads (onnxruntime-node for linux/x64
# only, its common part, and the decompressors and Parquet reader that readers import).
npx tsc -p tsconfig.json
rm -rf "$WORK/app" && mkdir -p "$WORK/app/node_modules"
cp -r dist bin package.json "$WORK/app/"
find "$WORK/app/dist" -name '*.map' -delete
for m in onnxruntime-common fzstd hyparquet xz-decompress; do cp -r "node_modules/$m" "$WORK/app/node_modules/"; done
mkdir -p "$WORK/app/node_modules/onnxruntime-node/bin/napi-v6/linux"
cp -r node_modules/onnxruntime-node/{package.json,dist,lib} "$WORK/app/node_modules/onnxruntime-node/"
cp -r node_modules/onnxruntime-node/bin/napi-v6/linux/x64 "$WORK/app/node_modules/onnxruntime-node/bin/napi-v6/linux/"
rm -f "$WORK"/app/node_modules/onnxruntime-node/bin/napi-v6/linux/x64/libonnxruntime_providers_*.so
# Compress only when the content changed (xz -9 of these takes minutes on a small machine).
pack_dir() { # NAME: $WORK/NAME -> $WORK/NAME.tar.xz
  local sum
  sum=$(tar -cf - -C "$WORK" --sort=name --mtime=@0 --owner=0 --group=0 "$1" | sha256sum | cut -d' ' -f1)
  if [ -s "$WORK/$1.tar.xz" ] && [ "$(cat "$WORK/$1.sum" 2>/dev/null)" = "$sum" ]; then return 0; fi
  say "compressing $1"
  tar -cf - -C "$WORK" --sort=name --mtime=@0 --owner=0 --group=0 "$1" | xz -9 -T2 -c >"$WORK/$1.tar.xz.tmp"
  mv "$WORK/$1.tar.xz.tmp" "$WORK/$1.tar.xz" && echo "$sum" >"$WORK/$1.sum"
}
pack_dir app

# 4. Data: the stand-in's small files and generator, the eval mixes and tasks, real text.
rm -rf "$WORK/data" && mkdir -p "$WORK/data/models/standin" "$WORK/data/corpora"
cp "$STANDIN"/{config.json,tokenizer.json,tokenizer_config.json,vocab.txt,make_bert_standin.py} "$WORK/data/models/standin/"
for spec in $EVAL_SPECS; do
  name=$(basename "$spec" .json)
  if [ ! -s "$WORK/mixes/$name/mix.jsonl" ]; then
    say "building the mix of $spec (a minute)"
    TADPOLE_SHARED=$SHARED node bin/tadpole.js eval --spec "$spec" --methods random --max-sentences 1000 --work-dir "$WORK/mixes/$name" >/dev/null
  fi
  case $name in
    figure5-*) node scripts/gpu/make-specs.mjs --spec "$spec" --work-dir "$WORK/mixes/$name" --out-root "$WORK/data" --mix-name figure5 --max-bytes $((MIX_MB * 1000000)) ;;
    *) node scripts/gpu/make-specs.mjs --spec "$spec" --work-dir "$WORK/mixes/$name" --out-root "$WORK/data" --max-bytes $((SCARCE_MIX_MB * 1000000)) ;;
  esac
done
# Real text for throughput and filter: the first TEXT_MB of the (shuffled) Figure-5 mix.
first=$(basename "${EVAL_SPECS%% *}" .json)
mkdir -p "$WORK/data/text"
node -e '
const fs = require("fs"); const [src, dst, max] = process.argv.slice(1);
const out = []; let bytes = 0;
for (const line of fs.readFileSync(src, "utf8").split("\n")) {
  if (!line || bytes >= Number(max)) continue;
  const { text } = JSON.parse(line); out.push(JSON.stringify({ text })); bytes += Buffer.byteLength(text);
}
fs.writeFileSync(dst, out.join("\n") + "\n");' "$WORK/mixes/$first/mix.jsonl" "$WORK/data/text/mix.jsonl" $((TEXT_MB * 1000000))
pack_dir data

# 5. Folders: p1 .. pK = the provider in CHUNK_MIB pieces; p(K+1) = Node, data and the project.
rm -rf "$STAGE" && mkdir -p "$STAGE"
chunk=$((CHUNK_MIB * 1048576))
small=$(cat "$WORK/node.xz" "$WORK/app.tar.xz" "$WORK/data.tar.xz" | wc -c)
[ "$small" -le "$chunk" ] || { say "node, app and data ($small bytes) exceed CHUNK_MIB"; exit 1; }
rm -f "$WORK"/ep.part[0-9][0-9]
split -b "$chunk" -d -a 2 --numeric-suffixes=1 "$WORK/ep.tar.xz" "$WORK/ep.part"
parts=0
for f in "$WORK"/ep.part[0-9][0-9]; do
  parts=$((parts + 1))
  mkdir -p "$STAGE/p$parts" && mv "$f" "$STAGE/p$parts/"
done
last=$((parts + 1))
mkdir -p "$STAGE/p$last" && cp "$WORK/node.xz" "$WORK/app.tar.xz" "$WORK/data.tar.xz" "$STAGE/p$last/"
# Every folder carries the manifest, so whichever arrives can tell what is still missing.
{
  echo "parts $parts"
  echo "ep_sha256 $(sha256sum "$WORK/ep.tar.xz" | cut -d' ' -f1)"
  (cd "$STAGE/p$last" && sha256sum node.xz app.tar.xz data.tar.xz | awk '{print "sha256", $2, $1}')
} >"$WORK/MANIFEST"
for d in "$STAGE"/p*; do cp "$WORK/MANIFEST" "$d/"; done

tree=$( (git ls-files -z; git ls-files -z --others --exclude-standard) | xargs -0 du -cb 2>/dev/null | tail -1 | cut -f1)
echo "working tree that travels: $((tree / 1048576)) MiB ($tree bytes)"
for d in "$STAGE"/p*; do
  size=$(du -cb "$d" | tail -1 | cut -f1)
  echo "$d: $((size / 1048576)) MiB; with the tree: $(((size + tree) / 1048576)) MiB (limit 64)"
done
for i in $(seq 1 "$last"); do
  d=$STAGE/p$i
  if [ "$i" -lt "$last" ]; then echo "call $i: carry [\"$d\"]  command: bash scripts/gpu/run.sh --stage"; else echo "call $i: carry [\"$d\"]  command: bash scripts/gpu/run.sh [--quick]"; fi
done

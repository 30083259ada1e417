#!/usr/bin/env bash
# The GPU measurement in one script, for a bare machine with no Node.js and no internet that
# receives what scripts/gpu/pack.sh put in .gpu/p1, p2, ... one folder per call (the parts
# wait in $STAGE_DIR, under /tmp, which lasts while the machine stays warm).
#
#   bash scripts/gpu/run.sh --stage          # calls before the last: keep the parts, check the machine
#   bash scripts/gpu/run.sh                  # last call: assemble, unpack, measure everything
#   bash scripts/gpu/run.sh --device cpu     # the same run here, small sizes (rehearsal)
#   bash scripts/gpu/run.sh --quick          # last call, short form (MAX_SECONDS 150): no model
#                                            # listing, torch peer or eval; raw b256/b512 and the
#                                            # full embedder b256/b1024 (b256 also in-thread) for
#                                            # fp32 and fp16, filter fp32 at b256 and b1024
#
# Every figure goes to $OUT/gpu.json (and eval tables to $OUT/eval.txt, the whole log to
# $OUT/log.txt). Each step runs under its own timeout inside an overall budget
# (MAX_SECONDS, default 330) and a failing step is recorded, never fatal.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
MODE=run
DEVICE=cuda
QUICK=
while [ $# -gt 0 ]; do
  case $1 in
    --stage) MODE=stage ;;
    --quick) QUICK=1 ;;
    --device) DEVICE=$2; shift ;;
    *) echo "run.sh: unknown argument $1 (see the header of scripts/gpu/run.sh)" >&2; exit 2 ;;
  esac
  shift
done
START=$(date +%s)
MAX_SECONDS=${MAX_SECONDS:-$([ -n "$QUICK" ] && echo 150 || echo 330)}
END=$((START + MAX_SECONDS))
S=${STAGE_DIR:-/tmp/tadpole-gpu}
OUT=${OUT:-$ROOT/.gpu/out-$DEVICE}
RES=$S/res
mkdir -p "$OUT" "$S/parts" "$S/root" "$RES"
exec > >(tee -a "$OUT/log.txt") 2>&1

if [ "$DEVICE" = cpu ]; then
  # This machine has two shared cores: small sizes that still pass through every step.
  N_RAW=${N_RAW:-100} RAW_BATCHES=${RAW_BATCHES:-64,256} FULL_BATCHES=${FULL_BATCHES:-256} REPEAT=1
  FILTER_DOCS=${FILTER_DOCS:-15} FILTER_BATCHES=${FILTER_BATCHES:-256} FIT_TASK_LINES=${FIT_TASK_LINES:-150} FIT_GENERAL=${FIT_GENERAL:-150}
  EVAL_MAX=${EVAL_MAX:---max-sentences 300} EVAL_SPECS_RUN=${EVAL_SPECS_RUN:-"scarce-bio-chemprot"}
else
  N_RAW=${N_RAW:-40000} RAW_BATCHES=${RAW_BATCHES:-64,128,256,512,1024} FULL_BATCHES=${FULL_BATCHES:-256,1024} REPEAT=2
  FILTER_DOCS=${FILTER_DOCS:-0} FILTER_BATCHES=${FILTER_BATCHES:-256,1024} FIT_TASK_LINES=${FIT_TASK_LINES:-0} FIT_GENERAL=${FIT_GENERAL:-5000}
  EVAL_MAX=${EVAL_MAX:-} EVAL_SPECS_RUN=${EVAL_SPECS_RUN:-"figure5-bio scarce-bio-chemprot figure5-cs scarce-cs-aclarc scarce-finance-phrasebank"}
fi
IN_THREAD_BATCHES=${IN_THREAD_BATCHES:-}
FILTER_MODELS="fp32 fp16"
if [ -n "$QUICK" ]; then
  [ "$DEVICE" = cpu ] || RAW_BATCHES=${RAW_BATCHES_QUICK:-256,512}
  IN_THREAD_BATCHES=${IN_THREAD_BATCHES:-${FULL_BATCHES%%,*}}
  FILTER_MODELS=fp32
fi
# Two evals a spec, so that a timeout loses one half: the encoder (and random), then the baselines.
EVAL_ENCODER=${EVAL_ENCODER:-"tadpole+iforest[encoder],random"}
EVAL_BASELINES=${EVAL_BASELINES:-"tadpole (default),tadpole+iforest[hash],tadpole+iforest[lsa]"}

# The python with numpy and onnx (the GPU image's python3 holds torch too).
PY=${PYTHON:-python3}
"$PY" -c 'import numpy, onnx' 2>/dev/null || { [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import numpy, onnx' 2>/dev/null && PY=/usr/bin/python3; }
export PYTHONUNBUFFERED=1

left() { echo $((END - $(date +%s))); }
# step NAME MAX_SECONDS CMD...: runs CMD under min(MAX, what the budget has left), records rc and time.
step() {
  local name=$1 max=$2
  shift 2
  local t=$max l
  l=$(($(left) - 5))
  [ "$l" -lt "$t" ] && t=$l
  if [ "$t" -lt 5 ]; then
    echo "== $name: skipped (budget spent)"
    echo "{\"step\":\"$name\",\"rc\":null,\"skipped\":true}" >>"$RES/steps.jsonl"
    return 0
  fi
  echo "== $name (timeout ${t}s, $(left)s left)"
  local t0=$EPOCHREALTIME
  timeout -k 5 "$t" "$@"
  local rc=$?
  local secs
  secs=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }')
  echo "== $name: rc $rc, ${secs}s"
  echo "{\"step\":\"$name\",\"rc\":$rc,\"seconds\":$secs,\"timeout\":$t}" >>"$RES/steps.jsonl"
  return 0
}

machine_check() {
  echo "== machine: $(uname -m), $(nproc) cores, $(awk '/MemTotal/ {print int($2/1048576)" GiB"}' /proc/meminfo), /tmp free $(df -BM --output=avail /tmp | tail -1)"
  if command -v nvidia-smi >/dev/null; then
    nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv,noheader
    nvidia-smi | grep -o 'CUDA Version: [0-9.]*' || true
  else
    echo "nvidia-smi: not found"
  fi
  "$PY" -c 'import sys, torch; print("python", sys.version.split()[0], "torch", torch.__version__, "cuda", torch.cuda.is_available())' 2>/dev/null || echo "python: $PY (no torch)"
  echo "xz: $(command -v xz || echo 'none (python lzma)')"
}

# Parts: whatever folders this call carried join those of earlier calls.
for d in "$ROOT"/.gpu/p*/; do
  [ -d "$d" ] && cp -f "$d"* "$S/parts/" && echo "== parts: took $(ls "$d" | tr '\n' ' ')from $d"
done
MANIFEST=$S/parts/MANIFEST
nparts=$(awk '$1 == "parts" {print $2}' "$MANIFEST" 2>/dev/null)
# Pieces 01 .. nparts only: a warm machine may still hold pieces of an older split.
pieces() { local i; for i in $(seq 1 "${nparts:-0}"); do printf '%s/parts/ep.part%02d\n' "$S" "$i"; done; }
have=0
for f in $(pieces); do [ -s "$f" ] && have=$((have + 1)); done
echo "== parts: $have of ${nparts:-?} provider pieces here ($(du -sh "$S/parts" | cut -f1))"

unxz_to() { # FILE OUT: xz-compressed file to OUT
  if command -v xz >/dev/null; then xz -dc "$1" >"$2"; else "$PY" -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"), 1 << 20)' "$1" "$2"; fi
}
untar_xz() { # FILE DIR
  if command -v xz >/dev/null; then tar -xJf "$1" -C "$2"; else "$PY" -c 'import sys, tarfile; tarfile.open(sys.argv[1], "r:xz").extractall(sys.argv[2])' "$1" "$2"; fi
}
# The provider pieces come first, one folder a call: once all are here (a stage call) they are
# joined, checked and unpacked to $S/ep. Node, the data and the project come in the last folder;
# the project is unpacked again whenever its archive changed (a rebuilt app on a warm machine).
unpack_ep() {
  local want got
  want=$(awk '$1 == "ep_sha256" {print $2}' "$MANIFEST" 2>/dev/null)
  [ -s "$S/ep/libonnxruntime_providers_cuda.so" ] && [ "$(cat "$S/ep.sha256" 2>/dev/null)" = "$want" ] && return 0
  [ -n "$nparts" ] && [ "$have" = "$nparts" ] || { echo "provider pieces: $have of ${nparts:-?} here, not unpacked yet"; return 0; }
  cat $(pieces) >"$S/ep.tar.xz"
  got=$(sha256sum "$S/ep.tar.xz" | cut -d' ' -f1)
  [ "$want" = "$got" ] || { echo "provider archive sha256 $got, expected $want"; rm -f "$S/ep.tar.xz"; return 1; }
  rm -rf "$S/ep" "$S/ep.tmp" && mkdir -p "$S/ep.tmp" && untar_xz "$S/ep.tar.xz" "$S/ep.tmp" && mv "$S/ep.tmp" "$S/ep" || return 1
  echo "$got" >"$S/ep.sha256"
  rm -f "$S/ep.tar.xz"
  echo "provider unpacked: $(ls "$S/ep" | tr '\n' ' ')"
}
unpack_small() {
  if [ ! -x "$S/root/bin/node" ] && [ -s "$S/parts/node.xz" ]; then
    mkdir -p "$S/root/bin" && unxz_to "$S/parts/node.xz" "$S/root/bin/node" && chmod +x "$S/root/bin/node"
  fi
  if [ -s "$S/parts/app.tar.xz" ]; then
    local sum
    sum=$(sha256sum "$S/parts/app.tar.xz" | cut -d' ' -f1)
    if [ "$(cat "$S/root/app.sha256" 2>/dev/null)" != "$sum" ]; then
      rm -rf "$S/root/app" "$S/root/app.sha256" && untar_xz "$S/parts/app.tar.xz" "$S/root" && echo "$sum" >"$S/root/app.sha256"
    fi
  fi
  [ -d "$S/root/data" ] || { [ -s "$S/parts/data.tar.xz" ] && untar_xz "$S/parts/data.tar.xz" "$S/root"; }
  [ -x "$S/root/bin/node" ] && "$S/root/bin/node" --version
  return 0
}
export PATH="$S/root/bin:$PATH"
APP=$S/root/app
DATA=$S/root/data
ORTDIR=$APP/node_modules/onnxruntime-node/bin/napi-v6/linux/x64

if [ "$MODE" = stage ]; then
  machine_check
  unpack_ep
  unpack_small
  if [ -d "$APP" ]; then
    "$S/root/bin/node" -e "const o = require('$APP/node_modules/onnxruntime-node'); console.log('onnxruntime-node', require('$APP/node_modules/onnxruntime-node/package.json').version, 'loads; backends', o.listSupportedBackends().map((b) => b.name).join(','))"
  fi
  echo "== stage done in $(($(date +%s) - START))s"
  exit 0
fi

# ---------------------------------------------------------------- the run
rm -rf "$RES" && mkdir -p "$RES"
machine_check | tee "$RES/machine.txt"
if command -v nvidia-smi >/dev/null; then
  nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap,clocks.max.sm --format=csv >"$RES/gpu.csv" 2>&1
  nvidia-smi | grep -o 'CUDA Version: [0-9.]*' >"$RES/cuda-version.txt"
fi
# Models already on the machine, first: the answer matters whatever else fails.
[ -n "$QUICK" ] || step list-models 40 "$PY" scripts/gpu/list_models.py "$RES/models.json"

# The provider libraries beside the native binding (hard links: same file system, no copy).
place_ep() {
  [ -s "$S/ep/libonnxruntime_providers_cuda.so" ] || { echo "no provider libraries (pieces: $have of ${nparts:-?})"; return 1; }
  for f in "$S"/ep/*.so; do ln -f "$f" "$ORTDIR/" 2>/dev/null || cp -f "$f" "$ORTDIR/"; done
  ls -la "$ORTDIR"
}
step unpack 90 bash -c "$(declare -f unxz_to untar_xz unpack_small unpack_ep place_ep pieces); S='$S' PY='$PY' APP='$APP' ORTDIR='$ORTDIR' MANIFEST='$MANIFEST' have='$have' nparts='$nparts'; unpack_ep && unpack_small && place_ep"

# CUDA user-space libraries: the pip wheels' folders (cu13), then the toolkit, then the driver.
NVLIBS=$("$PY" - <<'EOF' 2>/dev/null
import glob, os, site, sys
dirs = []
bases = []
try:
    import nvidia
    bases += list(nvidia.__path__)
except Exception:
    pass
for sp in site.getsitepackages() + [site.getusersitepackages()]:
    bases.append(os.path.join(sp, 'nvidia'))
for base in bases:
    for root, _, files in os.walk(base):
        if any(f.startswith('lib') and '.so' in f for f in files) and root not in dirs:
            dirs.append(root)
print(':'.join(dirs))
EOF
)
for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib /usr/local/nvidia/lib64 /usr/local/nvidia/lib /usr/lib/x86_64-linux-gnu; do
  [ -d "$d" ] && NVLIBS="$NVLIBS:$d"
done
export LD_LIBRARY_PATH="${NVLIBS#:}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
echo "$LD_LIBRARY_PATH" | tr ':' '\n' >"$RES/ld-library-path.txt"
if [ -s "$ORTDIR/libonnxruntime_providers_cuda.so" ]; then
  ldd "$ORTDIR/libonnxruntime_providers_cuda.so" >"$RES/ldd.txt" 2>&1
  for l in libcudnn.so.9 libcufft.so.12 libcuda.so.1; do
    p=$(for d in $(echo "$LD_LIBRARY_PATH" | tr ':' ' '); do ls "$d/$l" 2>/dev/null; done | head -1)
    echo "dlopen'ed $l => ${p:-not found}" >>"$RES/ldd.txt"
  done
  grep 'not found' "$RES/ldd.txt" || echo "ldd: every library found"
fi

# Models: the stand-in generated here (fp32) and its fp16 copy.
M=$S/models/standin
mkdir -p "$M/onnx"
cp "$DATA"/models/standin/{config.json,tokenizer.json,tokenizer_config.json,vocab.txt} "$M/" 2>/dev/null
step standin-fp32 60 "$PY" "$DATA/models/standin/make_bert_standin.py" "$M/onnx/model.onnx"
step standin-fp16 40 "$PY" scripts/gpu/fp16.py "$M/onnx/model.onnx" "$M/onnx/model_fp16.onnx"

# Real sentences for the throughput runs, and documents for filter.
TEXT=$DATA/text/mix.jsonl
if [ "$FILTER_DOCS" -gt 0 ] 2>/dev/null; then head -n "$FILTER_DOCS" "$DATA/text/mix.jsonl" >"$S/filter-input.jsonl"; TEXT=$S/filter-input.jsonl; fi
"$PY" - "$DATA/text/mix.jsonl" "$S/sentences.txt" "$N_RAW" <<'EOF'
import json, re, sys
src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
out = []
for line in open(src, encoding='utf-8'):
    for para in json.loads(line)['text'].split('\n'):
        out += [s.strip() for s in re.split(r'(?<=[.!?])\s+', para) if len(s.split()) >= 3]
    if len(out) >= n:
        break
open(dst, 'w', encoding='utf-8').write('\n'.join(out[:n]) + '\n')
print('sentences for the throughput runs:', min(n, len(out)))
EOF

DEV_ARG=$DEVICE
NODE=$S/root/bin/node
TADPOLE="$NODE $APP/bin/tadpole.js"
sample_gpu() { # NAME: utilisation samples every 200 ms until stop_gpu
  if command -v nvidia-smi >/dev/null; then
    nvidia-smi --query-gpu=timestamp,utilization.gpu,utilization.memory,memory.used --format=csv,noheader,nounits -lms 200 >"$RES/util-$1.csv" 2>/dev/null &
    SAMPLER=$!
  else
    SAMPLER=
  fi
}
stop_gpu() { [ -n "${SAMPLER:-}" ] && kill "$SAMPLER" 2>/dev/null; wait "$SAMPLER" 2>/dev/null; SAMPLER=; }

# a. + b. Raw session and full embedder, fp32 and fp16 (quick: fp16 after filter, which matters more).
bench_model() { # NAME FILE MAX_SECONDS
  sample_gpu "bench-$1"
  step "bench-onnx-$1" "$3" "$NODE" scripts/gpu/bench-onnx.mjs --app "$APP" --model-dir "$M" --onnx-file "$2" --device "$DEV_ARG" \
    --sentences "$S/sentences.txt" --n "$N_RAW" --raw-batches "$RAW_BATCHES" --full-batches "$FULL_BATCHES" --in-thread-batches "$IN_THREAD_BATCHES" \
    --repeat "$REPEAT" --out "$RES/bench-$1.json"
  stop_gpu
}
if [ -n "$QUICK" ]; then
  bench_model fp32 onnx/model.onnx 40
else
  bench_model fp32 onnx/model.onnx 75
  bench_model fp16 onnx/model_fp16.onnx 75
fi

# c. filter end to end on real documents: fit with the onnx embedder, then filter at each batch size.
TASK=$DATA/corpora/tasks/figure5-bio.jsonl
if [ "$FIT_TASK_LINES" -gt 0 ] 2>/dev/null; then head -n "$FIT_TASK_LINES" "$TASK" >"$S/fit-task.jsonl"; TASK=$S/fit-task.jsonl; fi
for v in fp32:onnx/model.onnx fp16:onnx/model_fp16.onnx; do
  name=${v%%:*} file=${v#*:}
  case " $FILTER_MODELS " in *" $name "*) ;; *) continue ;; esac
  step "fit-$name" $([ -n "$QUICK" ] && echo 20 || echo 45) $TADPOLE fit --task "$TASK" --general "$TEXT" --general-sample "$FIT_GENERAL" --method tadpole --detector iforest \
    --embedder onnx --model-dir "$M" --onnx-file "$file" --device "$DEV_ARG" -o "$S/model-$name.json"
  batches=$FILTER_BATCHES
  [ "$name" = fp16 ] && batches=${FILTER_BATCHES##*,}
  for b in ${batches//,/ }; do
    sample_gpu "filter-$name-b$b"
    step "filter-$name-b$b" $([ -n "$QUICK" ] && echo 30 || echo 60) $TADPOLE filter -m "$S/model-$name.json" --model-dir "$M" --onnx-file "$file" --device "$DEV_ARG" \
      --batch-size "$b" --keep 0.2 --stats "$RES/filter-$name-b$b.json" -o "$S/kept-$name-b$b.jsonl" "$TEXT"
    stop_gpu
  done
done

[ -n "$QUICK" ] && bench_model fp16 onnx/model_fp16.onnx 40

# d. The PyTorch peer: random BertModel of the same config, fp16 on CUDA, mean pooling.
TDEV=cuda
[ "$DEVICE" = cpu ] && TDEV=cpu
[ -n "$QUICK" ] || step torch-peer 75 "$PY" scripts/gpu/bench_torch.py --model-dir "$M" --sentences "$S/sentences.txt" --n "$N_RAW" \
  --batches "$RAW_BATCHES" --device "$TDEV" --repeat "$REPEAT" --out "$RES/torch.json"

# e. A real sentence encoder, if the machine holds one: export it, then the selection eval.
ENC=$("$PY" -c 'import json, sys; print(json.load(open(sys.argv[1])).get("bertSentenceEncoder") or "")' "$RES/models.json" 2>/dev/null)
mkdir -p "$DATA/models"
if [ -n "$QUICK" ]; then
  echo "== quick: no encoder export or selection eval"
elif [ -n "$ENC" ]; then
  step export-encoder 90 "$PY" scripts/gpu/export_encoder.py "$ENC" "$DATA/models/encoder"
elif [ -n "${REHEARSE_ENCODER:-}" ]; then
  echo "== no cached encoder; rehearsal uses REHEARSE_ENCODER=$REHEARSE_ENCODER"
  cp -r "$REHEARSE_ENCODER" "$DATA/models/encoder"
else
  echo "== no BERT-family sentence encoder cached on this machine: no selection eval with a real encoder"
fi
if [ -z "$QUICK" ] && [ -s "$DATA/models/encoder/onnx/model.onnx" ]; then
  sample_gpu bench-encoder
  step bench-encoder 40 "$NODE" scripts/gpu/bench-onnx.mjs --app "$APP" --model-dir "$DATA/models/encoder" --device "$DEV_ARG" \
    --sentences "$S/sentences.txt" --n "$N_RAW" --raw-batches 256 --full-batches 256 --repeat 1 --out "$RES/bench-encoder.json"
  stop_gpu
  for spec in $EVAL_SPECS_RUN; do
    for half in encoder baselines; do
      methods=$EVAL_ENCODER
      [ $half = baselines ] && methods=$EVAL_BASELINES
      [ -n "$methods" ] || continue
      step "eval-$spec-$half" 90 bash -c "TADPOLE_SHARED='$DATA' $TADPOLE eval '$DATA/specs/$spec.json' --methods '$methods' $EVAL_MAX --json >'$RES/eval-$spec-$half.json'"
    done
  done
fi

# Everything into one JSON, and a summary.
"$PY" scripts/gpu/collect.py "$RES" "$OUT" "$DEVICE"
echo "== run done in $(($(date +%s) - START))s"

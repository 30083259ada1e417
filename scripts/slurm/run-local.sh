#!/usr/bin/env bash
# Tries the Slurm recipe on a single-node cluster on localhost: starts munge, slurmctld
# and slurmd (Debian packages slurm-wlm and munge), submits score as a job array, the cut
# with --dependency=afterok, emit as a second array, each task taking its shard from Slurm's
# variables (--shard auto), and compares the concatenated parts with one `tadpole filter` run.
# Prints "slurm: identical" or the difference; then emits again from a 1-based array with a
# step (--array=1-7:2 for 4 shards) and from an uneven list, which --shard auto refuses.
#   scripts/slurm/run-local.sh [INPUT] [SHARDS]     (run from the repository root, as root)
# Needs: apt-get install -y slurm-wlm munge; npx tsc -p tsconfig.json (dist/ built).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
N=${2:-4}
WORK=$(mktemp -d /tmp/tadpole-slurm-XXXXXX)
HOST=$(hostname -s)
TADPOLE="node $ROOT/bin/tadpole.js"

if [[ -n "${1:-}" ]]; then INPUT=$1; else
  INPUT=$WORK/news.jsonl
  { zcat "$ROOT/../shared/corpora/news-bbc/docs.jsonl.gz" || true; } | head -c 2000000 | sed "\$d" > "$INPUT"
fi
{ zcat "$ROOT/../shared/corpora/task-sci-cite/dev.jsonl.gz" || true; } | head -300 > "$WORK/task.jsonl"
$TADPOLE fit --task "$WORK/task.jsonl" -o "$WORK/model.json" 2>/dev/null

# --- a one-node cluster -------------------------------------------------------------
mkdir -p /etc/munge /var/log/munge /run/munge /var/lib/munge /etc/slurm "$WORK/spool/ctld" "$WORK/spool/d"
[[ -s /etc/munge/munge.key ]] || { dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null; }
chown -R munge:munge /etc/munge /var/log/munge /run/munge /var/lib/munge 2>/dev/null || true
chmod 0400 /etc/munge/munge.key
STARTED_MUNGE=0
if ! pgrep -x munged >/dev/null; then
  runuser -u munge -- munged --force 2>/dev/null || munged --force
  STARTED_MUNGE=$(pgrep -n -x munged)
fi
CPUS=$(nproc)
cat > /etc/slurm/slurm.conf <<CONF
ClusterName=tadpole-local
SlurmctldHost=$HOST
SlurmUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SchedulerType=sched/backfill
StateSaveLocation=$WORK/spool/ctld
SlurmdSpoolDir=$WORK/spool/d
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmctldLogFile=$WORK/slurmctld.log
SlurmdLogFile=$WORK/slurmd.log
JobAcctGatherType=jobacct_gather/none
NodeName=$HOST CPUs=$CPUS State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld -i
slurmd
cleanup() {
  [[ -f $WORK/slurmd.pid ]] && kill "$(cat "$WORK/slurmd.pid")" 2>/dev/null || true
  [[ -f $WORK/slurmctld.pid ]] && kill "$(cat "$WORK/slurmctld.pid")" 2>/dev/null || true
  [[ $STARTED_MUNGE != 0 ]] && kill "$STARTED_MUNGE" 2>/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 60); do sinfo -h -o %T 2>/dev/null | grep -qE 'idle|mixed' && break; sleep 1; done
sinfo

# --- the recipe (what the README shows) ----------------------------------------------
RUN=$WORK/run
SCORE=$(sbatch --parsable --array=0-$((N - 1)) -o "$WORK/score-%a.log" \
  --wrap "$TADPOLE score -q -m $WORK/model.json --run-dir $RUN --shard auto --resume $INPUT")
CUT=$(sbatch --parsable --dependency=afterok:$SCORE -o "$WORK/cut.log" \
  --wrap "$TADPOLE cut --run-dir $RUN --keep 0.2")
EMIT=$(sbatch --parsable --dependency=afterok:$CUT --array=0-$((N - 1)) -o "$WORK/emit-%a.log" \
  --wrap "$TADPOLE emit -q --run-dir $RUN --shard auto --resume")
echo "submitted: score array $SCORE, cut $CUT (afterok), emit array $EMIT (afterok)"
for _ in $(seq 600); do [[ -z $(squeue -h -j "$SCORE,$CUT,$EMIT" 2>/dev/null) ]] && break; sleep 1; done
sacct -j "$SCORE,$CUT,$EMIT" 2>/dev/null | head -20 || true
cat "$WORK/cut.log" || true

$TADPOLE filter -q -m "$WORK/model.json" "$INPUT" > "$WORK/filter.out"
cat "$RUN"/parts/part-* > "$WORK/slurm.out" 2>/dev/null || true
if cmp -s "$WORK/filter.out" "$WORK/slurm.out"; then
  echo "slurm: identical ($(wc -c < "$WORK/slurm.out") bytes, $N shards)"
else
  echo "slurm: DIFFERENT"; cmp "$WORK/filter.out" "$WORK/slurm.out" || true
  tail -5 "$WORK"/*.log; exit 1
fi

# --- --shard auto beyond 0-(N-1): a 1-based array with a step, and an uneven list -----
grep -h ' from Slurm ' "$WORK"/score-*.log | sort
STEP=$(sbatch --parsable --array=1-$((2 * N - 1)):2 -o "$WORK/step-%a.out" -e "$WORK/step-%a.err" \
  --wrap "env | grep '^SLURM_ARRAY_TASK_' | sort | tr '\n' ' ' >&2; echo >&2; $TADPOLE emit -q --run-dir $RUN --shard auto -o -")
UNEVEN=$(sbatch --parsable --array=0,1,$((N + 1)) -o /dev/null -e "$WORK/uneven-%a.err" \
  --wrap "$TADPOLE emit -q --run-dir $RUN --shard auto -o /dev/null")
for _ in $(seq 600); do [[ -z $(squeue -h -j "$STEP,$UNEVEN" 2>/dev/null) ]] && break; sleep 1; done
cat "$WORK/step-1.err" "$WORK/step-$((2 * N - 1)).err"
cat "$WORK/uneven-1.err"
# shellcheck disable=SC2046
cat $(ls "$WORK"/step-*.out | sort -V) > "$WORK/step.out"
if cmp -s "$WORK/filter.out" "$WORK/step.out"; then
  echo "slurm --array=1-$((2 * N - 1)):2: identical"
else
  echo "slurm --array=1-$((2 * N - 1)):2: DIFFERENT"; exit 1
fi
if grep -q 'not an evenly spaced range' "$WORK/uneven-1.err"; then
  echo "slurm --array=0,1,$((N + 1)): refused"
else
  echo "slurm --array=0,1,$((N + 1)): NOT refused"; exit 1
fi

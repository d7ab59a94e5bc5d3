#!/usr/bin/env bash
# node_run.sh - every GPU of one node on one sweep (make run GPUS=all|N):
# one `wallbench run` per GPU, pinned to it with --device, each on its own
# shard, side by side; then `wallbench merge` of the shards that came back.
# A GPU that fails loses only its own shard: the others are merged, the
# failed one is named with the end of its log, and the exit code is 1.
#
# usage: node_run.sh WALLBENCH GPUS OUTDIR [wallbench run options ...]
#   GPUS     all, or how many of this node's GPUs (devices 0..GPUS-1)
#   OUTDIR   shards go to OUTDIR/node-<stamp>/shard-<I>/ (log beside it),
#            the merge to OUTDIR/<stamp>-node.h5
# environment:
#   WB_GPU_COUNT    GPUs visible (default: CUDA_VISIBLE_DEVICES, else nvidia-smi -L)
#   WB_SHARD_BASE, WB_SHARD_TOTAL   this node runs shards BASE+1 .. BASE+GPUS of
#                   TOTAL (harness/slurm/ with several nodes); the merge is then
#                   left to the job that has them all
# exit: 0 all shards ok and merged, 1 a shard failed or the merge is
#       incomplete (what came back is merged), 2 bad input
set -u
if [ $# -lt 3 ]; then
    echo "usage: node_run.sh WALLBENCH GPUS OUTDIR [wallbench run options ...]" >&2
    exit 2
fi
wb=$1 gpus=$2 out=$3
shift 3

visible() {
    if [ -n "${WB_GPU_COUNT:-}" ]; then echo "$WB_GPU_COUNT"
    elif [ -n "${CUDA_VISIBLE_DEVICES:-}" ]; then echo "$CUDA_VISIBLE_DEVICES" | tr ',' '\n' | grep -c .
    elif command -v nvidia-smi >/dev/null 2>&1; then nvidia-smi -L 2>/dev/null | grep -c '^GPU '
    else echo 0
    fi
}
count=$(visible)
case "$count" in ''|*[!0-9]*) echo "node_run: cannot count this node's GPUs (got '$count'); set WB_GPU_COUNT" >&2; exit 2 ;; esac
if [ "$count" -eq 0 ]; then
    echo "node_run: this node shows no GPU (nvidia-smi -L lists none, CUDA_VISIBLE_DEVICES is empty)" >&2
    exit 3
fi
case "$gpus" in
all) n=$count ;;
''|*[!0-9]*|0) echo "node_run: GPUS=$gpus: expected all or a number of GPUs 1..$count" >&2; exit 2 ;;
*) n=$gpus
   if [ "$n" -gt "$count" ]; then echo "node_run: GPUS=$n but this node shows $count GPU(s)" >&2; exit 2; fi ;;
esac
base=${WB_SHARD_BASE:-0} total=${WB_SHARD_TOTAL:-$n}
case "$base" in ''|*[!0-9]*) echo "node_run: WB_SHARD_BASE=$base: expected a shard count >= 0" >&2; exit 2 ;; esac
case "$total" in ''|*[!0-9]*|0) echo "node_run: WB_SHARD_TOTAL=$total: expected a number of shards >= 1" >&2; exit 2 ;; esac
if [ $((base + n)) -gt "$total" ]; then
    echo "node_run: shards $((base + 1))..$((base + n)) do not fit WB_SHARD_TOTAL=$total" >&2
    exit 2
fi

stamp=$(date -u +%Y%m%dT%H%M%SZ)
dir=$out/node-$stamp
mkdir -p "$dir" || { echo "node_run: cannot create $dir" >&2; exit 2; }
pids=()
for ((d = 0; d < n; d++)); do
    k=$((base + d + 1))
    "$wb" run --device "$d" --shard "$k/$total" --out "$dir/shard-$k" "$@" >"$dir/shard-$k.log" 2>&1 &
    pids+=($!)
done
echo "node_run: $n GPU(s), shards $((base + 1))..$((base + n)) of $total, logs in $dir/shard-<I>.log" >&2
# A stopped job (Slurm's time limit, ^C) stops the runs; each keeps the
# points it finished, and those are still merged below.
trap 'kill -TERM "${pids[@]}" 2>/dev/null' TERM INT

failed=0 files=()
for ((d = 0; d < n; d++)); do
    k=$((base + d + 1))
    rc=0
    while :; do
        wait "${pids[$d]}"; rc=$?
        kill -0 "${pids[$d]}" 2>/dev/null || break # wait returned for a signal: the run still goes
    done
    f=$(ls -t "$dir/shard-$k"/*.h5 2>/dev/null | head -n 1)
    if [ "$rc" -ne 0 ]; then
        failed=$((failed + 1))
        echo "node_run: GPU $d (shard $k/$total) failed with exit code $rc${f:+; its finished points are in $f}; last lines of $dir/shard-$k.log:" >&2
        tail -n 3 "$dir/shard-$k.log" | sed 's/^/    /' >&2
    fi
    [ -n "$f" ] && files+=("$f")
done

if [ -n "${WB_SHARD_TOTAL:-}" ]; then
    printf '%s\n' "${files[@]}"
    [ "$failed" -eq 0 ]; exit $?
fi
if [ ${#files[@]} -eq 0 ]; then
    echo "node_run: no GPU left a results file: nothing to merge" >&2
    exit 1
fi
merged=$out/$stamp-node.h5
"$wb" merge "${files[@]}" -o "$merged"; mrc=$?
if [ "$mrc" -eq 2 ]; then exit 1; fi
[ -f "$merged" ] && echo "node_run: merged into $merged" >&2
[ "$failed" -eq 0 ] && [ "$mrc" -eq 0 ]

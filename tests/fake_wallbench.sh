#!/usr/bin/env bash
# fake_wallbench.sh - wallbench for the node and Slurm tests on a machine
# without GPUs: `run --device D --shard I/N --out DIR` writes a synthetic
# shard (wb_synth_shard: the real sweep and assignment, made-up times);
# every other command is the real wallbench ($WB_REAL).
#   WB_SYNTH             path of wb_synth_shard
#   WB_FAKE_FAIL_DEVICE  this device fails (exit 1) ...
#   WB_FAKE_FAIL_KEEP    ... after writing the ceilings and this many points (unset: no file)
#   WB_FAKE_SWEEP        sweep kind (default test)
#   WB_PROFILE           h200, h100 or l4: the GPU the file claims (Slurm fleet jobs)
set -u
if [ "${1:-}" != run ]; then exec "$WB_REAL" "$@"; fi
shift
device=0 shard=1/1 out=results
while [ $# -gt 0 ]; do
    case "$1" in
    --device) device=$2; shift ;;
    --shard) shard=$2; shift ;;
    --out) out=$2; shift ;;
    esac
    shift
done
mkdir -p "$out"
sweep=${WB_FAKE_SWEEP:-test}
if [ "$device" = "${WB_FAKE_FAIL_DEVICE:-none}" ]; then
    echo "wallbench run: device $device: cudaErrorECCUncorrectable (fake failure)" >&2
    [ -n "${WB_FAKE_FAIL_KEEP:-}" ] && "$WB_SYNTH" write "$out" "$shard" "$sweep" "NVIDIA H200" "$WB_FAKE_FAIL_KEEP" >/dev/null
    exit 1
fi
case "${WB_PROFILE:-h200}" in
h100) gpu="NVIDIA H100 80GB HBM3" ;;
l4) gpu="NVIDIA L4" ;;
*) gpu="NVIDIA H200" ;;
esac
exec "$WB_SYNTH" write "$out" "$shard" "$sweep" "$gpu"

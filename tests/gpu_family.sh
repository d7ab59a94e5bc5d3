#!/usr/bin/env bash
# gpu_family.sh WALLBENCH FAMILY OUTDIR [RUN ARGS...] - runs one family's test
# sweep (every variant, odd sizes, verified before timing); CTest skip (77)
# without a GPU. RUN ARGS: e.g. --plugin LIB.so for a plugin family.
set -u
wb=$1 family=$2 out=$3
shift 3
. "$(dirname "$0")/gpu_skip.sh"
mkdir -p "$out"
# Counters are exercised by test_gpu_counters and by every `make run`; here the
# point is verification of every variant, so the test sweep skips them.
exec "$wb" run --family "$family" --sweep test --reps 3 --warmup 1 --no-counters --out "$out" "$@"

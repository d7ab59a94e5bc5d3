#!/usr/bin/env bash
# gpu_family.sh WALLBENCH FAMILY OUTDIR - runs one family's test sweep (every
# variant, odd sizes, verified before timing); CTest skip (77) without a GPU.
set -u
wb=$1 family=$2 out=$3
if ! "$wb" info --quiet >/dev/null 2>&1; then
    echo "SKIP: no usable GPU ($("$wb" info --quiet 2>&1 | head -n 1))"
    exit 77
fi
mkdir -p "$out"
exec "$wb" run --family "$family" --sweep test --reps 3 --out "$out"

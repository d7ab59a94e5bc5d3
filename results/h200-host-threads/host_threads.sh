#!/bin/bash
# Issue 31 diagnosis: how much of the default run's data and verify steps is CPU work that scales
# with cores. select and probe (the quick sweep, no counters) with every core, then with one
# (WB_HOST_THREADS=1, cut at 150 s: per-point setup_ms stays in the file).
set -u
R=$OUT
exec > >(tee $R/log.txt) 2>&1
t0=$(date +%s)
export PATH=/usr/local/cuda/bin:$PATH PYTHONDONTWRITEBYTECODE=1 WB_NO_INSTALL=1
nvidia-smi --query-gpu=uuid,clocks.sm,temperature.gpu,utilization.gpu --format=csv,noheader; nproc
cmake -S . -B build/h200 -G Ninja -DWB_PROFILE=h200 -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null && \
  cmake --build build/h200 -j16 --target wallbench 2>&1 | grep -E " error|FAILED"
echo "build $(( $(date +%s)-t0 )) s"
W=$PWD/build/h200/wallbench
A="run --profile h200 --sweep quick --family select,probe --no-counters"
$W $A --out $R/all --summary-json $R/all.json > $R/all.log 2>&1; echo "all cores rc=$? $(( $(date +%s)-t0 )) s"; tail -2 $R/all.log
WB_HOST_THREADS=1 timeout 150 $W $A --out $R/one --summary-json $R/one.json > $R/one.log 2>&1; echo "one core rc=$? $(( $(date +%s)-t0 )) s"; tail -2 $R/one.log

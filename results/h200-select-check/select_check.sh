#!/bin/bash
# The select family's GPU check: its test, the family's GPU test, then select's part of the default
# sweep (quick, counters on) for the time split against results/h200/baseline-quick-summary.json.
set -u
R=$OUT
exec > >(tee $R/log.txt) 2>&1
t0=$(date +%s)
export PATH=/usr/local/cuda/bin:$PATH WB_NO_INSTALL=1
nvidia-smi --query-gpu=uuid,clocks.sm,temperature.gpu,utilization.gpu --format=csv,noheader
cmake -S . -B build/h200 -G Ninja -DWB_PROFILE=h200 -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null && \
  cmake --build build/h200 -j16 --target wallbench test_gpu_select_check 2>&1 | grep -E " error|FAILED"
echo "build $(( $(date +%s)-t0 )) s"
build/h200/tests/test_gpu_select_check; echo "test_gpu_select_check rc=$?"
W=$PWD/build/h200/wallbench
$W run --family select --sweep test --reps 3 --warmup 1 --no-counters --out $R/test > $R/test.log 2>&1; echo "select test sweep rc=$? $(tail -1 $R/test.log)"
$W run --profile h200 --sweep quick --family select --out $R/quick --summary-json $R/quick.json > $R/quick.log 2>&1
echo "select quick rc=$? $(( $(date +%s)-t0 )) s"; tail -3 $R/quick.log

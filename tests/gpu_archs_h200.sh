#!/usr/bin/env bash
# gpu_archs_h200.sh OUT - issue 15's hardware checks on one H200 (README "Your GPU"), from the repo root:
#  (a) a compute_80 PTX-only build (the code an A100 gets, JIT-compiled by the driver) passes the GPU tests
#      and runs the default sweep into results/h200-ptx80/; compared with the sm_90 build's default sweep
#      (times, instruction counts) by wallbench compare and tests/compare_builds.py;
#  (b) one binary for 80;90;100;120 passes the GPU tests;
#  (c) make run GPU=auto (test sweep) resolves the h200 profile and runs;
#  (d) a binary without code for the device (sm_100 SASS only) stops with exit 2 and writes no results file.
# Logs and results files under OUT; a summary at the end. SM90=<file> reuses an sm_90 default sweep of the
# same commit instead of running one.
set -u
out=${1:?usage: tests/gpu_archs_h200.sh OUT}
export WB_NO_INSTALL=1 # no package registry on the GPU node: do not wait for apt
mkdir -p "$out"
log() { echo "== $*" | tee -a "$out/summary.txt"; }
step() { # name, command...: runs it, logs to OUT/<name>.log, records the exit code
    local name=$1; shift
    local t0=$SECONDS
    "$@" > "$out/$name.log" 2>&1
    local rc=$?
    log "$name: exit $rc in $((SECONDS - t0)) s ($*)"
    return $rc
}
gpu_tests() { (cd "build/$1" && ctest -L gpu --output-on-failure); }

# (a) PTX only
step ptx80-build make build CUDA_ARCHS=80-virtual
step ptx80-info build/h200-80-virtual/wallbench info
grep -E "build:|profile:" "$out/ptx80-info.log" | tee -a "$out/summary.txt"
step ptx80-gpu-tests gpu_tests h200-80-virtual
step ptx80-sweep make run CUDA_ARCHS=80-virtual OUT=results/h200-ptx80
ptx=$(ls -t results/h200-ptx80/*.h5 2>/dev/null | head -n 1)
sm90=${SM90:-}
if [ -z "$sm90" ]; then
    step sm90-sweep make run OUT="$out/h200-sm90"
    sm90=$(ls -t "$out"/h200-sm90/*.h5 2>/dev/null | head -n 1)
fi
if [ -n "$ptx" ] && [ -n "$sm90" ]; then
    cp "$ptx" "$out/"
    step compare build/h200/wallbench compare "$sm90" "$ptx" --markdown
    step compare-builds python3 tests/compare_builds.py "$sm90" "$ptx"
    sed -n '1,12p' "$out/compare-builds.log" | tee -a "$out/summary.txt"
fi
# (b) several architectures in one binary
step multi-build make build CUDA_ARCHS="80;90;100;120"
step multi-info build/h200-80_90_100_120/wallbench info
grep -E "build:" "$out/multi-info.log" | tee -a "$out/summary.txt"
step multi-gpu-tests gpu_tests h200-80_90_100_120
# (c) GPU=auto
step auto-run make run GPU=auto SWEEP=test OUT="$out/auto"
grep -E "benchmark calls|ok, .* skipped" "$out/auto-run.log" | tee -a "$out/summary.txt"
# (d) no code for the device: exit 2, one sentence, no results file
step sm100-build make build CUDA_ARCHS=100-real
step sm100-run build/h200-100-real/wallbench run --sweep test --family ceiling --out "$out/sm100"
tail -n 1 "$out/sm100-run.log" | tee -a "$out/summary.txt"
log "sm100 results files: $(ls "$out"/sm100/*.h5 2>/dev/null | wc -l) (expected 0)"

#!/usr/bin/env bash
# gpu_plugin_check.sh OUTDIR - the example plugin end to end on a GPU machine
# (not part of CTest; needs the build of `make build`, python3 with pandas,
# and ncu for step 4). From the repository root:
#   1. wallbench run --plugin <example> --family ceiling,hashprobe (counters on,
#      default sweep) -> OUTDIR/results/<stamp>.h5, OUTDIR/summary.json
#   2. every hashprobe row ok with verified = 1 and counters (CSV export + pandas)
#   3. fig4's table holds the hashprobe points (render it where gnuplot is:
#      make plots RESULTS=OUTDIR/results/<stamp>.h5)
#   4. ncu's smsp__inst_executed.sum of each point's NVTX range (run --ncu)
#      equals the file's inst column (tests/ncu_inst_check.py)
# Exit 0 when all four hold.
set -u
out=${1:?usage: tests/gpu_plugin_check.sh OUTDIR}
b=$(ls -d build/*/ 2>/dev/null | head -n 1)
wb=${WALLBENCH:-${b}wallbench}
plugin=${b}examples/wallbench-plugin/libwallbench_hashprobe.so
[ -x "$wb" ] && [ -f "$plugin" ] || { echo "build first: make build GPU=<profile> ($wb, $plugin)"; exit 2; }
export LD_LIBRARY_PATH=$(sed -n 's/^CUDAToolkit_LIBRARY_DIR:PATH=//p' "${b}CMakeCache.txt")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p "$out/results"
fail=0

echo "== 1. run with counters"
"$wb" run --plugin "$plugin" --family ceiling,hashprobe --out "$out/results" --summary-json "$out/summary.json" 2>&1 |
    tee "$out/run.log" | grep -v '^\[' || true
h5=$(ls -t "$out"/results/*.h5 | head -n 1)
echo "results: $h5"

echo "== 2. verified and counted"
"$wb" export "$h5" --points --format csv -o "$out/points.csv" || fail=1
python3 - "$out/points.csv" <<'PY' || fail=1
import sys, pandas as pd
df = pd.read_csv(sys.argv[1])
h = df[df.family == "hashprobe"]
print(h[["name", "status", "verified", "time_median_ms", "inst", "inst_per_sector",
         "gips", "bound"]].to_string(index=False))
bad = h[(h.status != "ok") | (h.verified != 1) | h["inst"].isna() | h["gips"].isna()]
print("%d hashprobe points, %d not ok / not verified / without counters" % (len(h), len(bad)))
sys.exit(1 if len(h) == 0 or len(bad) else 0)
PY

echo "== 3. fig4"
"$wb" export "$h5" --fig fig4 --out "$out/fig4" || fail=1
n=$(grep -c '^hashprobe/' "$out/fig4/fig4-roofline-points.dat")
echo "fig4-roofline-points.dat: $n hashprobe rows"
[ "$n" -gt 0 ] || fail=1

echo "== 4. ncu"
if command -v ncu >/dev/null 2>&1; then
    python3 tests/ncu_inst_check.py --wallbench "$wb" --family hashprobe --results "$h5" --out "$out/ncu" -- \
        --plugin "$plugin" || fail=1
else
    echo "ncu not found: step 4 not run"
    fail=1
fi
[ $fail -eq 0 ] && echo "plugin check: all four steps hold" || echo "plugin check: FAILED (see above)"
exit $fail

#!/usr/bin/env bash
# gpu_profile_graph.sh WALLBENCH [OUTDIR] - issue 48's "never changes the program": the graph
# program (examples/profile-graph/graph_steps.py: PyTorch's CUDA graph captured and replayed, a
# second stream, a cooperative CuPy kernel, NVTX ranges) prints the same checksum line and exits 0
# under both passes (global capture), the counter pass with --ranges nvtx and every:25, and the
# counter pass under thread_local and relaxed capture, as it does alone in each capture mode; in
# the both-pass file every launch that ran is timed and many counted, those made inside the capture
# say so, and every graph node is timed and says why it is not counted per kernel. The program runs
# once per pass, so both passes print its line twice. GPU test: 77 without a usable GPU, or without
# PyTorch or CuPy.
. "$(dirname "$0")/common.sh"
wb=$1
out=${2:-$tmp/out}
. "$(dirname "$0")/gpu_skip.sh"
python3 -c 'import torch, cupy; assert torch.cuda.is_available()' 2>/dev/null ||
    { echo "SKIP: PyTorch with CUDA and CuPy are needed (examples/profile-graph/README.md)"; exit 77; }
rm -rf "$out" && mkdir -p "$out"
prog=(python3 "$src/examples/profile-graph/graph_steps.py" --steps 3 --rows 262144)
declare -A alone
for mode in global thread_local relaxed; do
    alone[$mode]=$(set -o pipefail; "${prog[@]}" --capture-mode "$mode" 2> "$out/plain-$mode.err" | grep '^checksum') ||
        bad "alone, $mode capture: exit or no checksum: $(tail -n 3 "$out/plain-$mode.err")"
done
[ "${alone[global]}" != "${alone[relaxed]}" ] || bad "the capture modes print one line (the mode is in it)"
# name, capture mode, profile options
runs=("both global" "nvtx global --pass counters --ranges nvtx" "every25 global --pass counters --ranges every:25"
      "thread_local thread_local --pass counters" "relaxed relaxed --pass counters")
for r in "${runs[@]}"; do
    read -r name mode opts <<< "$r"
    # shellcheck disable=SC2086
    timeout --kill-after=5 300 "$wb" profile --no-ceilings $opts -o "$out/$name.h5" -- "${prog[@]}" --capture-mode "$mode" \
        > "$out/$name.out" 2> "$out/$name.log"
    rc=$?
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then bad "$name: hung, killed after 300 s"
    elif [ $rc -ne 0 ]; then bad "$name: profile exited $rc: $(tail -n 5 "$out/$name.log")"; fi
    got=$(grep '^checksum' "$out/$name.out")
    want=${alone[$mode]}
    [ "$name" = both ] && want=$(printf '%s\n%s' "$want" "$want") # once per pass
    [ "$got" = "$want" ] || bad "$name: the program printed '$got', alone '$want'"
done
"$wb" export "$out/both.h5" --table launches --format json -o "$out/both.json" || bad "export both"
python3 - "$out/both.json" <<'PY' || bad "the launches of both (above)"
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
GRAPH_NODE = 3  # /launches.api
nodes = [r for r in rows if r["api"] == GRAPH_NODE]
captured = [r for r in rows if r["api"] != GRAPH_NODE and "stream capture" in r["counter_note"]]
ran = [r for r in rows if r["api"] != GRAPH_NODE and r not in captured]
timed = lambda r: r["time_ms"] is not None and r["time_ms"] > 0
counted = sum(1 for r in ran if r["inst"] is not None and r["inst"] > 0)
print(f"both: {len(ran)} launches run, {sum(map(timed, ran))} timed, {counted} counted; {len(captured)} made inside the "
      f"capture, not run then (said); {len(nodes)} graph nodes, {sum(map(timed, nodes))} timed, "
      f"{sum(1 for r in nodes if 'graph' in r['counter_note'])} saying why they are not counted")
ok = ran and all(map(timed, ran)) and counted > 0 and captured and nodes and all(map(timed, nodes))
sys.exit(0 if ok and all("graph" in r["counter_note"] for r in nodes) else 1)
PY
finish

#!/usr/bin/env bash
# sh_modes_summary.sh WALLBENCH - examples/profile-graph/modes_summary.py without a GPU: a
# measure_modes.sh folder whose steps ran as STEP@K (alternated repeats) gives, per step, the median
# process time and the median of each round's ratio to plain@K (the rule docs/profiling.md quotes
# for --sample's cost), rounds without a plain@K left out; a step that failed is not counted; a
# folder without the --plain step still prints the repeats; the committed H200 rounds' ratios. No h5py
# needed (no .h5 here).
. "$(dirname "$0")/common.sh"
tool=$src/examples/profile-graph/modes_summary.py
command -v python3 >/dev/null || { echo "SKIP: python3 is missing"; exit 77; }
{
  printf 'step\trc\twall_s\tchecksum\n'
  printf 'plain@0\t0\t12.0\tc 1\n'                   # warm-up round: no sample@0, not in any ratio
  printf 'plain@1\t0\t6.0\tc 1\nsample@1\t0\t6.6\tc 1\n' # 1.10
  printf 'plain@2\t0\t5.0\tc 1\nsample@2\t0\t5.1\tc 1\n' # 1.02
  printf 'plain@3\t0\t8.0\tc 1\nsample@3\t0\t8.4\tc 1\n' # 1.05
  printf 'sample@4\t1\t1.0\t-\n'                     # failed: not counted
} > "$tmp/steps.tsv"
out=$(python3 "$tool" "$tmp" --plain plain@1 2>&1) || bad "modes_summary.py exited $?: $out"
line=$(printf '%s\n' "$out" | grep '^| sample |')
[ "$line" = "| sample | 3 | 6.60 | 5.10 | 8.40 | 1.050x |" ] || bad "sample repeats row: '$line'"
line=$(printf '%s\n' "$out" | grep '^| plain |')
[ "$line" = "| plain | 4 | 7.00 | 5.00 | 12.00 | 1.000x |" ] || bad "plain repeats row: '$line'"
printf '%s\n' "$out" | grep -q '^| sample@1 | 0 | 6.60 | 1.10x | yes |' || bad "overhead table against plain@1"
out=$(python3 "$tool" "$tmp" --plain nosuch 2>&1) || bad "without the --plain step: exit $?"
printf '%s\n' "$out" | grep -q '^| sample | 3 |' || bad "repeats without the --plain step"
# the committed --sample rounds on the H200 (results/h200-profile/sample-rounds) give the ratios
# docs/profiling-measured.md quotes: 1.082x, 1.032x (graph_steps.py), 1.063x (tpch_like.py)
r=$src/results/h200-profile/sample-rounds
for want in "graph 10 1.082x" "call-c-graph 6 1.032x" "tpch 6 1.063x"; do
    read -r folder runs ratio <<< "$want"
    out=$(python3 "$tool" "$r/$folder" --plain plain@1 2>&1) || bad "$folder: exit $?"
    printf '%s\n' "$out" | grep -q "^| sample | $runs | .* | $ratio |\$" || bad "$folder: no '| sample | $runs | ... | $ratio |' in: $out"
done
finish

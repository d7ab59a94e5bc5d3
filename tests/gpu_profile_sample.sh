#!/usr/bin/env bash
# gpu_profile_sample.sh WALLBENCH OUTDIR - `wallbench profile --sample` end to end on the GPU (issue
# 48): the profiled program (wallbench's own transform test sweep, a C program that verifies its
# kernels) exits 0 under it; PM sampling was set up while the program started and its first CUDA call
# waited for it (go_pipe.h: the "waited" line, never a timeout), the timeline has samples, and the
# program's launches got sampled instructions (the samples split among them); the sampler's teardown is
# reported after the counter pass too. GPU test: exit 77
# without a usable GPU.
. "$(dirname "$0")/common.sh"
wb=$1
out=${2:-$(mktemp -d)}
. "$(dirname "$0")/gpu_skip.sh"
rm -rf "$out" && mkdir -p "$out"
timeout --kill-after=5 120 "$wb" profile --sample --no-ceilings -o "$out/p.h5" -- \
    "$wb" run --family transform --variant scalar --sweep test --no-counters --out "$out/run" > "$out/log" 2>&1
rc=$?
[ $rc -eq 0 ] || bad "profile --sample exited $rc: $(tail -n 5 "$out/log")"
grep -q "sampling was set up in .* while the program started" "$out/log" || bad "no set-up line"
grep -q "first CUDA call waited [0-9.]* s for sampling to start" "$out/log" || bad "no wait line: the program did not wait"
# the sampler's teardown, joined and reported after the file; also with --pass both, whose counter pass
# after the timing pass samples nothing and must not drop the timing pass's sampler
grep -q "after the program: the file took .* sampling was turned off in" "$out/log" || bad "no teardown line"
timeout --kill-after=5 120 "$wb" profile --sample --pass both --no-ceilings -o "$out/both.h5" -- \
    "$wb" run --family transform --variant scalar --sweep test --no-counters --out "$out/run-both" > "$out/log-both" 2>&1 ||
    bad "profile --sample --pass both exited $?: $(tail -n 5 "$out/log-both")"
grep -q "after the program: the file took .* sampling was turned off in" "$out/log-both" || bad "--pass both: no teardown line"
# the profiler's own warnings only: the program may warn of its own (wallbench run flags its points
# as contended, since the sampler's context is another process on the GPU: docs/profiling.md, profiling-measured.md); a
# board that throttled is the board's (the board line says whether another process held it)
warned=$(grep "wallbench profile: warning" "$out/log" | grep -v "its times and counts may be off")
[ -z "$warned" ] || bad "warnings: $(printf '%s\n' "$warned" | head -n 3)"
grep -q "wallbench profile: warning: the timing pass on .*other process" "$out/log" &&
    bad "the board saw another process (the sampler's context is the profiler's own): $(grep 'other process' "$out/log")"
"$wb" export "$out/p.h5" --table samples --format csv -o "$out/samples.csv" || bad "export samples"
"$wb" export "$out/p.h5" --table launches --format csv -o "$out/launches.csv" || bad "export launches"
s=$(($(wc -l < "$out/samples.csv") - 1))
[ "$s" -gt 0 ] || bad "no sample rows"
# launches whose sampled instructions are a positive number
n=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "inst") c = i; next } c && $c + 0 > 0 { k++ } END { print k + 0 }' "$out/launches.csv")
[ "$n" -gt 0 ] || bad "no launch with sampled instructions"
echo "profile --sample: $s sample rows, $n launches with sampled instructions"
finish

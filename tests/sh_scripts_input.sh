#!/usr/bin/env bash
# sh_scripts_input.sh - the shell tools' bad input: one sentence and exit 2, before any work, where
# they used to run on (a step name mistyped in measure_modes.sh ran nothing and exited 0; a
# mistyped kernel in sass_diff.sh read as "new file", exit 0) or stop in a shell error (exit 1).
. "$(dirname "$0")/common.sh"
wbin=$1
one() { # TEXT CMD...: exit 2 and TEXT in its output
    local text=$1 out rc
    shift
    out=$("$@" 2>&1); rc=$?
    if [ $rc -eq 2 ] && grep -qF -- "$text" <<< "$out"; then echo "ok: ${*##*/} -> 2"; else bad "$*: exit $rc (want 2), said: $(head -n 3 <<< "$out")"; fi
}
mm=$src/examples/profile-graph/measure_modes.sh
one "unknown step 'plian'" env WB=/bin/true bash "$mm" "$tmp/mm" plain,plian -- true
[ -e "$tmp/mm/steps.tsv" ] && bad "measure_modes.sh ran a step before refusing a mistyped one"
one "is not an executable" env WB=/nonexistent bash "$mm" "$tmp/mm" plain -- true
one "usage: WB=... measure_modes.sh" env WB=/bin/true bash "$mm" "$tmp/mm"
one "unknown option '--bogus'" env WB=/bin/true bash "$src/examples/profile-tpch/measure.sh" "$tmp/m" --bogus
one "usage: skipped.sh" bash "$src/harness/skipped.sh"
one "no such file" bash "$src/harness/skipped.sh" "$tmp/none.txt" "$tmp/none.log"
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
    one "is not a commit of this repository" bash "$src/harness/sass_diff.sh" no-such-rev-xyz
    one "no kernels/nosuchkernel.cu in the tree" bash "$src/harness/sass_diff.sh" HEAD nosuchkernel
else
    echo "not a git checkout: sass_diff.sh's checks left out"
fi
# pair_check.sh: a record that is no results file, said before the GPU's ceiling run
echo "not hdf5" > "$tmp/text.h5"
one "not a readable HDF5 file" env WALLBENCH="$wbin" bash "$src/harness/tools/pair_check.sh" "$tmp/pc" "$tmp/text.h5"
one "not a results file (a profile?)" env WALLBENCH="$wbin" bash "$src/harness/tools/pair_check.sh" "$tmp/pc" "$src/results/h200-profile/tpch-both.h5"
# the example programs where their libraries are missing: one line, exit 77 (this machine cannot run
# them), not a Python traceback and not 1 (which tpch_like.py gives a result that differs)
cannot() { # PROGRAM ARGS...
    local out rc
    out=$(python3 "$@" 2>&1 >/dev/null); rc=$?
    if [ $rc -eq 77 ] && [ "$(grep -c . <<< "$out")" -eq 1 ] && ! grep -q Traceback <<< "$out"; then echo "ok: ${1##*/} -> 77: $out"
    else bad "$*: exit $rc (want 77), said: $(head -n 3 <<< "$out")"; fi
}
if ! python3 -c 'import cupy' 2>/dev/null; then
    for p in graph_steps range_exact repeat_small; do cannot "$src/examples/profile-graph/$p.py"; done
fi
python3 -c 'import numpy' 2>/dev/null && ! python3 -c 'import torch' 2>/dev/null &&
    cannot "$src/examples/profile-tpch/tpch_like.py" --cpu-check --rows 20000
finish

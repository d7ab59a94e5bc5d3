#!/usr/bin/env bash
# skipped.sh CTEST_OUTPUT LASTTEST_LOG - the end of `make test`: one line per skipped test with the
# reason it printed (its line that starts with SKIP, else its last line of output), the GPU tests
# (gpu_* and test_gpu_*) as one line per reason. CTest lists a skipped test's name only in its
# summary (CTEST_OUTPUT, what ctest printed) and its output only in Testing/Temporary/LastTest.log,
# where a skip reads "Test Passed.". Prints nothing when no test skipped.
set -u
[ $# -eq 2 ] || { echo "usage: skipped.sh CTEST_OUTPUT LASTTEST_LOG" >&2; exit 2; }
out=$1 log=$2
for f in "$out" "$log"; do [ -f "$f" ] || { echo "skipped.sh: $f: no such file" >&2; exit 2; }; done
mapfile -t names < <(sed -n 's/^[[:space:]]*[0-9]* - \([^ ]*\) (Skipped)$/\1/p' "$out")
[ ${#names[@]} -eq 0 ] && exit 0
reason() { # the test's SKIP line, else its last line of output, from the log's block for it
    awk -v t="$1" '$0 ~ "^[0-9]+/[0-9]+ Test: " && $3 == t { on = 1; next }
        on && /^Output:$/ { getline; out = 1; next }
        on && out && /^<end of output>$/ { exit }
        on && out { if (skip == "" && $0 ~ /^SKIP/) skip = $0; if ($0 != "") last = $0 }
        END { r = skip != "" ? skip : last; sub(/^(SKIP|[Ss]kipped):? */, "", r); print r == "" ? "no reason printed" : r }' "$log"
}
declare -A gpu=()
echo "skipped tests (${#names[@]}):"
for t in "${names[@]}"; do
    r=$(reason "$t")
    case $t in
    gpu_* | test_gpu_*) gpu[${r%% (*}]+=" $t" ;; # the reason without its advice, once for the group
    *) echo "  $t: $r" ;;
    esac
done
for r in "${!gpu[@]}"; do
    set -- ${gpu[$r]}
    [ $# -eq 1 ] && echo "  1 GPU test: $r" || echo "  $# GPU tests: $r"
done

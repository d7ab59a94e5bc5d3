# baselines.sh - sourced by next_steps.sh, check_latest.sh and keep_baseline.sh: where a GPU
# profile's quick-sweep baseline is, and which run of a results folder is the newest.
#   wb_local_baseline PROFILE   results/<profile>/local/baseline-quick.h5: this machine's own, kept
#                               by `make baseline` (git ignores results/*/local/)
#   wb_committed_baseline PROF  results/<profile>/baseline-quick.h5: committed (today only h200's)
#   wb_baseline_of PROFILE      the local one if it exists, else the committed one, else nothing
#   wb_newest_run DIR [EXCEPT]  the newest results file of DIR by name (UTC first), baselines and
#                               projections left out (and EXCEPT)
#   wb_committed FILE           true where git tracks FILE in this repository (a committed record,
#                               nobody's own run; outside a git checkout nothing is committed)
#   wb_newest_own_run DIR       wb_newest_run without the committed files: the user's newest run
#   wb_record                   the newest committed H200 record (what another GPU compares with)
# Paths are relative to the repository root (wb_root), as the Makefile runs them.
wb_root=${wb_root:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
wb_local_baseline() { echo "results/$1/local/baseline-quick.h5"; }
wb_committed_baseline() { echo "results/$1/baseline-quick.h5"; }
wb_baseline_of() {
    local f
    for f in "$(wb_local_baseline "$1")" "$(wb_committed_baseline "$1")"; do
        [ -f "$wb_root/$f" ] && { echo "$f"; return 0; }
    done
    return 1
}
wb_newest_run() {
    ls "${1%/}"/*.h5 2>/dev/null | grep -v -- '-projected-[^/]*\.h5$' | grep -v -- '/baseline[^/]*\.h5$' |
        grep -vx -- "${2:-}" | LC_ALL=C sort | tail -n 1
}
wb_committed() {
    local abs
    abs=$(cd "$(dirname "$1")" 2>/dev/null && pwd -P)/$(basename "$1") || return 1
    git -C "$wb_root" ls-files --error-unmatch -- "$abs" >/dev/null 2>&1
}
wb_newest_own_run() {
    local f
    while IFS= read -r f; do
        [ -n "$f" ] && ! wb_committed "$f" && { echo "$f"; return 0; }
    done < <(ls "${1%/}"/*.h5 2>/dev/null | grep -v -- '-projected-[^/]*\.h5$' | grep -v -- '/baseline[^/]*\.h5$' |
        LC_ALL=C sort -r)
    return 0
}
wb_record() {
    (cd "$wb_root" && ls results/h200/2*.h5 2>/dev/null | grep -v -- '-projected-[^/]*\.h5$' | LC_ALL=C sort | tail -n 1)
}

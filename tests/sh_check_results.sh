#!/usr/bin/env bash
# sh_check_results.sh WALLBENCH - the regression gate of `make test`: for each
# results/<profile>/ holding a baseline.h5, checks the newest other results
# file there (by name: run files are named <UTC time>-<git rev>.h5; projected
# files, *-projected-*.h5, are predictions and left out, and so are the
# baselines, baseline*.h5) against the baseline with results/thresholds.txt
# and --all-points: a committed run of the baseline's sweep that lacks a
# point fails. In a git checkout only committed
# (tracked) files count, so that a commit carrying a regressed run fails
# while an uncommitted scratch run does not. Exit 0 all within, 1 a
# regression or a check that could not run, 77 (skipped) when no profile
# has both a baseline and a newer file that is not a copy of it.
set -u
wb=$1
root=${WB_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
results=$root/results
thresholds=$results/thresholds.txt

# Result files of one profile folder, one a line, sorted by name.
files_of() {
    local d=$1
    if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        git -C "$root" ls-files -- "results/$(basename "$d")/*.h5" | sed "s|^|$root/|"
    else
        ls "$d"/*.h5 2>/dev/null
    fi | LC_ALL=C sort
}

checked=0
failed=0
for dir in "$results"/*/; do
    dir=${dir%/}
    [ -d "$dir" ] || continue
    profile=$(basename "$dir")
    base=$dir/baseline.h5
    if ! files_of "$dir" | grep -qx -- "$base"; then
        continue
    fi
    # A file byte-identical to the baseline is the record that became the
    # baseline: checking it compares the baseline with itself and passes
    # whatever it holds. It is named loudly; only files after it (by name,
    # i.e. measured later) can show a regression since the baseline, so
    # older files are not checked either (they predate the changes the
    # baseline took in).
    newest= copy=
    while read -r f; do
        if cmp -s -- "$f" "$base"; then
            copy=$f
            newest=
        else
            newest=$f
        fi
    done < <(files_of "$dir" | grep -vx -- "$base" | grep -v -- '-projected-[^/]*\.h5$' | grep -v -- '/baseline[^/]*\.h5$')
    if [ -n "$copy" ]; then
        echo "NOTE: $profile: $(basename "$copy") is byte-identical to baseline.h5 (it is the baseline, not a run to check against it)"
    fi
    if [ -z "$newest" ]; then
        if [ -n "$copy" ]; then
            echo "$profile: no committed results file newer than the baseline's own record, nothing to check"
        else
            echo "$profile: only the baseline, nothing to check"
        fi
        continue
    fi
    echo "$profile: $(basename "$newest") against baseline.h5"
    "$wb" check "$newest" --baseline "$base" --thresholds "$thresholds" --all-points
    rc=$?
    checked=$((checked + 1))
    if [ "$rc" -ne 0 ]; then
        echo "FAIL: $profile: wallbench check exited $rc"
        failed=$((failed + 1))
    fi
done

if [ "$checked" -eq 0 ]; then
    echo "skipped: no results/<profile>/ holds a committed baseline.h5 and a committed results file measured after it (see the lines above)"
    exit 77
fi
[ "$failed" -eq 0 ]

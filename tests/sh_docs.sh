#!/usr/bin/env bash
# sh_docs.sh WALLBENCH - the README and docs/ against the code (tests/docs_check.py):
# README length, links and anchors, named paths, the schema version and the
# subcommand list; the README's path without a GPU is run as written. Also
# checks that the checker catches what it should: a copy
# of the tree with a broken link, a wrong schema version and a missing
# subcommand row must fail with each named.
set -u
wb=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") # absolute: the README's lines run in the source folder
src=${WB_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
command -v python3 >/dev/null || { echo "skipped: python3 is not installed"; exit 77; }
check=$src/tests/docs_check.py
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/out"

python3 "$check" "$src" "$wb" || failures=$((failures + 1))

# The README's path without a GPU works as written: each `$wb ...` line of its "Without a GPU" block
# runs against the committed record (make plots is sh_plots.sh's), with the block's own variables.
block=$(sed -n '/^## Without a GPU/,/^## /p' "$src/README.md" | sed -n 's/^    //p')
vars=$(printf '%s\n' "$block" | grep '^wb=' | sed "s|^wb=[^;]*;|wb=$wb;|")
n=0
while read -r line; do
    n=$((n + 1))
    cmd=${line%%#*}
    cmd=${cmd//\/tmp\//$tmp\/out\/} # outputs into the test's folder
    if (cd "$src" && eval "$vars; $cmd") >/dev/null 2>"$tmp/err"; then
        echo "ok: README without a GPU: $cmd"
    else
        echo "FAIL: README without a GPU: '$cmd' failed: $(head -n 2 "$tmp/err")"
        failures=$((failures + 1))
    fi
done < <(printf '%s\n' "$block" | grep '^\$wb ')
[ "$n" -ge 3 ] || { echo "FAIL: the README's 'Without a GPU' block has $n wallbench lines"; failures=$((failures + 1)); }

# The checker must be able to fail: a copy of the docs with three planted faults.
mkdir -p "$tmp/harness/store" "$tmp/results"
cp -r "$src/docs" "$src/README.md" "$src/LICENSE" "$src/CITATION.cff" "$tmp/"
cp "$src/harness/store/schema.h" "$tmp/harness/store/"
cp "$src/harness/commands.h" "$tmp/harness/"
for top in harness micro kernels plots results tests examples cmake; do
    [ -e "$tmp/$top" ] || ln -s "$src/$top" "$tmp/$top"
done
sed -i 's/(docs\/gpus.md)/(docs\/no-such-page.md)/' "$tmp/README.md"
sed -i '/^| `merge` |/d' "$tmp/README.md"
sed -i 's/writes `schema_version` = [0-9]*/writes `schema_version` = 99/' "$tmp/docs/results-format.md"
out=$(python3 "$check" "$tmp" "$wb" 2>&1)
for want in "docs/no-such-page.md, which does not exist" "lacks \`merge\`" "states schema_version 99"; do
    if ! printf '%s' "$out" | grep -qF -- "$want"; then
        echo "FAIL: the planted fault '$want' was not reported; the checker said:"
        printf '%s\n' "$out" | tail -n 5
        failures=$((failures + 1))
    else
        echo "ok: planted fault reported: $want"
    fi
done
[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "sh_docs: ok"

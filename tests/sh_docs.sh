#!/usr/bin/env bash
# sh_docs.sh WALLBENCH - the README and docs/ against the code (tests/docs_check.py):
# README length, links and anchors, named paths, the schema version and the
# subcommand list; and every shell command of the README and docs/ (tests/doc_commands.py):
# run as written where it runs without a GPU (the README's path without a GPU among them),
# a GPU's marked as such, every option it names in its command's --help. Also
# checks that the checkers catch what they should: a copy of the tree with a broken
# link, a wrong schema version, a missing subcommand row, an unmarked GPU command, an
# option no command has, an unknown make variable and a command that fails must fail
# with each named.
. "$(dirname "$0")/common.sh"
wb=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") # absolute: the README's lines run in the source folder
command -v python3 >/dev/null || { echo "skipped: python3 is not installed"; exit 77; }
check=$src/tests/docs_check.py
mkdir -p "$tmp/out"

python3 "$check" "$src" "$wb" || failures=$((failures + 1))

# Every command of the pages: the README's path without a GPU and every other line that runs
# without one run as written, against the committed files (the example plugin: the build's).
plugin=${WB_BUILD_DIR:-$(dirname "$wb")}/examples/wallbench-plugin/libwallbench_hashprobe.so
python3 "$src/tests/doc_commands.py" "$src" "$wb" "$plugin" >"$tmp/commands.txt" 2>&1 || failures=$((failures + 1))
grep -v '^ok:\|^GPU\|^pattern\|^mention\|^make\|^step\|^script' "$tmp/commands.txt"
ran=$(grep -c '^ok: README.md:' "$tmp/commands.txt")
[ "$ran" -ge 4 ] || { echo "FAIL: only $ran of the README's lines ran"; failures=$((failures + 1)); }

# The checker must be able to fail: a copy of the docs with three planted faults.
mkdir -p "$tmp/harness/store" "$tmp/results"
cp -r "$src/docs" "$src/README.md" "$src/LICENSE" "$src/CITATION.cff" "$tmp/"
cp "$src/harness/store/schema.h" "$tmp/harness/store/"
cp "$src/harness/commands.h" "$tmp/harness/"
for top in harness micro kernels plots results tests examples cmake Makefile; do
    [ -e "$tmp/$top" ] || ln -s "$src/$top" "$tmp/$top"
done
sed -i 's/(docs\/gpus.md)/(docs\/no-such-page.md)/' "$tmp/README.md"
sed -i '/^| `merge` |/d' "$tmp/README.md"
sed -i 's/writes `schema_version` = [0-9]*/writes `schema_version` = 99/' "$tmp/docs/results-format.md"
cat >>"$tmp/docs/measuring.md" <<'EOF'

    wallbench run --sweep quick
    build/h200/wallbench report results/h200/no-such-file.h5
    make run GPU=h200 NOSUCHVAR=1   # (GPU)

Compare with `wallbench compare A.h5 B.h5 --no-such-flag`.
EOF
# planted OUTPUT FAULT...: each fault must be named in the checker's output
planted() {
    local out=$1 want
    shift
    for want in "$@"; do
        if ! printf '%s' "$out" | grep -qF -- "$want"; then
            echo "FAIL: the planted fault '$want' was not reported; the checker said:"
            printf '%s\n' "$out" | tail -n 5
            failures=$((failures + 1))
        else
            echo "ok: planted fault reported: $want"
        fi
    done
}
planted "$(python3 "$src/tests/doc_commands.py" "$tmp" "$wb" "$plugin" 2>&1)" \
    "'wallbench run --sweep quick' needs a GPU" "no-such-file.h5' exited 2" \
    "the Makefile has no variable NOSUCHVAR" "wallbench compare --no-such-flag: not in"
planted "$(python3 "$check" "$tmp" "$wb" 2>&1)" \
    "docs/no-such-page.md, which does not exist" "lacks \`merge\`" "states schema_version 99"
finish

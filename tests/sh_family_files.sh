#!/usr/bin/env bash
# sh_family_files.sh [WALLBENCH] - every family of micro/families.def is the
# files docs/adding-a-family.md lists, and nothing of a family lives
# elsewhere: kernels/<f>.h and kernels/<f>.cu, micro/<f>.c, and for a line
# WB_FAMILY(<f>, FIGURE) micro/<f>_figure.c and plots/fig-<f>.gp (NO_FIGURE:
# neither figure file); every micro/*_figure.c and every tests/test_<f>_*.c
# named after a family belongs to one of the list; the wallbench binary,
# when given, lists each family (`wallbench list`) and offers its figure
# (`wallbench export --help`).
. "$(dirname "$0")/common.sh"
wb=${1:-}
cd "$src" || exit 1
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
lines=$(sed -n 's/^WB_FAMILY(\([a-z0-9_]*\), *\([A-Z_]*\)).*/\1 \2/p' micro/families.def)
[ -n "$lines" ] || { echo "FAIL: no WB_FAMILY(name, FIGURE|NO_FIGURE) line in micro/families.def"; exit 1; }
families=$(printf '%s\n' "$lines" | cut -d' ' -f1)
exports=""
[ -n "$wb" ] && exports=$("$wb" export --help 2>&1)
listed=""
[ -n "$wb" ] && listed=$("$wb" list 2>&1)
while read -r f figure; do
    for file in kernels/$f.h kernels/$f.cu micro/$f.c; do [ -f "$file" ] || fail "$f: $file is missing"; done
    case $figure in
    FIGURE)
        for file in micro/${f}_figure.c plots/fig-$f.gp; do [ -f "$file" ] || fail "$f: $file is missing"; done
        grep -q "const wb_figure wb_figure_$f = {\"fig-$f\"" "micro/${f}_figure.c" 2>/dev/null ||
            fail "$f: micro/${f}_figure.c does not define wb_figure_$f named fig-$f"
        [ -z "$wb" ] || printf '%s' "$exports" | grep -qw -- "fig-$f" || fail "$f: wallbench export does not offer fig-$f"
        ;;
    NO_FIGURE) [ ! -f "micro/${f}_figure.c" ] || fail "$f: micro/${f}_figure.c exists but families.def says NO_FIGURE" ;;
    *) fail "$f: '$figure' is neither FIGURE nor NO_FIGURE" ;;
    esac
    [ -z "$wb" ] || printf '%s\n' "$listed" | grep -qw -- "$f" || fail "$f: wallbench list does not name it"
done <<<"$lines"
for file in micro/*_figure.c; do
    f=$(basename "$file" _figure.c)
    printf '%s\n' "$lines" | grep -qx "$f FIGURE" || fail "$file: no line WB_FAMILY($f, FIGURE) in micro/families.def"
done
[ $failures = 0 ] && echo "ok: $(printf '%s\n' $families | wc -l) families, each in its own files"
exit $((failures > 0))

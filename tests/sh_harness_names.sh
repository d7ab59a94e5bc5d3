#!/usr/bin/env bash
# sh_harness_names.sh [WALLBENCH] - the harness names no family: no family of
# micro/families.def and no variant of kernels/<f>.h appears as a string
# literal ("select", "gather_word") in harness/, except in the roof contract
# (harness/base/roof_contract.h), the one documented place. A family's own
# figure, facts and tests live with it in micro/ and tests/
# (docs/adding-a-family.md). Also checks that the check can fail: the
# contract itself must hold names it finds.
. "$(dirname "$0")/common.sh"
contract=harness/base/roof_contract.h
families=$(sed -n 's/^WB_FAMILY(\([a-z0-9_]*\).*/\1/p' "$src/micro/families.def")
variants=$(sed -n 's/^[[:space:]]*X(WB_[A-Z0-9_]*, *"\([a-z0-9_.]*\)".*/\1/p' "$src"/kernels/*.h)
if [ -z "$families" ] || [ "$(printf '%s\n' $variants | wc -l)" -lt 20 ]; then
    echo "FAIL: could not read the families ($(printf '%s\n' $families | wc -l)) or variants ($(printf '%s\n' $variants | wc -l))"
    exit 1
fi
pattern=$(printf '"%s"\n' $families $variants | sort -u)
cd "$src" || exit 1
files=$(find harness -name '*.[ch]' -o -name '*.cc' | LC_ALL=C sort)
hits=$(printf '%s\n' $files | grep -v -x "$contract" | xargs grep -nF -e "$(printf '%s\n' "$pattern")" /dev/null || true)
in_contract=$(grep -cF -e "$(printf '%s\n' "$pattern")" "$contract")
if [ -n "$hits" ]; then
    echo "FAIL: harness/ names a family or variant outside $contract (give the family its own file in micro/, or"
    echo "      add the name to the roof contract if the tools must read it):"
    printf '%s\n' "$hits"
    failures=1
fi
if [ "$in_contract" -lt 3 ]; then
    echo "FAIL: $contract holds $in_contract of the names (the ceiling family and its roof variants expected)"
    failures=1
fi
[ $failures = 0 ] && echo "ok: harness/ names families and variants only in $contract ($in_contract lines)"
exit $failures

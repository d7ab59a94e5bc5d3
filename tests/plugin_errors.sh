#!/usr/bin/env bash
# plugin_errors.sh WALLBENCH EXAMPLE NO_ENTRY WRONG_VERSION DUPLICATE INCOMPLETE -
# `wallbench list|run --plugin`: the example plugin loads without a GPU and
# lists its family, variants and test points; every broken plugin (a file
# that is not a library, no entry point, another interface version, a
# family named like a built-in one, a family without callbacks, the same
# plugin twice) exits 2 with its one sentence, for list and for run alike
# (run checks plugins before it looks for a GPU).
. "$(dirname "$0")/common.sh"
wb=$1 example=$2 no_entry=$3 wrong_version=$4 duplicate=$5 incomplete=$6

. "$(dirname "$0")/expect.sh"

echo "not a shared library" >"$tmp/libtext.so"
for cmd in list run; do
    out=()
    [ $cmd = run ] && out=(--out "$tmp/results")
    expect 2 "cannot load plugin $tmp/libtext.so" $cmd --plugin "$tmp/libtext.so" "${out[@]}"
    expect 2 "cannot load plugin $tmp/nosuch.so" $cmd --plugin="$tmp/nosuch.so" "${out[@]}"
    expect 2 "is not a wallbench plugin: it does not define wb_plugin_entry()" $cmd --plugin "$no_entry" "${out[@]}"
    expect 2 "was built against family interface version" \
        $cmd --plugin "$wrong_version" "${out[@]}"
    expect 2 "family 'select' collides with the built-in family of that name" $cmd --plugin "$duplicate" "${out[@]}"
    expect 2 "family 'incomplete' lacks its variant names or one of its callbacks" \
        $cmd --plugin "$incomplete" "${out[@]}"
    expect 2 "family 'hashprobe' collides with the already loaded family of that name" \
        $cmd --plugin "$example" --plugin "$example" "${out[@]}"
    expect 2 "option --plugin needs a value" $cmd --plugin
done

# The example: listed with its variants and its test sweep (16 points: 4
# sizes x 2 variants x 2 tables), selectable by --family, its point names
# those of any family.
expect 0 "hashprobe: example plugin" list --plugin "$example"
expect 0 "four probes in flight per thread" list --plugin "$example" --family hashprobe
expect 0 "points: test 16, quick 8, full 16" list --plugin="$example" --family=hashprobe
expect 0 "hashprobe/ilp4/int32/uniform/n:12345/ilp:4/block:256/occupancy_target:1/table_entries:1000/load_factor:0.488281/match_rate:0.5" \
    list --plugin "$example" --family hashprobe --sweep test --points
expect 2 "unknown family 'hashprobe'" list --family hashprobe
expect 2 "unknown variant 'ilp4'" list --plugin "$example" --family select --variant ilp4

[ $failures -eq 0 ] && echo "all plugin answers as expected" && exit 0
echo "$failures failure(s)"
exit 1

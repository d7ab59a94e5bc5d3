#!/usr/bin/env bash
# sh_messages.sh WALLBENCH - messages that say what is wrong, with the exit code of its kind (2 bad
# input, 3 no usable GPU): `profile --from-raw` on a missing folder or a file and `--ceilings-from`
# a file without a roof (/dev/null) are bad input; without a GPU, `profile` says the GPU is the
# problem (not an option to add), and `info` and `run` point at the README's record, which exists.
. "$(dirname "$0")/common.sh"
wb=$1
. "$(dirname "$0")/expect.sh"

expect 2 "--from-raw $tmp/none: No such file or directory" profile --from-raw "$tmp/none" -o "$tmp/a.h5"
touch "$tmp/file"
expect 2 "--from-raw $tmp/file: not a folder" profile --from-raw "$tmp/file" -o "$tmp/b.h5"
expect 2 "/dev/null: not an HDF5 file" profile --ceilings-from /dev/null -o "$tmp/c.h5" -- true
[ ! -e "$tmp/c.h5" ] || { echo "FAIL: --ceilings-from /dev/null wrote a file"; failures=$((failures + 1)); }

record=$(sed -n 's/^\*The record (`\([^`]*\)`.*/\1/p' "$src/README.md" | head -n 1)
if [ -z "$record" ] || [ ! -f "$src/$record" ]; then
    echo "FAIL: README's record line ('*The record (\`...\`') names no file of the tree: '$record'"
    failures=$((failures + 1))
fi
if "$wb" info --quiet >/dev/null 2>&1; then
    echo "a GPU is present: the no-GPU messages are not checked here"
else
    expect 3 "e.g. $record, the record" info
    expect 3 "e.g. $record, the record" run --family transform --sweep test --out "$tmp/run"
    out=$("$wb" profile -o "$tmp/d.h5" -- true 2>&1); rc=$?
    if [ $rc -ne 3 ] || ! printf '%s' "$out" | grep -qF "no usable GPU" || printf '%s' "$out" | grep -q -- "--ceilings-from"; then
        echo "FAIL: profile without a GPU: exit $rc (want 3), the GPU named, no --ceilings-from advised: $out"
        failures=$((failures + 1))
    else echo "ok: profile without a GPU -> 3"; fi
fi
finish

#!/usr/bin/env bash
# sh_cli.sh WALLBENCH - the command line's answers: every kind of bad input
# to `wallbench run` exits 2 with a message naming the problem, before any
# GPU is looked for (so the same answers hold with a GPU); --help and list
# exit 0; without a GPU `wallbench run` exits 3 saying so.
. "$(dirname "$0")/common.sh"
wb=$1

. "$(dirname "$0")/expect.sh"

out=$tmp/results
touch "$tmp/file"
expect 0 "usage: wallbench" --help
expect 0 "usage: wallbench run" run --help
expect 0 "usage: wallbench list" list --help
expect 0 "usage: wallbench info" info --help
expect 0 "variants:" list
expect 0 "variants:" list --family transform --sweep test --points
expect 2 "unknown command 'nosuch'" nosuch
expect 2 "unknown family 'nosuch'" run --family nosuch --out "$out"
expect 2 "valid: ceiling" run --family transform,nosuch --out "$out"
expect 2 "unknown variant 'nosuch'" run --family transform --variant nosuch --out "$out"
expect 2 "unknown GPU profile 'nosuch'" run --profile nosuch --out "$out"
expect 2 "h200" run --profile nosuch --out "$out"
expect 2 "bad --n value 'abc'" run --n abc --out "$out"
expect 2 "bad --n value '-5'" run --n 1000,-5 --out "$out"
expect 2 "bad --n value '2^99'" run --n '2^99' --out "$out"
expect 2 "unknown sweep 'huge'" run --sweep huge --out "$out"
expect 2 "$tmp/file/sub" run --out "$tmp/file/sub"
expect 2 "unknown option '--nosuch-option'" run --nosuch-option
expect 2 "option --reps needs a value" run --reps
expect 2 "bad --reps '0'" run --reps 0 --out "$out"
expect 2 "bad --seed 'x1'" run --seed x1 --out "$out"
expect 2 "--benchmark_format=xml" run --benchmark_format=xml --out "$out"
expect 2 "unknown option '--reps'" list --reps 3
expect 2 "unknown family 'nosuch'" list --family nosuch

# A profile is a row with a compute capability; which code the binary holds
# for the device is checked at run time, not against the profile.
expect 2 "GPU profile 'rubin' is a row of harness/gpus.tsv without an architecture" run --profile rubin --out "$out"
expect 2 "unknown GPU profile 'h900'" run --profile h900 --out "$out"

if "$wb" info --quiet >/dev/null 2>&1; then
    echo "a GPU is present: the no-GPU answer (exit 3) is not checked here"
else
    expect 3 "no usable GPU" run --family transform --sweep test --out "$out"
    expect 3 "no usable GPU" info
    # what is wrong, and what works instead
    expect 3 "without a GPU, wallbench list, report, roofline, compare" run --family transform --sweep test --out "$out"
    expect 3 "without a GPU, wallbench list, report, roofline, compare" info
fi

# a folder or a text file given as a results file: one sentence, what to give instead
echo "not results" > "$tmp/notes.txt"
expect 2 "is a folder, not a results file: give one of its .h5 files" report "$tmp"
expect 2 "not an HDF5 file (no HDF5 signature; a text file?): give a results file" report "$tmp/notes.txt"
expect 2 "is a folder, not a results file" compare "$tmp" "$tmp/notes.txt"

# an -o file that exists is bad input to merge as to project (2, not 1: nothing failed), said before
# any shard is read; the shards are the record's (results/h200-shards)
shards=("$(dirname "$0")"/../results/h200-shards/*.h5)
expect 2 "$tmp/notes.txt: already exists; a results file is never overwritten" merge "${shards[@]}" -o "$tmp/notes.txt"
expect 2 "$tmp/notes.txt: already exists; a results file is never overwritten" merge "$tmp/no-shard.h5" -o "$tmp/notes.txt"
expect 2 "$tmp/notes.txt: already exists; a results file is never overwritten" project "${shards[0]}" --to l4 -o "$tmp/notes.txt"
expect 0 "points of 3 shard(s) of 3" merge "${shards[@]}" -o "$tmp/merged.h5"
# project lists every point it does not project: the ones it skips, and the source's own skipped ones
quick=$(dirname "$0")/../results/h200/baseline-quick.h5
expect 0 "not ok in the source, kept as they are: 5 point(s)" project "$quick" --to l4 -o "$tmp/quick-l4.h5"

if [ "$failures" -ne 0 ]; then
    echo "$failures CLI check(s) failed"
    exit 1
fi
echo "all CLI checks passed"

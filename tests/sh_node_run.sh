#!/usr/bin/env bash
# sh_node_run.sh WALLBENCH - `make run GPUS=...` without GPUs: harness/node_run.sh
# with a fake wallbench (tests/fake_wallbench.sh) on 3 injected devices;
# all shards merged and complete; a failing device loses only its shard,
# which is named; bad GPUS and bad --shard specs are refused with exit 2.
set -u
real=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=${WB_SOURCE_DIR:?} build=${WB_BUILD_DIR:?}
export WB_REAL=$real WB_SYNTH=$build/tests/wb_synth_shard
node=$src/harness/node_run.sh fake=$src/tests/fake_wallbench.sh
tmp=$(mktemp -d /tmp/wb_node_run.XXXXXX)
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
merged_of() { ls "$1"/*-node.h5 2>/dev/null | head -n 1; }

# 1. three GPUs, all well: one merge that holds the sweep once.
WB_GPU_COUNT=3 "$node" "$fake" all "$tmp/ok" >"$tmp/ok.out" 2>&1 || fail "node run of 3 good GPUs exited $?: $(cat "$tmp/ok.out")"
shards=("$tmp"/ok/node-*/shard-*/)
[ ${#shards[@]} = 3 ] || fail "expected 3 shard folders, got ${#shards[@]}"
m=$(merged_of "$tmp/ok")
[ -n "$m" ] && "$WB_SYNTH" check "$m" >/dev/null || fail "the merge of 3 shards is not the whole sweep"

# 2. device 1 dies after its ceilings and 5 points: the others are merged, shard 2/3 is named.
WB_GPU_COUNT=3 WB_FAKE_FAIL_DEVICE=1 WB_FAKE_FAIL_KEEP=5 "$node" "$fake" 3 "$tmp/part" >"$tmp/part.out" 2>&1
rc=$?
[ $rc = 1 ] || fail "a failing GPU should exit 1, got $rc"
grep -q "GPU 1 (shard 2/3) failed with exit code 1" "$tmp/part.out" || fail "the failed GPU is not named: $(cat "$tmp/part.out")"
grep -q "cudaErrorECCUncorrectable" "$tmp/part.out" || fail "the failed GPU's log is not shown"
grep -q "shard 2/3 .* holds 5 of its" "$tmp/part.out" || fail "the merge does not say what is missing: $(cat "$tmp/part.out")"
m=$(merged_of "$tmp/part")
[ -n "$m" ] || fail "no merge after one GPU failed"
if [ -n "$m" ] && "$WB_SYNTH" check "$m" >/dev/null 2>&1; then fail "an incomplete merge passed the completeness check"; fi

# 3. device 0 dies before writing anything: shard 1/2 missing, shard 2/2 merged.
WB_GPU_COUNT=2 WB_FAKE_FAIL_DEVICE=0 "$node" "$fake" all "$tmp/lost" >"$tmp/lost.out" 2>&1
[ $? = 1 ] || fail "a GPU with no file should exit 1"
grep -q "shard 1/2 missing" "$tmp/lost.out" || fail "the lost shard is not named: $(cat "$tmp/lost.out")"
[ -n "$(merged_of "$tmp/lost")" ] || fail "the surviving shard was not merged"

# 4. bad input: one sentence, exit 2.
for g in 4 0 x; do
    WB_GPU_COUNT=3 "$node" "$fake" "$g" "$tmp/bad" >"$tmp/bad.out" 2>&1
    [ $? = 2 ] && [ "$(wc -l <"$tmp/bad.out")" = 1 ] || fail "GPUS=$g should be refused in one line, exit 2: $(cat "$tmp/bad.out")"
done
for s in 3/2 0/0 x/y 1/ 2/1; do
    "$real" run --shard "$s" --out "$tmp/never" >"$tmp/bad.out" 2>&1
    rc=$?
    [ $rc = 2 ] && [ "$(wc -l <"$tmp/bad.out")" = 1 ] && grep -q -- "--shard '$s'" "$tmp/bad.out" ||
        fail "run --shard $s: expected one sentence and exit 2, got $rc: $(cat "$tmp/bad.out")"
done
"$real" run --shard-cost x.h5 --out "$tmp/never" >"$tmp/bad.out" 2>&1
[ $? = 2 ] && grep -q "needs --shard" "$tmp/bad.out" || fail "--shard-cost without --shard: $(cat "$tmp/bad.out")"

[ $fails = 0 ] && rm -rf "$tmp"
exit $((fails > 0))

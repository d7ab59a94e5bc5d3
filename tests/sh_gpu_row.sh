#!/usr/bin/env bash
# sh_gpu_row.sh - GPU= resolution without a GPU: harness/gpu_row.sh through a fake nvidia-smi for every pair
# of tests/gpu_row_cases.tsv (the same table tests/test_gpus.c holds harness/base/gpus.c to), then
# `make build GPU=auto` with the fake on PATH and a fake cmake that records its arguments, and the bad
# inputs: a compute capability CUDA 13 cannot build, a typo in CUDA_ARCHS, an unknown GPU= name, a row without
# an architecture (rubin) - each one
# sentence, exit 2, and cmake never called (nothing written).
set -u
src=${WB_SOURCE_DIR:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }

mkdir -p "$tmp/bin"
cat > "$tmp/bin/nvidia-smi" <<'SMI'
#!/usr/bin/env bash
# answers --query-gpu=name,compute_cap --format=csv,noheader like a driver would
[ "$*" = "--query-gpu=name,compute_cap --format=csv,noheader" ] || { echo "fake nvidia-smi: unexpected '$*'" >&2; exit 9; }
printf '%s, %s\n' "$FAKE_GPU_NAME" "$FAKE_GPU_CC"
SMI
cat > "$tmp/bin/cmake" <<'CM'
#!/usr/bin/env bash
echo "$*" >> "$FAKE_CMAKE_LOG"
CM
chmod +x "$tmp/bin/nvidia-smi" "$tmp/bin/cmake"

n=0
while IFS=$'\t' read -r name cap expect; do
    case "$name" in '#'*|name|'') continue ;; esac
    out=$(PATH="$tmp/bin:$PATH" FAKE_GPU_NAME="$name" FAKE_GPU_CC="$cap" "$src/harness/gpu_row.sh" auto 2>"$tmp/err")
    rc=$?
    read -r prof archs kind build <<< "$out"
    want_kind=row; want=$expect
    case "$expect" in 'generic '*) want_kind=generic; want=${expect#generic } ;; esac
    cc=$(( ${cap%.*} * 10 + ${cap#*.} ))
    if [ $cc -lt 75 ]; then # resolved, but CUDA 13 cannot build it: the sentence instead
        [ $rc = 2 ] && grep -q "CUDA 12.x" "$tmp/err" || bad "'$name' $cap: rc $rc, $(cat "$tmp/err")"
        n=$((n + 1)); continue
    fi
    [ $rc = 0 ] && [ "$prof" = "$want" ] && [ "$kind" = "$want_kind" ] && [ "$archs" = "$cc" ] ||
        bad "'$name' $cap: got '$out' (rc $rc: $(cat "$tmp/err")), expected $expect for sm_$cc"
    if [ $want_kind = generic ] && ! grep -q "has no row" "$tmp/err"; then bad "'$name': generic profile without a note"; fi
    n=$((n + 1))
done < "$src/tests/gpu_row_cases.tsv"
echo "gpu_row.sh: $n device names checked"
[ $n -ge 20 ] || bad "only $n cases read"

# GPU= in any case names the same profile: GPU=H200 and GPU=L4 as h200 and l4.
for pair in "H200|h200" "L4|l4" "Rtx5090|rtx5090"; do
    IFS='|' read -r given prof <<< "$pair"
    out=$(PATH="$tmp/bin:$PATH" "$src/harness/gpu_row.sh" "$given" 2>"$tmp/err")
    [ $? = 0 ] && [ "${out%% *}" = "$prof" ] || bad "GPU=$given: got '$out' ($(cat "$tmp/err")), expected $prof"
done

# make build GPU=auto: configures build/<profile> for the detected architecture.
mk() { PATH="$tmp/bin:$PATH" FAKE_CMAKE_LOG="$tmp/cmake.log" make -s -C "$src" build "$@" >"$tmp/out" 2>&1; }
for pair in "NVIDIA L40S|8.9|l40s|89" "NVIDIA H800|9.0|h800|90" "NVIDIA GeForce RTX 5090|12.0|rtx5090|120"; do
    IFS='|' read -r name cap prof arch <<< "$pair"
    rm -f "$tmp/cmake.log"
    FAKE_GPU_NAME=$name FAKE_GPU_CC=$cap mk GPU=auto || bad "make build GPU=auto on '$name': $(cat "$tmp/out")"
    grep -q -- "-B build/$prof .*-DWB_PROFILE=$prof -DCMAKE_CUDA_ARCHITECTURES=$arch" "$tmp/cmake.log" 2>/dev/null ||
        [ -f "$src/build/$prof/CMakeCache.txt" ] || bad "make build GPU=auto on '$name' configured: $(cat "$tmp/cmake.log" 2>/dev/null)"
done
rm -f "$tmp/cmake.log"
FAKE_GPU_NAME="NVIDIA H200" FAKE_GPU_CC=9.0 CUDA_ARCHS="80;90;100;120" mk GPU=auto CUDA_ARCHS="80;90;100;120" ||
    bad "make build CUDA_ARCHS=80;90;100;120: $(cat "$tmp/out")"
[ -f "$src/build/h200-80_90_100_120/CMakeCache.txt" ] || grep -q -- "-B build/h200-80_90_100_120 .*-DCMAKE_CUDA_ARCHITECTURES=80;90;100;120" "$tmp/cmake.log" ||
    bad "a multi-architecture build is configured as: $(cat "$tmp/cmake.log" 2>/dev/null)"

# Bad input: exit 2, one sentence saying what to do, cmake never called.
expect_bad() { # what, sentence fragment, make arguments...
    local what=$1 frag=$2; shift 2
    rm -f "$tmp/cmake.log"
    mk "$@"; local rc=$?
    [ $rc = 2 ] || bad "$what: exit $rc, expected 2: $(cat "$tmp/out")"
    grep -q -- "$frag" "$tmp/out" || bad "$what: message lacks '$frag': $(cat "$tmp/out")"
    [ "$(grep -v '^make' "$tmp/out" | grep -c .)" = 1 ] || bad "$what: more than one line: $(cat "$tmp/out")"
    [ ! -f "$tmp/cmake.log" ] || bad "$what: cmake was called: $(cat "$tmp/cmake.log")"
}
FAKE_GPU_NAME="Tesla V100-SXM2-32GB" FAKE_GPU_CC=7.0 expect_bad "a V100 (sm_70) on CUDA 13" "CUDA 12.x" GPU=auto
FAKE_GPU_NAME="NVIDIA H200" FAKE_GPU_CC=9.0 expect_bad "GPU=v100" "CUDA 12.x" GPU=v100
expect_bad "a typo in CUDA_ARCHS" "is not an architecture" GPU=h200 CUDA_ARCHS="80;9O"
expect_bad "an architecture nvcc does not know" "not an architecture this CUDA toolkit" GPU=h200 CUDA_ARCHS="80;95"
expect_bad "an unknown GPU= name" "unknown GPU 'h900' (no row of harness/gpus.tsv)" GPU=h900
# a row without an architecture (rubin): not "unknown", but a row nothing is built for, with the rows that are
expect_bad "a row without an architecture" "GPU 'rubin' is a row of harness/gpus.tsv (for roofline --with and project --to) but has no architecture to build for" GPU=rubin
expect_bad "a row without an architecture: the buildable rows" "a row that can be built: a100 .* h200 " GPU=Rubin
exit $fail

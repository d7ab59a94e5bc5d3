#!/usr/bin/env bash
# gpu_family_recipe.sh WALLBENCH - docs/adding-a-family.md, followed to the
# letter: a scratch copy of the committed tree gets the toy family of
# tests/family_recipe/ (kernels/toy.{h,cu}, micro/toy.c, micro/toy_figure.c,
# plots/fig-toy.gp, tests/test_toy_{ref,figure}.c) and one line
# WB_FAMILY(toy, FIGURE) in micro/families.def, nothing else. It must build
# (with this build's settings), list the family, run its test sweep on the
# GPU (every variant verified), export and draw fig-toy from that run, pass
# its own tests, and keep sh_family_files and sh_harness_names green.
# A full build of the scratch tree (minutes), so opt-in: CTest skip (77)
# unless WB_SLOW_TESTS=1, and without a GPU.
#   WB_SLOW_TESTS=1 ctest -R gpu_family_recipe --output-on-failure
set -u
wb=$1
src=${WB_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
build=${WB_BUILD_DIR:?WB_BUILD_DIR: the build whose settings the scratch tree takes}
if [ "${WB_SLOW_TESTS:-0}" != 1 ]; then
    echo "SKIP: a full build of a scratch tree; set WB_SLOW_TESTS=1 to run it"
    exit 77
fi
. "$(dirname "$0")/gpu_skip.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
step() { echo "== $*"; }
die() { echo "FAIL: $*"; exit 1; }

step "the committed tree, results left out"
mkdir "$tmp/src"
git -C "$src" ls-files | grep -v '^results/' | (cd "$src" && tar -cf - -T -) | tar -xf - -C "$tmp/src" ||
    die "could not copy the tree"
step "the guide's steps: the family's files and one line in micro/families.def"
(cd "$src/tests/family_recipe" && find . -type f) | while read -r f; do cp "$src/tests/family_recipe/$f" "$tmp/src/$f"; done
echo 'WB_FAMILY(toy, FIGURE)' >>"$tmp/src/micro/families.def"

step "configure and build with this build's settings"
cache() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }
args=(-S "$tmp/src" -B "$tmp/build" -DWB_PROFILE="$(cache WB_PROFILE)"
      -DCMAKE_CUDA_ARCHITECTURES="$(cache CMAKE_CUDA_ARCHITECTURES)" -DCMAKE_BUILD_TYPE="$(cache CMAKE_BUILD_TYPE)")
gen=$(cache CMAKE_GENERATOR)
[ -n "$gen" ] && args+=(-G "$gen")
for l in C CXX CUDA; do
    launcher=$(cache CMAKE_${l}_COMPILER_LAUNCHER)
    [ -n "$launcher" ] && args+=(-DCMAKE_${l}_COMPILER_LAUNCHER="$launcher")
done
cmake "${args[@]}" >"$tmp/configure.log" 2>&1 || { tail -20 "$tmp/configure.log"; die "cmake configure"; }
cmake --build "$tmp/build" -j "$(nproc)" --target wallbench test_toy_ref test_toy_figure >"$tmp/build.log" 2>&1 ||
    { grep -E 'error|Error' "$tmp/build.log" | head -20; die "build"; }
twb=$tmp/build/wallbench

step "registered: list, export, its tests"
"$twb" list 2>&1 | grep -q '^toy:' || die "wallbench list does not name toy"
"$twb" export --help 2>&1 | grep -qw 'fig-toy' || die "wallbench export does not offer fig-toy"
for t in test_toy_ref test_toy_figure; do
    WB_SOURCE_DIR=$tmp/src "$tmp/build/tests/$t" || die "$t"
done
WB_SOURCE_DIR=$tmp/src "$src/tests/sh_family_files.sh" "$twb" || die "sh_family_files on the scratch tree"
WB_SOURCE_DIR=$tmp/src "$src/tests/sh_harness_names.sh" || die "sh_harness_names on the scratch tree"

step "run its test sweep on the GPU, export and draw its figure"
"$twb" run --family toy --sweep test --reps 3 --warmup 1 --no-counters --out "$tmp/res" || die "wallbench run --family toy"
res=$(ls "$tmp/res"/*.h5 | head -n 1)
[ -n "$res" ] || die "the run wrote no results file"
"$twb" export "$res" --fig toy --out "$tmp/fig" || die "wallbench export --fig toy"
if command -v gnuplot >/dev/null 2>&1; then
    gnuplot -e "data='$tmp/fig'; out='$tmp/fig/fig-toy'" "$tmp/src/plots/fig-toy.gp" && [ -s "$tmp/fig/fig-toy.png" ] ||
        die "plots/fig-toy.gp did not draw"
fi
echo "ok: the toy family, added by the guide's steps alone, builds, runs, exports and draws"

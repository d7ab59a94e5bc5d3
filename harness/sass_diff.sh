#!/bin/bash
# sass_diff.sh REV [NAME...] - whether a change to kernels/ changed the
# generated code: compiles every kernels/*.cu (or kernels/NAME.cu for each
# NAME given) of REV and of the working tree to sm_90 cubins
# (no GPU needed) and compares each kernel's SASS bytes (.text.<kernel>
# sections; anonymous-namespace hashes normalised). Prints one line per file
# and the kernels that differ; exit 0 when every kernel is byte-identical.
# Slow (two nvcc runs per file): for a refactoring of kernels/, not for CI.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: harness/sass_diff.sh REV [NAME...] (e.g. main ceiling expr)" >&2; exit 2; }
rev=$1
shift
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
root=$(git rev-parse --show-toplevel)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/old"
git -C "$root" rev-parse --verify --quiet "$rev^{commit}" >/dev/null || { echo "sass_diff.sh: '$rev' is not a commit of this repository" >&2; exit 2; }
git -C "$root" archive "$rev" kernels | tar -x -C "$tmp/old"
rc=0
sources=("$root"/kernels/*.cu)
[ $# -gt 0 ] && sources=("${@/#/$root/kernels/}") && sources=("${sources[@]/%/.cu}")
for src in "${sources[@]}"; do # a name that is no kernels/<name>.cu now is a typo, not "new"
  [ -f "$src" ] || { echo "sass_diff.sh: no kernels/$(basename "$src") in the tree (NAME: a kernels/*.cu without .cu, e.g. ceiling)" >&2; exit 2; }
done
for src in "${sources[@]}"; do
  k=$(basename "$src" .cu)
  [ -f "$tmp/old/kernels/$k.cu" ] || { echo "$k: new file"; continue; }
  for side in old new; do
    dir=$root; [ $side = old ] && dir=$tmp/old
    "$nvcc" -cubin -arch=sm_90 -O3 -std=c++17 --expt-relaxed-constexpr -I"$dir" -o "$tmp/$side-$k.cubin" "$dir/kernels/$k.cu"
  done
  python3 - "$tmp/old-$k.cubin" "$tmp/new-$k.cubin" "$k" <<'PY' || rc=1
import re, struct, sys
def kernels(path):
    b = open(path, 'rb').read()
    shoff, = struct.unpack_from('<Q', b, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', b, 0x3A)
    hdrs = [struct.unpack_from('<IIQQQQIIQQ', b, shoff + i * shentsize) for i in range(shnum)]
    names = hdrs[shstrndx][4]
    out = {}
    for h in hdrs:
        name = b[names + h[0]: b.index(b'\0', names + h[0])].decode()
        if name.startswith('.text.'):
            out[re.sub(r'_GLOBAL__N__[0-9a-f]+_', '_GLOBAL__N__', name[6:])] = b[h[4]: h[4] + h[5]]
    return out
a, b = kernels(sys.argv[1]), kernels(sys.argv[2])
differ = sorted(k for k in a if k in b and a[k] != b[k])
print(f"{sys.argv[3]}: {len(a)} kernels before, {len(b)} after, {len(a) - len(differ) - len(set(a) - set(b))} identical, "
      f"{len(differ)} differ, {len(set(a) - set(b))} gone, {len(set(b) - set(a))} new")
for k in differ: print(f"  {k}: {len(a[k]) // 16} -> {len(b[k]) // 16} instructions")
sys.exit(1 if differ or set(a) != set(b) else 0)
PY
done
exit $rc

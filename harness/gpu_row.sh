#!/usr/bin/env bash
# gpu_row.sh GPU - resolves make's GPU= to "<row> <archs> <kind> <build>" on stdout (a GPU row of
# harness/gpus.tsv, which the tables and `--profile` of run and list call a GPU profile; not the profiler,
# `wallbench profile`):
#   row      the row of harness/gpus.tsv (kind "row"), or for a detected GPU without a row a generic
#            row named after its model (kind "generic": "NVIDIA H800" -> h800)
#   archs    the CMake CUDA architecture list: $CUDA_ARCHS when set ("80;86;89;90;100;120", "80-virtual"),
#            else the row's compute capability
#   build    the build folder name under build/: the row, plus the list when CUDA_ARCHS is set
# GPU=auto reads the model and compute capability of GPU 0 from nvidia-smi and matches rows by whole words
# (gpus.tsv header; harness/base/gpus.c does the same, tests/gpu_row_cases.tsv holds both to it). Without a
# GPU, auto builds for the h200 profile (the suite's results of record) and says so on stderr. Bad input - an
# unknown GPU= name, a typo in CUDA_ARCHS, an architecture the CUDA toolkit cannot build - is one sentence on
# stderr and exit 2, before anything is written; so is a row without an architecture (rubin: a reference
# row for roofline --with and project --to), said to be one.
set -u
here=$(cd "$(dirname "$0")" && pwd)
table=${WB_GPUS:-$here/gpus.tsv}
want=$(printf %s "${1:-auto}" | tr "[:upper:]" "[:lower:]") # GPU=H200 is h200: profile names are lower case

rows() { grep -v '^#' "$table" | tail -n +2 | awk -F'\t' '$4 != "-"'; }
valid=$(rows | cut -f1 | tr '\n' ' ')

# match_row NAME CC: the profile whose match words name the device, or nothing.
match_row() {
    rows | awk -F'\t' -v name="$1" -v cc="$2" '
        function words(s, arr) { gsub(/[-_\/,\t]/, " ", s); return split(s, arr, " ") }
        function neutral(w) {
            w = tolower(w)
            return w ~ /^(nvidia|geforce|tesla|generation|edition|server|workstation)$/ || w ~ /^(hbm|gddr|sxm)/ ||
                   w ~ /^[0-9]+(g|gb)$/
        }
        function match_words(match_s,   d, m, used, nd, nm, i, j, found) {
            nd = words(name, d); nm = words(match_s, m)
            for (j = 1; j <= nm; j++) {
                found = 0
                for (i = 1; i <= nd && !found; i++)
                    if (!(i in used) && tolower(d[i]) == tolower(m[j])) { used[i] = 1; found = 1 }
                if (!found) return 0
            }
            for (i = 1; i <= nd; i++) if (!(i in used) && !neutral(d[i])) return 0
            return nm
        }
        $4 == cc { w = match_words($3); if (w > best) { best = w; prof = $1 } }
        END { if (best > 0) print prof }'
}

# generic_name NAME CC: "NVIDIA GeForce RTX 3090 Ti" -> rtx-3090-ti (-sm<cc> added if a row has that name).
generic_name() {
    local slug
    slug=$(echo "$1" | awk '{ gsub(/[-_\/,\t]/, " "); out = "";
        for (i = 1; i <= NF; i++) { w = tolower($i); if (w ~ /^(nvidia|geforce|tesla)$/) continue;
            gsub(/[^a-z0-9.]/, "", w); out = out (out == "" ? "" : "-") w }
        print substr(out == "" ? "gpu" : out, 1, 40) }')
    if grep -v '^#' "$table" | cut -f1 | grep -qx -- "$slug"; then slug="$slug-sm$2"; fi
    echo "$slug"
}

kind=row
note=""
if [ "$want" = auto ]; then
    line=""
    if command -v nvidia-smi >/dev/null 2>&1; then
        line=$(nvidia-smi --query-gpu=name,compute_cap --format=csv,noheader 2>/dev/null | head -n 1)
    fi
    name=$(echo "${line%,*}" | sed 's/^ *//; s/ *$//')
    cap=$(echo "${line##*,}" | tr -d ' ')
    if [ -z "$line" ] || [ -z "$name" ]; then
        echo "gpu_row: no GPU detected; building for the h200 profile (sm_90). Set GPU=<name> to choose: $valid" >&2
        want=h200
    elif ! [[ "$cap" =~ ^[0-9]+\.[0-9]$ ]]; then
        echo "gpu_row: nvidia-smi gave no compute capability for '$name' ('$line'): a driver older than 510? Set GPU=<name>: $valid" >&2
        exit 2
    else
        cc=$(( ${cap%.*} * 10 + ${cap#*.} ))
        want=$(match_row "$name" "$cc")
        if [ -z "$want" ]; then
            want=$(generic_name "$name" "$cc")
            kind=generic
            note="gpu_row: '$name' (sm_$cc) has no row in harness/gpus.tsv: generic profile $want (measured roofline; L4 and GH200 references)"
        fi
    fi
fi
if [ "$kind" = row ]; then
    arch=$(rows | awk -F'\t' -v p="$want" '$1 == p { print $4; exit }')
    if [ -z "$arch" ] && grep -v '^#' "$table" | tail -n +2 | cut -f1 | grep -qxF -- "$want"; then
        # a reference row (rubin): roofline --with and project --to take it, but nothing is built for it
        echo "gpu_row: GPU '$want' is a row of harness/gpus.tsv (for roofline --with and project --to) but has no architecture to build for (arch '-'): give GPU=auto or a row that can be built: $valid" >&2
        exit 2
    elif [ -z "$arch" ]; then
        echo "gpu_row: unknown GPU '$want' (no row of harness/gpus.tsv): give GPU=auto or one of: $valid" >&2
        exit 2
    fi
else
    arch=$cc
fi

archs=$arch
build=$want
if [ -n "${CUDA_ARCHS:-}" ]; then
    archs=$(echo "$CUDA_ARCHS" | tr ',' ';' | tr -d ' ')
    build="$want-$(echo "$archs" | tr ';' '_')"
fi

# Every entry must be one the toolkit builds (nvcc --list-gpu-arch).
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
known=$("$nvcc" --list-gpu-arch 2>/dev/null | tr '\n' ' ')
IFS=';' read -ra items <<< "$archs"
[ ${#items[@]} -gt 0 ] || { echo "gpu_row: CUDA_ARCHS is empty: give compute capabilities x 10, e.g. CUDA_ARCHS=\"80;90\"" >&2; exit 2; }
for a in "${items[@]}"; do
    [ "$a" = native ] && continue
    if ! [[ "$a" =~ ^([0-9]+)[af]?(-real|-virtual)?$ ]]; then
        echo "gpu_row: '$a' in CUDA_ARCHS=\"$archs\" is not an architecture: write compute capabilities x 10 separated by ';', each optionally -real (SASS only) or -virtual (PTX only), e.g. CUDA_ARCHS=\"80;86;89;90;100;120\"" >&2
        exit 2
    fi
    n=${BASH_REMATCH[1]}
    if [ -n "$known" ] && ! [[ " $known " == *" compute_$n "* ]]; then
        if [ "$n" -lt 75 ]; then
            echo "gpu_row: sm_$n (Volta and older) is not built by this CUDA toolkit (CUDA 13 builds sm_75 and newer): build on a CUDA 12.x toolkit, the last that builds sm_50 to sm_72" >&2
        else
            echo "gpu_row: sm_$n is not an architecture this CUDA toolkit ($nvcc) builds: it builds$(echo " $known" | sed 's/ compute_/ /g')" >&2
        fi
        exit 2
    fi
done
[ -z "$note" ] || echo "$note" >&2
echo "$want $archs $kind $build"

#!/usr/bin/env bash
# profile.sh GPU - resolves a GPU= profile name ("auto" detects the GPU) to
# "<profile> <sm_arch>" on stdout, from harness/gpus.tsv. Exit 2 with the list
# of valid names for an unknown name. Without a GPU, auto falls back to h200
# (the machine the suite's results of record come from) and says so on stderr.
set -u
here=$(cd "$(dirname "$0")" && pwd)
table="$here/gpus.tsv"
want=${1:-auto}

rows() { grep -v '^#' "$table" | tail -n +2 | awk -F'\t' '$4 != "-"'; }
valid=$(rows | cut -f1 | tr '\n' ' ')

if [ "$want" = auto ]; then
    name=""
    if command -v nvidia-smi >/dev/null 2>&1; then
        name=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
    fi
    if [ -z "$name" ]; then
        echo "profile: no GPU detected; building for the h200 profile (sm_90). Set GPU=<name> to choose: $valid" >&2
        want=h200
    else
        want=$(rows | while IFS=$'\t' read -r prof _ match _; do
            case "$name" in *"$match"*) echo "$prof"; break ;; esac
        done)
        if [ -z "$want" ]; then
            echo "profile: GPU '$name' matches no profile in $table; valid names: $valid" >&2
            exit 2
        fi
    fi
fi
line=$(rows | awk -F'\t' -v p="$want" '$1 == p { print $1, $4; exit }')
if [ -z "$line" ]; then
    echo "profile: unknown GPU profile '$want'; valid names: auto $valid" >&2
    exit 2
fi
echo "$line"

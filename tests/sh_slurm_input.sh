#!/usr/bin/env bash
# sh_slurm_input.sh - harness/slurm/submit.sh's bad input, with a stand-in sbatch that records its
# calls (no Slurm needed): a fleet one of whose models has no binary, an option without its value,
# nodes without G, each exit 2 with one sentence, before any sbatch call and without a results
# folder; the usage is the header's comment lines only.
. "$(dirname "$0")/common.sh"
submit=$src/harness/slurm/submit.sh
mkdir -p "$tmp/bin" "$tmp/good"
printf '#!/bin/sh\necho "$@" >> %s/calls\necho 1\n' "$tmp" > "$tmp/bin/sbatch"
chmod +x "$tmp/bin/sbatch"
printf '#!/bin/sh\nexit 0\n' > "$tmp/good/wallbench" && chmod +x "$tmp/good/wallbench"
# refused: exit 2, one line naming the problem, no sbatch call, no folder
refused() { # TEXT ARGS...
    local text=$1 out rc
    shift
    rm -f "$tmp/calls"
    out=$(PATH=$tmp/bin:$PATH "$submit" "$1" "$2" --out "$tmp/res" "${@:3}" 2>&1); rc=$?
    if [ $rc -ne 2 ] || ! grep -qF -- "$text" <<< "$out" || [ -e "$tmp/calls" ] || [ -e "$tmp/res" ]; then
        bad "submit.sh $*: exit $rc (want 2), sbatch called: $([ -e "$tmp/calls" ] && echo yes || echo no), folder: $([ -e "$tmp/res" ] && echo yes || echo no), said: $out"
    else
        echo "ok: submit.sh $* -> 2: $(head -n 1 <<< "$out")"
    fi
    rm -rf "$tmp/res"
}
# a fleet whose second model has no binary: refused before the first model's job is queued
mkdir -p "$tmp/repo" && cp -r "$src/harness" "$tmp/repo/" && mkdir -p "$tmp/repo/build/h200" && cp "$tmp/good/wallbench" "$tmp/repo/build/h200/"
submit=$tmp/repo/harness/slurm/submit.sh
refused "build/nosuchgpu/wallbench is missing" fleet h200,nosuchgpu
refused "option --gres needs a value" gpus 2 --bin "$tmp/good/wallbench" --gres
refused "option --sbatch-for h200 needs the sbatch options" fleet h200 --bin "$tmp/good/wallbench" --sbatch-for h200
refused "give the GPUs per node after the node count" nodes 2 --bin "$tmp/good/wallbench"
refused "expected a number of tasks" gpus x --bin "$tmp/good/wallbench"
# the usage: the header's comment lines, none of the script's code
usage=$("$submit" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "submit.sh gpus  N" <<< "$usage" && ! grep -q "set -u\|here=" <<< "$usage" || bad "usage (exit $rc): $usage"
finish

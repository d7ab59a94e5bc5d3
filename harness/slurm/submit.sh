#!/usr/bin/env bash
# submit.sh - wallbench on a Slurm cluster: a job array (one task per GPU,
# per node, or per GPU model) and a job that runs after it (afterok): the
# merge of the shards, or the fleet's compare matrix. See the README,
# "Many GPUs: a node, a Slurm cluster".
#
#   submit.sh gpus  N  [options] [-- run options]   N tasks of one GPU each, shard I/N
#   submit.sh nodes N G [options] [-- run options]  N nodes of G GPUs, shards of N*G
#   submit.sh fleet PROFILE[,PROFILE...] [options] [-- run options]
#                                                   the whole sweep once per GPU model
# options:
#   --out DIR        shared folder for the results (default results/slurm-<UTC time>)
#   --bin PATH       the wallbench to run (default build/<profile>/wallbench;
#                    fleet: build/<PROFILE>/wallbench for each model)
#   --profile NAME   the GPU model of gpus/nodes (default h200)
#   --gres SPEC      GPUs per task as Slurm's --gres (default gpu:1, nodes: gpu:G;
#                    none: no --gres, for a cluster without GPU GRES)
#   --sbatch ARGS    more sbatch options for every job (partition, account, time)
#   --sbatch-for PROFILE ARGS   fleet: sbatch options of that model's job only, the
#                    ones that put it on that model's nodes (--partition, --constraint)
# Prints the job ids; exit 2 on bad input or where there is no Slurm: every check comes before the
# first sbatch, so that bad input never leaves a job queued (nor a results folder made).
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
say() { echo "submit.sh: $*" >&2; }
usage() { sed -n '2,/^set -u/p' "$0" | grep '^#' | sed 's/^# \{0,1\}//' >&2; exit 2; }
# an option's value: refused when absent, or another option where the value is a path or a name
# (--sbatch's and --sbatch-for's values are sbatch options themselves)
value() {
    [ $# -ge 2 ] && [ -n "$2" ] || { say "option $1 needs a value"; exit 2; }
    case "$1" in --sbatch | --sbatch-for) ;; *) [ "${2#--}" = "$2" ] || { say "option $1 needs a value"; exit 2; } ;; esac
}

[ $# -ge 2 ] || usage
mode=$1 tasks=$2 gpn=1
shift 2
case "$mode" in
gpus) ;;
nodes)
    gpn=${1:-}
    case "$gpn" in ''|-*) say "nodes $tasks: give the GPUs per node after the node count (nodes N G)"; exit 2 ;; esac
    shift ;;
fleet) ;;
*) say "unknown mode '$mode': expected gpus, nodes or fleet"; exit 2 ;;
esac
out="" bin="" profile=h200 gres=default extra="" args=()
declare -A extra_for=()
while [ $# -gt 0 ]; do
    case "$1" in
    --out) value "$@"; out=$2; shift ;;
    --bin) value "$@"; bin=$2; shift ;;
    --profile) value "$@"; profile=$2; shift ;;
    --gres) value "$@"; gres=$2; shift ;;
    --sbatch) value "$@"; extra=$2; shift ;;
    --sbatch-for)
        value "$@"
        [ $# -ge 3 ] && [ -n "$3" ] || { say "option --sbatch-for $2 needs the sbatch options of that model"; exit 2; }
        extra_for[$2]=$3; shift 2 ;;
    --) shift; args=("$@"); break ;;
    *) say "unknown option '$1'"; exit 2 ;;
    esac
    shift
done
if ! command -v sbatch >/dev/null 2>&1; then
    say "no Slurm here: sbatch is not on PATH (run this on a login node of the cluster; one node: make run GPUS=all)"
    exit 2
fi
count_ok() { case "$1" in ''|*[!0-9]*|0) return 1 ;; esac; }
if [ "$mode" != fleet ]; then
    count_ok "$tasks" || { say "$mode $tasks: expected a number of tasks >= 1"; exit 2; }
    count_ok "$gpn" || { say "nodes $tasks $gpn: expected GPUs per node >= 1"; exit 2; }
    b=${bin:-$repo/build/$profile/wallbench}
    [ -x "$b" ] || { say "$b is missing: build it first with make build GPU=$profile (or give --bin)"; exit 2; }
else # every model's binary, before any job is queued
    IFS=, read -r -a profiles <<<"$tasks"
    [ ${#profiles[@]} -gt 0 ] || { say "fleet: give the GPU models, e.g. fleet h200,l4"; exit 2; }
    for p in "${profiles[@]}"; do
        b=${bin:-$repo/build/$p/wallbench}
        [ -x "$b" ] || { say "$b is missing: build it first with make build GPU=$p (or give --bin)"; exit 2; }
    done
fi
out=${out:-$repo/results/slurm-$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$out" || { say "cannot create $out"; exit 2; }
out=$(cd "$out" && pwd)
# shellcheck disable=SC2206
sb=(sbatch --parsable --chdir="$out" $extra)
gres_opt() { # default per mode, none, or as given
    case "$gres" in none) ;; default) echo "--gres=gpu:$1" ;; *) echo "--gres=$gres" ;; esac
}
# Each job reads its settings from a file in the results folder (sbatch's
# --export cannot carry run options with commas, like --family a,b).
job_env() { # FILE NAME=VALUE ...: writes FILE, prints the --export option
    local f=$1
    shift
    {
        for kv in "WB_OUT=$out" "$@"; do printf 'export %q\n' "$kv"; done
        printf 'WB_ARGS=('
        [ ${#args[@]} -gt 0 ] && printf '%q ' "${args[@]}"
        printf ')\n'
    } >"$f" || { say "cannot write $f"; exit 2; }
    echo "--export=ALL,WB_ENV=$f"
}

if [ "$mode" = fleet ]; then
    ids=()
    for p in "${profiles[@]}"; do
        b=${bin:-$repo/build/$p/wallbench}
        # shellcheck disable=SC2086,SC2046 # gres_opt and the options split into words on purpose
        id=$("${sb[@]}" --job-name="wallbench-$p" --output="$out/%x-%j.out" $(gres_opt 1) ${extra_for[$p]:-} \
            "$(job_env "$out/job-$p.env" WB_MODE=whole WB_BIN="$b" WB_TASKS=1 WB_PROFILE="$p")" "$here/task.sbatch") ||
            { say "sbatch refused the $p job"; exit 2; }
        ids+=("$id")
        say "profile $p: job $id"
    done
    dep=$(IFS=:; echo "${ids[*]}")
    b=${bin:-$repo/build/${profiles[0]}/wallbench}
    after=$("${sb[@]}" --dependency="afterok:$dep" --kill-on-invalid-dep=yes --output="$out/%x-%j.out" \
        "$(job_env "$out/job-after.env" WB_MODE=whole WB_BIN="$b")" "$here/after.sbatch") || { say "sbatch refused the compare job"; exit 2; }
    say "compare job $after (afterok:$dep) -> $out/fleet.txt"
    echo "${ids[*]} $after"
    exit 0
fi

b=${bin:-$repo/build/$profile/wallbench}
# shellcheck disable=SC2046 # gres_opt prints nothing or one word
if [ "$mode" = gpus ]; then
    job=$("${sb[@]}" --array="0-$((tasks - 1))" --output="$out/%x-%A_%a.out" $(gres_opt 1) \
        "$(job_env "$out/job-array.env" WB_MODE=gpu WB_BIN="$b" WB_TASKS="$tasks")" "$here/task.sbatch")
else
    job=$("${sb[@]}" --array="0-$((tasks - 1))" --nodes=1 --exclusive --output="$out/%x-%A_%a.out" $(gres_opt "$gpn") \
        "$(job_env "$out/job-array.env" WB_MODE=node WB_BIN="$b" WB_TASKS="$tasks" WB_GPUS_PER_NODE="$gpn" \
            WB_NODE_RUN="$repo/harness/node_run.sh")" "$here/task.sbatch")
fi
[ -n "$job" ] || { say "sbatch refused the array"; exit 2; }
after=$("${sb[@]}" --dependency="afterok:$job" --kill-on-invalid-dep=yes --output="$out/%x-%j.out" \
    "$(job_env "$out/job-after.env" WB_MODE="$([ "$mode" = gpus ] && echo gpu || echo node)" WB_BIN="$b")" "$here/after.sbatch") ||
    { say "sbatch refused the merge job"; exit 2; }
say "array job $job ($tasks tasks), merge job $after (afterok) -> $out/merged.h5"
echo "$job $after"

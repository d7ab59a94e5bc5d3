#!/usr/bin/env bash
# sh_slurm.sh WALLBENCH - harness/slurm/ on a one-node Slurm cluster that
# this test starts on loopback (127.0.0.1) from Debian's packages: munged,
# slurmctld and slurmd as daemons of this test (no systemd), every file
# under a temporary folder, stopped and removed at the end, each wait
# bounded. The GPU step is tests/fake_wallbench.sh (synthetic shards through
# the real sweep and assignment); the merge is the real `wallbench merge`.
# Checks: the per-GPU array and its afterok merge hold the sweep once; the
# per-node array (node_run.sh, 2 GPUs a node) too; a failed task drops the
# merge job and a merge by hand names the lost shard; a fleet of three GPU
# models ends in the compare matrix; no sbatch: one sentence, exit 2. Skips (77) with the reason where Slurm is missing and
# cannot be installed (harness/deps.sh slurm: root and apt).
set -u
real=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=${WB_SOURCE_DIR:?} build=${WB_BUILD_DIR:?}
export PATH=$PATH:/usr/sbin
export WB_REAL=$real WB_SYNTH=$build/tests/wb_synth_shard
fake=$src/tests/fake_wallbench.sh submit=$src/harness/slurm/submit.sh
t0=$(date +%s)
if ! "$src/harness/deps.sh" slurm; then
    echo "SKIP: Slurm (slurmctld, slurmd, munge, sbatch) is not installed and could not be installed here (needs root and apt; see above)"
    exit 77
fi
t_install=$(($(date +%s) - t0))

tmp=$(mktemp -d /tmp/wb_slurm.XXXXXX)
chmod 700 "$tmp"
host=$(hostname -s)
export SLURM_CONF=$tmp/slurm.conf
stop() {
    timeout 10 scontrol shutdown >/dev/null 2>&1
    for f in slurmd slurmctld munged; do
        [ -f "$tmp/$f.pid" ] && kill "$(cat "$tmp/$f.pid")" 2>/dev/null
    done
    sleep 1
    for f in slurmd slurmctld munged; do
        [ -f "$tmp/$f.pid" ] && kill -9 "$(cat "$tmp/$f.pid")" 2>/dev/null
    done
    if [ "${fails:-1}" = 0 ]; then rm -rf "$tmp"; else echo "kept $tmp for inspection" >&2; fi
}
trap stop EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
# Ports from the process id, so that two runs of this test on one machine
# do not meet.
port=$((20000 + ($$ % 20000) * 2))

head -c 1024 /dev/urandom >"$tmp/munge.key" && chmod 400 "$tmp/munge.key"
mkdir -p "$tmp/state" "$tmp/spool"
timeout 10 munged --force --key-file="$tmp/munge.key" --socket="$tmp/munge.sock" --pid-file="$tmp/munged.pid" \
    --log-file="$tmp/munged.log" --seed-file="$tmp/munged.seed" ||
    { echo "SKIP: munged did not start: $(tail -n 2 "$tmp/munged.log" 2>/dev/null)"; fails=0; exit 77; }
cat >"$SLURM_CONF" <<CONF
ClusterName=wbtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge.sock
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
# The dependent job starts at the next scheduling pass: run one each second.
SchedulerType=sched/builtin
SchedulerParameters=sched_interval=1
MessageTimeout=5
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=wbtest Nodes=$host Default=YES MaxTime=10 State=UP
CONF
timeout 20 slurmctld -i && timeout 20 slurmd ||
    { echo "SKIP: the Slurm daemons did not start: $(tail -n 3 "$tmp"/slurm*.log 2>/dev/null)"; fails=0; exit 77; }
for ((i = 0; i < 60; i++)); do
    state=$(timeout 5 sinfo -h -n "$host" -o %T 2>/dev/null)
    [ "$state" = idle ] && break
    sleep 0.5
done
[ "$state" = idle ] || { fail "the node is '$state', not idle, after 30 s: $(tail -n 5 "$tmp/slurmctld.log")"; exit 1; }
t_up=$(($(date +%s) - t0))

# Waits (at most $2 s) until none of the jobs $1 (comma list) is queued.
wait_jobs() {
    for ((i = 0; i < $2 * 2; i++)); do
        [ -z "$(timeout 5 squeue -h -j "$1" -o %i 2>/dev/null)" ] && return 0
        sleep 0.5
    done
    fail "jobs $1 still queued after $2 s: $(squeue -j "$1" 2>&1)"
    return 1
}

# 1. one task per GPU, 3 tasks, then the afterok merge.
ids=$("$submit" gpus 3 --out "$tmp/gpus" --bin "$fake" --gres none 2>"$tmp/submit.err") ||
    fail "submit gpus: $(cat "$tmp/submit.err")"
wait_jobs "${ids// /,}" 60
[ "$(ls "$tmp"/gpus/wallbench-*_*.out 2>/dev/null | wc -l)" = 3 ] || fail "expected 3 task outputs in $tmp/gpus"
"$WB_SYNTH" check "$tmp/gpus/merged.h5" >/dev/null || fail "the per-GPU merge is not the whole sweep: $(cat "$tmp"/gpus/*.out)"

# 2. one task per node of 2 GPUs (node_run.sh), 2 tasks: shards 1..4 of 4.
ids=$(WB_GPU_COUNT=2 "$submit" nodes 2 2 --out "$tmp/nodes" --bin "$fake" --gres none 2>"$tmp/submit.err") ||
    fail "submit nodes: $(cat "$tmp/submit.err")"
wait_jobs "${ids// /,}" 60
"$WB_SYNTH" check "$tmp/nodes/merged.h5" >/dev/null || fail "the per-node merge is not the whole sweep: $(cat "$tmp"/nodes/*.out)"
[ "$(find "$tmp/nodes" -path '*/shard-*/*.h5' | wc -l)" = 4 ] || fail "expected 4 shard files from 2 nodes of 2 GPUs"

# 3. GPU 1 of each node fails: the merge job is dropped (afterok), the
# shards that came back stay, and a merge by hand names what is missing.
ids=$(WB_GPU_COUNT=2 WB_FAKE_FAIL_DEVICE=1 "$submit" nodes 2 2 --out "$tmp/failed" --bin "$fake" --gres none 2>"$tmp/submit.err") ||
    fail "submit nodes with a failing GPU: $(cat "$tmp/submit.err")"
wait_jobs "${ids// /,}" 60
[ ! -f "$tmp/failed/merged.h5" ] || fail "the afterok merge ran although tasks failed"
WB_ENV=$tmp/failed/job-after.env bash "$src/harness/slurm/after.sbatch" >"$tmp/hand.out" 2>&1
[ $? = 1 ] && grep -q "shard 2/4 missing" "$tmp/hand.out" && grep -q "shard 4/4 missing" "$tmp/hand.out" ||
    fail "the merge by hand does not name the lost shards: $(cat "$tmp/hand.out")"

# 4. a fleet: the whole sweep once per GPU model, then the compare matrix.
ids=$("$submit" fleet h200,h100,l4 --out "$tmp/fleet" --bin "$fake" --gres none \
    --sbatch-for l4 "--job-name=wallbench-l4-node" 2>"$tmp/submit.err") || fail "submit fleet: $(cat "$tmp/submit.err")"
wait_jobs "${ids// /,}" 60
grep -q "fleet of 3 files" "$tmp/fleet/fleet.txt" && grep -q "select: speedup of column over row" "$tmp/fleet/fleet.txt" &&
    grep -q "3: L4" "$tmp/fleet/fleet.txt" || fail "no fleet matrix: $(cat "$tmp"/fleet/*.out "$tmp/fleet/fleet.txt" 2>&1 | head -20)"
ls "$tmp"/fleet/wallbench-l4-node-*.out >/dev/null 2>&1 || fail "--sbatch-for did not reach the l4 job"

# 5. no Slurm: one sentence, exit 2.
mkdir -p "$tmp/nobin" && for c in bash dirname; do ln -s "$(command -v $c)" "$tmp/nobin/$c"; done
PATH=$tmp/nobin "$submit" gpus 2 --bin "$fake" >"$tmp/noslurm.out" 2>&1
[ $? = 2 ] && grep -q "no Slurm here" "$tmp/noslurm.out" || fail "submit without sbatch: $(cat "$tmp/noslurm.out")"

echo "slurm test: install/check ${t_install} s, cluster up at ${t_up} s, all done at $(($(date +%s) - t0)) s"
exit $((fails > 0))

#!/usr/bin/env bash
# sh_profile_cli.sh WALLBENCH - `wallbench profile` without a GPU: every kind of
# bad input exits 2 (a command not found 127) with one sentence, before any GPU
# work (a --keep-raw folder an earlier run filled among it; a --from-raw folder
# with a malformed file); without a GPU, exit 3 before the program runs; a run
# inside another CUDA profiler is refused; and --from-raw turns the raw pass
# files of a run (written here as the injection library writes them: two
# processes, a kernel launched twice, an NVTX range, a graph launch) into a
# profile file that report, roofline, export and project read.
. "$(dirname "$0")/common.sh"
wb=$1

. "$(dirname "$0")/expect.sh"

touch "$tmp/exists.h5"
expect 0 "usage: wallbench profile" profile --help
expect 0 "exit codes:" profile --help
expect 2 "no program given" profile
expect 2 "put the program after --" profile ls
expect 2 "unknown option --nosuch" profile --nosuch 1 -- ls
expect 2 "--cache-control some: all or none" profile --cache-control some -- ls
expect 2 "--pass x: both, timing or counters" profile --pass x -- ls
expect 2 "unknown counter set 'most'" profile --counters most -- ls
expect 2 "--ranges launch: kernel, nvtx or every:N" profile --ranges launch -- ls
expect 2 "--ranges every:0: kernel, nvtx or every:N" profile --ranges every:0 -- ls
expect 2 "needs --counters core" profile --ranges nvtx --counters all -- ls
expect 2 "--sample samples during the timing pass" profile --sample --pass counters -- ls
expect 2 "--sample-interval 5: 10 to 100000" profile --sample-interval 5 -- ls
expect 0 "--sample " profile --help
expect 0 "--counters core|roofline|all" profile --help
expect 0 "--ranges kernel|nvtx|every:N" profile --help
expect 2 "--launch-count -3: not a count" profile --launch-count -3 -- ls
expect 2 "-c 99999999999999999999: not a count" profile -c 99999999999999999999 -- ls
expect 2 "not a regular expression" profile --kernel-name 'regex:([' -- ls
expect 2 "--ceilings-from and --no-ceilings" profile --no-ceilings --ceilings-from x.h5 -- ls
expect 2 "exists" profile -o "$tmp/exists.h5" -- ls
expect 127 "nosuchcommand: command not found" profile -- nosuchcommand --flag
expect 2 "--from-raw runs nothing" profile --from-raw "$tmp" -- ls
expect 2 "--batch 3: 4 to 4096" profile --batch 3 -- ls
mkdir -p "$tmp/used" && touch "$tmp/used/timing.1.tsv"
expect 2 "the folder is not empty" profile --keep-raw "$tmp/used" -- ls
expect 2 "exists and is not a folder" profile --keep-raw "$tmp/exists.h5" --no-ceilings -- ls
if "$wb" info --quiet >/dev/null 2>&1; then
    echo "a GPU is present: profile's no-GPU answer (exit 3) is not checked here"
else # said before the program runs, also where no ceiling run would have found it
    expect 3 "no usable GPU" profile --no-ceilings -o "$tmp/nogpu.h5" -- ls
fi
out=$(CUDA_INJECTION64_PATH=/opt/ncu/inject.so "$wb" profile -- ls 2>&1); rc=$?
if [ $rc -ne 2 ] || ! printf '%s' "$out" | grep -q "already runs under a CUDA profiler"; then
    echo "FAIL: profile under another profiler: exit $rc: $out"; failures=$((failures + 1))
else echo "ok: profile under another profiler -> 2"; fi
expect 2 "no raw pass file" profile --from-raw "$tmp" -o "$tmp/none.h5"

# Raw files of a two-process run: pid 10 launched A twice and B inside NVTX "Q1/scan", then a
# graph; pid 11 (a child) launched C. The counter pass counted every launch but the graph.
raw=$tmp/raw
mkdir -p "$raw"
A=_ZN3cub18DeviceReduceKernelIiEEvPi B=_Z6filterPKiPii C=_Z5scalePfi
{
  printf '# wallbench-raw 1 pass=timing pid=10 ppid=1\n'
  printf 'L\t0\t1\t0\t0\t100\t1\t1\t256\t1\t1\t0\tQ1/scan\t%s\n' "$A"
  printf 'L\t1\t2\t0\t0\t50\t1\t1\t128\t1\t1\t0\tQ1/scan\t%s\n' "$B"
  printf 'L\t2\t3\t0\t0\t100\t1\t1\t256\t1\t1\t0\tQ1\t%s\n' "$A"
  printf 'L\t3\t4\t3\t0\t0\t0\t0\t0\t0\t0\t0\t\t\n'
  printf 'K\t1\t1000\t3000\t0\t7\t32\t0\t0\t100\t1\t1\t256\t1\t1\t0\t%s\n' "$A"
  printf 'K\t2\t4000\t5000\t0\t7\t24\t512\t0\t50\t1\t1\t128\t1\t1\t0\t%s\n' "$B"
  printf 'K\t3\t6000\t8000\t0\t7\t32\t0\t0\t100\t1\t1\t256\t1\t1\t0\t%s\n' "$A"
  printf 'K\t4\t9000\t9500\t0\t7\t16\t0\t0\t8\t1\t1\t64\t1\t1\t5\t%s\n' "$C"
  printf '# end\n'
} > "$raw/timing.10.tsv"
{
  printf '# wallbench-raw 1 pass=counters pid=20 ppid=1\n'
  printf '# metrics\tinst\tdram_sectors_read\tdram_sectors_write\tkernel_time_ms\n# passes 6\tbatch 256\tcache all\n'
  printf 'L\t0\t1\t0\t1\t100\t1\t1\t256\t1\t1\t0\tQ1/scan\t%s\n' "$A"
  printf 'L\t1\t2\t0\t1\t50\t1\t1\t128\t1\t1\t0\tQ1/scan\t%s\n' "$B"
  printf 'L\t2\t3\t0\t1\t100\t1\t1\t256\t1\t1\t0\tQ1\t%s\n' "$A"
  printf 'L\t3\t4\t3\t0\t0\t0\t0\t0\t0\t0\t0\t\t\n'
  printf 'N\t3\tgraph launch: its kernel nodes run uncounted\n'
  printf 'C\t0\t800000\t100000\t0\t2100000\nC\t1\t4000\t1000\t1000\t1100000\nC\t2\t800000\t100000\t0\t2100000\n'
  printf '# cost\tcounted 3\tlaunch_s 0.300\tbatch_s 0.050\tflush_s 0.001\n# end\n'
} > "$raw/counters.20.tsv"
{
  printf '# wallbench-raw 1 pass=timing pid=12 ppid=10\n'
  printf 'L\t0\t1\t0\t0\t8\t1\t1\t64\t1\t1\t0\t\t%s\n' "$C"
  printf 'K\t1\t20000\t20400\t0\t9\t16\t0\t0\t8\t1\t1\t64\t1\t1\t0\t%s\n# end\n' "$C"
} > "$raw/timing.12.tsv"
{
  printf '# wallbench-raw 1 pass=counters pid=22 ppid=20\n# metrics\tinst\tdram_sectors_read\tdram_sectors_write\tkernel_time_ms\n'
  printf 'L\t0\t1\t0\t1\t8\t1\t1\t64\t1\t1\t0\t\t%s\nC\t0\t640\t0\t0\t500000\n# end\n' "$C"
} > "$raw/counters.22.tsv"
# The roof from a committed record, as --ceilings-from takes it from any results file.
record=$(ls "${WB_SOURCE_DIR:-$(dirname "$0")/..}"/results/h200/2*.h5 | grep -v projected | head -n 1)
"$wb" info --quiet >/dev/null 2>&1 ||
    expect 3 "no usable GPU" profile --ceilings-from "$record" -o "$tmp/nogpu.h5" -- ls
expect 0 "wrote $tmp/p.h5" profile --from-raw "$raw" --ceilings-from "$record" -o "$tmp/p.h5"
expect 0 "5 launches: 5 timed, 4 counted (4 matched both)" profile --from-raw "$raw" -o "$tmp/p2.h5"
# without --ceilings-from the roof is none, and the file says why (not "--no-ceilings", which was not given)
expect 0 "ceilings: none (--from-raw without --ceilings-from)" report "$tmp/p2.h5"
# the run's selection is in its raw files: a selection here is refused, not ignored
expect 2 "--from-raw rebuilds the launches the run selected" profile --from-raw "$raw" -k A -o "$tmp/p2k.h5"
# without -o the raw folder names the file (the program's command line is not in the raw files)
if (cd "$tmp" && "$wb" profile --from-raw "$raw/" > "$tmp/noname.log" 2>&1) && ls "$tmp"/results/profiles/"$(basename "$raw")"-2*.h5 >/dev/null 2>&1; then
    echo "ok: --from-raw without -o: results/profiles/$(basename "$raw")-<UTC>.h5"
else
    echo "FAIL: --from-raw without -o: $(ls "$tmp"/results/profiles/ 2>&1; tail -n 2 "$tmp/noname.log")"; failures=$((failures + 1))
fi
# kernel A's two launches count alike; given 900,000 instructions and 110,000 sectors on its second
# (a spread of 11.8% and 9.5%), neither stays within 1%
expect 0 "1 kernel shape(s) counted twice or more; 1 kept their instructions within 1% (largest - smallest over the mean), 1 their DRAM reads" \
    profile --from-raw "$raw" -o "$tmp/p2b.h5"
# A pass file cut short (killed past every handler: no "# end") is read, and said; a malformed
# one is bad input.
mkdir -p "$tmp/raw-cut" "$tmp/raw-bad" && cp "$raw"/*.tsv "$tmp/raw-cut/" && cp "$raw"/*.tsv "$tmp/raw-bad/"
sed -i '/^# end$/d' "$tmp/raw-cut/counters.22.tsv"
expect 0 "counter pass (pid 22): its file ends without '# end'" profile --from-raw "$tmp/raw-cut" -o "$tmp/pcut.h5"
sed -i 's/^C\t0\t640\t0\t/C\t0\t\t0\t/' "$tmp/raw-bad/counters.22.tsv"
expect 2 "counters.22.tsv:4: malformed line" profile --from-raw "$tmp/raw-bad" -o "$tmp/pbad.h5"
mkdir -p "$tmp/raw-spread" && cp "$raw"/*.tsv "$tmp/raw-spread/"
sed -i 's/^C\t2\t800000\t100000\t/C\t2\t900000\t110000\t/' "$tmp/raw-spread/counters.20.tsv"
expect 0 "1 kernel shape(s) counted twice or more; 0 kept their instructions within 1% (largest - smallest over the mean), 0 their DRAM reads" \
    profile --from-raw "$tmp/raw-spread" -o "$tmp/p2c.h5"
# Each pass's board from its watch file (harness/profile/watch.h), also in a --from-raw rebuild: the
# timing pass's GPU held by the program's processes and the profiler alone, the counter pass's by
# a pid of nobody's too: disturbed, a warning, and both verdicts in report.
mkdir -p "$tmp/raw-board" && cp "$raw"/*.tsv "$tmp/raw-board/"
G=GPU-a0a0a0a0-1111-2222-3333-444455556666
for f in timing.10 counters.20; do sed -i "1a # device 0\tNVIDIA H200\t$G\t9.0\t132\t13000\tGH100" "$tmp/raw-board/$f.tsv"; done
printf '# wallbench-watch 2 pass=timing period_ms=100 profiler_pid=900
W\t0.000\t%s\t0x1\t2\t10,12\t30\n# end 30\n' "$G" \
    > "$tmp/raw-board/watch.timing.tsv"
printf '# wallbench-watch 2 pass=counters period_ms=100 profiler_pid=900
W\t0.000\t%s\t0x0\t1\t20\t10\nW\t1.000\t%s\t0x0\t2\t20,4242\t5\n# end 15\n' \
    "$G" "$G" > "$tmp/raw-board/watch.counters.tsv"
expect 0 "warning: the counters pass on $G: disturbed: 15 samples; no slowdown; 1 other process(es) held the GPU in 5 of 15 samples (pid 4242)" \
    profile --from-raw "$tmp/raw-board" -o "$tmp/pboard.h5"
expect 0 "timing pass board: undisturbed: 30 samples; no slowdown; no other process on it (by pid)" report "$tmp/pboard.h5"
expect 0 "counter pass board: disturbed: 15 samples" report "$tmp/pboard.h5"
expect 0 "timing pass board: not checked: the pass's files name no GPU" report "$tmp/p.h5"
mkdir -p "$tmp/raw-unwatched" && cp "$tmp/raw-board"/timing.*.tsv "$tmp/raw-board"/counters.*.tsv "$tmp/raw-unwatched/"
expect 0 "wrote $tmp/punw.h5" profile --from-raw "$tmp/raw-unwatched" -o "$tmp/punw.h5"
expect 0 "counter pass board: not checked: no watch file" report "$tmp/punw.h5"
# The counter pass's cost and --rotate's counts become root attributes, summed over its two
# processes where they are amounts (seconds, launches, changes, new objects) and one value where
# they are a setting (the groups, the hold). Checked with h5py where python3 has it.
mkdir -p "$tmp/raw-rot" && cp "$raw"/*.tsv "$tmp/raw-rot/"
sed -i 's/^# cost\t.*/# cost\tcounted 3\tlaunch_s 0.300\tbatch_s 0.050\tflush_s 0.001\tconfig_s 0.25\tstart_s 1.5/' "$tmp/raw-rot/counters.20.tsv"
sed -i '/^# end$/i # rotation\tgroups 18\treplayed 0\tone_pass 3\tshapes 2\tchanges 5\thold 32\tnew_objects 5\tnew_object_s 2.5' "$tmp/raw-rot/counters.20.tsv"
sed -i '/^# end$/i # cost\tcounted 1\tlaunch_s 0.100\tbatch_s 0.010\tflush_s 0.001\tconfig_s 0.05\tstart_s 0.5\n# rotation\tgroups 18\treplayed 0\tone_pass 1\tshapes 1\tchanges 2\thold 32\tnew_objects 2\tnew_object_s 1.0' "$tmp/raw-rot/counters.22.tsv"
expect 0 "wrote $tmp/prot.h5" profile --from-raw "$tmp/raw-rot" -o "$tmp/prot.h5"
if python3 -c 'import h5py' 2>/dev/null; then
    if python3 - "$tmp/prot.h5" <<'PY'
import sys, h5py
a = h5py.File(sys.argv[1], "r").attrs
want = {"counter_pass_start_s": 2.0, "counter_pass_config_s": 0.3, "counter_pass_in_counted_launches_s": 0.4,
        "counter_rotation_groups": 18, "counter_rotation_hold": 32, "launches_counted_one_pass": 4,
        "counter_rotation_shapes": 3, "counter_rotation_changes": 7, "counter_rotation_new_objects": 7,
        "counter_pass_new_object_s": 3.5}
bad = {k: (float(a[k]) if k in a else None, v) for k, v in want.items() if k not in a or abs(float(a[k]) - v) > 1e-9}
assert not bad, bad
PY
    then echo "ok: the counter pass's cost and --rotate's counts, summed over its processes"
    else echo "FAIL: the counter pass's cost or --rotate's attributes"; failures=$((failures + 1)); fi
else echo "ok: (python3 lacks h5py: the attributes of prot.h5 not read)"; fi
expect 0 "cub::DeviceReduceKernel" report "$tmp/p.h5"
expect 0 "Q1/scan" report "$tmp/p.h5"
expect 0 "cub::DeviceReduceKernel" roofline "$tmp/p.h5"
expect 0 "cub::DeviceReduceKernel" project --to l4 "$tmp/p.h5"
expect 0 '"kind":"wallbench-profile-compare"' compare "$tmp/p.h5" "$tmp/p2.h5" --json
expect 0 '"time_b_over_a":1' compare "$tmp/p.h5" "$tmp/p2.h5" --json
expect 2 "--markdown or --json, not both" compare "$tmp/p.h5" "$tmp/p2.h5" --json --markdown
if ! "$wb" compare "$tmp/p.h5" "$tmp/p2.h5" --json | python3 -c 'import json, sys; d = json.load(sys.stdin); assert d["matched"]["kernels"] >= 1 and all(isinstance(k["a_ms"], (int, float)) for k in d["kernels"])' 2>/dev/null; then
    echo "FAIL: compare --json on profiles is not JSON with numbers"; failures=$((failures + 1))
else echo "ok: compare --json on profiles parses, numbers"; fi
# compare parses its options once for both kinds (no second parser for profiles): a results file's
# options on two profiles, --top on results files and a profile beside a results file are refused
expect 2 "--repeat are for results files; two profiles take --markdown or --json" compare "$tmp/p.h5" "$tmp/p2.h5" --points
expect 2 "--top is for two profile files" compare "$record" "$record" --top 3
expect 2 "is not a profile file" compare "$tmp/p.h5" "$record"
expect 0 "more matched kernels not shown (--top)" compare "$tmp/p.h5" "$tmp/p2.h5" --top 1
# every command that reads files says both kinds in its --help
for c in report roofline export project compare; do expect 0 "PROFILE.h5" $c --help; done
for c in check merge; do expect 0 "a profile file (wallbench profile -- CMD)" $c --help; done
# project opens the profile once, with its launches for -o, and writes a projection that reads back
expect 0 "projected profile -> $tmp/pl4.h5" project --to l4 "$tmp/p.h5" -o "$tmp/pl4.h5"
expect 2 "is itself a projection; project the measured profile" project --to a100 "$tmp/pl4.h5"
expect 0 "kernel_id" export "$tmp/pl4.h5" --table launches --format csv
[ -s "$tmp/p.h5" ] || { echo "FAIL: no profile file"; failures=$((failures + 1)); }

# A sampled timing pass (--sample): PM samples (S lines) split among the two kernels; the file's
# /samples table, fig-timeline's tables and the kernels' sampled counters.
sraw=$tmp/sraw
mkdir -p "$sraw"
{
  printf '# wallbench-raw 1 pass=timing pid=30 ppid=1\n'
  printf '# metrics\tinst\tdram_sectors_read\tdram_sectors_write\tsm_clock_hz\n# sampling\tinterval_ns 1000\tchip GH100\tpasses 1\n'
  printf '# waited\t0.420000\n' # the program's first CUDA call waited for sampling (go_pipe.h)
  printf 'L\t0\t1\t0\t0\t100\t1\t1\t256\t1\t1\t0\tstep_0\t%s\n' "$A"
  printf 'L\t1\t2\t0\t0\t50\t1\t1\t128\t1\t1\t0\tstep_1\t%s\n' "$B"
  printf 'K\t1\t1000\t3000\t0\t7\t32\t0\t0\t100\t1\t1\t256\t1\t1\t0\t%s\n' "$A"
  printf 'K\t2\t3000\t4000\t0\t7\t24\t512\t0\t50\t1\t1\t128\t1\t1\t0\t%s\n' "$B"
  printf 'S\t0\t1000\t9\t9\t9\t1e9\nS\t1000\t2000\t4000\t100\t10\t1.9e9\nS\t2000\t3000\t4000\t100\t10\t1.9e9\n'
  printf 'S\t3000\t4000\t900\t300\t100\t1.9e9\nS\t4000\t5000\t0\t0\t0\t1.9e9\n# end\n'
} > "$sraw/timing.30.tsv"
expect 0 "first CUDA call waited 0.42 s for sampling to start" profile --from-raw "$sraw" --no-ceilings -o "$tmp/s.h5"
expect 0 "fig-timeline: 4 rows" export "$tmp/s.h5" --fig fig-timeline --out "$tmp/tl"
expect 0 "busy_ns" export "$tmp/s.h5" --table samples --format csv
expect 0 "cub::DeviceReduceKernel" report "$tmp/s.h5"
if ! grep -q "step_0" "$tmp/tl/fig-timeline-ranges.dat" 2>/dev/null || ! grep -q "step_1" "$tmp/tl/fig-timeline-ranges.dat"; then
    echo "FAIL: fig-timeline-ranges.dat lacks the NVTX spans"; failures=$((failures + 1))
else echo "ok: fig-timeline's NVTX spans"; fi
expect 3 "has no sampled timeline" export "$tmp/p.h5" --fig fig-timeline --out "$tmp/tl2"
# --all: both of a profile's figures (fig4 was the only one until 2026-12-05); with --fig, refused
expect 0 "fig-timeline: 4 rows" export "$tmp/s.h5" --all --out "$tmp/all"
[ -s "$tmp/all/fig4-profile.dat" ] && [ -s "$tmp/all/fig-timeline.dat" ] && echo "ok: --all wrote both figures' tables" ||
    { echo "FAIL: export PROFILE --all did not write both figures"; failures=$((failures + 1)); }
expect 2 "--all exports both of a profile's figures" export "$tmp/s.h5" --all --fig fig-timeline --out "$tmp/all2"
# options a profile's export does not use are refused, not ignored
expect 2 "--shape is for a results file's family figures" export "$tmp/s.h5" --fig fig4 --shape ilp=1 --out "$tmp/all3"

# issue 49's limiter tables of one profile split the same launches: per kernel and per NVTX
# range, their Program rows agree and hold every timed launch's time; the rows of each table
# sum to no more than it, each row's shares to 100%; no two kernel rows read alike.
if "$wb" report "$src/results/h200-profile/tpch-both.h5" --json --top 1000 > "$tmp/lim.json" 2>"$tmp/lim.err" &&
    python3 - "$tmp/lim.json" "$src/results/h200-profile/tpch-both.h5" <<'PY'
import json, sys
tables = [t["table"] for t in json.load(open(sys.argv[1]))["tables"] if t["title"].startswith("Limiter")]
assert len(tables) == 2, "two limiter tables, got %d" % len(tables)
programs = [t["rows"][-1] for t in tables]
labels = [r[0] for r in tables[0]["rows"]]  # kernels: a name two kernels share carries its /kernels row
assert len(labels) == len(set(labels)), "a kernel label repeats: %s" % [l for l in labels if labels.count(l) > 1][:3]
assert programs[0][0] == "Program" and programs[0] == programs[1], programs
for t in tables:
    head = t["header"]
    shares = [k for k, h in enumerate(head) if h.endswith(" %")]
    assert len(shares) == 6, head
    at, bytes_at = head.index("At the roofs (ms)"), head.index("At its bytes' roof (ms)")
    hx, bx = head.index("Headroom (x)"), head.index("Bytes headroom (x)")
    for row in t["rows"]:
        assert abs(sum(row[k] for k in shares) - 100.0) < 1e-6, row
        # at the roofs: not slower than measured, within the few % a kernel may pass a measured
        # ceiling by (a cub reduce of the example: 101.5% of dram_read); the bytes' roof is one of
        # the roofs (DRAM), so never above them, and its headroom never below theirs
        assert row[at] is None or row[at] <= row[1] * 1.05, row
        assert row[bytes_at] is None or (row[at] is not None and row[bytes_at] <= row[at] * (1 + 1e-9)), row
        assert row[bx] is None or (row[hx] is not None and row[bx] >= row[hx] * (1 - 1e-3) - 0.05), row
    assert tables[0]["rows"][-1][bytes_at] > 0, "the program's bytes' roof (tpch-both.h5 counts DRAM)"
    assert sum(r[1] for r in t["rows"][:-1]) <= programs[0][1] * (1 + 1e-9) + 1e-9
    assert abs(sum(r[1] for r in t["rows"][:-1]) - programs[0][1]) < 1e-6 * programs[0][1], "top 1000 covers every group"
try:
    import h5py, numpy
    with h5py.File(sys.argv[2], "r") as f:
        t = f["launches"]["time_ms"]
        total = float(numpy.nansum(t[t > 0]))
    assert abs(total - programs[0][1]) < 1e-9 * total, (total, programs[0][1])
except ImportError:
    pass
PY
then echo "ok: limiter tables per kernel and per range agree"
else echo "FAIL: limiter tables of tpch-both.h5"; cat "$tmp/lim.err"; failures=$((failures + 1)); fi

[ $failures -eq 0 ] && echo "sh_profile_cli: all passed" || echo "sh_profile_cli: $failures failure(s)"
exit $((failures > 0))

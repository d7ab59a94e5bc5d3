#!/usr/bin/env python3
"""overhead_summary.py - measure.sh's OUTDIR summed up as overhead.txt: each
step's process time and the program's own timed region, the ratios issue 27
sets targets for, per-query times, and the accuracy comparisons' verdicts.

  overhead_summary.py OUTDIR TOTAL_S > OUTDIR/overhead.txt

Reads OUTDIR/steps.tsv (step, rc, wall_s, log) and the steps' logs; prints
"n/a" for what a failed or skipped step did not leave. Exit 2 on bad arguments
(no such OUTDIR, TOTAL_S not a number)."""
import os
import re
import statistics
import sys


def read(path):
    try:
        return open(path, encoding="utf-8", errors="replace").read()
    except OSError:
        return ""


def main():
    if sys.argv[1:] in (["-h"], ["--help"]):
        print(__doc__)
        return 0
    if len(sys.argv) != 3:
        print("usage: overhead_summary.py OUTDIR TOTAL_S > OUTDIR/overhead.txt", file=sys.stderr)
        return 2
    out = sys.argv[1]
    try:
        total = float(sys.argv[2])
    except ValueError:
        print("overhead_summary.py: TOTAL_S %r is not a number of seconds" % sys.argv[2], file=sys.stderr)
        return 2
    if not os.path.isdir(out):
        print("overhead_summary.py: OUTDIR %s: %s" % (out, "not a folder" if os.path.exists(out) else "no such folder"),
              file=sys.stderr)
        return 2
    steps = {}
    for line in read(os.path.join(out, "steps.tsv")).splitlines()[1:]:
        f = line.split("\t")
        if len(f) >= 4:
            steps[f[0]] = {"rc": f[1], "wall": float(f[2]), "log": read(os.path.join(out, f[3]))}

    def regions(name):
        """The program's timed_region_ms values in a step's log (two for a
        run of both passes: one per pass)."""
        return [float(x) for x in re.findall(r"^timed_region_ms=([0-9.]+)", steps.get(name, {}).get("log", ""), re.M)]

    def queries(name):
        q = {}
        for n, v in re.findall(r"^query_ms (\S+) ([0-9.]+)", steps.get(name, {}).get("log", ""), re.M):
            q.setdefault(n, []).append(float(v))
        return q

    def wall(name):
        s = steps.get(name)
        return s["wall"] if s and s["rc"] == "0" else None

    fmt = lambda v, f="%.3f": "n/a" if v is None else f % v
    ratio = lambda a, b: None if a is None or b is None or b == 0 else a / b

    print("wallbench profile on examples/profile-tpch/tpch_like.py: overhead and accuracy (measure.sh)")
    print(read(os.path.join(out, "env.txt")).rstrip())
    print("metrics: %d, from %s" % (len(re.findall(r"\b[a-z0-9_]+__[A-Za-z0-9_.]+", read(os.path.join(out, "metrics.txt")))),
                                    read(os.path.join(out, "metrics.source")).strip()))
    launches = re.findall(r"^launches (\S+) (\d+)", steps.get("count", {}).get("log", ""), re.M)
    print("kernel launches (torch.profiler, its own run): " +
          (", ".join("%s %s" % kv for kv in launches) if launches else "n/a"))
    print()

    plain_w = [w for w in (wall("plain1"), wall("plain2")) if w is not None]
    plain_r = regions("plain1") + regions("plain2")
    pw = statistics.mean(plain_w) if plain_w else None
    pr = statistics.mean(plain_r) if plain_r else None
    print("%-28s %4s %10s %16s %9s %9s" % ("step", "rc", "process s", "timed region ms", "s/plain", "reg/plain"))
    for name, label in (("plain1", "plain, run 1"), ("plain2", "plain, run 2"), ("timing", "timing pass"),
                        ("counters-all", "counter pass, cache all"), ("both", "both passes"),
                        ("ncu-all", "ncu, cache all"), ("counters-none", "counter pass, cache none"),
                        ("ncu-none", "ncu, cache none")):
        if name not in steps:
            continue
        s = steps[name]
        r = regions(name)
        print("%-28s %4s %10.3f %16s %9s %9s" % (
            label, s["rc"], s["wall"], " / ".join("%.3f" % x for x in r) or "n/a",
            fmt(ratio(s["wall"], pw), "%.2fx"), fmt(ratio(r[0] if r else None, pr), "%.3fx")))
    print("plain mean: process %s s, timed region %s ms" % (fmt(pw), fmt(pr)))
    print()

    print("targets (issue 27):")
    t = ratio(regions("timing")[0] if regions("timing") else None, pr)
    print("  timing pass, program's timed region / plain: %s (target <= 1.05)" % fmt(t, "%.3fx"))
    print("  timing pass, process / plain: %s (CUPTI's start-up included)" % fmt(ratio(wall("timing"), pw), "%.2fx"))
    print("  both passes, process / plain: %s (target <= 3x)" % fmt(ratio(wall("both"), pw), "%.2fx"))
    for pol in ("all", "none"):
        if "ncu-" + pol in steps:
            print("  ncu / counter pass, cache %s: %s (target >= 10x)"
                  % (pol, fmt(ratio(wall("ncu-" + pol), wall("counters-" + pol)), "%.1fx")))
    prof_lines = [ln for name in ("timing", "counters-all", "both") for ln in steps.get(name, {}).get("log", "")
                  .splitlines() if re.search(r"\bpass\b", ln, re.I) and not ln.startswith(("verify", "query_ms"))]
    if prof_lines:
        print("  the profiler's own pass times:")
        for ln in prof_lines[:12]:
            print("    " + ln.strip())
    print()

    print("per query, CUDA-event ms summed over the repetitions (plain runs' mean; timing pass; ratio):")
    qp = [queries("plain1"), queries("plain2")]
    qt = queries("timing")
    for name in sorted(set().union(*qp, qt), key=lambda n: ["Q1", "Q6", "join", "topk", "groupby"].index(n)
                       if n in ("Q1", "Q6", "join", "topk", "groupby") else 9):
        p = [v for q in qp for v in q.get(name, [])]
        pm = statistics.mean(p) if p else None
        tv = qt.get(name, [None])[0]
        print("  %-8s %10s %10s %8s" % (name, fmt(pm), fmt(tv), fmt(ratio(tv, pm), "%.3fx")))
    print()

    print("accuracy and kernel times:")
    for name, what in (("compare-all", "counter pass vs ncu, cache all"),
                       ("compare-none", "counter pass vs ncu, cache none"),
                       ("times-vs-both", "timing pass vs the second timing pass (both.h5): run-to-run spread"),
                       ("times-vs-ncu", "timing pass vs ncu's gpu__time_duration (%s)"
                        % read(os.path.join(out, "times-vs-ncu.source")).strip())):
        if name not in steps:
            continue
        log = steps[name]["log"]
        keep = [ln for ln in log.splitlines() if ln.startswith(("RESULT", "matching", "FAIL", "per launch",
                                                               "summed", "  total", "ncu_compare", "timing_compare"))
                or re.match(r"\S+=\S+\s+\d+", ln)]
        print("  %s (rc %s):" % (what, steps[name]["rc"]))
        for ln in keep[:12]:
            print("    " + ln)
    print()

    print("steps' exit codes: " + ", ".join("%s %s" % (n, s["rc"]) for n, s in steps.items()))
    print("total measure.sh time: %.1f s" % total)
    return 0


if __name__ == "__main__":
    sys.exit(main())

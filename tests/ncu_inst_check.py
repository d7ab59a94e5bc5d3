#!/usr/bin/env python3
"""ncu_inst_check.py - Nsight Compute against wallbench's in-process counters
(run on a GPU machine with ncu; not part of CTest).

  python3 tests/ncu_inst_check.py --wallbench build/h200/wallbench --family FAMILY \
      --results results/h200/<counted run>.h5 --out OUTDIR -- <wallbench run options>

1. Reads the counted run's points of FAMILY (wallbench export --points --format csv):
   point name, status, launches, inst (smsp__inst_executed.sum, CUPTI range
   profiler, in process).
2. Runs  ncu --nvtx --nvtx-include "<point>/" (one per ok point) --metrics
   smsp__inst_executed.sum --csv  wallbench run --ncu <options>
   and keeps the kernels ncu profiled, in launch order. --ncu pushes one NVTX
   range per point around its one timed launch, so ncu must profile exactly
   `launches` kernels per point: the sum is checked first. ncu reads '/' as
   range nesting, so the '/' of a point name is escaped ('\\/'); should that
   profile nothing, the run is retried unescaped, then with regex: filters.
3. Sums ncu's instruction counts per point (consecutive kernels, `launches`
   of them) and compares with the file's inst column: they must be equal.
   --metric NCU_METRIC=COLUMN[:TOL] (repeatable) compares other metrics
   instead, within a relative TOL (default 0: equal), e.g.
   --metric dram__sectors_write.sum=dram_sectors_write:0.05; a difference
   under --floor (default 0) counts as agreement, for counts near zero.
Exit 0 when every ok point with counters matches, 1 otherwise."""
import argparse, csv, io, os, re, subprocess, sys

ap = argparse.ArgumentParser()
ap.add_argument("--wallbench", required=True)
ap.add_argument("--results", required=True, help="results file of a run with counters (same options, no --ncu)")
ap.add_argument("--out", required=True)
ap.add_argument("--family", required=True, help="the family to profile (the file may hold others)")
ap.add_argument("--ncu", default="ncu")
ap.add_argument("--metric", action="append", default=[], help="NCU_METRIC=COLUMN[:TOL]; default smsp__inst_executed.sum=inst")
ap.add_argument("--floor", type=float, default=0.0, help="absolute difference that still agrees")
ap.add_argument("run_args", nargs=argparse.REMAINDER)
a = ap.parse_args()
run_args = [x for x in a.run_args if x != "--"]
metrics = []  # (ncu metric, file column, relative tolerance)
for spec in a.metric or ["smsp__inst_executed.sum=inst"]:
    m = re.fullmatch(r"([\w.]+)=(\w+)(?::([0-9.eE+-]+))?", spec)
    if not m:
        sys.exit("--metric %r: expected NCU_METRIC=COLUMN[:TOL]" % spec)
    metrics.append((m.group(1), m.group(2), float(m.group(3) or 0)))
os.makedirs(a.out, exist_ok=True)

table = subprocess.run([a.wallbench, "export", a.results, "--points", "--format", "csv"], check=True,
                       capture_output=True, text=True).stdout
rows = list(csv.DictReader(io.StringIO(table)))
col = lambda r, name: next(v for k, v in r.items() if k == name or k.startswith(name + "["))
points = [(r["name"], int(float(col(r, "launches"))), [float(col(r, c)) for _, c, _ in metrics])
          for r in rows if r["family"] == a.family and r["status"] == "ok"
          and all(col(r, c) not in ("NaN", "") for _, c, _ in metrics)]
if not points:
    sys.exit("no ok point with counters in %s" % a.results)
want_kernels = sum(n for _, n, _ in points)

# ncu reads '/' as "nested in" and escapes a literal quantifier with '\\';
# the escaped spelling is the expected one, the others are fallbacks.
def spellings(name):
    yield name.replace("/", "\\/") + "/"
    yield name + "/"
    yield "regex:^" + re.escape(name).replace("/", "\\/") + "$/"
    yield "regex:^" + re.escape(name) + "$/"

def run_ncu(style):
    filters = []
    for name, n, _ in points:
        filters += ["--nvtx-include", list(spellings(name))[style]]
    log = os.path.join(a.out, "ncu-style%d.csv" % style)
    cmd = [a.ncu, "--nvtx", *filters, "--metrics", ",".join(m for m, _, _ in metrics), "--csv", "--print-units", "base",
           "--log-file", log, a.wallbench, "run", "--ncu", "--family", a.family, "--out", os.path.join(a.out, "ncu-run"),
           *run_args]
    print("+", " ".join(cmd[:4]), "... (%d filters)" % len(points), " ".join(cmd[-8 - len(run_args):]), flush=True)
    subprocess.run(cmd, check=False)
    by_id = {}  # kernel ID -> {metric: value}, in launch order
    if os.path.exists(log):
        text = open(log).read()
        start = text.find('"ID"')
        if start >= 0:
            for r in csv.DictReader(io.StringIO(text[start:])):
                if r.get("Metric Name") in [m for m, _, _ in metrics]:
                    # --print-units base asks for plain counts; scale anyway should ncu print K/M/G prefixes
                    unit = r.get("Metric Unit", "")
                    scale = {"K": 1e3, "M": 1e6, "G": 1e9}.get(unit[:1], 1) if unit[1:] in ("inst", "sector") else 1
                    by_id.setdefault(r["ID"], {})[r["Metric Name"]] = scale * float(r["Metric Value"].replace(",", ""))
    return [v for _, v in sorted(by_id.items(), key=lambda kv: int(kv[0]))]

for style in range(4):
    kernels = run_ncu(style)
    print("filter style %d: ncu profiled %d kernels, the points launch %d" % (style, len(kernels), want_kernels))
    if len(kernels) == want_kernels:
        break
else:
    sys.exit("ncu never profiled exactly one launch per point: see %s/ncu-style*.csv" % a.out)

bad, at = 0, 0
print("%-90s" % "point" + "".join(" %18s %18s" % ("file " + c, "ncu " + m) for m, c, _ in metrics))
for name, n, want in points:
    line, ok = "%-90s" % name[:90], True
    for (m, c, tol), w in zip(metrics, want):
        got = sum(k.get(m, float("nan")) for k in kernels[at:at + n])
        ok &= abs(got - w) <= max(tol * max(abs(w), abs(got)), a.floor)
        line += " %18.0f %18.0f" % (w, got)
    at += n
    bad += not ok
    print(line + (" ok" if ok else " DIFFERS"))
print("%d of %d points: ncu's %s of the point's NVTX range agree with the file's %s (relative tolerance %s, floor %g)" %
      (len(points) - bad, len(points), ", ".join(m for m, _, _ in metrics), ", ".join(c for _, c, _ in metrics),
       ", ".join(str(t) for _, _, t in metrics), a.floor))
sys.exit(1 if bad else 0)

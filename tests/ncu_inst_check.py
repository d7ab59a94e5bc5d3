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
Exit 0 when every ok point with counters matches exactly, 1 otherwise."""
import argparse, csv, io, os, re, subprocess, sys

ap = argparse.ArgumentParser()
ap.add_argument("--wallbench", required=True)
ap.add_argument("--results", required=True, help="results file of a run with counters (same options, no --ncu)")
ap.add_argument("--out", required=True)
ap.add_argument("--family", required=True, help="the family to profile (the file may hold others)")
ap.add_argument("--ncu", default="ncu")
ap.add_argument("run_args", nargs=argparse.REMAINDER)
a = ap.parse_args()
run_args = [x for x in a.run_args if x != "--"]
os.makedirs(a.out, exist_ok=True)

table = subprocess.run([a.wallbench, "export", a.results, "--points", "--format", "csv"], check=True,
                       capture_output=True, text=True).stdout
rows = list(csv.DictReader(io.StringIO(table)))
col = lambda r, name: next(v for k, v in r.items() if k == name or k.startswith(name + "["))
points = [(r["point"], int(float(col(r, "launches"))), float(col(r, "inst")))
          for r in rows if r["family"] == a.family and r["status"] == "ok" and col(r, "inst") not in ("NaN", "")]
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
    cmd = [a.ncu, "--nvtx", *filters, "--metrics", "smsp__inst_executed.sum", "--csv", "--print-units", "base",
           "--log-file", log, a.wallbench, "run", "--ncu", "--family", a.family, "--out", os.path.join(a.out, "ncu-run"),
           *run_args]
    print("+", " ".join(cmd[:4]), "... (%d filters)" % len(points), " ".join(cmd[-8 - len(run_args):]), flush=True)
    subprocess.run(cmd, check=False)
    vals = []
    if os.path.exists(log):
        text = open(log).read()
        start = text.find('"ID"')
        if start >= 0:
            for r in csv.DictReader(io.StringIO(text[start:])):
                if r.get("Metric Name") == "smsp__inst_executed.sum":
                    # --print-units base asks for plain counts; scale anyway should ncu print Kinst/Minst
                    unit = r.get("Metric Unit", "")
                    scale = {"K": 1e3, "M": 1e6, "G": 1e9}.get(unit[:1], 1) if unit[1:] == "inst" else 1
                    vals.append((r.get("Kernel Name", "?"), scale * float(r["Metric Value"].replace(",", ""))))
    return vals

for style in range(4):
    kernels = run_ncu(style)
    print("filter style %d: ncu profiled %d kernels, the points launch %d" % (style, len(kernels), want_kernels))
    if len(kernels) == want_kernels:
        break
else:
    sys.exit("ncu never profiled exactly one launch per point: see %s/ncu-style*.csv" % a.out)

bad, at = 0, 0
print("%-90s %16s %16s" % ("point", "file inst", "ncu inst"))
for name, n, inst in points:
    got = sum(v for _, v in kernels[at:at + n])
    at += n
    ok = got == inst
    bad += not ok
    print("%-90s %16.0f %16.0f %s" % (name[:90], inst, got, "ok" if ok else "DIFFERS"))
print("%d of %d points: ncu's smsp__inst_executed.sum of the point's NVTX range equals the file's inst" %
      (len(points) - bad, len(points)))
sys.exit(1 if bad else 0)

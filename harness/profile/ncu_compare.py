#!/usr/bin/env python3
"""ncu_compare.py - a `wallbench profile` file against Nsight Compute on the
same program, launch by launch (run where both exist; needs numpy and h5py).

  ncu_compare.py --profile P.h5 --ncu-csv N.csv [--metric NCU=COLUMN[:TOL[:MIN]] ...]
                 [--min-sectors 100000] [--worst 10] [--by-kernel] [--out report.txt] [--repeat P2.h5]

N.csv is ncu's per-launch CSV (gzipped too: N.csv.gz), e.g.
  ncu --csv --page raw --print-units base --print-kernel-base mangled \
      --clock-control none --cache-control all --metrics <list> --log-file N.csv CMD
The raw page (one row per launch, a units row under the header) and the
details page (one row per launch and metric: "Metric Name", "Metric Unit",
"Metric Value") are both read; "==PROF==" lines, quoted fields, "n/a" and
thousands separators are handled, and unit prefixes (Ksector, usecond) are
scaled should --print-units base be missing.

Matching: launch k of the profile (/launches by seq) with ncu's k-th launch
(by "ID"). The two sequences must agree on grid, block and kernel name; where
they diverge, the first difference is printed and the launches are paired in
program order where every profile launch finds its partner so (ncu lists the
nodes of a graph launch, which the counter pass does not count per kernel:
they stay without partner), else per kernel (the j-th launch of a name + grid
+ block in each). Launches the profile made inside a stream capture never ran
(its counter_note says so) and are set aside.

Metrics (default: the three below): NCU=COLUMN compares ncu's metric with
the profile's /launches column; TOL is the relative tolerance (0: equal),
MIN the value under which a launch is not judged (default: --min-sectors for
a column with "sectors" in its name, else 0).
  smsp__inst_executed.sum=inst                  equal
  dram__sectors_read.sum=dram_sectors_read:0.01 within 1% at >= --min-sectors
  dram__sectors_write.sum=dram_sectors_write:0.01
Times convert to the column's unit by its suffix (_ms, _us, _ns), e.g.
gpu__time_duration.sum=time_ms:0.02 (add --by-kernel: per-kernel sums).

A launch fails when its values differ beyond TOL, when either side lacks the
value (not counted, "n/a"), or when it has no partner in the other sequence.
Exit: 0 every judged launch agrees, 1 some fail, 2 bad input."""
import argparse
import csv
import difflib
import gzip
import io
import math
import os
import re
import sys
from collections import defaultdict

DEFAULT_METRICS = ["smsp__inst_executed.sum=inst",
                   "dram__sectors_read.sum=dram_sectors_read:0.01",
                   "dram__sectors_write.sum=dram_sectors_write:0.01"]
CAPTURED = "launched inside a stream capture"  # the profile's counter_note of such a launch
ID_COLUMNS = ("ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Kernel Time", "Context", "Stream",
              "Block Size", "Grid Size", "Device", "CC", "Section Name")


def die(msg):
    # the running program's name: timing_compare.py and the profile-graph examples die through here too
    print("%s: %s" % (os.path.basename(sys.argv[0]) or "ncu_compare.py", msg), file=sys.stderr)
    sys.exit(2)


def at_least_zero(*options):
    """Exit 2 naming the first (option, value) whose value is negative (or NaN): a count or tolerance."""
    for name, v in options:
        if not v >= 0:
            die("%s %g: must be >= 0" % (name, v))


# ---------------------------------------------------------------- metrics

class Metric:
    def __init__(self, spec, min_sectors):
        m = re.fullmatch(r"([\w.]+)=(\w+)(?::([0-9.eE+-]*))?(?::([0-9.eE+-]+))?", spec)
        if not m:
            die("--metric %r: expected NCU_METRIC=COLUMN[:TOL[:MIN]]" % spec)
        self.ncu, self.column = m.group(1), m.group(2)
        try:
            self.tol = float(m.group(3) or 0)
            self.min = float(m.group(4)) if m.group(4) else (min_sectors if "sectors" in self.column else 0.0)
        except ValueError:
            die("--metric %r: TOL and MIN must be numbers" % spec)
        if self.tol < 0 or self.min < 0:
            die("--metric %r: TOL and MIN must be >= 0" % spec)

    def describe(self):
        rule = "equal" if self.tol == 0 else "within %g%%" % (100 * self.tol)
        return "%s = %s: %s%s" % (self.ncu, self.column, rule,
                                  " (launches >= %g)" % self.min if self.min > 0 else "")


# ---------------------------------------------------------------- ncu CSV

_TIME = {"nsecond": 1e-9, "nsec": 1e-9, "ns": 1e-9, "usecond": 1e-6, "usec": 1e-6, "us": 1e-6,
         "msecond": 1e-3, "msec": 1e-3, "ms": 1e-3, "second": 1.0, "sec": 1.0, "s": 1.0}
_PREFIX = {"K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}
_COUNTS = ("sector", "inst", "byte", "cycle", "warp", "request", "thread", "block", "wavefront", "transaction")


def number(text):
    """ncu's printed value as a float: thousands separators dropped, "n/a",
    empty or unparsable fields NaN."""
    t = (text or "").strip().replace(",", "")
    if t.lower() in ("", "n/a", "na", "nan", "-", "(!)"):
        return math.nan
    try:
        return float(t)
    except ValueError:
        return math.nan


def to_base(value, unit):
    """(value in base units, base unit): times in seconds, prefixed counts
    (Ksector, Minst) unprefixed; anything else unchanged."""
    u = (unit or "").strip()
    if u in _TIME:
        return value * _TIME[u], "second"
    if len(u) > 1 and u[0] in _PREFIX and u[1:] in _COUNTS:
        return value * _PREFIX[u[0]], u[1:]
    return value, u


def in_column_unit(value, base_unit, column):
    """A base value in the unit a profile column's suffix names."""
    if base_unit == "second":
        for suffix, scale in (("_ms", 1e3), ("_us", 1e6), ("_ns", 1e9), ("_s", 1.0)):
            if column.endswith(suffix):
                return value * scale
    return value


def shape(text):
    """'(256, 1, 1)' -> (256, 1, 1); None when absent or unreadable."""
    nums = re.findall(r"\d+", text or "")
    return tuple(int(x) for x in nums[:3]) if len(nums) >= 3 else None


class NcuLaunch:
    def __init__(self, rid, name, grid, block):
        self.id, self.name, self.grid, self.block = rid, name, grid, block
        self.values = {}  # metric -> (value, base unit)


def read_ncu(path, option="--ncu-csv"):
    """The launches of an ncu CSV log (.gz too), in ID order, and the metric names seen; option names the
    file in messages."""
    try:
        with (gzip.open if path.endswith(".gz") else open)(path, "rt", encoding="utf-8", errors="replace") as f:
            text = f.read()
    except (OSError, EOFError) as e:
        die("%s %s: %s" % (option, path, getattr(e, "strerror", None) or e))
    # Drop ncu's own log lines (==PROF==, ==WARNING==, ==ERROR==) wherever
    # they fall, and the program's output before the header.
    lines = [ln for ln in text.splitlines() if not ln.startswith("==")]
    start = next((i for i, ln in enumerate(lines) if ln.lstrip().startswith('"ID"') or ln.startswith("ID,")), None)
    if start is None:
        errors = [ln for ln in text.splitlines() if ln.startswith("==ERROR==")]
        die("%s %s: no CSV header row (a line starting with \"ID\")%s" %
            (option, path, ": " + errors[0] if errors else "; did ncu profile any kernel?"))
    rows = list(csv.reader(io.StringIO("\n".join(lines[start:]))))
    header = [h.strip() for h in rows[0]]
    col = {h: i for i, h in enumerate(header)}
    for need in ("ID", "Kernel Name"):
        if need not in col:
            die("%s %s: the header has no %r column (header: %s)" % (option, path, need, ", ".join(header[:12])))
    get = lambda r, h: r[col[h]] if h in col and col[h] < len(r) else ""
    launches, seen = {}, set()
    long_form = "Metric Name" in col and "Metric Value" in col
    units = {}
    for r in rows[1:]:
        if not r or all(not x.strip() for x in r):
            continue
        rid = get(r, "ID").strip()
        if not rid:  # the raw page's units row
            units = {h: r[i].strip() for h, i in col.items() if i < len(r)}
            continue
        if not re.fullmatch(r"\d+", rid):
            continue  # a stray line of the program's output between rows
        rid = int(rid)
        ln = launches.get(rid)
        if ln is None:
            ln = launches[rid] = NcuLaunch(rid, get(r, "Kernel Name").strip(), shape(get(r, "Grid Size")),
                                           shape(get(r, "Block Size")))
        if long_form:
            name = get(r, "Metric Name").strip()
            ln.values[name] = to_base(number(get(r, "Metric Value")), get(r, "Metric Unit"))
            seen.add(name)
        else:
            for h, i in col.items():
                if h in ID_COLUMNS or i >= len(r) or "Range" in h or ":" in h:
                    continue
                ln.values[h] = to_base(number(r[i]), units.get(h, ""))
                seen.add(h)
    return [launches[k] for k in sorted(launches)], seen


# ---------------------------------------------------------------- profile file

class ProfLaunch:
    def __init__(self, seq, name, short, grid, block, values, note=""):
        self.seq, self.name, self.short, self.grid, self.block, self.values = seq, name, short, grid, block, values
        self.note = note

    def captured(self):
        """Made inside a stream capture: recorded into a graph, never run as itself (ncu lists no such launch;
        the graph's launches run its nodes)."""
        return self.note.startswith(CAPTURED)


def text_of(v):
    if isinstance(v, bytes):
        v = v.decode("utf-8", "replace")
    return str(v).rstrip("\x00").strip()


def read_profile(path, columns, option="--profile"):
    """The profile's launches by seq; option names the file in messages (None: its path alone)."""
    where = "%s %s" % (option, path) if option else path
    try:
        import h5py
        import numpy as np
    except ImportError as e:
        die("reading %s needs numpy and h5py (%s)" % (path, e))
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
        from counts_h5 import unreadable  # the words of every tool's refusal
        die("%s: %s" % (where, unreadable(path, e, "a profile file")))
    with f:
        kind = text_of(f.attrs.get("file_kind", b""))
        if kind and kind != "wallbench-profile":
            die("%s: file_kind is %r, not a wallbench-profile file" % (where, kind))
        for t in ("launches", "kernels"):
            if t not in f:
                die("%s: no /%s table (%s)" % (where, t, "a results file, not a profile" if "points" in f
                                                else "is it a wallbench profile file?"))
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
        from counts_h5 import table  # counts as floats, NaN not counted, whatever the version
        L, K = table(f, "launches"), table(f, "kernels")
    lf, kf = L.dtype.names or (), K.dtype.names or ()
    missing = [c for c in columns if c not in lf]
    if missing:
        die("%s: /launches has no column %s (it has: %s)" % (where, ", ".join(missing), ", ".join(lf)))
    kcol = "kernel_id" if "kernel_id" in lf else "kernel" if "kernel" in lf else None
    if kcol is None or "name" not in kf:
        die("%s: /launches needs kernel_id and /kernels name" % where)
    kid = K["kernel_id"] if "kernel_id" in kf else np.arange(len(K))
    kernels = {int(k): (text_of(K["name"][i]), text_of(K["demangled"][i]) if "demangled" in kf else "")
               for i, k in enumerate(kid)}

    def dims(rec, what):
        if what + "_x" in lf:
            return tuple(int(rec[what + "_" + a]) for a in "xyz")
        if what in lf:
            return tuple(int(x) for x in rec[what][:3])
        return None

    out = []
    order = np.argsort(L["seq"], kind="stable") if "seq" in lf else range(len(L))
    for i in order:
        rec = L[i]
        k = int(rec[kcol])
        if k not in kernels:
            die("%s: launch seq %s names kernel %d, which /kernels lacks" % (where, rec["seq"], k))
        name, short = kernels[k]
        out.append(ProfLaunch(int(rec["seq"]) if "seq" in lf else int(i), name, short, dims(rec, "grid"),
                              dims(rec, "block"), {c: float(rec[c]) for c in columns},
                              text_of(rec["counter_note"]) if "counter_note" in lf else ""))
    return out


# ---------------------------------------------------------------- names and matching

def base_name(sig):
    """The bare function name of a demangled signature or short name:
    'void at::native::foo<4, X<int> >(int, X<int>)' -> 'foo'."""
    # the profile's readable names shorten "(anonymous namespace)" to "(anon)": neither is a parameter list
    s = sig.replace("(anonymous namespace)", "anon").replace("(anon)", "anon").strip()
    depth, cut = 0, len(s)
    for i, ch in enumerate(s):
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == "(" and depth == 0 and i > 0:
            cut = i
            break
    s = s[:cut].rstrip()
    while s.endswith(">"):  # drop the trailing template arguments
        depth = 0
        for i in range(len(s) - 1, -1, -1):
            depth += s[i] == ">"
            depth -= s[i] == "<"
            if depth == 0:
                s = s[:i].rstrip()
                break
        else:
            break
    return re.split(r"::|\s", s)[-1] if s else sig


class Names:
    """How a profile kernel's name compares with ncu's: mangled names when ncu
    printed them (--print-kernel-base mangled; the profile's may be cut at
    511 characters), else bare function names."""

    def __init__(self, ncu_launches):
        self.mangled = any(n.name.startswith("_Z") for n in ncu_launches)

    def prof_key(self, p):
        if self.mangled:
            return p.name[:511]
        return base_name(p.short) if p.short else base_name(p.name)

    def ncu_key(self, n):
        return n.name[:511] if self.mangled else base_name(n.name)


def same_launch(p, n, names):
    return ((p.grid is None or n.grid is None or p.grid == n.grid) and
            (p.block is None or n.block is None or p.block == n.block) and names.prof_key(p) == names.ncu_key(n))


def describe(x, names, key):
    return "%s grid %s block %s" % (key(x)[:80], x.grid, x.block)


def in_order(prof, ncu, names):
    """The longest in-order pairing of the two sequences by kernel name, grid and block (difflib, no
    junk heuristic): where one side has launches the other lacks (ncu's graph nodes, run by a graph
    launch the counter pass does not count per kernel), the rest still pair in program order."""
    keys = {}  # launches as small integers, so that the matcher compares shapes, not objects
    pk = [keys.setdefault((names.prof_key(p), p.grid, p.block), len(keys)) for p in prof]
    nk = [keys.setdefault((names.ncu_key(n), n.grid, n.block), len(keys)) for n in ncu]
    blocks = difflib.SequenceMatcher(None, pk, nk, autojunk=False).get_matching_blocks()
    return [(prof[b.a + k], ncu[b.b + k]) for b in blocks for k in range(b.size)]


def match(prof, ncu, names, say):
    """[(profile launch, ncu launch)] plus the unmatched of each side. Launches the profile says were
    made inside a stream capture never ran and have no ncu row: they are set aside, and said."""
    captured = [p for p in prof if p.captured()]
    if captured:
        say("matching: %d profile launches were made inside a stream capture (first: seq %d): recorded into a "
            "graph, never run as themselves; ncu lists none of them" % (len(captured), captured[0].seq))
        prof = [p for p in prof if not p.captured()]
    first = next((k for k, (p, n) in enumerate(zip(prof, ncu)) if not same_launch(p, n, names)), None)
    if first is None and len(prof) == len(ncu):
        say("matching: sequence (%d launches on each side agree on kernel name, grid and block)" % len(prof))
        return list(zip(prof, ncu)), [], []
    if len(prof) == len(ncu) and all((p.grid is None or n.grid is None or p.grid == n.grid) and
                                     (p.block is None or n.block is None or p.block == n.block)
                                     for p, n in zip(prof, ncu)):
        # names that one side could not shorten (a profile kernel whose readable name is empty)
        # differ, but every launch agrees on its shape at the same position: the same sequence
        say("matching: sequence by position (%d launches agree on grid and block at every position; "
            "names differ at launch %d: profile %s, ncu %s)" % (len(prof), first, names.prof_key(prof[first])[:60],
                                                                 names.ncu_key(ncu[first])[:60]))
        return list(zip(prof, ncu)), [], []
    if first is None:
        say("matching: the sequences agree for %d launches, then the %s has %d more"
            % (min(len(prof), len(ncu)), "profile" if len(prof) > len(ncu) else "ncu CSV",
               abs(len(prof) - len(ncu))))
    else:
        say("matching: the sequences diverge at launch %d: profile seq %d %s; ncu ID %d %s"
            % (first, prof[first].seq, describe(prof[first], names, names.prof_key),
               ncu[first].id, describe(ncu[first], names, names.ncu_key)))
    pairs = in_order(prof, ncu, names)
    if len(pairs) == len(prof):
        say("matching: in order (%d pairs, every profile launch in program order; %d ncu launches between them "
            "have no partner)" % (len(pairs), len(ncu) - len(pairs)))
        used = {id(n) for _, n in pairs}
        return pairs, [], [n for n in ncu if id(n) not in used]
    say("matching: per kernel instead (k-th launch of the same name, grid and block on each side)")
    queues = defaultdict(list)
    for n in ncu:
        queues[(names.ncu_key(n), n.grid, n.block)].append(n)
    taken = defaultdict(int)
    pairs, lone_prof = [], []
    for p in prof:
        key = (names.prof_key(p), p.grid, p.block)
        q = queues.get(key)
        if q is None and (p.grid is None or p.block is None):
            q = next((v for (k, g, b), v in queues.items() if k == key[0]), None)
        if q and taken[id(q)] < len(q):
            pairs.append((p, q[taken[id(q)]]))
            taken[id(q)] += 1
        else:
            lone_prof.append(p)
    used = {id(n) for _, n in pairs}
    return pairs, lone_prof, [n for n in ncu if id(n) not in used]


# ---------------------------------------------------------------- comparison

def judge(pv, nv, m):
    """'missing', 'small', 'equal', 'within' or 'differs', and the relative difference."""
    if math.isnan(pv) or math.isnan(nv):
        return "missing", math.inf
    big = max(abs(pv), abs(nv))
    rel = abs(pv - nv) / big if big > 0 else 0.0
    if big < m.min:
        return "small", rel
    if pv == nv:
        return "equal", 0.0
    return ("within" if rel <= m.tol else "differs"), rel


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--profile", required=True, help="wallbench profile file (.h5) with counters")
    ap.add_argument("--ncu-csv", required=True, help="ncu --csv --log-file output of the same program")
    ap.add_argument("--metric", action="append", default=[], help="NCU=COLUMN[:TOL[:MIN]] (repeatable)")
    ap.add_argument("--min-sectors", type=float, default=100000,
                    help="default MIN of a *sectors* column: smaller launches are not judged (default 100000)")
    ap.add_argument("--worst", type=int, default=10, help="launches listed per metric (default 10)")
    ap.add_argument("--by-kernel", action="store_true", help="also per kernel (name + grid + block): summed values")
    ap.add_argument("--out", help="also write the report to this file")
    ap.add_argument("--repeat", help="a second profile of the same program: a launch (by seq) whose count of an "
                    "exact metric (instructions) differs between the two varies run to run (e.g. CUB's decoupled "
                    "look-back spins) and is reported apart, not as a failure")
    a = ap.parse_args()
    at_least_zero(("--min-sectors", a.min_sectors), ("--worst", a.worst))
    metrics = [Metric(s, a.min_sectors) for s in (a.metric or DEFAULT_METRICS)]

    lines = []

    def say(s=""):
        print(s, flush=True)
        lines.append(s)

    ncu, seen = read_ncu(a.ncu_csv)
    absent = [m.ncu for m in metrics if m.ncu not in seen]
    if absent:
        die("--ncu-csv %s has no metric %s (it has: %s)" % (a.ncu_csv, ", ".join(absent), ", ".join(sorted(seen))))
    prof = read_profile(a.profile, [m.column for m in metrics])
    again = {p.seq: p for p in read_profile(a.repeat, [m.column for m in metrics], "--repeat")} if a.repeat else {}
    names = Names(ncu)
    say("profile %s: %d launches; ncu %s: %d launches (names compared %s)"
        % (a.profile, len(prof), a.ncu_csv, len(ncu), "mangled" if names.mangled else "as bare function names"))
    pairs, lone_prof, lone_ncu = match(prof, ncu, names, say)
    failed = bool(lone_prof or lone_ncu)
    for side, lone, key in (("profile", lone_prof, names.prof_key), ("ncu", lone_ncu, names.ncu_key)):
        if lone:
            say("FAIL: %d %s launches have no partner, first: %s %s" % (
                len(lone), side, "seq %d" % lone[0].seq if side == "profile" else "ID %d" % lone[0].id,
                describe(lone[0], names, key)))

    say()
    say("%-44s %9s %7s %7s %7s %7s %7s %7s" % ("metric", "compared", "equal", "within", "small", "missing", "differ",
                                               "varies"))
    worst_lists = []
    for m in metrics:
        count = defaultdict(int)
        rows = []
        for p, n in pairs:
            nv = in_column_unit(*n.values.get(m.ncu, (math.nan, "")), m.column)
            status, rel = judge(p.values[m.column], nv, m)
            twin = again.get(p.seq)
            if status == "differs" and m.tol == 0 and twin is not None and twin.values[m.column] != p.values[m.column]:
                status = "varies"  # the profiler's own two runs disagree: the kernel's count is not deterministic
            count[status] += 1
            rows.append((status, rel, p, n, nv))
        failed |= bool(count["differs"] or count["missing"])
        say("%-44s %9d %7d %7d %7d %7d %7d %7d%s" % (
            (m.ncu + "=" + m.column)[:44], len(rows), count["equal"], count["within"], count["small"],
            count["missing"], count["differs"], count["varies"],
            "" if not (count["differs"] or count["missing"]) else "  FAIL"))
        worst_lists.append((m, rows))
    say()
    for m, rows in worst_lists:
        judged = sorted((r for r in rows if r[0] != "small"), key=lambda r: (r[0] != "missing", -r[1]))
        say("worst %d: %s" % (min(a.worst, len(judged)), m.describe()))
        say("  %6s %6s %-8s %18s %18s %10s  %s" % ("seq", "ncu ID", "status", "profile", "ncu", "rel diff", "kernel"))
        for status, rel, p, n, nv in judged[:a.worst]:
            pv = p.values[m.column]
            if status == "missing":  # say which side lacks the value
                status = "both n/a" if math.isnan(pv) and math.isnan(nv) else "prof n/a" if math.isnan(pv) else "ncu n/a"
            say("  %6d %6d %-8s %18.15g %18.15g %10.3g  %s %s %s" % (
                p.seq, n.id, status, pv, nv, rel, names.prof_key(p)[:70], p.grid, p.block))
        say()
    if a.by_kernel:
        for m, rows in worst_lists:
            per = defaultdict(lambda: [0, 0.0, 0.0])
            for status, rel, p, n, nv in rows:
                if status != "missing":
                    s = per[(names.prof_key(p), p.grid, p.block)]
                    s[0] += 1
                    s[1] += p.values[m.column]
                    s[2] += nv
            say("per kernel: %s (sums over its launches; ratio profile/ncu)" % (m.ncu + "=" + m.column))
            tot_p = sum(v[1] for v in per.values())
            tot_n = sum(v[2] for v in per.values())
            for key, (cnt, sp, sn) in sorted(per.items(), key=lambda kv: -kv[1][2]):
                say("  %5d x %16.15g %16.15g %8.4f  %s %s %s" % (cnt, sp, sn, sp / sn if sn else math.nan,
                                                               key[0][:70], key[1], key[2]))
            say("  total %16.6g %16.6g %8.4f" % (tot_p, tot_n, tot_p / tot_n if tot_n else math.nan))
            say()
    say("RESULT: %s (%d launch pairs, %s)" % ("FAIL" if failed else "PASS", len(pairs),
                                              "; ".join(m.describe() for m in metrics)))
    if a.out:
        try:
            with open(a.out, "w") as f:
                f.write("\n".join(lines) + "\n")
        except OSError as e:
            die("--out %s: %s" % (a.out, e.strerror))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

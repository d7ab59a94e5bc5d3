"""pair_check.py - issue 49 item 3: the headroom the limiter predicts for the slower form of each of
the suite's pairs (harness/tools/pairs.tsv), beside the gain the faster form measures in a record.

  pair_check.py plan RECORD.h5 PAIRS.tsv
      one line per form to profile: pair, role (slow|fast), family, variant, n, point name (TSV)
  pair_check.py table RECORD.h5 PAIRS.tsv DIR
      reads DIR/<pair>-<role>.json (wallbench report PROFILE.h5 --json of each profile) and writes
      DIR/pairs.md and DIR/pairs.json

Rows of the record: status ok, at the pair's n, sm_limit 0 or -1 (all SMs), the `where` axes; the two forms' rows must
agree on every other axis that both have (not NaN, not -1), launch shape and vector_bytes aside; of each form's launch shapes the fastest (report
--shape fastest's rule). When several axis tuples remain, the one where the slow form takes longest.
Predicted gains, two: the slow form's top kernel (the profile's per-kernel limiter table, the L2 flush
kernel and kernels launched fewer than 10 times - the data's set-up - left out) time / its time at the
roofs (its headroom: the same work at every ceiling), and time / its time at its bytes' roof (its
bytes' headroom: its DRAM bytes at the DRAM read ceiling, what a rewrite that keeps the bytes and
cuts instructions, atomics or L2 traffic can reach). Measured gain: slow median / fast median
in the record. The faster form is at its roof when its own top kernel's headroom is <= 1.25 (>= 80%).
Within 25%: for a pair whose faster form is at its roof, |predicted / measured - 1| <= 0.25, judged
for each prediction; `meets_25pct` names which ("roofs", "bytes' roof", "both", "neither"; null when
the faster form is not at its roof). The reason column (what the faster form does less of) is filled
for every pair that no prediction meets within 25%.
pairs.tsv's columns after `where` (a rewrite rule for `wallbench report`) are not read here. The row
rule above is kept once more in C (harness/tools/pairs.c, for `wallbench report PROFILE --suite
RECORD`); tests/test_rewrites.c checks that it picks plan's rows (results/h200-pairs/plan.tsv).
Exit 2 on bad input, with the reason."""
import json
import math
import os
import re
import sys


SHAPE = ("ilp", "occupancy_target", "block", "grid", "regs", "smem_bytes", "blocks_per_sm", "waves",
         "occupancy_theoretical_pct", "vector_bytes_shape")
AXES = ("dtype", "layout", "selectivity", "table_entries", "groups", "expr_ops", "vector_bytes", "columns",
        "load_factor", "match_rate", "partitions", "warm_cache", "l2_fetch_bytes")
FLUSH = re.compile(r"wb_flush_kernel")  # the run's L2 flush between samples, not the form's work
NA = ("nan", "-1", "")                  # an axis that does not apply to a row
MIN_LAUNCHES = 10                       # a timed form: --reps 10 samples, 2 warm-ups, a verified launch
AT_ROOF = 1.25                           # headroom <= 1.25: >= 80% of the roof
COUNTS = ("inst", "dram_sectors_read", "dram_sectors_write")
MET = {"both": "at its roof, within 25% by both predictions", "roofs": "at its roof, within 25% at the roofs",
       "bytes' roof": "at its roof, within 25% at its bytes' roof"}  # the last column where one meets it


def die(msg):
    print("pair_check: " + msg, file=sys.stderr)
    sys.exit(2)


def text(v):
    return v.decode() if isinstance(v, bytes) else str(v)


def read_pairs(path):
    pairs = []
    try:
        lines = open(path).read().splitlines()
    except OSError as e:
        die("%s: %s" % (path, e))
    except UnicodeDecodeError:
        die("%s: not a text file (PAIRS is a .tsv such as harness/tools/pairs.tsv)" % path)
    for k, line in enumerate(lines):
        if not line.strip() or line.startswith("#"):
            continue
        f = line.split("\t")
        if len(f) < 5:
            die("%s:%d: want pair, family, a, b, n[, where]" % (path, k + 1))
        where = {}
        for kv in (f[5] if len(f) > 5 else "").split(","):
            if kv.strip():
                key, _, val = kv.partition("=")
                where[key.strip()] = val.strip()
        try:
            n = int(f[4])
        except ValueError:
            die("%s:%d: n %r is not a number" % (path, k + 1, f[4]))
        pairs.append({"pair": f[0], "family": f[1], "a": f[2], "b": f[3], "n": n, "where": where})
    return pairs


def matches(row, where):
    for key, want in where.items():
        if key not in row.dtype.names:
            die("pairs: no axis %s in the record" % key)
        v = row[key]
        if isinstance(v, (bytes, str)):
            if text(v) != want:
                return False
        elif float(v) != float(want):
            return False
    return True


def fastest(rows):
    """Per axis tuple (AXES), the row of least median time."""
    best = {}
    for r in rows:
        key = tuple(text(r[a]) if a in r.dtype.names else "" for a in AXES)
        if key not in best or r["time_median_ms"] < best[key]["time_median_ms"]:
            best[key] = r
    return best


def choose(points, p):
    fam = points["family"].astype(str)
    var = points["variant"].astype(str)
    ok = (points["status"].astype(str) == "ok") & (points["n"] == p["n"]) & (points["sm_limit"] <= 0)
    forms = {}
    for v in (p["a"], p["b"]):
        rows = [r for r in points[ok & (fam == p["family"]) & (var == v)] if matches(r, p["where"])]
        forms[v] = fastest(rows)
    # vector_bytes is the transform pair's difference (and a shape of expr's): compared only when
    # `where` names it; an axis one form lacks ("nan", -1: does not apply) is not compared
    shared = []
    for key, ra in forms[p["a"]].items():
        for key_b, rb in forms[p["b"]].items():
            if all(x == y or x in NA or y in NA for x, y, a in zip(key, key_b, AXES)
                   if a != "vector_bytes" or "vector_bytes" in p["where"]):
                shared.append((ra, rb))
    if not shared:
        die("pair %s: no rows of both %s and %s at n = %d with %s in the record" %
            (p["pair"], p["a"], p["b"], p["n"], p["where"] or "any axes"))
    ra, rb = max(shared, key=lambda t: max(t[0]["time_median_ms"], t[1]["time_median_ms"]))
    return (ra, rb) if ra["time_median_ms"] >= rb["time_median_ms"] else (rb, ra)


def load_record(path):
    from pydeps import need
    h5py = need("h5py", "numpy")[0]
    from counts_h5 import unreadable
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        die("%s: %s" % (path, unreadable(path, e)))
    with f:
        if "points" not in f:
            die("%s: no /points: not a results file (a profile?)" % path)
        return f["points"][:]


def plan(record, pairs):
    points = load_record(record)
    for p in pairs:
        slow, fast = choose(points, p)
        for role, r in (("slow", slow), ("fast", fast)):
            print("\t".join([p["pair"], role, p["family"], text(r["variant"]), str(int(r["n"])), text(r["name"])]))


def launches_by_time(rep):
    """Launches of each kernel of the report's "Top kernels by time" table, keyed by its total ms
    (the limiter table's rows carry the same total and no launch count)."""
    for t in rep.get("tables", []):
        if t.get("title", "").startswith("Top kernels by time"):
            head = t["table"]["header"]
            if "Launches" in head and "Total ms" in head:
                return {r[head.index("Total ms")]: r[head.index("Launches")] for r in t["table"]["rows"]}
    return {}


def top_kernel(path):
    """The profile report's per-kernel limiter row of the most time among the kernels launched at
    least MIN_LAUNCHES times (the form's kernel runs at every sample; the data's set-up kernels
    once), the flush kernel left out."""
    try:
        rep = json.load(open(path))
    except (OSError, ValueError) as e:
        die("%s: %s" % (path, e))
    launches = launches_by_time(rep)
    for t in rep.get("tables", []):
        if t.get("title", "").startswith("Limiter (issue 49), per kernel"):
            head = t["table"]["header"]
            rows = [dict(zip(head, r)) for r in t["table"]["rows"] if r[0] != "Program" and not FLUSH.search(str(r[0]))]
            rows = [r for r in rows if isinstance(r.get("Time (ms)"), (int, float)) and
                    launches.get(r["Time (ms)"], MIN_LAUNCHES) >= MIN_LAUNCHES]
            if not rows:
                die("%s: no kernel in the per-kernel limiter table" % path)
            top = max(rows, key=lambda r: r["Time (ms)"])
            classes = [h for h in head if h.endswith(" %")]
            top["limiter"] = max(classes, key=lambda h: top[h] if isinstance(top[h], (int, float)) else -1)[:-2]
            return top
    die("%s: no per-kernel limiter table (a report --json of a profile?)" % path)


def count(r, name):
    v = float(r[name]) if name in r.dtype.names else float("nan")
    return float("nan") if v < 0 else v  # -1: not counted (schema 8 on)


def why(slow, fast):
    """What the faster form does less of, from the record's counters of both rows."""
    out = []
    si, fi = count(slow, "inst"), count(fast, "inst")
    sb = count(slow, "dram_sectors_read") + count(slow, "dram_sectors_write")
    fb = count(fast, "dram_sectors_read") + count(fast, "dram_sectors_write")
    if fi > 0 and si / fi >= AT_ROOF:
        out.append("fewer instructions (%.2fx)" % (si / fi))
    if fb > 0 and sb / fb >= AT_ROOF:
        out.append("fewer DRAM bytes (%.2fx)" % (sb / fb))
    if not out:
        out.append("neither fewer instructions nor fewer DRAM bytes (slow / fast %.2fx, %.2fx): the faster form "
                   "uses another resource, not less of the same" %
                   (si / fi if fi > 0 else float("nan"), sb / fb if fb > 0 else float("nan")))
    return "; ".join(out)


def num(v):
    return None if v is None or (isinstance(v, float) and not math.isfinite(v)) else v


def board(path):
    """gpu_name and gpu_uuid of a results file, "" when unreadable."""
    try:
        import h5py
        with h5py.File(path, "r") as f:
            return ("%s %s" % (text(f.attrs.get("gpu_name", "")), text(f.attrs.get("gpu_uuid", "")))).strip()
    except OSError:
        return ""


def table(record, pairs_path, pairs, d):
    points = load_record(record)
    rows = []
    for p in pairs:
        slow, fast = choose(points, p)
        ks = top_kernel(os.path.join(d, "%s-slow.json" % p["pair"]))
        kf = top_kernel(os.path.join(d, "%s-fast.json" % p["pair"]))
        predicted = ks.get("Headroom (x)")
        predicted_bytes = ks.get("Bytes headroom (x)")
        if not isinstance(predicted_bytes, (int, float)):
            predicted_bytes = None  # no DRAM counters or ceiling, or no DRAM bytes
        measured = float(slow["time_median_ms"]) / float(fast["time_median_ms"])
        fast_roof_pct = 100.0 / kf["Headroom (x)"] if isinstance(kf.get("Headroom (x)"), (int, float)) else None
        at_roof = fast_roof_pct is not None and fast_roof_pct >= 100.0 / AT_ROOF

        def within(pred):
            return (abs(pred / measured - 1) <= 0.25) if at_roof and pred else None
        row = {"pair": p["pair"], "family": p["family"], "slow": text(slow["variant"]), "fast": text(fast["variant"]),
               "n": int(slow["n"]), "slow_point": text(slow["name"]), "fast_point": text(fast["name"]),
               "slow_profile": os.path.join(d, "%s-slow.h5" % p["pair"]),
               "fast_profile": os.path.join(d, "%s-fast.h5" % p["pair"]),
               "slow_kernel": ks["Kernel"], "slow_limiter": ks["limiter"], "fast_limiter": kf["limiter"],
               "predicted_gain": num(predicted), "measured_gain": measured, "fast_roof_pct": num(fast_roof_pct),
               "ratio": num(predicted / measured if isinstance(predicted, (int, float)) else None),
               "within_25pct": within(predicted),
               "why_not_seen": None,
               "predicted_gain_bytes": num(predicted_bytes),
               "ratio_bytes": num(predicted_bytes / measured if predicted_bytes is not None else None),
               "within_25pct_bytes": within(predicted_bytes),
               "meets_25pct": None}
        if at_roof:
            row["meets_25pct"] = {(True, True): "both", (True, False): "roofs",
                                  (False, True): "bytes' roof"}.get((bool(row["within_25pct"]),
                                                                     bool(row["within_25pct_bytes"])), "neither")
        if not row["within_25pct"] and not row["within_25pct_bytes"]:  # no prediction within 25%: what the
            row["why_not_seen"] = why(slow, fast)                        # faster form does less of
        rows.append(row)
    ceilings = os.environ.get("WB_PAIR_CEILINGS", "")
    meta = {"record": record, "pairs": pairs_path, "profiles": d, "board": board(record),
            "ceilings": ceilings, "profile_board": board(ceilings) if ceilings else "",
            "command": os.environ.get("WB_PAIR_COMMAND", ""),
            "rule": "record rows: ok, all SMs, the pair's n and where, axes equal where both have them, fastest launch shape per form; predicted "
                    "gain = slow form's top kernel time / time at the roofs (profile, flush kernel left out); "
                    "measured gain = slow / fast median; at the roof = fast form's headroom <= %.2f; predicted gain at "
                    "the bytes' roof = the same kernel's time / its DRAM bytes' time at dram_read; within 25%% judged "
                    "for each prediction where the fast form is at its roof" % AT_ROOF}
    with open(os.path.join(d, "pairs.json"), "w") as f:
        json.dump({"meta": meta, "rows": rows}, f, indent=1)
    heads = ["Pair", "n", "Slow (limiter)", "Fast (limiter)", "Predicted gain (x)", "Measured gain (x)",
             "Fast at roof (%)", "Predicted / measured", "Predicted gain, bytes' roof (x)",
             "Bytes' roof predicted / measured", "Within 25%", "Why the roofline cannot see it"]

    def f(v, fmt):
        return "-" if v is None else fmt % v

    with open(os.path.join(d, "pairs.md"), "w") as out:
        out.write("Pair validation (issue 49 item 3): record %s (board %s); profiles %s/<pair>-slow.h5 and -fast.h5 "
                  "(board %s, ceilings %s).\n\n%s.\n\n" % (record, meta["board"] or "?", d,
                                                          meta["profile_board"] or "?", ceilings or "?", meta["rule"]))
        if meta["command"]:
            out.write("Command: `%s`\n\n" % meta["command"])
        out.write("| " + " | ".join(heads) + " |\n|" + "---|" * len(heads) + "\n")
        for r in rows:
            out.write("| %s | %d | %s (%s) | %s (%s) | %s | %s | %s | %s | %s | %s | %s | %s |\n" % (
                r["pair"], r["n"], r["slow"], r["slow_limiter"], r["fast"], r["fast_limiter"],
                f(r["predicted_gain"], "%.2f"), f(r["measured_gain"], "%.2f"), f(r["fast_roof_pct"], "%.0f"),
                f(r["ratio"], "%.2f"), f(r["predicted_gain_bytes"], "%.2f"), f(r["ratio_bytes"], "%.2f"),
                r["meets_25pct"] or "-", r["why_not_seen"] or MET[r["meets_25pct"]]))
    print(open(os.path.join(d, "pairs.md")).read(), end="")


def main(argv):
    if not argv or len(argv) != {"plan": 3, "table": 4}.get(argv[0]):
        die("usage: pair_check.py plan RECORD.h5 PAIRS.tsv | table RECORD.h5 PAIRS.tsv DIR")
    pairs = read_pairs(argv[2])
    if argv[0] == "plan":
        plan(argv[1], pairs)
    else:
        table(argv[1], argv[2], pairs, argv[3])


if __name__ == "__main__":
    main(sys.argv[1:])

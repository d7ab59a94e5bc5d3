"""The per-query table of docs/ssb.md's measured section from a wallbench results file:
bitmap ms, compressed ms, their ratio, the compressed form's share of its own bytes model
(at the file's dram_read ceiling, or READ_GBS: docs/ssb.md's table used the record's 4,554)
and its G warp inst/s, each form at its fastest launch
shape at SF 100 (n = 600,000,000); then the sums and the best form per query summed.
Usage: python3 results/h200-ssb-compressed/ssb_table.py RESULTS.h5 [READ_GBS]
Exit 0; 1 a query without both forms or a point not ok (listed); 2 (a message) a file without the
dram_read ceiling or without SF 100 points."""
import re
import sys

import h5py

N = 600000000
FORMS = ("bitmap", "compressed")


def main(path, read_override=None):
    with h5py.File(path, "r") as f:
        ceil = [c for c in f["ceilings"][:] if c["name"] == b"dram_read" and c["unit"] == b"GB/s"]
        if not ceil:
            print("ssb_table.py: no dram_read GB/s ceiling in %s" % path, file=sys.stderr)
            return 2
        read_gbs = float(read_override) if read_override else float(ceil[0]["value"])
        best = {}
        bad = []
        for p in f["points"][:]:
            m = re.match(r"ssb/(q\d\.\d)_(\w+?)/", p["name"].decode())
            if not m or m.group(2) not in FORMS or int(p["n"]) != N:
                continue
            if p["status"] != b"ok" or p["verified"] != 1:
                bad.append(p["name"].decode())
                continue
            key = (m.group(1), m.group(2))
            if key not in best or p["time_median_ms"] < best[key]["time_median_ms"]:
                best[key] = p
    queries = sorted({q for q, _ in best})
    if not queries:
        print("ssb_table.py: no ok SF 100 bitmap or compressed point in %s" % path, file=sys.stderr)
        return 2
    print("file %s, read ceiling for the model %.0f GB/s" % (path, read_gbs))
    print("| query | bitmap ms | compressed ms | compressed / bitmap | compressed: % of its model | G inst/s | shape (bitmap; compressed) |")
    print("|---|---|---|---|---|---|---|")
    sums = {form: 0.0 for form in FORMS}
    best_sum, wins, missing = 0.0, 0, []
    for q in queries:
        b, c = best.get((q, "bitmap")), best.get((q, "compressed"))
        if b is None or c is None:
            missing.append(q)
            continue
        tb, tc = float(b["time_median_ms"]), float(c["time_median_ms"])
        model_ms = float(c["bytes_model"]) / (read_gbs * 1e9) * 1e3
        sums["bitmap"] += tb
        sums["compressed"] += tc
        best_sum += min(tb, tc)
        wins += tc < tb
        shape = lambda p: "ilp %d occ %g" % (p["ilp"], p["occupancy_target"])
        print("| %s | %.3f | %.3f | %.2f | %.0f | %.0f | %s; %s |"
              % (q.upper(), tb, tc, tc / tb, 100 * model_ms / tc, float(c["gips"]), shape(b), shape(c)))
    print("| sum | %.2f | %.2f | %.2f | | | |" % (sums["bitmap"], sums["compressed"], sums["compressed"] / sums["bitmap"] if sums["bitmap"] else float("nan")))
    print("best form per query summed: %.2f ms (compressed fastest on %d of %d queries; target <= 9.0 ms)"
          % (best_sum, wins, len(queries) - len(missing)))
    if missing:
        print("queries without both forms: %s" % ", ".join(missing))
    if bad:
        print("points not ok or not verified (left out): %s" % ", ".join(bad))
    return 0 if not missing and not bad else 1


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))

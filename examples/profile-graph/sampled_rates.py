#!/usr/bin/env python3
"""sampled_rates.py PROFILE.h5 [--min-samples N] - where a --sample profile's kernels sat against the
roofs, sample by sample: per kernel (the /launches row a PM sample is attributed to, by most time
inside it), the samples, and the median over them of each sample's warp instructions per second and
DRAM bytes (sectors read + written, 32 B each) per second, its counts over its own length. The
kernels with at least N samples (default 100), most samples first. Markdown on stdout. Needs h5py
and numpy. Exit 0, or 2 on bad input (docs/profiling-measured.md cites it for the timeline figure)."""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "harness", "tools"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("profile")
    ap.add_argument("--min-samples", type=int, default=100)
    a = ap.parse_args()
    from pydeps import need
    h5py, np = need("h5py", "numpy")
    from counts_h5 import table

    try:
        f = h5py.File(a.profile, "r")
    except OSError as e:
        print("sampled_rates.py: %s: %s" % (a.profile, e), file=sys.stderr)
        return 2
    with f:
        if any(t not in f for t in ("samples", "launches", "kernels")) or f["samples"].shape[0] == 0:
            print("sampled_rates.py: %s has no samples: not a --sample profile" % a.profile, file=sys.stderr)
            return 2
        s, launches, kernels = table(f, "samples"), table(f, "launches"), f["kernels"][:]
    s = s[s["launch_id"] >= 0]
    if len(s) == 0:
        print("sampled_rates.py: %s: no sample ran a kernel" % a.profile, file=sys.stderr)
        return 2
    secs = (s["end_ns"] - s["start_ns"]) * 1e-9
    ginst = s["inst"] / secs / 1e9
    gbytes = (s["dram_sectors_read"] + s["dram_sectors_write"]) * 32 / secs / 1e9
    kernel = launches["kernel_id"][s["launch_id"]]
    name = lambda k: kernels["name"][k].decode() if isinstance(kernels["name"][k], bytes) else str(kernels["name"][k])
    print("| kernel | samples | median G warp inst/s | median DRAM GB/s |")
    print("|---|---|---|---|")
    ids, counts = np.unique(kernel, return_counts=True)
    for k, n in sorted(zip(ids, counts), key=lambda kn: -kn[1]):
        if n < a.min_samples:
            continue
        m = kernel == k
        print("| %s | %d | %.1f | %.0f |" % (name(k), n, np.nanmedian(ginst[m]), np.nanmedian(gbytes[m])))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""recompute.py - the numbers of README.md from the two files beside it: the
host time before each point's timed samples (setup_ms: data, plan and
verification) of the points both runs measured, with every core and with
WB_HOST_THREADS=1."""
import os
import h5py
import pandas as pd

here = os.path.dirname(os.path.abspath(__file__))


def points(name):
    with h5py.File(os.path.join(here, name), "r") as f:
        df = pd.DataFrame(f["points"][:]).apply(lambda c: c.str.decode("utf-8") if c.dtype == object else c)
    return df.set_index("name")


every = points("20261201T172008Z-f2bfa90.h5")
one = points("20261201T172117Z-f2bfa90.h5")
both = one.index[one["status"] == "ok"].intersection(every.index[every["status"] == "ok"])
a, b = every.loc[both, "setup_ms"].sum() / 1e3, one.loc[both, "setup_ms"].sum() / 1e3
print("%d points in both runs (%s): setup %.1f s with 16 workers, %.1f s with 1 (%.1fx)"
      % (len(both), ", ".join(sorted(set(every.loc[both, "family"]))), a, b, b / a))

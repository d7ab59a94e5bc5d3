"""counts_h5.py - a table of a results file (/points) or a profile file (/launches, /kernels, ...)
as h5py reads it, with its counts as float64 and NaN where not counted, whichever version wrote it:
results schema 8 and profile schema 3 store counts (unit "warp inst" or "sector" in /columns) as
int64 with -1 where not counted, older files as float64 with NaN. For the scripts that compute with
counts (findings.py, wall_targets.py, shard_equivalence.py, harness/profile/*.py, the examples)."""
import numpy as np

COUNT_UNITS = ("warp inst", "sector", "request")


def count_columns(f):
    """Names of the columns /columns of the open file f gives a count's unit."""
    if "columns" not in f:
        return set()
    cols = f["columns"][:]
    text = lambda v: v.decode() if isinstance(v, bytes) else str(v)
    return {text(n) for n, u in zip(cols["name"], cols["unit"]) if text(u) in COUNT_UNITS}


def table(f, name):
    """f[name][:] with every integer count column as float64, -1 as NaN."""
    t = f[name][:]
    ints = [c for c in count_columns(f) if c in (t.dtype.names or ()) and t.dtype[c].kind == "i"]
    if not ints:
        return t
    out = t.astype([(c, "f8" if c in ints else t.dtype[c]) for c in t.dtype.names])
    for c in ints:
        out[c][t[c] == -1] = np.nan
    return out


def unreadable(path, err, what="a results file"):
    """Why h5py could not open path (err its OSError), in the words every tool's one-line refusal uses."""
    import os
    if not os.path.exists(path):
        return "no such file"
    if os.path.isdir(path):
        return "a folder, not %s" % what
    return "not a readable HDF5 file (%s)" % str(err).splitlines()[0]

"""results_attrs.py - a results file's root attributes with its ceilings as
ceiling_<name>_[<bytes>B_]<unit> entries, whichever schema wrote it: schema 6
keeps the ceilings in /ceilings, older files as those attributes. For the
scripts beside it that read ceilings by their old attribute names."""
import numpy as np

UNIT_KEY = {b"GB/s": "gbps", b"G inst/s": "gips", b"G req/s": "greqs"}


def attrs_with_ceilings(f):
    attrs = {k: f.attrs[k] for k in f.attrs}
    if "ceilings" in f:
        for c in f["ceilings"][:]:
            size = "" if np.isnan(c["size_bytes"]) else "%.0fB_" % c["size_bytes"]
            unit = UNIT_KEY.get(bytes(c["unit"]), "value")
            attrs["ceiling_%s_%s%s" % (c["name"].decode(), size, unit)] = c["value"]
    return attrs

"""pydeps.py - the Python packages a tool reads HDF5 with, or one line saying which are missing.

A tool run where h5py or numpy is not installed said so in a traceback; the README promises a
sentence naming what is missing. need("h5py", "numpy") returns the modules in that order, or prints
"TOOL: needs h5py and numpy (pip install h5py numpy; make test makes a venv with them: harness/deps.sh python)"
and exits 3, the code make plots uses for a missing tool."""
import importlib
import os
import sys


def need(*names):
    mods, missing = [], []
    for name in names:
        try:
            mods.append(importlib.import_module(name))
        except ImportError:
            missing.append(name)
    if missing:
        tool = os.path.basename(sys.argv[0]) or "this tool"
        print("%s: needs %s (pip install %s; make test makes a venv with them: harness/deps.sh python)"
              % (tool, " and ".join(missing), " ".join(missing)), file=sys.stderr)
        sys.exit(3)
    return mods[0] if len(mods) == 1 else tuple(mods)

#!/usr/bin/env bash
# deps.sh build|plots|slurm|python - checks what `make test` / `make run` need and installs
# what is missing where it can (root and an apt that answers). Otherwise it
# prints the exact command and exits 1 (build) or 3 (plots: optional; the
# caller skips figures). WB_NO_INSTALL=1 checks without installing.
# python: the h5py, numpy and pandas of the Python tests (optional). Prints the bin/ folder to put
# first on PATH: none where python3 has them; else build/venv/bin, a venv that pip fills from PyPI
# (Debian 12's system pip refuses to install: PEP 668). Exits 3 where neither works: the tests that
# need them skip, and `make test` says which.
set -u
what=${1:-build}

if [ "$what" = python ]; then
    mods='import h5py, numpy, pandas'
    python3 -c "$mods" 2>/dev/null && exit 0
    venv=$(cd "$(dirname "$0")/.." && pwd)/build/venv
    "$venv/bin/python3" -c "$mods" 2>/dev/null && { echo "$venv/bin"; exit 0; }
    [ "${WB_NO_INSTALL:-0}" = 1 ] && exit 3
    command -v python3 >/dev/null 2>&1 || exit 3
    echo "deps: installing h5py, numpy and pandas into $venv (pip)" >&2
    if { [ -x "$venv/bin/pip" ] || python3 -m venv "$venv" >/dev/null 2>&1; } &&
        timeout 600 "$venv/bin/pip" install -q --disable-pip-version-check --timeout 20 --retries 1 h5py numpy pandas >/dev/null 2>&1 &&
        "$venv/bin/python3" -c "$mods" 2>/dev/null; then
        echo "$venv/bin"; exit 0
    fi
    # No venv (Debian's python3-venv missing) or no PyPI: Debian's own packages, as root.
    rm -rf "$venv"
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && timeout 120 apt-get update -qq >/dev/null 2>&1 &&
        DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq --no-install-recommends \
            python3-h5py python3-numpy python3-pandas >/dev/null 2>&1 && python3 -c "$mods" 2>/dev/null; then
        exit 0
    fi
    echo "deps: could not install h5py, numpy and pandas (no python3 venv, or PyPI did not answer); the tests that need them skip. Install them: python3 -m venv build/venv && build/venv/bin/pip install h5py numpy pandas" >&2
    exit 3
fi

have_header() { for d in /usr/include /usr/include/hdf5/serial /usr/local/include; do [ -f "$d/$1" ] && return 0; done; return 1; }

missing=() lean=
case "$what" in
build)
    command -v cmake >/dev/null 2>&1 || missing+=(cmake)
    have_header hdf5.h && have_header hdf5_hl.h || missing+=(libhdf5-dev)
    have_header benchmark/benchmark.h || missing+=(libbenchmark-dev)
    ;;
plots)
    command -v gnuplot >/dev/null 2>&1 || missing+=(gnuplot-nox)
    ;;
slurm) # the one-node cluster of tests/sh_slurm.sh (optional: the test skips without it)
    PATH=$PATH:/usr/sbin lean=1 # without recommends: no mail server, no X
    command -v slurmctld >/dev/null 2>&1 || missing+=(slurmctld)
    command -v slurmd >/dev/null 2>&1 || missing+=(slurmd)
    command -v munged >/dev/null 2>&1 || missing+=(munge)
    command -v sbatch >/dev/null 2>&1 || missing+=(slurm-client)
    ;;
*) echo "deps.sh: usage: deps.sh build|plots|slurm|python" >&2; exit 2 ;;
esac

if [ "$what" = build ] && ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
    echo "deps: the CUDA toolkit (nvcc, CUPTI, CCCL) is missing; install CUDA 12.6 or newer from NVIDIA's packages and put its bin/ on PATH" >&2
    exit 1
fi
[ ${#missing[@]} -eq 0 ] && exit 0

cmd="apt-get install -y ${missing[*]}"
if [ "${WB_NO_INSTALL:-0}" != 1 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "deps: installing ${missing[*]}" >&2
    if timeout 120 apt-get update -qq >/dev/null 2>&1 &&
        DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq ${lean:+--no-install-recommends} "${missing[@]}" >/dev/null 2>&1; then
        exit 0
    fi
    echo "deps: could not install (no package registry answered?)" >&2
fi
if [ "$what" = slurm ]; then
    echo "deps: Slurm is missing (${missing[*]}); the Slurm test is skipped. Install it as root: apt-get update && $cmd" >&2
    exit 3
fi
if [ "$what" = plots ]; then
    echo "deps: gnuplot is missing, figures are skipped. Install it ($cmd), or copy the results file to a machine with gnuplot and run: make plots RESULTS=<file>" >&2
    exit 3
fi
echo "deps: missing ${missing[*]}. Run as root: apt-get update && $cmd" >&2
exit 1

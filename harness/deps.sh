#!/usr/bin/env bash
# deps.sh build|plots|slurm - checks what `make test` / `make run` need and installs
# what is missing where it can (root and an apt that answers). Otherwise it
# prints the exact command and exits 1 (build) or 3 (plots: optional; the
# caller skips figures). WB_NO_INSTALL=1 checks without installing.
set -u
what=${1:-build}

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
*) echo "deps.sh: usage: deps.sh build|plots|slurm" >&2; exit 2 ;;
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

#!/usr/bin/env python3
"""selftest_fixtures.py - a synthetic `wallbench profile` file and Nsight
Compute CSVs of the same 12 launches, for selftest.sh (CPU only; numpy, h5py).

  selftest_fixtures.py DIR

Writes DIR/profile.h5, DIR/profile_slow.h5 (the same, every kernel 5%
slower) and one CSV per case, each differing from the profile
in one known way: the case name says which, selftest.sh what to expect."""
import os
import sys

import h5py
import numpy as np

LONG = "_Z" + "9very_long" * 60  # a mangled name the profile keeps cut at 511
KERNELS = [  # (mangled, short (the profile's demangled), as ncu demangles it)
    ("_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIdEESt5arrayIPcLm1EEEEviT0_T1_",
     "vectorized_elementwise_kernel",
     "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<double>, "
     "std::array<char *, 1ul>>(int, T2, T3)"),
    ("cupy_less_equal__int32_int_bool", "cupy_less_equal__int32_int_bool", "cupy_less_equal__int32_int_bool"),
    (LONG, "ns::(anon)::very_long", "void ns::(anonymous namespace)::very_long<int, (int)4>(int *, Foo<(bool)1>)"),
    ("_ZN3cub18CUB_300000_900_NS29DeviceRadixSortOnesweepKernelEv", "DeviceRadixSortOnesweepKernel",
     "void cub::CUB_300000_900_NS::DeviceRadixSortOnesweepKernel<cub::Policy, false, int, long>(int *)"),
]
# (kernel, grid, block, inst, dram read, dram write, time ms)
LAUNCHES = [
    (0, (1024, 1, 1), (128, 1, 1), 123456, 2_000_000, 1_000_000, 0.0125),
    (1, (3907, 1, 1), (128, 1, 1), 987654, 500_000, 125_000, 0.0180),
    (2, (64, 2, 1), (256, 1, 1), 4567, 1200, 30, 0.0031),  # small: DRAM not judged
    (3, (2048, 1, 1), (256, 1, 1), 5_000_000, 4_000_000, 4_000_000, 0.2500),
    (0, (1024, 1, 1), (128, 1, 1), 123456, 2_000_000, 1_000_000, 0.0124),
    (1, (3907, 1, 1), (128, 1, 1), 987654, 500_000, 125_000, 0.0181),
    (3, (2048, 1, 1), (256, 1, 1), 5_000_000, 4_000_000, 4_000_000, 0.2490),
    (2, (64, 2, 1), (256, 1, 1), 4567, 1100, 40, 0.0030),
    (0, (512, 1, 1), (128, 1, 1), 61728, 1_000_000, 500_000, 0.0070),
    (1, (3907, 1, 1), (128, 1, 1), 987654, 499_000, 125_000, 0.0179),
    (3, (2048, 1, 1), (256, 1, 1), 5_000_000, 4_000_000, 4_000_000, 0.2510),
    (0, (1024, 1, 1), (128, 1, 1), 123456, 2_000_000, 1_000_000, 0.0126),
]
METRICS = [("dram__sectors_read.sum", "sector", 4), ("dram__sectors_write.sum", "sector", 5),
           ("gpu__time_duration.sum", "nsecond", 6), ("smsp__inst_executed.sum", "inst", 3)]


CAPTURED_AT = 4  # profile_captured.h5: two launches made inside a stream capture before launch 4
CAPTURE_NOTE = b"launched inside a stream capture: recorded into a graph, not run now"


def write_profile(path, time_scale=1.0, captured=False):
    ld = np.dtype([("seq", "<i8"), ("kernel_id", "<i4"), ("range", "<i4"), ("time_ms", "<f8"),
                   ("grid_x", "<i4"), ("grid_y", "<i4"), ("grid_z", "<i4"),
                   ("block_x", "<i4"), ("block_y", "<i4"), ("block_z", "<i4"),
                   ("inst", "<f8"), ("inst_issued", "<f8"), ("dram_sectors_read", "<f8"),
                   ("dram_sectors_write", "<f8"), ("l2_sectors", "<f8"), ("kernel_time_ms", "<f8"),
                   ("counter_note", "S96")])
    launches = [(*x, b"") for x in LAUNCHES]
    if captured:  # recorded into a graph, never run: no counts, no time, and no row in ncu's CSV
        nan = float("nan")
        launches[CAPTURED_AT:CAPTURED_AT] = [(k, g, b, nan, nan, nan, nan, CAPTURE_NOTE)
                                             for k, g, b, *_ in LAUNCHES[:2]]
    rows = np.zeros(len(launches), ld)
    for i, (k, g, b, inst, rd, wr, t, note) in enumerate(launches):
        rows[i] = (i, k, -1, t * time_scale, *g, *b, inst, inst * 1.01, rd, wr, rd + wr, t * time_scale, note)
    rows = rows[::-1]  # stored out of order: the reader sorts by seq
    kd = np.dtype([("kernel_id", "<i4"), ("name", "S512"), ("demangled", "S256")])
    kernels = np.array([(i, m[:511].encode(), s.encode()) for i, (m, s, _) in enumerate(KERNELS)], kd)
    with h5py.File(path, "w") as f:
        f.attrs["file_kind"] = np.bytes_("wallbench-profile")
        f.attrs["profile_schema_version"] = 1
        f.create_dataset("launches", data=rows)
        f.create_dataset("kernels", data=kernels)


def fmt(v):
    """ncu's style: thousands separators on integers."""
    return "{:,}".format(int(v)) if float(v).is_integer() else "%.4f" % v


def launches_for(case):
    ls = [list(x) for x in LAUNCHES]
    if case == "dram_half_pct":
        ls[3][4] = ls[3][4] * 1.005
    if case == "dram_two_pct":
        ls[6][5] = ls[6][5] * 1.02
    if case == "inst_off_by_one":
        ls[9][3] += 1
    if case == "small_differs":
        ls[2][4] = 600  # 50% off, under --min-sectors
    if case == "reordered":
        ls[4], ls[5] = ls[5], ls[4]
    if case == "extra_launch":
        ls.insert(7, [1, (7, 1, 1), (32, 1, 1), 10, 0, 0, 0.001])
    if case == "grid_differs":
        ls[8][1] = (511, 1, 1)
    if case == "graph_nodes":  # a graph launch's two nodes run after launch 7: ncu lists them, the profile not
        ls[8:8] = [[0, (8, 1, 1), (64, 1, 1), 50, 0, 0, 0.001], [1, (9, 1, 1), (64, 1, 1), 60, 0, 0, 0.001]]
    return ls


def raw_csv(case, names="demangled", units="base"):
    q = lambda xs: ",".join('"%s"' % str(x).replace('"', '""') for x in xs)
    ids = ["ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream", "Block Size",
           "Grid Size", "Device", "CC"]
    out = ["==PROF== Connected to process 4242 (/usr/bin/python3.12)",
           "==PROF== Profiling \"kernel\" - 0: 0%....50%....100% - 6 passes",
           q(ids + [m for m, _, _ in METRICS]),
           q([""] * len(ids) + [("Ksector" if units == "dynamic" and u == "sector" else
                                 "usecond" if units == "dynamic" and u == "nsecond" else u)
                                for _, u, _ in METRICS])]
    for i, l in enumerate(launches_for(case)):
        k = KERNELS[l[0]]
        name = k[0] if names == "mangled" else k[2]
        vals = []
        for m, u, at in METRICS:
            v = l[at] * 1e6 if u == "nsecond" else l[at]
            if units == "dynamic" and u != "inst":
                v = v / 1e3  # Ksector, usecond
            vals.append("n/a" if case == "na_value" and i == 1 and m == "smsp__inst_executed.sum" else fmt(v))
        out.append(q([i, 4242, "python3.12", "127.0.0.1", name, 1, 7, "(%d, %d, %d)" % tuple(l[2]),
                      "(%d, %d, %d)" % tuple(l[1]), 0, "9.0"] + vals))
    out.append("==PROF== Disconnected from process 4242")
    return "\n".join(out) + "\n"


def details_csv(case):
    q = lambda xs: ",".join('"%s"' % str(x).replace('"', '""') for x in xs)
    out = [q(["ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream", "Block Size",
              "Grid Size", "Device", "CC", "Section Name", "Metric Name", "Metric Unit", "Metric Value"])]
    for i, l in enumerate(launches_for(case)):
        for m, u, at in METRICS:
            v = l[at] * 1e6 if u == "nsecond" else l[at]
            out.append(q([i, 4242, "python3.12", "127.0.0.1", KERNELS[l[0]][2], 1, 7, "(%d, %d, %d)" % tuple(l[2]),
                          "(%d, %d, %d)" % tuple(l[1]), 0, "9.0", "Command line profiler metrics", m, u, fmt(v)]))
    return "\n".join(out) + "\n"


def main():
    d = sys.argv[1]
    os.makedirs(d, exist_ok=True)
    write_profile(os.path.join(d, "profile.h5"))
    write_profile(os.path.join(d, "profile_slow.h5"), time_scale=1.05)  # kernels 5% slower
    write_profile(os.path.join(d, "profile_captured.h5"), captured=True)
    cases = {
        "equal": raw_csv("equal"),
        "equal_mangled": raw_csv("equal", names="mangled"),
        "equal_dynamic_units": raw_csv("equal", units="dynamic"),
        "equal_details": details_csv("equal"),
        "no_header": "==PROF== Connected to process 1\n==ERROR== The application returned an error code (1).\n",
    }
    for case in ("dram_half_pct", "dram_two_pct", "inst_off_by_one", "small_differs", "reordered", "extra_launch",
                 "grid_differs", "na_value", "graph_nodes"):
        cases[case] = raw_csv(case)
    for name, text in cases.items():
        with open(os.path.join(d, name + ".csv"), "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()

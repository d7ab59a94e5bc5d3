#!/usr/bin/env python3
"""tpch_like.py - a TPC-H-like pipeline on the GPU made only of CuPy's and
PyTorch's own kernels, the test program of `wallbench profile -- CMD`.

  python3 tpch_like.py [--rows N] [--reps R] [--seed S] [--fail | --crash]
                       [--count-launches] [--cpu-check]

Queries (each inside an NVTX range of its name, with sub-ranges):
  Q1      filter on shipdate, price/discount/tax arithmetic (CuPy), group-by
          returnflag+linestatus by scatter-add (torch index_add_)
  Q6      five predicates and a sum of products (CuPy)
  join    lineitem x orders on orderkey: sort of the build side (torch.sort),
          binary-search probe (cupy.searchsorted), revenue per order (Q3)
  topk    the 10 orders of highest revenue (torch.topk)
  groupby quantity per supplier twice: sort + segment sums (torch.sort,
          cupy.searchsorted, torch.cumsum) and scatter (cupy.bincount)
NVTX paths are "datagen", "warmup/<query>/<step>" and "timed/<query>/<step>".

The data are drawn on the GPU from a fixed seed (torch.Generator), so two
runs make the same launches in the same order: the profiler matches its
passes launch by launch. One warm-up run of every query comes first (CuPy
compiles its kernels on first use), then the timed region: the queries R
times, bracketed by torch.cuda.synchronize + time.perf_counter. It prints
  timed_region_ms=<float>        the whole timed region
  query_ms <name> <float>        CUDA-event time of the query, summed over R
Afterwards every query's result (last repetition) is checked against numpy on
a host copy of the full data; a mismatch exits 1.

The default size keeps the whole run near 300 kernel launches (314 on the
H200: results/h200-profile/tpch-both.h5; Nsight Compute with the suite's
35 metrics costs about 0.5 s a launch):
--count-launches counts them with torch.profiler, per phase (not under
another profiler: it is CUPTI too). --fail exits 3 and --crash raises SIGSEGV
right after the first query, for the profiler's fault tests. --cpu-check runs
the same queries with numpy in place of CuPy and torch on the CPU, to check
the queries and their reference without a GPU.
Exit: 0 all verified, 1 a result differs, 2 bad arguments, 3 --fail, 77 this machine cannot run it
(torch or cupy missing, or no CUDA device: one line says which)."""
import argparse
import os
import signal
import sys
import time

import numpy as np

# Day numbers from 1992-01-01, as TPC-H's dates.
SHIP_DAYS = 2557            # l_shipdate in [0, 7 years)
ORDER_DAYS = 2406           # o_orderdate
Q1_CUTOFF = 2436            # 1998-12-01 - 90 days
Q6_FROM, Q6_TO = 731, 1096  # 1994
Q3_DATE = 1169              # 1995-03-15
TOPK = 10


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, default=4_000_000, help="lineitem rows (orders: rows/4)")
    ap.add_argument("--reps", type=int, default=2, help="repetitions of the queries in the timed region")
    ap.add_argument("--seed", type=int, default=1)
    fault = ap.add_mutually_exclusive_group()
    fault.add_argument("--fail", action="store_true", help="exit 3 right after the first query")
    fault.add_argument("--crash", action="store_true", help="raise SIGSEGV right after the first query")
    ap.add_argument("--count-launches", action="store_true",
                    help="count kernel launches per phase with torch.profiler (CUPTI: not under a profiler)")
    ap.add_argument("--cpu-check", action="store_true",
                    help="numpy in place of CuPy, torch on the CPU: checks the queries without a GPU")
    a = ap.parse_args()
    if a.rows < 1000:
        ap.error("--rows %d: at least 1000 rows" % a.rows)
    if a.reps < 1:
        ap.error("--reps %d: at least 1" % a.reps)
    if a.count_launches and a.cpu_check:
        ap.error("--count-launches counts GPU kernels: not with --cpu-check")
    return a


def cannot(why):
    """This machine cannot run the program: one line, exit 77 (not 1: no result differed)."""
    print("tpch_like.py: %s" % why, file=sys.stderr)
    sys.exit(77)


def need(module, what):
    try:
        return __import__(module)
    except ImportError as e:
        cannot("needs %s (pip install %s): %s" % (what, module if module != "cupy" else "cupy-cuda12x", e))


class Backend:
    """CuPy + torch on the GPU, or numpy + torch on the CPU (--cpu-check).
    Arrays cross between the libraries by DLPack, without copies or kernels."""

    def __init__(self, cpu):
        torch = need("torch", "PyTorch")
        self.torch, self.cpu = torch, cpu
        if cpu:
            self.xp, self.dev = np, torch.device("cpu")
        else:
            cupy = need("cupy", "CuPy for CUDA 12 or 13, e.g. cupy-cuda12x")
            if not torch.cuda.is_available():
                cannot("torch sees no CUDA device (use --cpu-check to run on the CPU)")
            self.xp, self.dev = cupy, torch.device("cuda")

    def xp_of(self, t):
        return self.xp.from_dlpack(t)

    def torch_of(self, a):
        return self.torch.from_dlpack(a)

    def torch_mask_of(self, a):
        """A boolean array as a torch bool tensor: through uint8 views, since
        not every DLPack exchange carries booleans (no kernel either way)."""
        return self.torch_of(a.view(self.xp.uint8)).view(self.torch.bool)

    def push(self, name):
        if not self.cpu:
            self.torch.cuda.nvtx.range_push(name)

    def pop(self):
        if not self.cpu:
            self.torch.cuda.nvtx.range_pop()

    def sync(self):
        if not self.cpu:
            self.torch.cuda.synchronize()

    def host(self, x):
        """A numpy copy (device-to-host copies only: no kernel)."""
        if isinstance(x, self.torch.Tensor):
            return x.cpu().numpy()
        return self.xp.asnumpy(x) if not self.cpu else np.asarray(x)


class Range:
    def __init__(self, b, name):
        self.b, self.name = b, name

    def __enter__(self):
        self.b.push(self.name)

    def __exit__(self, *exc):
        self.b.pop()


class Data:
    """lineitem and orders columns, each as a torch tensor (t_*) and, where a
    CuPy query reads it, the same memory as a CuPy array (c_*)."""


def generate(b, rows, seed):
    torch = b.torch
    g = torch.Generator(device=b.dev)
    g.manual_seed(seed)
    n, m = rows, max(rows // 4, 1)
    s = max(rows // 400, 10)
    f64, i32 = torch.float64, torch.int32

    def ints(lo, hi, count, dtype=i32):
        return torch.randint(lo, hi, (count,), generator=g, device=b.dev, dtype=dtype)

    d = Data()
    d.rows, d.orders, d.suppliers = n, m, s
    d.t_qty = ints(1, 51, n, f64)
    d.t_price = ints(900, 105_000, n, f64)
    d.t_disc = ints(0, 11, n, f64) / 100
    d.t_tax = ints(0, 9, n, f64) / 100
    d.t_ship = ints(0, SHIP_DAYS, n)
    d.t_rf = ints(0, 3, n)          # returnflag A, N, R
    d.t_ls = ints(0, 2, n)          # linestatus F, O
    d.t_supp = ints(0, s, n)
    d.t_one = torch.ones(n, dtype=f64, device=b.dev)
    # Orders: distinct sparse keys in shuffled order (an affine permutation of
    # 0..m-1, times 4, as dbgen leaves gaps), and each line's order drawn
    # among them, so that every probe finds its order.
    mult = 1_000_003 if m % 1_000_003 else 999_983
    perm = (torch.arange(m, device=b.dev, dtype=torch.int64) * mult + 12345) % m
    d.t_okey = (perm * 4).to(i32)
    d.t_odate = ints(0, ORDER_DAYS, m)
    d.t_lokey = ints(0, m, n) * 4
    for name in ("qty", "price", "disc", "tax", "ship", "supp", "lokey"):
        setattr(d, "c_" + name, b.xp_of(getattr(d, "t_" + name)))
    return d


def q1(b, d, st):
    torch, xp = b.torch, b.xp
    with Range(b, "filter"):
        keep = xp.less_equal(d.c_ship, Q1_CUTOFF)
    with Range(b, "arith"):
        disc_price = xp.multiply(d.c_price, xp.subtract(1.0, d.c_disc))
        charge = xp.multiply(disc_price, xp.add(1.0, d.c_tax))
    with Range(b, "groupby"):
        # Six groups (returnflag x linestatus); rows filtered out go to a 7th.
        gid = torch.where(b.torch_mask_of(keep), d.t_rf * 2 + d.t_ls, 6)
        cols = torch.stack([d.t_qty, d.t_price, b.torch_of(disc_price), b.torch_of(charge), d.t_disc, d.t_one], 1)
        sums = torch.zeros((7, 6), dtype=torch.float64, device=b.dev).index_add_(0, gid, cols)
    return sums


def q6(b, d, st):
    xp = b.xp
    with Range(b, "filter"):
        m = xp.greater_equal(d.c_ship, Q6_FROM)
        m = xp.logical_and(m, xp.less(d.c_ship, Q6_TO))
        m = xp.logical_and(m, xp.greater_equal(d.c_disc, 0.05))
        m = xp.logical_and(m, xp.less_equal(d.c_disc, 0.07))
        m = xp.logical_and(m, xp.less(d.c_qty, 24))
    with Range(b, "sum"):
        return xp.sum(xp.multiply(xp.multiply(d.c_price, d.c_disc), m))


def join(b, d, st):
    torch, xp = b.torch, b.xp
    with Range(b, "build"):
        skeys, sperm = torch.sort(d.t_okey)
    with Range(b, "probe"):
        pos = b.torch_of(xp.searchsorted(b.xp_of(skeys), d.c_lokey))
        orow = sperm[pos]
        odate = d.t_odate[orow]
    with Range(b, "filter"):
        pred = (odate < Q3_DATE) & (d.t_ship > Q3_DATE)
        rev = torch.where(pred, d.t_price * (1 - d.t_disc), 0.0)
    with Range(b, "aggregate"):
        order_rev = torch.zeros(d.orders, dtype=torch.float64, device=b.dev).index_add_(0, orow, rev)
    st["order_rev"] = order_rev
    return skeys, pos, order_rev


def topk(b, d, st):
    return b.torch.topk(st["order_rev"], TOPK)


def groupby(b, d, st):
    torch, xp = b.torch, b.xp
    with Range(b, "sort"):
        skey, sperm = torch.sort(d.t_supp)
        sval = d.t_qty[sperm]
    with Range(b, "segments"):
        # Segment k of the sorted keys is [bound[k], bound[k+1]); its sum is a
        # difference of the running sum, padded with a leading 0.
        bound = b.torch_of(xp.searchsorted(b.xp_of(skey), xp.arange(d.suppliers + 1, dtype=xp.int32)))
        csum = torch.nn.functional.pad(torch.cumsum(sval, 0), (1, 0))
        by_sort = csum[bound[1:]] - csum[bound[:-1]]
    with Range(b, "scatter"):
        by_scatter = xp.bincount(d.c_supp, weights=d.c_qty, minlength=d.suppliers)
    return by_sort, by_scatter


QUERIES = [("Q1", q1), ("Q6", q6), ("join", join), ("topk", topk), ("groupby", groupby)]


def run_all(b, d, phase, after_first=None, events=None):
    """One run of every query inside the NVTX range `phase`; returns the
    results. events: {name: [(start, end), ...]} CUDA events per query."""
    st, out = {}, {}
    with Range(b, phase):
        for i, (name, fn) in enumerate(QUERIES):
            if events is not None:
                ev = (b.torch.cuda.Event(enable_timing=True), b.torch.cuda.Event(enable_timing=True))
                ev[0].record()
            with Range(b, name):
                out[name] = fn(b, d, st)
            if events is not None:
                ev[1].record()
                events.setdefault(name, []).append(ev)
            if i == 0 and after_first:
                after_first()
    return out


# ---- verification against numpy on a host copy of the data ----

def close(got, want, rtol):
    got, want = np.atleast_1d(np.asarray(got, np.float64)), np.atleast_1d(np.asarray(want, np.float64))
    if got.shape != want.shape:
        return False, float("inf")
    err = np.abs(got - want) / np.maximum(np.abs(want), 1e-300)
    err[(got == want)] = 0.0
    return bool(np.all(err <= rtol)), float(err.max() if err.size else 0.0)


def verify(b, d, out):
    h = {name: b.host(getattr(d, "t_" + name))
         for name in ("qty", "price", "disc", "tax", "ship", "rf", "ls", "supp", "okey", "odate", "lokey")}
    checks = []  # (query, ok, detail)

    # Q1: pandas-free groupby by bincount over the 7 groups.
    keep = h["ship"] <= Q1_CUTOFF
    gid = np.where(keep, h["rf"] * 2 + h["ls"], 6)
    disc_price = h["price"] * (1 - h["disc"])
    charge = disc_price * (1 + h["tax"])
    want = np.stack([np.bincount(gid, weights=c, minlength=7)
                     for c in (h["qty"], h["price"], disc_price, charge, h["disc"], np.ones_like(h["qty"]))], 1)
    ok, err = close(b.host(out["Q1"]), want, 1e-9)
    checks.append(("Q1", ok, "6 groups and the filtered rows x 6 sums, %d rows kept, max rel err %.2e" % (keep.sum(), err)))

    m = ((h["ship"] >= Q6_FROM) & (h["ship"] < Q6_TO) & (h["disc"] >= 0.05) & (h["disc"] <= 0.07) & (h["qty"] < 24))
    ok, err = close(float(out["Q6"]), float(np.sum(h["price"][m] * h["disc"][m])), 1e-9)
    checks.append(("Q6", ok, "revenue over %d rows, rel err %.2e" % (m.sum(), err)))

    skeys, pos, order_rev = (b.host(x) for x in out["join"])
    order_of_key = np.full(int(h["okey"].max()) + 1, -1, dtype=np.int64)
    order_of_key[h["okey"]] = np.arange(d.orders)
    orow = order_of_key[h["lokey"]]
    found = bool(np.all(orow >= 0)) and bool(np.all(skeys[pos] == h["lokey"]))
    pred = (h["odate"][orow] < Q3_DATE) & (h["ship"] > Q3_DATE)
    want_rev = np.bincount(orow, weights=np.where(pred, h["price"] * (1 - h["disc"]), 0.0), minlength=d.orders)
    ok, err = close(order_rev, want_rev, 1e-9)
    checks.append(("join", ok and found, "every probe found its key: %s; revenue of %d orders, max rel err %.2e"
                   % (found, d.orders, err)))

    vals, idx = (b.host(x) for x in out["topk"])
    best = np.sort(want_rev)[::-1][:TOPK]
    ok, err = close(vals, best, 1e-9)
    ok_idx, _ = close(want_rev[idx], vals, 1e-9)
    checks.append(("topk", ok and ok_idx, "top %d revenues and their orders, max rel err %.2e" % (TOPK, err)))

    want_g = np.bincount(h["supp"], weights=h["qty"], minlength=d.suppliers)
    by_sort, by_scatter = (b.host(x) for x in out["groupby"])
    ok_s, _ = close(by_sort, want_g, 0.0)
    ok_h, _ = close(by_scatter, want_g, 0.0)
    checks.append(("groupby", ok_s and ok_h, "%d suppliers, sort-based equal: %s, scatter equal: %s"
                   % (d.suppliers, ok_s, ok_h)))

    for name, ok, detail in checks:
        print("verify %-7s %s  %s" % (name, "ok" if ok else "MISMATCH", detail))
    return all(ok for _, ok, _ in checks)


# ---- launch counting (calibration of --rows/--reps; not under a profiler) ----

def count_phases(b, phases):
    """Runs each (name, fn) under torch.profiler and prints its kernel count
    (Kineto's CUPTI records: CuPy's kernels are counted as well)."""
    import json
    import tempfile
    from torch.profiler import ProfilerActivity, profile
    total = 0
    for name, fn in phases:
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            fn()
            b.sync()
        with tempfile.NamedTemporaryFile(suffix=".json") as f:
            prof.export_chrome_trace(f.name)
            events = json.load(open(f.name)).get("traceEvents", [])
        n = sum(1 for e in events if e.get("cat") == "kernel")
        total += n
        print("launches %s %d" % (name, n))
    print("launches total %d" % total)


def main():
    a = parse_args()
    b = Backend(a.cpu_check)
    t_start = time.perf_counter()

    def stop_early():
        b.sync()
        sys.stdout.flush()
        if a.fail:
            print("tpch_like.py: exiting with 3 after the first query, as --fail asks", flush=True)
            sys.exit(3)
        print("tpch_like.py: raising SIGSEGV after the first query, as --crash asks", flush=True)
        signal.signal(signal.SIGSEGV, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGSEGV)

    box = {}
    events = {} if not a.cpu_check else None

    def gen():
        with Range(b, "datagen"):
            box["d"] = generate(b, a.rows, a.seed)

    def warm():
        run_all(b, box["d"], "warmup", stop_early if (a.fail or a.crash) else None)

    def timed():
        b.sync()
        t0 = time.perf_counter()
        for _ in range(a.reps):
            box["out"] = run_all(b, box["d"], "timed", events=events)
        b.sync()
        box["ms"] = (time.perf_counter() - t0) * 1e3

    if a.count_launches:
        count_phases(b, [("datagen", gen), ("warmup", warm), ("timed", timed)])
    else:
        gen()
        warm()
        timed()
    d = box["d"]
    print("rows=%d orders=%d suppliers=%d reps=%d seed=%d device=%s" %
          (d.rows, d.orders, d.suppliers, a.reps, a.seed,
           "cpu (--cpu-check)" if a.cpu_check else b.torch.cuda.get_device_name()))
    print("timed_region_ms=%.3f" % box["ms"])
    for name, _ in QUERIES:
        if events is not None:
            print("query_ms %s %.3f" % (name, sum(s.elapsed_time(e) for s, e in events[name])))
    ok = verify(b, d, box["out"])
    print("process_s_before_exit=%.3f" % (time.perf_counter() - t_start))
    if not ok:
        print("tpch_like.py: a query's result differs from numpy's (see the MISMATCH lines)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""sector_replay.py - how fast can any kernel read the DRAM sectors of Q2.1, Q2.2 and Q2.3?

  python3 results/h200-issue31/sector_replay.py [OUT.txt]      (needs a GPU and CuPy)

The SSB bytes model prices every 32-byte sector a query needs at the
board's sequential read ceiling. The Q2 queries read lo_partkey whole and
three more columns only at the sectors that hold a row still passing:
lo_suppkey where a row passed part's filter, lo_revenue and lo_orderdate
where it passed supplier's too. This script reads exactly such sector sets,
with nothing else to do: no bitmaps, no queues, many loads in flight. Its
time is a floor for a kernel that reads those sectors on this board, so it
says whether the bytes model is within reach.

Rows pass independently (the suite's generator draws keys uniformly):
part's filter with the query's share (1/25, 1/125, 1/1000), supplier's
with 1/5. Sets read, each as one kernel:
  stream    lo_partkey whole (2.4 GB at SF 100), sequentially;
  model     stream + the three sparse columns: the bytes model's sectors;
  plan      model + lo_partkey again where both filters pass, from a
            separate array so that it comes from DRAM: the bitmap form's
            late reload of the part key (Q2.1's DRAM reads 4% over its
            model in the records);
  sparse    the three sparse columns alone;
  suppwhole model with lo_suppkey read at every sector: what testing both
            bitmaps in the scan would read (Q2.1 only).
Every set is read with 2, 4 and 8 regions of 256 rows per warp per trip
(loads in flight) and the fastest is kept. Each time is the median of 10
after 2 warm-ups, the L2 flushed (a 512 MiB write) before each, with CUDA
events; the L2 fetch is set to 32 bytes as the ssb family sets it. Each
kernel's sum is checked against CuPy's sum of the same elements."""
import statistics
import sys

import cupy as cp
import numpy as np

N = 600_000_000                  # SF 100 lineorder rows
ROWS_PER_SECTOR = 8
SECTORS = N // ROWS_PER_SECTOR   # 75 M, a multiple of 32
REGIONS = SECTORS // 32          # one mask word, 32 sectors, 256 rows
QUERIES = [("q2.1", 1 / 25), ("q2.2", 1 / 125), ("q2.3", 1 / 1000)]
SUPPLIER_SHARE = 1 / 5
SETS = ["stream", "model", "plan", "sparse", "suppwhole"]
UNROLLS = [2, 4, 8]
REPS, WARMUP = 10, 2

SRC = r"""
template <int U>
__device__ void replay(const int4 *__restrict__ key, const unsigned *__restrict__ c1,
                       const unsigned *__restrict__ m1, const unsigned *__restrict__ c2,
                       const unsigned *__restrict__ c3, const unsigned *__restrict__ c4,
                       const unsigned *__restrict__ m2, long long regions, int stream, int reload,
                       unsigned long long *out) {
    const int lane = threadIdx.x & 31;
    const long long warp = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const long long warps = ((long long)gridDim.x * blockDim.x) >> 5;
    unsigned long long acc = 0;
    for (long long r0 = warp * U; r0 < regions; r0 += warps * U) {
        int4 a[U][2];
        unsigned g[U][4];
#pragma unroll
        for (int u = 0; u < U; u++) {
            const long long r = r0 + u;
            a[u][0] = a[u][1] = make_int4(0, 0, 0, 0);
            g[u][0] = g[u][1] = g[u][2] = g[u][3] = 0;
            if (r < regions) {
                if (stream) {
                    a[u][0] = __ldcs(key + r * 64 + lane);
                    a[u][1] = __ldcs(key + r * 64 + 32 + lane);
                }
                const unsigned w1 = __ldg(m1 + r), w2 = __ldg(m2 + r);
                const long long s = r * 256 + lane * 8;
                if ((w1 >> lane) & 1u) g[u][0] = __ldcs(c1 + s);
                if ((w2 >> lane) & 1u) {
                    g[u][1] = __ldcs(c2 + s);
                    g[u][2] = __ldcs(c3 + s);
                    if (reload) g[u][3] = __ldcs(c4 + s);
                }
            }
        }
#pragma unroll
        for (int u = 0; u < U; u++) {
#pragma unroll
            for (int h = 0; h < 2; h++)
                acc += (unsigned long long)(unsigned)a[u][h].x + (unsigned)a[u][h].y + (unsigned)a[u][h].z +
                       (unsigned)a[u][h].w;
            acc += (unsigned long long)g[u][0] + g[u][1] + g[u][2] + g[u][3];
        }
    }
    for (int d = 16; d; d >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, d);
    if (lane == 0) atomicAdd(out, acc);
}
#define ENTRY(U)                                                                                         \
    extern "C" __global__ void replay##U(const int4 *key, const unsigned *c1, const unsigned *m1,       \
                                         const unsigned *c2, const unsigned *c3, const unsigned *c4,    \
                                         const unsigned *m2, long long regions, int stream, int reload, \
                                         unsigned long long *out) {                                     \
        replay<U>(key, c1, m1, c2, c3, c4, m2, regions, stream, reload, out);                           \
    }
ENTRY(2)
ENTRY(4)
ENTRY(8)
"""

CUDA_LIMIT_MAX_L2_FETCH_GRANULARITY = 0x05


def board(props):
    """The board's UUID as nvidia-smi writes it (GPU-xxxxxxxx-...), where CuPy reports one."""
    u = props.get("uuid")
    if isinstance(u, (bytes, bytearray)) and len(u) == 16:
        h = u.hex()
        return f"GPU-{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"
    return "board uuid not reported by CuPy"


def say(out, line):
    print(line, flush=True)
    out.write(line + "\n")


def sector_mask(passing):
    """One bit per sector (8 rows): whether any of its rows passes."""
    any_row = passing.reshape(SECTORS, ROWS_PER_SECTOR).any(axis=1)
    return cp.packbits(any_row, bitorder="little").view(cp.uint32)


def sector_first(c):
    """Each sector's first row: the element the replay reads there."""
    return c[::ROWS_PER_SECTOR]


def expected(cols, m1, m2, stream, reload, sparse):
    """CuPy's sum of the elements a set reads (the first row of each sector)."""
    total = 0
    bits1 = cp.unpackbits(m1.view(cp.uint8), bitorder="little").astype(bool)
    bits2 = cp.unpackbits(m2.view(cp.uint8), bitorder="little").astype(bool)
    if stream:
        total += int(cp.sum(cols["key"], dtype=cp.uint64))
    if sparse:
        total += int(cp.sum(sector_first(cols["supp"])[bits1], dtype=cp.uint64))
        total += int(cp.sum(sector_first(cols["rev"])[bits2], dtype=cp.uint64))
        total += int(cp.sum(sector_first(cols["date"])[bits2], dtype=cp.uint64))
        if reload:
            total += int(cp.sum(sector_first(cols["again"])[bits2], dtype=cp.uint64))
    return total % (1 << 64)


def main():
    out = open(sys.argv[1] if len(sys.argv) > 1 else "/dev/null", "w")
    dev = cp.cuda.Device()
    props = cp.cuda.runtime.getDeviceProperties(dev.id)
    sms = props["multiProcessorCount"]
    cp.cuda.runtime.deviceSetLimit(CUDA_LIMIT_MAX_L2_FETCH_GRANULARITY, 32)
    fetch = cp.cuda.runtime.deviceGetLimit(CUDA_LIMIT_MAX_L2_FETCH_GRANULARITY)
    say(out, f"# {props['name'].decode()} {board(props)}, {sms} SMs, L2 fetch {fetch} B, {N} rows, "
             f"median of {REPS} after {WARMUP} warm-ups, L2 flushed before each")
    mod = cp.RawModule(code=SRC, options=("-std=c++17",))
    kernels = {u: mod.get_function(f"replay{u}") for u in UNROLLS}
    rs = cp.random.RandomState(20261202)
    rows = cp.arange(N, dtype=cp.uint32)
    cols = {name: rows * cp.uint32(2654435761) + cp.uint32(seed)  # any values: only their sums are checked
            for seed, name in enumerate(["key", "supp", "rev", "date", "again"])}
    del rows
    flush = cp.empty(512 << 20, dtype=cp.uint8)
    acc = cp.zeros(1, dtype=cp.uint64)
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    block = 256
    say(out, "| query | set | sectors read (M) | GB | best ms | warps' regions a trip | GB/s |")
    say(out, "|---|---|---|---|---|---|---|")
    for query, part_share in QUERIES:
        pass1 = rs.random_sample(N, dtype=cp.float32) < part_share
        pass2 = pass1 & (rs.random_sample(N, dtype=cp.float32) < SUPPLIER_SHARE)
        m1, m2 = sector_mask(pass1), sector_mask(pass2)
        del pass1, pass2
        s1 = int(cp.unpackbits(m1.view(cp.uint8)).sum())
        s2 = int(cp.unpackbits(m2.view(cp.uint8)).sum())
        for name in SETS:
            if name == "suppwhole" and query != "q2.1":
                continue
            stream = name != "sparse"
            sparse = name != "stream"
            reload = name == "plan"
            zero = cp.zeros(REGIONS, dtype=cp.uint32)
            a1, a2 = (m1, m2) if sparse else (zero, zero)
            n1 = s1
            if name == "suppwhole":
                a1, n1 = cp.full(REGIONS, 0xFFFFFFFF, dtype=cp.uint32), SECTORS
            sectors = (SECTORS if stream else 0) + ((n1 + 2 * s2 + (s2 if reload else 0)) if sparse else 0)
            want = expected(cols, a1, a2, stream, reload, sparse)
            best = None
            for u in UNROLLS:
                regs = -(-kernels[u].num_regs // 8) * 8  # allocated per thread in units of 8
                grid = sms * min(2048 // block, 65536 // (regs * block))  # resident blocks only
                args = (cols["key"], cols["supp"], a1, cols["rev"], cols["date"], cols["again"], a2,
                        np.int64(REGIONS), np.int32(stream), np.int32(reload), acc)
                times = []
                for rep in range(WARMUP + REPS):
                    flush.fill(rep & 0xFF)
                    acc.fill(0)
                    start.record()
                    kernels[u]((grid,), (block,), args)
                    stop.record()
                    stop.synchronize()
                    got = int(acc.get()[0])
                    if got != want:
                        raise SystemExit(f"{query} {name} U={u}: sum {got} != CuPy's {want}")
                    if rep >= WARMUP:
                        times.append(cp.cuda.get_elapsed_time(start, stop))
                t = statistics.median(times)
                if best is None or t < best[0]:
                    best = (t, u)
            gb = sectors * 32 / 1e9
            say(out, f"| {query} | {name} | {sectors / 1e6:.2f} | {gb:.3f} | {best[0]:.3f} | {best[1]} | "
                     f"{gb / best[0] * 1e3:.0f} |")
    out.close()


if __name__ == "__main__":
    main()

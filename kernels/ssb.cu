// ssb.cu - the generator and the five query forms of the ssb family (see
// ssb.h). Every form runs a query as one kernel. Tiled and direct differ in
// the grid (a tile per block vs persistent), how the first column is read
// (striped scalar vs vector), how the date dimension is met (map probe vs
// arithmetic) and where flight 1's sum is reduced (block vs warp); packed
// changes only the direct form's maps and group table; bitmap holds the
// filters that fit as shared-memory bitmaps, tests the first over every row
// and runs the rest of the query over per-warp queues of the rows that pass;
// compressed is the bitmap form's kernel reading bit-packed columns (the
// column access a template parameter: plain int32 or packed).
#include "kernels/ssb.h"
#include "kernels/ssb_pack.h"

#include "kernels/grid_tile.cuh"
#include "kernels/launch.cuh"
#include "kernels/tile.cuh"
#include "kernels/tile_dispatch.cuh"

#include <type_traits>

namespace {

__global__ void generate_kernel(wb_ssb_columns c, wb_ssb_sizes z, uint64_t seed) {
    wb_for_grid_items(c.n, [&](int64_t r) {
        const wb_ssb_line l = wb_ssb_line_at(seed, &z, r);
        c.col[WB_SSB_LO_ORDERDATE][r] = l.orderdate;
        c.col[WB_SSB_LO_CUSTKEY][r] = l.custkey;
        c.col[WB_SSB_LO_PARTKEY][r] = l.partkey;
        c.col[WB_SSB_LO_SUPPKEY][r] = l.suppkey;
        c.col[WB_SSB_LO_QUANTITY][r] = l.quantity;
        c.col[WB_SSB_LO_EXTENDEDPRICE][r] = l.extendedprice;
        c.col[WB_SSB_LO_DISCOUNT][r] = l.discount;
        c.col[WB_SSB_LO_REVENUE][r] = l.revenue;
        c.col[WB_SSB_LO_SUPPLYCOST][r] = l.supplycost;
    });
}

// The compressed form's encoder: one thread a word of the packed column
// (wb_ssb_packed_word), then a check that every value fits the width.
__global__ void pack_kernel(const int32_t *src, int64_t n, int32_t base, int w, uint32_t *dst, int64_t words,
                            int *bad) {
    wb_for_grid_items(words, [&](int64_t k) { dst[k] = wb_ssb_packed_word(src, n, base, w, k); });
    const uint32_t mask = wb_ssb_pack_mask(w);
    wb_for_grid_items(n, [&](int64_t r) {
        if (((uint32_t)src[r] - (uint32_t)base) & ~mask) *bad = 1;
    });
}

__device__ __forceinline__ bool in(int32_t v, int32_t lo, int32_t hi) { return v >= lo && v <= hi; }

// Map probe of one key: the row's share of the group, or -1 (filtered out).
__device__ __forceinline__ int32_t probe_map(const wb_ssb_probe &p, int32_t key) {
    return __ldg(p.map + (p.dim == WB_SSB_DATE ? key - WB_SSB_FIRST_DATE : key));
}
// The packed form's probe: one byte, the code, scaled by the stride.
__device__ __forceinline__ int32_t probe_packed(const wb_ssb_probe &p, int32_t key) {
    const unsigned code = __ldg(p.packed + key);
    return code == WB_SSB_PACKED_NONE ? -1 : (int32_t)code * p.stride;
}
// The date dimension without its table: the yyyymmdd key carries the year.
__device__ __forceinline__ int32_t date_arith(const wb_ssb_query &q, const wb_ssb_probe &p, int32_t key) {
    return in(key, q.date_lo, q.date_hi) ? (key / 10000 - q.year_base) * p.stride : -1;
}
// The lifted forms' probe: date by arithmetic, the others through the int32 or packed map.
template <bool PACKED>
__device__ __forceinline__ int32_t probe_lifted(const wb_ssb_query &q, const wb_ssb_probe &p, int32_t key) {
    if (p.dim == WB_SSB_DATE) return date_arith(q, p, key);
    return PACKED ? probe_packed(p, key) : probe_map(p, key);
}

__device__ __forceinline__ int32_t measure(const wb_ssb_columns &c, int64_t i, bool profit) {
    const int32_t r = c.col[WB_SSB_LO_REVENUE][i];
    return profit ? r - c.col[WB_SSB_LO_SUPPLYCOST][i] : r;
}

// ---- tiled (Crystal) ----

// Loads column x of the tile for flagged items only (Crystal's BlockPredLoad).
template <int BT, int IPT>
__device__ __forceinline__ void pred_load(const int32_t *tile, const int (&flags)[IPT], int32_t (&v)[IPT]) {
#pragma unroll
    for (int i = 0; i < IPT; i++)
        if (flags[i]) v[i] = tile[wb_tile_offset<wb_layout::striped, int32_t, BT, IPT>(threadIdx.x, i)];
}

template <int BT, int IPT, bool FULL>
__device__ __forceinline__ void tiled_flight1_tile(const wb_ssb_columns &c, const wb_ssb_query &q, int64_t base,
                                                   int valid, unsigned long long &sum) {
    int flags[IPT];
    int32_t v[IPT], disc[IPT];
    wb_tile_load<wb_layout::striped, BT, IPT, FULL>(c.col[WB_SSB_LO_ORDERDATE] + base, valid, v);
    wb_tile_flags_init<wb_layout::striped, int32_t, BT, IPT, FULL>(valid, flags);
    wb_tile_pred_and<wb_pred_form::flag>(v, flags, [&](int32_t d) { return in(d, q.date_lo, q.date_hi); });
    pred_load<BT, IPT>(c.col[WB_SSB_LO_QUANTITY] + base, flags, v);
    wb_tile_pred_and<wb_pred_form::flag>(v, flags, [&](int32_t x) { return in(x, q.qty_lo, q.qty_hi); });
    pred_load<BT, IPT>(c.col[WB_SSB_LO_DISCOUNT] + base, flags, disc);
    wb_tile_pred_and<wb_pred_form::flag>(disc, flags, [&](int32_t x) { return in(x, q.disc_lo, q.disc_hi); });
    pred_load<BT, IPT>(c.col[WB_SSB_LO_EXTENDEDPRICE] + base, flags, v);
#pragma unroll
    for (int i = 0; i < IPT; i++)
        if (flags[i]) sum += (unsigned long long)((int64_t)v[i] * disc[i]);
}

template <int BT, int IPT, bool FULL>
__device__ __forceinline__ void tiled_group_tile(const wb_ssb_columns &c, const wb_ssb_query &q, int64_t base,
                                                 int valid) {
    int flags[IPT];
    int32_t group[IPT], v[IPT];
    wb_tile_flags_init<wb_layout::striped, int32_t, BT, IPT, FULL>(valid, flags);
#pragma unroll
    for (int i = 0; i < IPT; i++) group[i] = 0;
#pragma unroll
    for (int p = 0; p < WB_SSB_DIMS; p++) {
        if (p >= q.nprobe) break;
        pred_load<BT, IPT>(q.probe[p].key + base, flags, v);
#pragma unroll
        for (int i = 0; i < IPT; i++) {
            if (!flags[i]) continue;
            const int32_t share = probe_map(q.probe[p], v[i]);
            if (share < 0) flags[i] = 0;
            else group[i] += share;
        }
    }
    const bool profit = q.flight == 4;
#pragma unroll
    for (int i = 0; i < IPT; i++)
        if (flags[i])
            atomicAdd(q.out + group[i],
                      (unsigned long long)(int64_t)measure(c, base + wb_tile_offset<wb_layout::striped, int32_t, BT, IPT>(
                                                                       threadIdx.x, i),
                                                           profit));
}

template <int BT, int IPT, bool FLIGHT1>
__global__ void __launch_bounds__(BT) tiled_kernel(wb_ssb_columns c, wb_ssb_query q) {
    __shared__ unsigned long long warp_sums[BT / 32];
    constexpr int TILE = BT * IPT;
    const int64_t base = (int64_t)blockIdx.x * TILE;
    const int valid = (int)min((int64_t)TILE, c.n - base);
    if constexpr (FLIGHT1) {
        unsigned long long sum = 0;
        if (valid == TILE) tiled_flight1_tile<BT, IPT, true>(c, q, base, valid, sum);
        else tiled_flight1_tile<BT, IPT, false>(c, q, base, valid, sum);
        const unsigned long long total = wb_block_sum<BT>(sum, warp_sums);
        if (threadIdx.x == 0 && total) atomicAdd(q.out, total);
    } else {
        if (valid == TILE) tiled_group_tile<BT, IPT, true>(c, q, base, valid);
        else tiled_group_tile<BT, IPT, false>(c, q, base, valid);
    }
}

// ---- direct (seed 002) ----

// Loads column x at this thread's items still flagged; the others keep v.
// Every flagged item's load is issued before any is used, so a stage has
// ILP independent loads in flight, not a chain of dependent ones per row.
template <int ILP>
__device__ __forceinline__ void flagged_load(const int32_t *__restrict__ x, int64_t base, const bool (&f)[ILP],
                                             int32_t (&v)[ILP]) {
#pragma unroll
    for (int j = 0; j < ILP; j++)
        if (f[j]) v[j] = __ldcs(x + wb_grid_tile<ILP>::index(base, j));
}

// Flight 1 after the date, for N items (f: still passing; v: free): quantity,
// then discount, then the price, each column loaded by load(column, values)
// for the items still passing only, and the passing items' price x discount
// added to sum. The direct form's tiles and the bitmap form's batches share it.
template <int N, typename Cols, typename Load>
__device__ __forceinline__ void flight1_rest(const Cols &c, const wb_ssb_query &q, bool (&f)[N],
                                             int32_t (&v)[N], Load &&load, unsigned long long &sum) {
    int32_t disc[N];
    load(c.col[WB_SSB_LO_QUANTITY], v);
#pragma unroll
    for (int j = 0; j < N; j++) f[j] = f[j] && in(v[j], q.qty_lo, q.qty_hi), disc[j] = 0;
    load(c.col[WB_SSB_LO_DISCOUNT], disc);
#pragma unroll
    for (int j = 0; j < N; j++) f[j] = f[j] && in(disc[j], q.disc_lo, q.disc_hi);
    load(c.col[WB_SSB_LO_EXTENDEDPRICE], v);
#pragma unroll
    for (int j = 0; j < N; j++)
        if (f[j]) sum += (unsigned long long)((int64_t)v[j] * disc[j]);
}

// Flight 1 in stages: the date of every item, then quantity for the items
// still passing, then discount, then the price (a column after the first is
// read only where a row of its sector still passes).
template <int ILP, bool Full>
__device__ __forceinline__ void direct_flight1_tile(const wb_ssb_columns &c, const wb_ssb_query &q, int64_t base,
                                                    unsigned long long &sum) {
    using T = wb_grid_tile<ILP>;
    int32_t v[ILP];
    bool f[ILP];
    T::template load<Full>(c.col[WB_SSB_LO_ORDERDATE], base, c.n, v);
#pragma unroll
    for (int j = 0; j < ILP; j++) f[j] = T::template valid<Full>(base, j, c.n) && in(v[j], q.date_lo, q.date_hi);
    flight1_rest<ILP>(c, q, f, v, [&](const int32_t *x, int32_t(&w)[ILP]) { flagged_load<ILP>(x, base, f, w); }, sum);
}

// The direct and packed forms differ in the map a probe reads and the group
// table the sum goes to (global, or the block's copy in shared memory).
template <int ILP, bool Full, wb_ssb_form FORM>
__device__ __forceinline__ void direct_group_tile(const wb_ssb_columns &c, const wb_ssb_query &q, int64_t base,
                                                  unsigned long long *groups) {
    constexpr bool PACKED = FORM != WB_SSB_DIRECT;
    using T = wb_grid_tile<ILP>;
    int32_t k[ILP];
    T::template load<Full>(q.probe[0].key, base, c.n, k);
    const bool profit = q.flight == 4;
#pragma unroll
    for (int j = 0; j < ILP; j++) {
        if (!T::template valid<Full>(base, j, c.n)) continue;
        int32_t group = probe_lifted<PACKED>(q, q.probe[0], k[j]);
        const int64_t i = T::index(base, j);
#pragma unroll
        for (int p = 1; p < WB_SSB_DIMS; p++) {
            if (p >= q.nprobe || group < 0) break;
            const int32_t share = probe_lifted<PACKED>(q, q.probe[p], q.probe[p].key[i]);
            group = share < 0 ? -1 : group + share;
        }
        if (group >= 0) atomicAdd(groups + group, (unsigned long long)(int64_t)measure(c, i, profit));
    }
}

// ---- bitmap: the first probe over every row, the rest over the survivors ----
//
// The first probe of the bitmap form is always a bitmap (the plan puts them
// first, most selective first); it passes 0.1-20% of the rows at SF 100. A
// tile only tests it and queues the rows that pass in its warp's queue in
// shared memory; the rest of the query runs over full batches of queued
// rows, R per lane. So a dead row costs its first key's load and one bit
// test, not a predicated slot in every later stage (the stage-per-probe
// version issued ~84 instructions a row, 12-20 per DRAM sector: instruction-
// bound as much as latency-bound), and a batch's round trips serve 32 R
// survivors gathered over several tiles instead of the few of one tile.

constexpr int BITMAP_SLOTS = 4;   // R: queued rows a lane takes per batch
constexpr int BITMAP_BATCH = 32 * BITMAP_SLOTS;
constexpr int QUEUE_AGE_BITS = 6; // a queue entry: tile age (6 bits) | lane (5) | item (4)
constexpr int QUEUE_AGE_MAX = (1 << QUEUE_AGE_BITS) - 1;

// A tile's rows are queued 8 items a lane at a time (a drain may follow
// each push), so that ILP 16 needs no larger queue than ILP 8.
__host__ __device__ constexpr int queue_push_items(int ilp) { return ilp < 8 ? ilp : 8; }
// Entries per warp: what a batch leaves (< BITMAP_BATCH) plus one push.
__host__ __device__ constexpr int bitmap_queue_entries(int ilp) { return BITMAP_BATCH + 32 * queue_push_items(ilp); }

__device__ __forceinline__ bool bit_set(const uint32_t *bits, int32_t at, int32_t k) {
    return (bits[at + (k >> 5)] >> (k & 31)) & 1u;
}

// A spread bitmap's bit (wb_ssb_query.cluster; sm_90 on): word w = k / 32
// is held by cluster rank w % 2^lg at local word w >> lg, read over the
// SM-to-SM network from the same offset `at` in that block's shared memory
// (every block of the cluster lays it out alike). The load is volatile so
// that it stays under its row's flag: a dead row's key is not loaded, and
// its address could lie outside the bitmap.
__device__ __forceinline__ bool bit_spread(uint32_t smem, int32_t at, int32_t k, int lg) {
#if __CUDA_ARCH__ >= 900
    const uint32_t u = (uint32_t)k, w = u >> 5;
    uint32_t remote, bits;
    asm("mapa.shared::cluster.u32 %0, %1, %2;"
        : "=r"(remote)
        : "r"(smem + 4u * ((uint32_t)at + (w >> lg))), "r"(w & ((1u << lg) - 1u)));
    asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(bits) : "r"(remote));
    return (bits >> (u & 31)) & 1u;
#else
    return (smem | at | k | lg) == 0; /* never planned below sm_90 (wb_ssb_plan) */
#endif
}

// Every thread of the cluster (of the block, without one): the spread
// bitmaps are in place before any block reads them, and no block leaves
// while another may still read its shared memory.
__device__ __forceinline__ void cluster_sync() {
#if __CUDA_ARCH__ >= 900
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
#else
    __syncthreads();
#endif
}

__device__ __forceinline__ unsigned cluster_rank() {
    unsigned r = 0;
#if __CUDA_ARCH__ >= 900
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
#endif
    return r;
}

// This thread's warp in its block, read afresh where it is used: held across
// the tile loop, ptxas spilled it, and its reload from local memory stalled
// every push (10% of Q2.1's stall samples on the H200). Volatile, so that it
// is neither hoisted nor shared between uses.
__device__ __forceinline__ unsigned warp_in_block() {
    unsigned t;
    asm volatile("mov.u32 %0, %%tid.x;" : "=r"(t));
    return t >> 5;
}

// The row of queue entry e, queued by this warp in its tile number now - age
// (tiles counted per block from 0; the age fits QUEUE_AGE_BITS because the
// queue is drained before its oldest entry is QUEUE_AGE_MAX tiles old).
template <int ILP>
__device__ __forceinline__ int64_t queued_row(unsigned e, int64_t now) {
    const int64_t tile = now - ((now - (int64_t)(e >> 9)) & QUEUE_AGE_MAX);
    const int64_t span = (int64_t)blockDim.x * ILP;
    const int64_t base = ((int64_t)blockIdx.x + tile * gridDim.x) * span;
    const int64_t thread = (int64_t)(threadIdx.x & ~31u) + ((e >> 4) & 31);
    return base + wb_striped_offset<wb_grid_tile<ILP>::vec>(thread, (int)(e & 15), (int64_t)blockDim.x);
}

// Flagged loads of column x at the R rows of a batch (evict-first, as the
// other inputs: read once).
template <int R>
__device__ __forceinline__ void gather(const int32_t *__restrict__ x, const int64_t (&row)[R], const bool (&f)[R],
                                       int32_t (&v)[R]) {
#pragma unroll
    for (int r = 0; r < R; r++)
        if (f[r]) v[r] = __ldcs(x + row[r]);
}

// ---- column access: the bitmap form's plain int32 columns, the compressed
// form's bit-packed ones (kernels/ssb_pack.h). Each plain accessor is the
// load the bitmap form made before the compressed form existed. ----

// Row r of a packed column (kernels/ssb_pack.h's decoder).
__device__ __forceinline__ int32_t unpack_row(const wb_ssb_packed_column &x, int64_t r) {
    return wb_ssb_unpack(x.words, r, x.base, x.width);
}

// A batch's gather of a packed column: each flagged row decoded.
template <int R>
__device__ __forceinline__ void gather(const wb_ssb_packed_column &x, const int64_t (&row)[R], const bool (&f)[R],
                                       int32_t (&v)[R]) {
#pragma unroll
    for (int r = 0; r < R; r++)
        if (f[r]) v[r] = unpack_row(x, row[r]);
}

// One row's load.
__device__ __forceinline__ int32_t load_row(const int32_t *x, int64_t i) { return __ldcs(x + i); }
__device__ __forceinline__ int32_t load_row(const wb_ssb_packed_column &x, int64_t i) { return unpack_row(x, i); }

// The key column of probe p: the probe's own (plain), or the packed
// columns' copy in probe order.
__device__ __forceinline__ const int32_t *probe_key(const wb_ssb_columns &, const wb_ssb_query &q, int p) {
    return q.probe[p].key;
}
__device__ __forceinline__ const wb_ssb_packed_column &probe_key(const wb_ssb_packed_columns &c, const wb_ssb_query &,
                                                                 int p) {
    return c.key[p];
}

// The keys of a tile's first probe, loaded one tile ahead (wb_for_tiles_ahead).
template <int ILP>
struct first_keys {
    int32_t k[ILP];
};

// The compressed form's tile-ahead state: the 4 words from the first of
// each of this thread's runs of 4 consecutive rows (grid_tile.cuh's 16-byte
// layout), decoded only when the tile runs, so that their loads stay in
// flight over the tile before (the plain form's keys do the same). A run's
// fifth word, which only widths above 24 reach, is loaded when the tile
// runs: held ahead, it cost 2 registers at ILP 8.
template <int ILP>
struct first_words {
    static_assert(wb_grid_tile<ILP>::vec == WB_SSB_PACK_RUN, "a lane's run of consecutive rows is wb_ssb_run_load's");
    uint32_t wd[ILP / WB_SSB_PACK_RUN][WB_SSB_PACK_RUN];
    // Left unset: wb_for_tiles_ahead's `V next{}` zeroed the words in every
    // tile before the load overwrote them (a tile it does not load is never
    // decoded; a run past the column's end loads zeros).
    __device__ first_words() {}
};

// What a tile's first column holds ahead: plain, the keys; packed, the words.
template <int ILP>
first_keys<ILP> ahead_of(const int32_t *);
template <int ILP>
first_words<ILP> ahead_of(const wb_ssb_packed_column &);

// Loads a tile's first column, this thread's ILP items (Full: every item exists).
template <int ILP, bool Full>
__device__ __forceinline__ void load_first(const int32_t *x, int64_t base, int64_t n, first_keys<ILP> &v) {
    wb_grid_tile<ILP>::template load<Full>(x, base, n, v.k);
}
// A full tile's runs start at wb_ssb_run_word (32-bit arithmetic from the
// tile's base and the thread); the partial tile's from the row, those past
// the column's end not at all.
template <int ILP, bool Full>
__device__ __forceinline__ void load_first(const wb_ssb_packed_column &x, int64_t base, int64_t n,
                                           first_words<ILP> &v) {
    using T = wb_grid_tile<ILP>;
#pragma unroll
    for (int r = 0; r < ILP / WB_SSB_PACK_RUN; r++) {
        if constexpr (Full) {
            uint32_t sh;
            const uint32_t word = wb_ssb_run_word(base, r, blockDim.x, threadIdx.x, (uint32_t)x.width, &sh);
            wb_ssb_run_load(x.words + word, 1, v.wd[r]);
        } else {
            const int64_t r0 = T::index(base, r * WB_SSB_PACK_RUN);
            wb_ssb_run_load(x.words + (uint64_t)r0 * (uint32_t)x.width / 32u, r0 < n, v.wd[r]);
        }
    }
}

// A tile's keys from what was loaded ahead: plain, as loaded; packed, decoded
// (items past the column's end are not meaningful: first_test skips them).
template <int ILP>
__device__ __forceinline__ const first_keys<ILP> &keys_of(const int32_t *, int64_t, int64_t,
                                                          const first_keys<ILP> &v) {
    return v;
}
// Every run of the thread, in every tile, starts at the same bit of its
// first word: wb_ssb_run_word's sh, 4 t w mod 32. A branch on the width (the
// same in every lane and tile) picks the decode: up to 24 bits one of four
// copies with the pairs of rows 2 and 3 fixed (wb_ssb_run_decode_in: no
// selects; with one copy for every width the fifth word's address and load
// were issued predicated off in every tile), above 24 the general one with
// the run's fifth word, loaded here rather than held ahead.
template <int ILP>
__device__ __forceinline__ first_keys<ILP> keys_of(const wb_ssb_packed_column &x, int64_t base, int64_t n,
                                                   const first_words<ILP> &v) {
    first_keys<ILP> k;
    const uint32_t sh = (4u * threadIdx.x * (uint32_t)x.width) & 31u;
    auto runs = [&](auto decode) {
#pragma unroll
        for (int r = 0; r < ILP / WB_SSB_PACK_RUN; r++) {
            uint32_t wd[WB_SSB_PACK_RUN + 1];
#pragma unroll
            for (int i = 0; i < WB_SSB_PACK_RUN; i++) wd[i] = v.wd[r][i];
            wd[WB_SSB_PACK_RUN] = 0u;
            decode(r, wd, k.k + r * WB_SSB_PACK_RUN);
        }
    };
    auto fixed = [&](int k2, int k3) {
        runs([&](int, const uint32_t(&wd)[WB_SSB_PACK_RUN + 1], int32_t *out) {
            wb_ssb_run_decode_in(wd, sh, x.base, x.width, k2, k3, out);
        });
    };
    // (a tree, not a chain of compares: two tests reach 16-21 bits, SF 100's
    // date, supplier and part keys)
    if (x.width <= 15) {
        if (x.width <= 10) fixed(0, 0);
        else fixed(0, 1);
    } else if (x.width <= 21) {
        fixed(1, 1);
    } else if (x.width <= 24) {
        fixed(1, 2);
    } else
        runs([&](int r, uint32_t(&wd)[WB_SSB_PACK_RUN + 1], int32_t *out) {
            uint32_t s;
            const uint32_t word = wb_ssb_run_word(base, r, blockDim.x, threadIdx.x, (uint32_t)x.width, &s);
            if (wb_grid_tile<ILP>::index(base, r * WB_SSB_PACK_RUN) < n)
                wd[WB_SSB_PACK_RUN] = wb_ssb_run_fifth(x.words + word, s, x.width);
            wb_ssb_run_decode(wd, s, x.base, x.width, out);
        });
    return k;
}

// What a tile's first test reads: flight 1's date range, the first bitmap,
// or the first dimension's 4-bit group codes (WB_SSB_CODE_NONE: filtered out).
enum class first_kind { date, bit, code };

__device__ __forceinline__ unsigned code_at(const uint32_t *codes, int32_t k) {
    return (codes[k >> 3] >> ((k & 7) << 2)) & 15u;
}

// A tile's codes, nibble j for item j: 32 bits up to ILP 8.
template <int ILP>
using tile_codes = std::conditional_t<(ILP > 8), unsigned long long, unsigned>;

// A tile's first test: bit j of the result says whether item j passed it.
// test(key) is a bool, or for first_kind::code the key's code, which lands
// in nibble j of codes.
template <int ILP, bool Full, first_kind KIND, typename Test>
__device__ __forceinline__ unsigned first_test(const first_keys<ILP> &v, int64_t base, int64_t n, Test &&test,
                                               tile_codes<ILP> &codes) {
    using T = wb_grid_tile<ILP>;
    unsigned pass = 0;
#pragma unroll
    for (int j = 0; j < ILP; j++) {
        if constexpr (KIND == first_kind::code) {
            if (!T::template valid<Full>(base, j, n)) continue;
            const unsigned code = test(v.k[j]);
            if (code != WB_SSB_CODE_NONE) pass |= 1u << j;
            codes |= (tile_codes<ILP>)code << (4 * j);
        } else if (T::template valid<Full>(base, j, n) && test(v.k[j])) {
            pass |= 1u << j;
        }
    }
    return pass;
}

// A queue entry: tile age (6 bits) | lane (5) | item (4), and where the
// rows carry their first probe's code, the code in bits 16-19 (the age is
// read modulo 64 from e >> 9, so the code above it does not disturb it).
template <bool CODES>
using queue_entry = std::conditional_t<CODES, uint32_t, uint16_t>;

// Queues the items first + i of tile t whose bit i of `pass` is set at
// wq[held..], in lane order (with their codes, nibble j of `codes` for item
// j, when CODES); returns the new count.
template <bool CODES, typename Codes>
__device__ __forceinline__ int queue_push(queue_entry<CODES> *wq, int held, unsigned pass, Codes codes, int first,
                                          int64_t t) {
    int total;
    const int at = held + wb_warp_exclusive_sum(__popc(pass), total);
    const unsigned tag = ((unsigned)t & QUEUE_AGE_MAX) << 9 | (threadIdx.x & 31) << 4;
    for (int i = 0; pass; i++, pass &= pass - 1) {
        const int item = first + __ffs(pass) - 1;
        if constexpr (CODES) wq[at + i] = tag | item | (unsigned)((codes >> (4 * item)) & 15u) << 16;
        else wq[at + i] = (uint16_t)(tag | item);
    }
    return held + total;
}

// Probe p's stage over a batch's R rows a lane (f: the rows still passing):
// its keys (key: its column; left in k), then its bit (SPREAD: in the cluster's shared
// memory) or, for date arithmetic and the packed maps, its share of the group.
template <int R, bool SPREAD, typename Key>
__device__ __forceinline__ void batch_probe(const wb_ssb_query &q, const wb_ssb_probe &pr, const Key &key,
                                            const int64_t (&row)[R], bool (&f)[R], int32_t (&group)[R],
                                            int32_t (&k)[R], const uint32_t *bits, int32_t at, int lg) {
    gather<R>(key, row, f, k);
    if (pr.bits) {
        if constexpr (SPREAD) {
            const uint32_t smem = (uint32_t)__cvta_generic_to_shared(bits);
#pragma unroll
            for (int r = 0; r < R; r++) f[r] = f[r] && bit_spread(smem, at, k[r], lg);
        } else {
#pragma unroll
            for (int r = 0; r < R; r++) f[r] = f[r] && bit_set(bits, at, k[r]);
        }
    } else {
#pragma unroll
        for (int r = 0; r < R; r++) {
            if (!f[r]) continue;
            const int32_t share = probe_lifted<true>(q, pr, k[r]);
            f[r] = share >= 0;
            group[r] += share;
        }
    }
}

// The probes a batch runs in stages: all but the date where it is tested
// last, with the measures.
__host__ __device__ __forceinline__ int staged_probes(const wb_ssb_query &q) { return q.nprobe - (q.date_last ? 1 : 0); }

// Whether probe p is not a grouped bitmap dimension whose code a batch looks
// up late, in its packed map (not the first's when CODES: its rows brought
// their codes from the queue).
template <bool CODES>
__device__ __forceinline__ bool no_late_code(const wb_ssb_probe &pr, int p, int staged) {
    return p >= staged || !pr.bits || !pr.grouped || (CODES && p == 0);
}

// The query from probe FROM on for a batch's R rows a lane: the probes in
// stages, then the measures with the date where it is tested last, then the
// late codes, then the group sums. With R rows a lane the late codes take two
// trips after the measures (the key again, then the packed map): holding the
// keys costs registers that the tile loop spills at ILP 8. With one row a
// lane (a compacted batch) they cost one: a later stage's key stays in its
// register, an earlier one's is read with the measures.
template <int R, int FROM, bool CODES, bool SPREAD, typename Cols>
__device__ __forceinline__ void batch_rest(const Cols &c, const wb_ssb_query &q, const int64_t (&row)[R],
                                           bool (&f)[R], int32_t (&group)[R], unsigned long long *groups,
                                           const uint32_t *bits, const int32_t (&bits_at)[WB_SSB_DIMS], int lg) {
    constexpr bool KEEP = R == 1;
    int32_t k[R], kept[WB_SSB_DIMS];
    const int staged = staged_probes(q);
#pragma unroll
    for (int p = FROM; p < WB_SSB_DIMS; p++) {
        if (p >= staged) break;
        batch_probe<R, SPREAD>(q, q.probe[p], probe_key(c, q, p), row, f, group, k, bits, bits_at[p], lg);
        if constexpr (KEEP) kept[p] = k[0];
    }
    int32_t m[R], cost[R];
#pragma unroll
    for (int r = 0; r < R; r++) m[r] = 0, cost[r] = 0;
    gather<R>(c.col[WB_SSB_LO_REVENUE], row, f, m);
    if (q.flight == 4) gather<R>(c.col[WB_SSB_LO_SUPPLYCOST], row, f, cost);
    if constexpr (KEEP) {
#pragma unroll
        for (int p = 0; p < FROM; p++)
            if (!no_late_code<CODES>(q.probe[p], p, staged) && f[0]) kept[p] = load_row(probe_key(c, q, p), row[0]);
    }
    if (q.date_last) {
        int32_t stride = 0;
#pragma unroll
        for (int p = 0; p < WB_SSB_DIMS; p++)
            if (p == q.nprobe - 1) stride = q.probe[p].stride;
        gather<R>(c.col[WB_SSB_LO_ORDERDATE], row, f, k);
#pragma unroll
        for (int r = 0; r < R; r++)
            f[r] = f[r] && in(k[r], q.date_lo, q.date_hi), group[r] += (k[r] / 10000 - q.year_base) * stride;
    }
    // A grouped bitmap dimension's code, only for rows that passed every
    // filter (batches run seldom: the trips they take are shared by the many
    // tiles that filled the queue).
#pragma unroll
    for (int p = 0; p < WB_SSB_DIMS; p++) {
        const wb_ssb_probe &pr = q.probe[p];
        if (no_late_code<CODES>(pr, p, staged)) continue;
        if constexpr (KEEP) {
            if (f[0]) group[0] += (int32_t)__ldg(pr.packed + kept[p]) * pr.stride;
        } else {
            gather<R>(probe_key(c, q, p), row, f, k);
#pragma unroll
            for (int r = 0; r < R; r++)
                if (f[r]) group[r] += (int32_t)__ldg(pr.packed + k[r]) * pr.stride;
        }
    }
#pragma unroll
    for (int r = 0; r < R; r++)
        if (f[r]) atomicAdd(groups + group[r], (unsigned long long)(int64_t)(m[r] - cost[r]));
}

// The rest of the query for a batch of queued rows (f: the slots in use;
// slots: their entries in the warp's queue, slot r x 32 + lane; now: the
// tile queued last). COMPACT (the plan's choice, wb_ssb_plan_compacts): the
// probe after the first is a bitmap (at SF 100 Q4.1-Q4.3's, passing 1/25-1/5
// of the rows); its stage runs over the batch's R rows a lane, and the rows
// that pass are compacted, their entries moved to the front of the batch's
// slots, so that the rest runs over one row a lane: most of a batch's slots
// are dead after that stage, and every later stage's instructions ran for
// them too (predicated off). A kernel holds one path or the other, since
// holding both spilled at ILP 8.
template <int ILP, int R, bool CODES, bool SPREAD, bool COMPACT, typename Cols>
__device__ __forceinline__ void bitmap_batch(const Cols &c, const wb_ssb_query &q,
                                             queue_entry<CODES> *slots, int64_t now, const int64_t (&row)[R],
                                             const int32_t (&code)[R], bool (&f)[R], unsigned long long *groups,
                                             const uint32_t *bits, const int32_t (&bits_at)[WB_SSB_DIMS], int lg) {
    int32_t group[R];
#pragma unroll
    for (int r = 0; r < R; r++) group[r] = CODES ? code[r] * q.probe[0].stride : 0;
    if constexpr (!COMPACT) {
        batch_rest<R, 1, CODES, SPREAD>(c, q, row, f, group, groups, bits, bits_at, lg);
        return;
    }
    int32_t k[R];
    batch_probe<R, SPREAD>(q, q.probe[1], probe_key(c, q, 1), row, f, group, k, bits, bits_at[1], lg);
    // Slot r's entries move to [alive, alive + its count): no further than
    // their own slot, so a slot is read whole before any of it is written
    // and no later slot is touched.
    const unsigned lane = threadIdx.x & 31, below = (1u << lane) - 1u;
    int alive = 0;
#pragma unroll
    for (int r = 0; r < R; r++) {
        const unsigned b = __ballot_sync(0xffffffffu, f[r]);
        const queue_entry<CODES> e = f[r] ? slots[r * 32 + lane] : 0;
        __syncwarp();
        if (f[r]) slots[alive + __popc(b & below)] = e;
        alive += __popc(b);
    }
    __syncwarp();
    for (int s = 0; s < alive; s += 32) {
        bool f1[1] = {s + (int)lane < alive};
        const unsigned e = f1[0] ? slots[s + lane] : 0u;
        const int64_t row1[1] = {f1[0] ? queued_row<ILP>(e, now) : 0};
        int32_t group1[1] = {CODES ? (int32_t)(e >> 16) * q.probe[0].stride : 0};
        batch_rest<1, 2, CODES, SPREAD>(c, q, row1, f1, group1, groups, bits, bits_at, lg);
    }
}

// Runs the warp's queued rows through batch(slots, now, row, code, f) (slots:
// the batch's entries in the queue, which it may reorder) in batches of
// BITMAP_BATCH (all of them when `all`, the last batch partial), moves what
// is left to the queue's front and returns its count. now: the number of the
// tile queued last.
template <int ILP, bool CODES, typename Batch>
__device__ __forceinline__ int queue_drain(queue_entry<CODES> *wq, int held, bool all, int64_t now, Batch &&batch) {
    constexpr int R = BITMAP_SLOTS;
    const int lane = threadIdx.x & 31;
    int s0 = 0;
    for (; s0 + BITMAP_BATCH <= held || (all && s0 < held); s0 += BITMAP_BATCH) {
        int64_t row[R];
        int32_t code[R];
        bool f[R];
#pragma unroll
        for (int r = 0; r < R; r++) {
            const int s = s0 + r * 32 + lane;
            f[r] = s < held;
            if constexpr (CODES) {
                const unsigned e = f[r] ? wq[s] : 0;
                row[r] = f[r] ? queued_row<ILP>(e, now) : 0;
                code[r] = (int32_t)(e >> 16);
            } else {
                row[r] = f[r] ? queued_row<ILP>(wq[s], now) : 0;
                code[r] = 0;
            }
        }
        batch(wq + s0, now, row, code, f);
    }
    __syncwarp(); /* every lane has read its entries before any is overwritten */
    const int rest = held - s0;
    if (rest <= 0) return 0;
    queue_entry<CODES> keep[R];
#pragma unroll
    for (int r = 0; r < R; r++)
        if (r * 32 + lane < rest) keep[r] = wq[s0 + r * 32 + lane];
    __syncwarp();
#pragma unroll
    for (int r = 0; r < R; r++)
        if (r * 32 + lane < rest) wq[r * 32 + lane] = keep[r];
    __syncwarp();
    return rest;
}

// Copies n words (a multiple of 4) to shared memory, 16 bytes a load and
// four loads in flight per thread: a block's ~200 KB of bitmaps arrive in
// a few L2 round trips, once per block.
__device__ __forceinline__ void copy_words(uint32_t *dst, const uint32_t *__restrict__ src, int32_t n) {
    const int vecs = n / 4;
    const uint4 *s = reinterpret_cast<const uint4 *>(src);
    uint4 *d = reinterpret_cast<uint4 *>(dst);
    for (int v0 = threadIdx.x; v0 < vecs; v0 += 4 * blockDim.x) {
        uint4 x[4];
#pragma unroll
        for (int u = 0; u < 4; u++)
            if (v0 + u * (int)blockDim.x < vecs) x[u] = __ldg(s + v0 + u * blockDim.x);
#pragma unroll
        for (int u = 0; u < 4; u++)
            if (v0 + u * (int)blockDim.x < vecs) d[v0 + u * blockDim.x] = x[u];
    }
}

// Copies this block's share of a spread bitmap of n words (words rank,
// rank + 2^lg, ...) to shared memory.
__device__ __forceinline__ void copy_spread(uint32_t *dst, const uint32_t *__restrict__ src, int32_t n, unsigned rank,
                                            int lg) {
    const int local = wb_ssb_spread_words(n, lg);
    for (int w = threadIdx.x; w < local; w += blockDim.x) {
        const int g = (w << lg) + (int)rank;
        dst[w] = g < n ? __ldg(src + g) : 0u;
    }
}

// Flight 1 as direct, the direct form (global group table), and the packed
// form (the block's group table in shared memory).
template <int ILP, bool FLIGHT1, wb_ssb_form FORM>
__global__ void direct_kernel(wb_ssb_columns c, wb_ssb_query q) {
    if constexpr (FLIGHT1) {
        unsigned long long sum = 0;
        wb_for_tiles<ILP>(c.n, [&](int64_t base, auto full) {
            direct_flight1_tile<ILP, decltype(full)::value>(c, q, base, sum);
        });
        sum = wb_warp_sum(sum);
        if ((threadIdx.x & 31) == 0 && sum) atomicAdd(q.out, sum);
    } else if constexpr (FORM == WB_SSB_DIRECT) {
        wb_for_tiles<ILP>(c.n, [&](int64_t base, auto full) {
            direct_group_tile<ILP, decltype(full)::value, FORM>(c, q, base, q.out);
        });
    } else {
        extern __shared__ unsigned long long block_groups[];
        for (int64_t g = threadIdx.x; g < q.groups; g += blockDim.x) block_groups[g] = 0;
        __syncthreads();
        wb_for_tiles<ILP>(c.n, [&](int64_t base, auto full) {
            direct_group_tile<ILP, decltype(full)::value, FORM>(c, q, base, block_groups);
        });
        __syncthreads();
        for (int64_t g = threadIdx.x; g < q.groups; g += blockDim.x)
            if (block_groups[g]) atomicAdd(q.out + g, block_groups[g]);
    }
}

// Tests the first column of every tile (first: plain or packed; keys loaded one tile ahead) with
// test(key) (first_test), queues the rows that pass in the warp's queue
// (queues: the block's, bitmap_queue_entries(ILP) a warp; with their codes
// for first_kind::code) and runs them through batch (queue_drain) in full
// batches (the last ones partial).
template <int ILP, first_kind KIND, typename First, typename Test, typename Batch>
__device__ __forceinline__ void queued_scan(const First &first, int64_t n,
                                            queue_entry<KIND == first_kind::code> *queues, Test &&test,
                                            Batch &&batch) {
    constexpr bool CODES = KIND == first_kind::code;
    constexpr int ENTRIES = bitmap_queue_entries(ILP);
    // Warp-uniform: the queue's count, the tile number, the tile of its oldest entry.
    int held = 0;
    int64_t t = 0, oldest = 0;
    constexpr int PUSH = queue_push_items(ILP);
    using ahead_t = decltype(ahead_of<ILP>(first));
    wb_for_tiles_ahead<ILP, ahead_t>(
        n,
        [&](int64_t base, bool full, ahead_t &v) {
            if (full) load_first<ILP, true>(first, base, n, v);
            else load_first<ILP, false>(first, base, n, v);
        },
        [&](int64_t base, bool full, const ahead_t &ahead) {
            tile_codes<ILP> codes = 0;
            queue_entry<CODES> *wq = queues + warp_in_block() * ENTRIES;
            const auto &v = keys_of<ILP>(first, base, n, ahead);
            const unsigned pass = full ? first_test<ILP, true, KIND>(v, base, n, test, codes)
                                       : first_test<ILP, false, KIND>(v, base, n, test, codes);
#pragma unroll
            for (int at = 0; at < ILP; at += PUSH) {
                const int before = held;
                held = queue_push<CODES>(wq, held, (pass >> at) & ((1u << PUSH) - 1), codes, at, t);
                __syncwarp();
                if (before == 0) oldest = t;
                const bool aged = held > 0 && t - oldest >= QUEUE_AGE_MAX - 1;
                if (held >= BITMAP_BATCH || aged) {
                    held = queue_drain<ILP, CODES>(wq, held, aged, t, batch);
                    if (held) oldest = t - ((t - (int64_t)(wq[0] >> 9)) & QUEUE_AGE_MAX);
                }
            }
            t++;
        });
    if (held) queue_drain<ILP, CODES>(queues + warp_in_block() * ENTRIES, held, true, t - 1, batch);
}

// The bitmap form: shared memory holds the bitmaps (in probe order; the
// first one as 4-bit codes for first_kind::code, whose queue entries carry
// them), the block's group table, then each warp's queue; flight 1
// (first_kind::date) holds the queues only: its first test is the date
// range, its batches the rest of flight 1. At most 1024 threads, so that one
// block of 1024 fits beside ~200 KB of bitmaps (64 registers a thread: the
// batches' 4 slots a lane spilled at 32).
#define WB_SSB_BITMAP_BLOCK 1024
// SPREAD: launched in clusters of q.cluster blocks, the bitmaps after the
// first spread over them (wb_ssb_query.cluster).
// COMPACT: its batches compacted after the second probe (bitmap_batch).
// Cols: wb_ssb_columns (the bitmap form) or wb_ssb_packed_columns (compressed).
template <int ILP, first_kind KIND, bool SPREAD, bool COMPACT, typename Cols>
__device__ __forceinline__ void bitmap_body(const Cols &c, const wb_ssb_query &q) {
    using rows_t = const int64_t(&)[BITMAP_SLOTS];
    using codes_t = const int32_t(&)[BITMAP_SLOTS];
    using flags_t = bool(&)[BITMAP_SLOTS];
    constexpr int ENTRIES = bitmap_queue_entries(ILP);
    extern __shared__ __align__(16) uint32_t block_bits[];
    if constexpr (KIND == first_kind::date) {
        unsigned long long sum = 0;
        queued_scan<ILP, KIND>(
            c.col[WB_SSB_LO_ORDERDATE], c.n, reinterpret_cast<uint16_t *>(block_bits),
            [&](int32_t d) { return in(d, q.date_lo, q.date_hi); },
            [&](uint16_t *, int64_t, rows_t row, codes_t, flags_t f) {
                int32_t v[BITMAP_SLOTS] = {};
                flight1_rest<BITMAP_SLOTS>(
                    c, q, f, v, [&](const auto &x, int32_t(&w)[BITMAP_SLOTS]) { gather<BITMAP_SLOTS>(x, row, f, w); },
                    sum);
            });
        sum = wb_warp_sum(sum);
        if ((threadIdx.x & 31) == 0 && sum) atomicAdd(q.out, sum);
        return;
    }
    int32_t bits_at[WB_SSB_DIMS]; /* word offsets, not pointers: 4 registers, not 8 */
    int32_t words = 0;
    const int lg = SPREAD ? 31 - __clz(q.cluster) : 0;
#pragma unroll
    for (int p = 0; p < WB_SSB_DIMS; p++) {
        bits_at[p] = words;
        if (p < q.nprobe && q.probe[p].bits) {
            if (SPREAD && p > 0) {
                copy_spread(block_bits + words, q.probe[p].bits, q.probe[p].bits_words, cluster_rank(), lg);
                words += wb_ssb_spread_words(q.probe[p].bits_words, lg);
            } else {
                copy_words(block_bits + words, q.probe[p].bits, q.probe[p].bits_words);
                words += q.probe[p].bits_words;
            }
        }
    }
    unsigned long long *block_groups = reinterpret_cast<unsigned long long *>(block_bits + words);
    constexpr bool CODES = KIND == first_kind::code;
    queue_entry<CODES> *queues = reinterpret_cast<queue_entry<CODES> *>(block_groups + q.groups);
    for (int64_t g = threadIdx.x; g < q.groups; g += blockDim.x) block_groups[g] = 0;
    if constexpr (SPREAD) cluster_sync();
    else __syncthreads();
    auto batch = [&](queue_entry<CODES> *slots, int64_t now, rows_t row, codes_t code, flags_t f) {
        bitmap_batch<ILP, BITMAP_SLOTS, CODES, SPREAD, COMPACT>(c, q, slots, now, row, code, f, block_groups,
                                                                block_bits, bits_at, lg);
    };
    if constexpr (CODES)
        queued_scan<ILP, KIND>(probe_key(c, q, 0), c.n, queues, [&](int32_t k) { return code_at(block_bits, k); },
                               batch);
    else
        queued_scan<ILP, KIND>(probe_key(c, q, 0), c.n, queues, [&](int32_t k) { return bit_set(block_bits, 0, k); },
                               batch);
    __syncthreads();
    for (int64_t g = threadIdx.x; g < q.groups; g += blockDim.x)
        if (block_groups[g]) atomicAdd(q.out + g, block_groups[g]);
    if constexpr (SPREAD) cluster_sync();
}

template <int ILP, first_kind KIND, bool SPREAD, bool COMPACT>
__global__ void __launch_bounds__(WB_SSB_BITMAP_BLOCK, 1) bitmap_kernel(wb_ssb_columns c, wb_ssb_query q) {
    bitmap_body<ILP, KIND, SPREAD, COMPACT>(c, q);
}

// The compressed form: the same kernel over the packed columns.
template <int ILP, first_kind KIND, bool SPREAD, bool COMPACT>
__global__ void __launch_bounds__(WB_SSB_BITMAP_BLOCK, 1) compressed_kernel(wb_ssb_packed_columns c, wb_ssb_query q) {
    bitmap_body<ILP, KIND, SPREAD, COMPACT>(c, q);
}

using query_kernel_t = void (*)(wb_ssb_columns, wb_ssb_query);
using packed_kernel_t = void (*)(wb_ssb_packed_columns, wb_ssb_query);

// The forms that run the bitmap form's kernel and plan (compressed: over the packed columns).
bool is_queued(wb_ssb_form form) { return form == WB_SSB_BITMAP || form == WB_SSB_COMPRESSED; }

// Whether a query runs the bitmap form in clusters.
bool is_spread(wb_ssb_form form, const wb_ssb_query *q) {
    return is_queued(form) && q->flight != 1 && q->cluster > 1;
}

// Whether the bitmap form's batches compact their rows after the second
// probe (wb_ssb_query.compact, bitmap_batch; where is the plan's choice,
// wb_ssb_plan_compacts; bitmaps_ok checks that the second probe is a bitmap
// in a stage).
bool is_compact(wb_ssb_form form, const wb_ssb_query *q) {
    return is_queued(form) && q->flight != 1 && q->compact;
}

// The bitmap kernel of a query's plan: flight 1's, or by the first probe's
// 4-bit group codes, clusters (is_spread) and compacted batches (is_compact);
// make(kind, spread, compact) names the kernel (plain or compressed).
template <typename K, typename Make>
K bitmap_pick(const wb_ssb_form form, const wb_ssb_query *q, Make &&make) {
    using date_t = std::integral_constant<first_kind, first_kind::date>;
    using bit_t = std::integral_constant<first_kind, first_kind::bit>;
    using code_t = std::integral_constant<first_kind, first_kind::code>;
    const bool codes = q->nprobe > 0 && q->probe[0].codes, spread = is_spread(form, q);
    if (q->flight == 1) return make(date_t{}, std::false_type{}, std::false_type{});
    if (spread && codes) return nullptr;
    auto plan = [&](auto c) -> K {
        return spread ? make(bit_t{}, std::true_type{}, c)
                      : codes ? make(code_t{}, std::false_type{}, c) : make(bit_t{}, std::false_type{}, c);
    };
    return is_compact(form, q) ? plan(std::true_type{}) : plan(std::false_type{});
}

// The compressed form's kernel at ILP I.
template <int I>
packed_kernel_t compressed_at(const wb_ssb_query *q) {
    return bitmap_pick<packed_kernel_t>(WB_SSB_COMPRESSED, q, [](auto k, auto s, auto c) -> packed_kernel_t {
        return compressed_kernel<I, decltype(k)::value, decltype(s)::value, decltype(c)::value>;
    });
}

// The compressed form's kernel, at ILP 4 and 8 only (the bitmap form's best
// shapes at SF 100): every other ILP would add its seven kernels to this
// file's compile time.
packed_kernel_t compressed_kernel_of(const wb_ssb_query *q, int block, int ilp) {
    if (q->flight < 1 || q->flight > 4 || block < 32 || block % 32 != 0 || block > WB_SSB_BITMAP_BLOCK) return nullptr;
    return ilp == 4 ? compressed_at<4>(q) : ilp == 8 ? compressed_at<8>(q) : nullptr;
}

// The kernel of a form and query at the launch's shape, and its tile (rows
// per block of the cover grid; 0: persistent). The bitmap form's kernel
// follows its plan: the first probe's 4-bit group codes, clusters
// (is_spread), compacted batches (is_compact).
cudaError_t kernel_of(wb_ssb_form form, const wb_ssb_query *q, int block, int ilp, query_kernel_t *k,
                      int64_t *tile) {
    *k = nullptr;
    *tile = (int64_t)block * ilp;
    const int flight = q->flight;
    const bool f1 = flight == 1;
    if (flight < 1 || flight > 4) return cudaErrorInvalidValue;
    if (form == WB_SSB_TILED)
        return wb_dispatch_tile(block, ilp, [&](auto bt, auto ipt) {
            *k = f1 ? tiled_kernel<decltype(bt)::value, decltype(ipt)::value, true>
                    : tiled_kernel<decltype(bt)::value, decltype(ipt)::value, false>;
            return cudaSuccess;
        });
    if (form < WB_SSB_DIRECT || form > WB_SSB_BITMAP || block < 32 || block % 32 != 0) return cudaErrorInvalidValue;
    if (form == WB_SSB_BITMAP && block > WB_SSB_BITMAP_BLOCK) return cudaErrorInvalidValue;
    *k = wb_with_ilp(ilp, (query_kernel_t)nullptr, [&](auto i) -> query_kernel_t {
        constexpr int I = decltype(i)::value;
        if (form == WB_SSB_BITMAP)
            return bitmap_pick<query_kernel_t>(form, q, [](auto k, auto s, auto c) -> query_kernel_t {
                return bitmap_kernel<I, decltype(k)::value, decltype(s)::value, decltype(c)::value>;
            });
        if (f1) return direct_kernel<I, true, WB_SSB_DIRECT>;
        return form == WB_SSB_PACKED ? direct_kernel<I, false, WB_SSB_PACKED> : direct_kernel<I, false, WB_SSB_DIRECT>;
    });
    return *k ? cudaSuccess : cudaErrorInvalidValue;
}

// Dynamic shared memory the query's kernel needs: the group table (packed,
// bitmap), the filter bits and the warps' queues (bitmap).
int64_t smem_of(wb_ssb_form form, const wb_ssb_query *q, const wb_launch *l) {
    if (is_queued(form) && q->flight == 1) return wb_ssb_bitmap_queue_bytes(l->block, l->ilp, 0);
    if (form < WB_SSB_PACKED || q->flight == 1) return 0;
    int64_t bytes = q->groups * (int64_t)sizeof(unsigned long long);
    if (!is_queued(form)) return bytes;
    const int lg = q->cluster > 1 ? wb_ssb_cluster_lg(q->cluster) : 0;
    for (int p = 0; p < q->nprobe; p++)
        if (q->probe[p].bits)
            bytes += (int64_t)(lg && p > 0 ? wb_ssb_spread_words(q->probe[p].bits_words, lg) : q->probe[p].bits_words) *
                     (int64_t)sizeof(uint32_t);
    return bytes + wb_ssb_bitmap_queue_bytes(l->block, l->ilp, q->probe[0].codes);
}

// A bitmap form's probes: the first a bitmap (its kernel tests it over every
// row), none on the date, every bitmap aligned, codes only in the first; in a
// cluster (2, 4 or 8 blocks, every later bitmap spread), no codes; compacted
// batches, only after a second probe that is a bitmap tested in a stage.
bool bitmaps_ok(const wb_ssb_query *q) {
    if (q->nprobe < 1 || !q->probe[0].bits) return false;
    if (q->compact && (staged_probes(*q) < 2 || !q->probe[1].bits)) return false;
    const bool clustered = q->cluster > 1;
    if (clustered && q->cluster != 2 && q->cluster != 4 && q->cluster != 8) return false;
    for (int p = 0; p < q->nprobe; p++) {
        const wb_ssb_probe *pr = &q->probe[p];
        if (pr->bits && (pr->dim == WB_SSB_DATE || pr->bits_words <= 0 || pr->bits_words % WB_SSB_BITMAP_ALIGN))
            return false;
        if (pr->codes && (p > 0 || !pr->bits || clustered)) return false;
    }
    return true;
}

// The cluster launch of a spread bitmap kernel.
cudaLaunchConfig_t cluster_config(const wb_launch *l, int cluster, cudaStream_t s, cudaLaunchAttribute *a) {
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3((unsigned)l->grid);
    cfg.blockDim = dim3((unsigned)l->block);
    cfg.dynamicSmemBytes = (size_t)l->smem_bytes;
    cfg.stream = s;
    a->id = cudaLaunchAttributeClusterDimension;
    a->val.clusterDim.x = (unsigned)cluster;
    a->val.clusterDim.y = 1;
    a->val.clusterDim.z = 1;
    cfg.attrs = a;
    cfg.numAttrs = 1;
    return cfg;
}

// A persistent grid in whole clusters (rounded up: a block without a tile
// passes the barriers; down where the SMs are limited), no more than can be
// resident at once (a GPC's SMs not divisible by the cluster stay idle).
template <typename K>
cudaError_t cluster_grid(K k, wb_launch *l, int cluster) {
    int dev = 0, major = 0, clusters = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
    if (e != cudaSuccess) return e;
    if (major < 9) return cudaErrorInvalidValue;
    wb_launch one = *l;
    one.grid = cluster;
    cudaLaunchAttribute a;
    const cudaLaunchConfig_t cfg = cluster_config(&one, cluster, 0, &a);
    if ((e = cudaOccupancyMaxActiveClusters(&clusters, k, &cfg)) != cudaSuccess) return e;
    int64_t grid = (l->sm_limit > 0 ? l->grid : l->grid + cluster - 1) / cluster * cluster;
    if (grid > (int64_t)clusters * cluster) grid = (int64_t)clusters * cluster;
    if (grid < cluster) return cudaErrorInvalidValue;
    l->waves *= (double)grid / l->grid;
    l->grid = (int)grid;
    return cudaSuccess;
}

}  // namespace

extern "C" cudaError_t wb_ssb_generate(const wb_ssb_columns *c, const wb_ssb_sizes *z, uint64_t seed,
                                       cudaStream_t s) {
    if (c->n <= 0) return cudaSuccess;
    const int block = 256;
    const int64_t blocks = (c->n + block - 1) / block;
    generate_kernel<<<(int)(blocks < 65536 ? blocks : 65536), block, 0, s>>>(*c, *z, seed);
    return wb_launched();
}

extern "C" int64_t wb_ssb_bitmap_queue_bytes(int block, int ilp, int codes) {
    return (int64_t)(block / 32) * bitmap_queue_entries(ilp) *
           (int64_t)(codes ? sizeof(queue_entry<true>) : sizeof(queue_entry<false>));
}

extern "C" cudaError_t wb_ssb_pack(const int32_t *src, int64_t n, int32_t base, int w, uint32_t *dst, int *bad,
                                   cudaStream_t s) {
    if (n < 0 || n > WB_SSB_PACK_ROWS || w < 1 || w > 32) return cudaErrorInvalidValue;
    const int block = 256;
    const int64_t words = wb_ssb_pack_words(n, w), blocks = (words + block - 1) / block;
    pack_kernel<<<(int)(blocks < 65536 ? blocks : 65536), block, 0, s>>>(src, n, base, w, dst, words, bad);
    return wb_launched();
}

// Plans kernel k of the form (tile: the rows of a block's tile; the cover
// grid's size, or the persistent grid's largest).
template <typename K>
cudaError_t plan_kernel(K k, int64_t tile, wb_ssb_form form, const wb_ssb_query *q, wb_launch *l, int64_t n) {
    if (is_queued(form) && q->flight != 1 && !bitmaps_ok(q)) return cudaErrorInvalidValue;
    if (!is_queued(form) && q->flight != 1 && q->nprobe > 0 && q->probe[0].codes) return cudaErrorInvalidValue;
    const int64_t smem = smem_of(form, q, l);
    if (smem > 0x7fffffff) return cudaErrorInvalidValue;
    cudaError_t e = wb_plan_kernel(k, l, n, tile, form == WB_SSB_TILED ? wb_grid_mode::cover : wb_grid_mode::persistent,
                                   (int)smem);
    if (e != cudaSuccess || !is_spread(form, q) || l->grid <= 0) return e;
    return cluster_grid(k, l, q->cluster);
}

// Launches kernel k on cols, in clusters where the plan spreads its bitmaps.
template <typename K, typename Cols>
cudaError_t launch_kernel(K k, wb_ssb_form form, const wb_launch *l, const Cols *c, const wb_ssb_query *q,
                          cudaStream_t s) {
    if (l->grid <= 0) return cudaSuccess;
    if (!c) return cudaErrorInvalidValue;
    if (is_spread(form, q)) {
        cudaLaunchAttribute a;
        const cudaLaunchConfig_t cfg = cluster_config(l, q->cluster, s, &a);
        cudaError_t e = cudaLaunchKernelEx(&cfg, k, *c, *q);
        return e != cudaSuccess ? e : wb_launched();
    }
    k<<<l->grid, l->block, l->smem_bytes, s>>>(*c, *q);
    return wb_launched();
}

extern "C" cudaError_t wb_ssb_plan(wb_ssb_form form, const wb_ssb_query *q, wb_launch *l, int64_t n) {
    if (form == WB_SSB_COMPRESSED) {
        const packed_kernel_t k = compressed_kernel_of(q, l->block, l->ilp);
        return k ? plan_kernel(k, (int64_t)l->block * l->ilp, form, q, l, n) : cudaErrorInvalidValue;
    }
    query_kernel_t k;
    int64_t tile;
    cudaError_t e = kernel_of(form, q, l->block, l->ilp, &k, &tile);
    return e != cudaSuccess ? e : plan_kernel(k, tile, form, q, l, n);
}

extern "C" cudaError_t wb_ssb_launch(wb_ssb_form form, const wb_launch *l, const wb_ssb_columns *c,
                                     const wb_ssb_packed_columns *pc, const wb_ssb_query *q, cudaStream_t s) {
    if (form == WB_SSB_COMPRESSED) {
        const packed_kernel_t k = compressed_kernel_of(q, l->block, l->ilp);
        return k ? launch_kernel(k, form, l, pc, q, s) : cudaErrorInvalidValue;
    }
    query_kernel_t k;
    int64_t tile;
    cudaError_t e = kernel_of(form, q, l->block, l->ilp, &k, &tile);
    return e != cudaSuccess ? e : launch_kernel(k, form, l, c, q, s);
}

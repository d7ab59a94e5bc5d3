// ssb.cu - the generator and the four query forms of the ssb family (see
// ssb.h). Every form runs a query as one kernel. Tiled and direct differ in
// the grid (a tile per block vs persistent), how the first column is read
// (striped scalar vs vector), how the date dimension is met (map probe vs
// arithmetic) and where flight 1's sum is reduced (block vs warp); packed and
// bitmap change only the direct form's maps and group table.
#include "kernels/ssb.h"

#include "kernels/grid_tile.cuh"
#include "kernels/launch.cuh"
#include "kernels/tile.cuh"
#include "kernels/tile_dispatch.cuh"

namespace {

__global__ void generate_kernel(wb_ssb_columns c, wb_ssb_sizes z, uint64_t seed) {
    for (int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; r < c.n; r += (int64_t)gridDim.x * blockDim.x) {
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
    }
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

template <int ILP, bool Full>
__device__ __forceinline__ void direct_flight1_tile(const wb_ssb_columns &c, const wb_ssb_query &q, int64_t base,
                                                    unsigned long long &sum) {
    using T = wb_grid_tile<ILP>;
    int32_t d[ILP];
    T::template load<Full>(c.col[WB_SSB_LO_ORDERDATE], base, c.n, d);
#pragma unroll
    for (int j = 0; j < ILP; j++) {
        if (!T::template valid<Full>(base, j, c.n) || !in(d[j], q.date_lo, q.date_hi)) continue;
        const int64_t i = T::index(base, j);
        if (!in(c.col[WB_SSB_LO_QUANTITY][i], q.qty_lo, q.qty_hi)) continue;
        const int32_t disc = c.col[WB_SSB_LO_DISCOUNT][i];
        if (!in(disc, q.disc_lo, q.disc_hi)) continue;
        sum += (unsigned long long)((int64_t)c.col[WB_SSB_LO_EXTENDEDPRICE][i] * disc);
    }
}

// The direct, packed and bitmap forms differ in the map a probe reads, the
// group table the sum goes to (global, or the block's copy in shared memory)
// and, for bitmap, the first probe: a bit of the block's shared-memory copy
// of its filter, the map read only for rows that pass.
template <int ILP, bool Full, wb_ssb_form FORM>
__device__ __forceinline__ void direct_group_tile(const wb_ssb_columns &c, const wb_ssb_query &q, int64_t base,
                                                  unsigned long long *groups, const uint32_t *bits) {
    constexpr bool PACKED = FORM != WB_SSB_DIRECT;
    using T = wb_grid_tile<ILP>;
    int32_t k[ILP];
    T::template load<Full>(q.probe[0].key, base, c.n, k);
    const bool profit = q.flight == 4;
#pragma unroll
    for (int j = 0; j < ILP; j++) {
        if (!T::template valid<Full>(base, j, c.n)) continue;
        int32_t group;
        if constexpr (FORM == WB_SSB_BITMAP)
            group = (bits[k[j] >> 5] >> (k[j] & 31)) & 1u ? probe_packed(q.probe[0], k[j]) : -1;
        else
            group = probe_lifted<PACKED>(q, q.probe[0], k[j]);
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
            direct_group_tile<ILP, decltype(full)::value, FORM>(c, q, base, q.out, nullptr);
        });
    } else {
        // Shared memory: the block's group table, then (bitmap) the filter bits.
        extern __shared__ unsigned long long block_groups[];
        uint32_t *bits = reinterpret_cast<uint32_t *>(block_groups + q.groups);
        for (int64_t g = threadIdx.x; g < q.groups; g += blockDim.x) block_groups[g] = 0;
        if constexpr (FORM == WB_SSB_BITMAP)
            for (int w = threadIdx.x; w < q.bitmap_words; w += blockDim.x) bits[w] = __ldg(q.bitmap + w);
        __syncthreads();
        wb_for_tiles<ILP>(c.n, [&](int64_t base, auto full) {
            direct_group_tile<ILP, decltype(full)::value, FORM>(c, q, base, block_groups, bits);
        });
        __syncthreads();
        for (int64_t g = threadIdx.x; g < q.groups; g += blockDim.x)
            if (block_groups[g]) atomicAdd(q.out + g, block_groups[g]);
    }
}

using query_kernel_t = void (*)(wb_ssb_columns, wb_ssb_query);

// The kernel of a form and flight at the launch's shape, and its tile (rows
// per block of the cover grid; 0: persistent).
cudaError_t kernel_of(wb_ssb_form form, int flight, int block, int ilp, query_kernel_t *k, int64_t *tile) {
    *k = nullptr;
    *tile = (int64_t)block * ilp;
    const bool f1 = flight == 1;
    if (flight < 1 || flight > 4) return cudaErrorInvalidValue;
    if (form == WB_SSB_TILED)
        return wb_dispatch_tile(block, ilp, [&](auto bt, auto ipt) {
            *k = f1 ? tiled_kernel<decltype(bt)::value, decltype(ipt)::value, true>
                    : tiled_kernel<decltype(bt)::value, decltype(ipt)::value, false>;
            return cudaSuccess;
        });
    if (form < WB_SSB_DIRECT || form >= WB_SSB_FORMS || block < 32 || block % 32 != 0) return cudaErrorInvalidValue;
    *k = wb_with_ilp(ilp, (query_kernel_t)nullptr, [&](auto i) -> query_kernel_t {
        constexpr int I = decltype(i)::value;
        if (f1) return direct_kernel<I, true, WB_SSB_DIRECT>;
        return form == WB_SSB_PACKED   ? direct_kernel<I, false, WB_SSB_PACKED>
               : form == WB_SSB_BITMAP ? direct_kernel<I, false, WB_SSB_BITMAP>
                                       : direct_kernel<I, false, WB_SSB_DIRECT>;
    });
    return *k ? cudaSuccess : cudaErrorInvalidValue;
}

// Dynamic shared memory the query's kernel needs: the group table (packed,
// bitmap) and the filter bits (bitmap).
int64_t smem_of(wb_ssb_form form, const wb_ssb_query *q) {
    if (form < WB_SSB_PACKED || q->flight == 1) return 0;
    return q->groups * (int64_t)sizeof(unsigned long long) +
           (form == WB_SSB_BITMAP ? (int64_t)q->bitmap_words * (int64_t)sizeof(uint32_t) : 0);
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

extern "C" cudaError_t wb_ssb_plan(wb_ssb_form form, const wb_ssb_query *q, wb_launch *l, int64_t n) {
    query_kernel_t k;
    int64_t tile;
    cudaError_t e = kernel_of(form, q->flight, l->block, l->ilp, &k, &tile);
    if (e != cudaSuccess) return e;
    if (form == WB_SSB_BITMAP && q->flight != 1 && (!q->bitmap || q->probe[0].dim == WB_SSB_DATE))
        return cudaErrorInvalidValue;
    const int64_t smem = smem_of(form, q);
    if (smem > 0x7fffffff) return cudaErrorInvalidValue;
    return wb_plan_kernel(k, l, n, tile, form == WB_SSB_TILED ? wb_grid_mode::cover : wb_grid_mode::persistent,
                          (int)smem);
}

extern "C" cudaError_t wb_ssb_launch(wb_ssb_form form, const wb_launch *l, const wb_ssb_columns *c,
                                     const wb_ssb_query *q, cudaStream_t s) {
    query_kernel_t k;
    int64_t tile;
    cudaError_t e = kernel_of(form, q->flight, l->block, l->ilp, &k, &tile);
    if (e != cudaSuccess) return e;
    if (l->grid <= 0) return cudaSuccess;
    k<<<l->grid, l->block, l->smem_bytes, s>>>(*c, *q);
    return wb_launched();
}

// scan.cu - the SSB-shaped scan (see scan.h). tiled is Crystal's tile model
// built from tile.cuh; direct and direct_noskip are one grid-stride template
// whose SKIP parameter decides whether a later column's vector is loaded only
// when one of its rows still passes. Query shape is a template parameter too;
// all of them are picked at run time through one kernel-pointer lookup.
#include "kernels/scan.h"

#include "kernels/launch.cuh"
#include "kernels/tile.cuh"
#include "kernels/tile_dispatch.cuh"

namespace {

struct wb_between {
    int lo, hi;
    __device__ __forceinline__ bool operator()(int x) const { return x >= lo && x <= hi; }
};

struct wb_below {
    int v;
    __device__ __forceinline__ bool operator()(int x) const { return x < v; }
};

// Crystal (seed 002 listing): load the whole tile of every referenced column,
// then flag and mask. The loads do not depend on the flags, so the compiler
// issues all of them before the first comparison. Crystal's BlockLoad is
// scalar striped; this one uses 16-byte vectors like direct's first column,
// so that tiled vs direct compares what is loaded, not how wide.
template <wb_scan_shape S, int BT, int IPT, bool FULL>
__device__ __forceinline__ long long tiled_tile(const wb_scan_io &a, long long begin, int valid) {
    constexpr wb_layout L = wb_layout::vec;
    constexpr wb_pred_form P = wb_pred_form::flag;
    int flags[IPT], date[IPT];
    wb_tile_flags_init<L, int, BT, IPT, FULL>(valid, flags);
    wb_tile_load<L, BT, IPT, FULL>(a.orderdate + begin, valid, date);
    wb_tile_pred_and<P>(date, flags, wb_between{a.q.date_lo, a.q.date_hi});
    long long sum = 0;
    if constexpr (S == WB_SCAN_Q11) {
        int disc[IPT], qty[IPT], price[IPT];
        wb_tile_load<L, BT, IPT, FULL>(a.discount + begin, valid, disc);
        wb_tile_pred_and<P>(disc, flags, wb_between{a.q.disc_lo, a.q.disc_hi});
        wb_tile_load<L, BT, IPT, FULL>(a.quantity + begin, valid, qty);
        wb_tile_pred_and<P>(qty, flags, wb_below{a.q.qty_below});
        wb_tile_load<L, BT, IPT, FULL>(a.extendedprice + begin, valid, price);
#pragma unroll
        for (int i = 0; i < IPT; i++) sum += flags[i] ? (long long)price[i] * disc[i] : 0;
    } else {
        int key[IPT], rev[IPT];
        wb_tile_load<L, BT, IPT, FULL>(a.custkey + begin, valid, key);
        // Like Crystal's BlockProbe, only flagged rows look up the dimension.
#pragma unroll
        for (int i = 0; i < IPT; i++)
            if (flags[i]) flags[i] = a.dim_region[key[i]] == a.q.region;
        wb_tile_load<L, BT, IPT, FULL>(a.revenue + begin, valid, rev);
#pragma unroll
        for (int i = 0; i < IPT; i++) sum += flags[i] ? (long long)rev[i] : 0;
    }
    return sum;
}

template <wb_scan_shape S, int BT, int IPT>
__global__ void __launch_bounds__(BT) scan_tiled(wb_scan_io a) {
    constexpr int TILE = BT * IPT;
    extern __shared__ __align__(16) unsigned char wb_smem[];
    const long long begin = (long long)blockIdx.x * TILE;
    long long sum = wb_tile_at<TILE>(
        a.n, begin, [&](int valid, auto full) { return tiled_tile<S, BT, IPT, decltype(full)::value>(a, begin, valid); });
    sum = wb_block_sum<BT>(sum, reinterpret_cast<long long *>(wb_smem));
    if (threadIdx.x == 0 && sum != 0) atomicAdd(a.sum, (unsigned long long)sum);
}

template <int V>
__device__ __forceinline__ wb_pack<int, V> load_vec(const int *col, long long vec) {
    return *reinterpret_cast<const wb_pack<int, V> *>(col + vec * V);
}

// Whether vector u of a batch is loaded from a later column: SKIP, when a row
// of it still passes (a 16-byte vector lies in one 32-byte DRAM sector, so
// this moves the same sectors as per-row loads with a quarter of the
// instructions); otherwise whenever it exists.
template <bool SKIP, int V, int U>
__device__ __forceinline__ bool needed(const bool (&ok)[U], const bool (&pass)[U * V], int u) {
    if constexpr (!SKIP) return ok[u];
    bool any = false;
#pragma unroll
    for (int k = 0; k < V; k++) any |= pass[u * V + k];
    return any;
}

template <bool SKIP, int V, int U>
__device__ __forceinline__ void load_needed(const int *col, long long g, long long G, const bool (&ok)[U],
                                            const bool (&pass)[U * V], wb_pack<int, V> (&dst)[U]) {
#pragma unroll
    for (int u = 0; u < U; u++) dst[u] = needed<SKIP, V, U>(ok, pass, u) ? load_vec<V>(col, g + u * G) : wb_pack<int, V>{};
}

// One batch of a thread: U vectors of V rows, vector u at index g + u * G so
// that every load instruction of a warp reads contiguous bytes. Each column
// is one phase: all of its loads are in flight together (the batching of
// seed 002 section 4.3), and a phase starts only after the flags it needs.
template <wb_scan_shape S, bool SKIP, int V, int U>
__device__ __forceinline__ long long direct_batch(const wb_scan_io &a, long long g, long long G, long long nvec) {
    using Pk = wb_pack<int, V>;
    bool ok[U], pass[U * V];
    Pk date[U];
#pragma unroll
    for (int u = 0; u < U; u++) {
        ok[u] = g + u * G < nvec;
        date[u] = ok[u] ? load_vec<V>(a.orderdate, g + u * G) : Pk{};
    }
    const wb_between in_range{a.q.date_lo, a.q.date_hi};
#pragma unroll
    for (int r = 0; r < U * V; r++) pass[r] = ok[r / V] && in_range(date[r / V].v[r % V]);
    long long sum = 0;
    if constexpr (S == WB_SCAN_Q11) {
        Pk disc[U], qty[U], price[U];
        load_needed<SKIP, V, U>(a.discount, g, G, ok, pass, disc);
        const wb_between disc_ok{a.q.disc_lo, a.q.disc_hi};
#pragma unroll
        for (int r = 0; r < U * V; r++) pass[r] = pass[r] && disc_ok(disc[r / V].v[r % V]);
        load_needed<SKIP, V, U>(a.quantity, g, G, ok, pass, qty);
#pragma unroll
        for (int r = 0; r < U * V; r++) pass[r] = pass[r] && qty[r / V].v[r % V] < a.q.qty_below;
        load_needed<SKIP, V, U>(a.extendedprice, g, G, ok, pass, price);
#pragma unroll
        for (int r = 0; r < U * V; r++)
            sum += pass[r] ? (long long)price[r / V].v[r % V] * disc[r / V].v[r % V] : 0;
    } else {
        Pk key[U], rev[U];
        load_needed<SKIP, V, U>(a.custkey, g, G, ok, pass, key);
#pragma unroll
        for (int r = 0; r < U * V; r++)
            if (pass[r]) pass[r] = a.dim_region[key[r / V].v[r % V]] == a.q.region;
        load_needed<SKIP, V, U>(a.revenue, g, G, ok, pass, rev);
#pragma unroll
        for (int r = 0; r < U * V; r++) sum += pass[r] ? (long long)rev[r / V].v[r % V] : 0;
    }
    return sum;
}

// One row with short-circuit loads: the n % V rows after the last whole vector.
template <wb_scan_shape S>
__device__ __forceinline__ long long direct_row(const wb_scan_io &a, long long i) {
    const int date = a.orderdate[i];
    if (date < a.q.date_lo || date > a.q.date_hi) return 0;
    if constexpr (S == WB_SCAN_Q11) {
        const int disc = a.discount[i];
        if (disc < a.q.disc_lo || disc > a.q.disc_hi || a.quantity[i] >= a.q.qty_below) return 0;
        return (long long)a.extendedprice[i] * disc;
    } else {
        return a.dim_region[a.custkey[i]] == a.q.region ? (long long)a.revenue[i] : 0;
    }
}

template <wb_scan_shape S, bool SKIP, int BT, int IPT>
__global__ void __launch_bounds__(BT) scan_direct(wb_scan_io a) {
    constexpr int V = wb_vec_items<int, IPT>();  // rows per load: 16 bytes from ILP 4 on
    constexpr int U = IPT / V;                   // vectors per thread per batch
    extern __shared__ __align__(16) unsigned char wb_smem[];
    const long long nvec = a.n / V;
    const long long G = (long long)gridDim.x * BT;
    const long long first = (long long)blockIdx.x * BT + threadIdx.x;
    long long sum = 0;
    for (long long g = first; g < nvec; g += U * G) sum += direct_batch<S, SKIP, V, U>(a, g, G, nvec);
    if (first < a.n - nvec * V) sum += direct_row<S>(a, nvec * V + first);
    sum = wb_block_sum<BT>(sum, reinterpret_cast<long long *>(wb_smem));
    if (threadIdx.x == 0 && sum != 0) atomicAdd(a.sum, (unsigned long long)sum);
}

using scan_kernel = void (*)(wb_scan_io);

template <wb_scan_shape S, int BT, int IPT>
scan_kernel pick(int variant) {
    switch (variant) {
    case WB_SCAN_TILED: return scan_tiled<S, BT, IPT>;
    case WB_SCAN_DIRECT:
    case WB_SCAN_DIRECT_SECTOR: return scan_direct<S, true, BT, IPT>;
    case WB_SCAN_DIRECT_NOSKIP: return scan_direct<S, false, BT, IPT>;
    default: return nullptr;
    }
}

// The one dispatch point from (variant, shape, block, ILP) to a kernel.
cudaError_t find_kernel(int variant, int shape, const wb_launch *l, scan_kernel *k) {
    return wb_dispatch_tile(l->block, l->ilp, [&](auto bt, auto ipt) {
        constexpr int BT = decltype(bt)::value, IPT = decltype(ipt)::value;
        *k = shape == WB_SCAN_Q11 ? pick<WB_SCAN_Q11, BT, IPT>(variant)
             : shape == WB_SCAN_Q31 ? pick<WB_SCAN_Q31, BT, IPT>(variant)
                                    : nullptr;
        return *k ? cudaSuccess : cudaErrorInvalidValue;
    });
}

}  // namespace

extern "C" cudaError_t wb_scan_plan(int variant, int shape, wb_launch *l, int64_t n) {
    scan_kernel k = nullptr;
    cudaError_t e = find_kernel(variant, shape, l, &k);
    if (e != cudaSuccess) return e;
    l->temp_bytes = 0;
    const wb_grid_mode mode = variant == WB_SCAN_TILED ? wb_grid_mode::cover : wb_grid_mode::persistent;
    return wb_plan_kernel(k, l, n, (int64_t)l->block * l->ilp, mode, l->block / 32 * (int)sizeof(long long));
}

extern "C" cudaError_t wb_scan_launch(int variant, int shape, const wb_launch *l, const wb_scan_io *io, cudaStream_t s) {
    if (io->n <= 0) return cudaSuccess;
    scan_kernel k = nullptr;
    cudaError_t e = find_kernel(variant, shape, l, &k);
    if (e != cudaSuccess) return e;
    k<<<l->grid, l->block, l->smem_bytes, s>>>(*io);
    return wb_launched();
}

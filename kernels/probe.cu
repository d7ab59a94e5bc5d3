// probe.cu - probe and build kernels of the probe family (see probe.h). One
// kernel template over the op and the ILP; each thread first issues all its
// ILP table reads and only then consumes them, so ILP independent random
// loads are in flight per thread: what a DRAM-resident table needs (Little's
// law: the random-read roof needs tens of thousands of probes in flight).
#include "kernels/probe.h"

#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>

#include "kernels/grid_tile.cuh"
#include "kernels/launch.cuh"

namespace {

__device__ __forceinline__ uint64_t next_slot(uint64_t pos, uint64_t slots) { return pos + 1 == slots ? 0 : pos + 1; }

// Sums of one thread, added per warp at the end (a few thousand atomics per launch).
struct probe_sums {
    unsigned long long sum = 0, matches = 0;
    __device__ __forceinline__ void add(unsigned v) { sum += v, matches++; }
};

template <wb_probe_op OP, int ILP, bool Full>
__device__ __forceinline__ void probe_tile(const wb_probe_args &a, int64_t base, probe_sums &s) {
    using T = wb_grid_tile<ILP>;
    int32_t k[ILP];
    T::template load<Full>(a.fact_keys, base, a.n, k);
    if constexpr (OP == WB_PROBE_DIRECT) {
        const int32_t *table = static_cast<const int32_t *>(a.table);
        int32_t v[ILP];
#pragma unroll
        for (int j = 0; j < ILP; j++)
            v[j] = T::template valid<Full>(base, j, a.n) ? __ldg(table + k[j]) : WB_PROBE_FILTERED;
#pragma unroll
        for (int j = 0; j < ILP; j++)
            if (v[j] >= 0) s.add((unsigned)v[j]);
    } else if constexpr (OP == WB_PROBE_PACKED) {
        const uint8_t *table = static_cast<const uint8_t *>(a.table);
        unsigned g[ILP];
#pragma unroll
        for (int j = 0; j < ILP; j++)
            g[j] = T::template valid<Full>(base, j, a.n) ? __ldg(table + k[j]) : WB_PROBE_PACKED_NONE;
#pragma unroll
        for (int j = 0; j < ILP; j++)
            if (g[j] != WB_PROBE_PACKED_NONE) s.add(g[j]);
    } else {
        static_assert(OP == WB_PROBE_HASH, "probe ops: hash, direct, packed");
        const unsigned long long *slots = static_cast<const unsigned long long *>(a.table);
        const uint64_t nslots = (uint64_t)a.slots;
        uint64_t pos[ILP];
        unsigned long long slot[ILP];
#pragma unroll
        for (int j = 0; j < ILP; j++) {
            pos[j] = wb_probe_home(k[j], nslots);
            slot[j] = T::template valid<Full>(base, j, a.n) ? __ldg(slots + pos[j]) : WB_PROBE_EMPTY_SLOT;
        }
        // Walk each chain until the key or an empty slot; the load factor is
        // below 1, so an empty slot exists and every walk ends.
#pragma unroll
        for (int j = 0; j < ILP; j++) {
            for (;;) {
                int32_t key = (int32_t)(uint32_t)slot[j];
                if (key == k[j]) {
                    s.add((unsigned)(slot[j] >> 32));
                    break;
                }
                if (key == WB_PROBE_EMPTY_KEY) break;
                pos[j] = next_slot(pos[j], nslots);
                slot[j] = __ldg(slots + pos[j]);
            }
        }
    }
}

template <wb_probe_op OP, int ILP, bool Full>
__device__ __forceinline__ void build_tile(const wb_probe_args &a, int64_t base) {
    using T = wb_grid_tile<ILP>;
    int32_t k[ILP], v[ILP];
    T::template load<Full>(a.dim_keys, base, a.dim_rows, k);
    T::template load<Full>(a.dim_vals, base, a.dim_rows, v);
    if constexpr (OP == WB_PROBE_BUILD_DIRECT) {
        int32_t *table = static_cast<int32_t *>(a.table);
#pragma unroll
        for (int j = 0; j < ILP; j++)
            if (T::template valid<Full>(base, j, a.dim_rows)) table[k[j]] = v[j];
    } else if constexpr (OP == WB_PROBE_BUILD_PACKED) {
        uint8_t *table = static_cast<uint8_t *>(a.table);
#pragma unroll
        for (int j = 0; j < ILP; j++)
            if (T::template valid<Full>(base, j, a.dim_rows))
                table[k[j]] = v[j] >= 0 ? (uint8_t)(v[j] & WB_PROBE_PACKED_MASK) : (uint8_t)WB_PROBE_PACKED_NONE;
    } else {
        static_assert(OP == WB_PROBE_BUILD_HASH, "build ops: hash, direct, packed");
        unsigned long long *slots = static_cast<unsigned long long *>(a.table);
        const uint64_t nslots = (uint64_t)a.slots;
        bool todo[ILP];
        uint64_t pos[ILP];
        unsigned long long old[ILP];
        // First CAS of every item back to back (independent), then the
        // collision walks: one slot's CAS at a time, as linear probing needs.
#pragma unroll
        for (int j = 0; j < ILP; j++) {
            todo[j] = T::template valid<Full>(base, j, a.dim_rows) && v[j] >= 0;
            pos[j] = wb_probe_home(k[j], nslots);
            old[j] = todo[j] ? atomicCAS(slots + pos[j], WB_PROBE_EMPTY_SLOT, wb_probe_slot(k[j], v[j]))
                             : WB_PROBE_EMPTY_SLOT;
        }
#pragma unroll
        for (int j = 0; j < ILP; j++) {
            // Stop at the slot we took, or at the key already there (insert-if-absent).
            while (todo[j] && old[j] != WB_PROBE_EMPTY_SLOT && (int32_t)(uint32_t)old[j] != k[j]) {
                pos[j] = next_slot(pos[j], nslots);
                old[j] = atomicCAS(slots + pos[j], WB_PROBE_EMPTY_SLOT, wb_probe_slot(k[j], v[j]));
            }
        }
    }
}

// The partitioned probe's last kernel: the direct probe over the
// partitioned keys with tiles claimed in order (tile_loop.cuh), so that the
// grid stays within a slice or two of the table at a time.
constexpr int PROBE_CLAIM = 4;
template <int ILP>
__global__ void probe_claimed_kernel(wb_probe_args a, unsigned long long *next) {
    probe_sums s;
    wb_for_claimed_tiles<ILP, PROBE_CLAIM>(
        a.n, next, [&](int64_t base, auto full) { probe_tile<WB_PROBE_DIRECT, ILP, decltype(full)::value>(a, base, s); });
    unsigned long long sum = wb_warp_sum(s.sum), matches = wb_warp_sum(s.matches);
    if ((threadIdx.x & 31) == 0 && matches) {
        atomicAdd(&a.out[0], sum);
        atomicAdd(&a.out[1], matches);
    }
}

template <wb_probe_op OP, int ILP>
__global__ void probe_kernel(wb_probe_args a) {
    if constexpr (OP == WB_PROBE_HASH || OP == WB_PROBE_DIRECT || OP == WB_PROBE_PACKED) {
        probe_sums s;
        wb_for_tiles<ILP>(a.n,
                          [&](int64_t base, auto full) { probe_tile<OP, ILP, decltype(full)::value>(a, base, s); });
        unsigned long long sum = wb_warp_sum(s.sum), matches = wb_warp_sum(s.matches);
        if ((threadIdx.x & 31) == 0 && matches) {
            atomicAdd(&a.out[0], sum);
            atomicAdd(&a.out[1], matches);
        }
    } else {
        wb_for_tiles<ILP>(a.dim_rows,
                          [&](int64_t base, auto full) { build_tile<OP, ILP, decltype(full)::value>(a, base); });
    }
}

// ---- the partitioned probe: histogram, scan, scatter, then the direct probe.
//
// Two passes over the keys and no global atomic: 12 B per key (read, read,
// write), 0.7 ms for 2^28 keys at the H200's DRAM bandwidth. The histogram
// and the scatter run one grid in which block b owns one contiguous chunk
// of the keys (a whole number of tiles). The histogram writes the block's
// count of every partition into a partitions x grid matrix, entry
// p * grid + b, with plain stores; one device-wide exclusive scan of that
// matrix in this (partition-major) order gives block b the start of its own
// run in partition p: the runs of partition p follow each other in block
// order, the partitions each other in key order. The scatter walks the same
// chunk again with its write cursors in shared memory. The design before
// this one reserved each tile's runs with one global atomic per partition
// and tile (32 M contended atomics on 1024 addresses at 2^28 keys and 1024
// partitions) and never partitioned 2^28 keys in less than ~3 ms.
//
// Tiles of 8192 keys (512 threads x 16), reordered by partition in shared
// memory before they are written, so that neighbouring threads store
// neighbouring words of one run; and since a block's keys of one partition
// form one run, its next tile continues each run where this one stopped
// (no partial sector is left between two tiles of a block).
constexpr int PART_BLOCK = 512, PART_ITEMS = 16, PART_TILE = PART_BLOCK * PART_ITEMS;
using part_tile = wb_grid_tile<PART_ITEMS>;

// Block b's chunk of the keys, [begin, end).
__device__ __forceinline__ void part_chunk(int64_t n, int64_t chunk, int64_t &begin, int64_t &end) {
    begin = (int64_t)blockIdx.x * chunk;
    end = begin + chunk < n ? begin + chunk : n;
}

// The block's counts in shared memory (shared atomics), written once to its
// column of the matrix.
__global__ void __launch_bounds__(PART_BLOCK) part_hist_kernel(const int32_t *__restrict__ keys, int64_t n,
                                                               int64_t chunk, int shift, int parts,
                                                               unsigned *__restrict__ counts,
                                                               unsigned long long *next_tile) {
    extern __shared__ unsigned count[];
    // The probe's tile counter starts at 0 (the stream orders the probe after
    // this kernel): zeroed here rather than by a memset in the timed launch.
    if (blockIdx.x == 0 && threadIdx.x == 0) *next_tile = 0;
    for (int b = threadIdx.x; b < parts; b += PART_BLOCK) count[b] = 0;
    __syncthreads();
    auto tile = [&](int64_t base, auto full) {
        constexpr bool F = decltype(full)::value;
        int32_t k[PART_ITEMS];
        part_tile::load<F>(keys, base, n, k);
#pragma unroll
        for (int j = 0; j < PART_ITEMS; j++)
            if (part_tile::valid<F>(base, j, n)) atomicAdd(&count[k[j] >> shift], 1u);
    };
    int64_t begin, end;
    part_chunk(n, chunk, begin, end);
    wb_for_chunk_tiles(begin, end, PART_TILE, [&](int64_t base, bool full) {
        if (full) tile(base, wb_full<true>{});
        else tile(base, wb_full<false>{});
    });
    __syncthreads();
    for (int b = threadIdx.x; b < parts; b += PART_BLOCK) counts[(int64_t)b * gridDim.x + blockIdx.x] = count[b];
}

// Per tile: rank each key within its partition (shared atomics), scan the
// counts into the tile's local run starts, move each partition's cursor past
// the tile's run, reorder the tile by partition in shared memory and write
// it out in order. At least 2 blocks an SM (64 registers a thread): the
// block-wide steps of one block overlap the loads of another.
__global__ void __launch_bounds__(PART_BLOCK, 2) part_scatter_kernel(const int32_t *__restrict__ keys, int64_t n,
                                                                     int64_t chunk, int shift, int parts,
                                                                     const unsigned *__restrict__ starts,
                                                                     int32_t *__restrict__ out) {
    extern __shared__ int part_smem[];
    int *cursor = part_smem;        // parts: output index of the block's next key of partition p
    int *count = cursor + parts;    // parts: the tile's counts, then its local run starts
    int *delta = count + parts;     // parts: output index of stage[i] is delta[p] + i
    int32_t *stage = delta + parts; // PART_TILE keys in partition order
    using scan = cub::BlockScan<int, PART_BLOCK>;
    __shared__ typename scan::TempStorage tmp;
    // Thread t owns partitions [t * per, (t + 1) * per) in the scan, and
    // their cursors: no other thread reads or writes them.
    const int per = (parts + PART_BLOCK - 1) / PART_BLOCK;
    for (int i = 0; i < per; i++) {
        const int b = threadIdx.x * per + i;
        if (b < parts) cursor[b] = (int)starts[(int64_t)b * gridDim.x + blockIdx.x];
    }
    for (int b = threadIdx.x; b < parts; b += PART_BLOCK) count[b] = 0;
    __syncthreads();
    int64_t begin, end;
    part_chunk(n, chunk, begin, end);
    wb_for_chunk_tiles(begin, end, PART_TILE, [&](int64_t base, bool full) {
        int32_t k[PART_ITEMS];
        int rank[PART_ITEMS];
        if (full) part_tile::load<true>(keys, base, n, k);
        else part_tile::load<false>(keys, base, n, k);
#pragma unroll
        for (int j = 0; j < PART_ITEMS; j++)
            rank[j] = full || part_tile::index(base, j) < n ? atomicAdd(&count[k[j] >> shift], 1) : -1;
        __syncthreads();
        int sum = 0, start = 0;
        for (int i = 0; i < per; i++) {
            const int b = threadIdx.x * per + i;
            if (b < parts) sum += count[b];
        }
        scan(tmp).ExclusiveSum(sum, start);
        for (int i = 0; i < per; i++) {
            const int b = threadIdx.x * per + i;
            if (b >= parts) break;
            const int c = count[b];
            delta[b] = cursor[b] - start;
            cursor[b] += c;
            count[b] = start;
            start += c;
        }
        __syncthreads();
#pragma unroll
        for (int j = 0; j < PART_ITEMS; j++)
            if (rank[j] >= 0) stage[count[k[j] >> shift] + rank[j]] = k[j];
        __syncthreads();
        // The local starts are read: the counts are cleared for the next
        // tile in the same step as the stores.
        const int m = full ? PART_TILE : (int)(end - base);
        for (int i = threadIdx.x; i < m; i += PART_BLOCK) {
            const int32_t key = stage[i];
            out[delta[key >> shift] + i] = key;
        }
        for (int b = threadIdx.x; b < parts; b += PART_BLOCK) count[b] = 0;
        __syncthreads();
    });
}

using probe_kernel_t = void (*)(wb_probe_args);

template <wb_probe_op OP>
probe_kernel_t pick(int ilp) {
    return wb_with_ilp(ilp, (probe_kernel_t)nullptr,
                       [](auto i) -> probe_kernel_t { return probe_kernel<OP, decltype(i)::value>; });
}

probe_kernel_t kernel_of(wb_probe_op op, int ilp) {
    switch (op) {
    case WB_PROBE_HASH: return pick<WB_PROBE_HASH>(ilp);
    case WB_PROBE_DIRECT: return pick<WB_PROBE_DIRECT>(ilp);
    case WB_PROBE_PACKED: return pick<WB_PROBE_PACKED>(ilp);
    case WB_PROBE_BUILD_HASH: return pick<WB_PROBE_BUILD_HASH>(ilp);
    case WB_PROBE_BUILD_DIRECT: return pick<WB_PROBE_BUILD_DIRECT>(ilp);
    case WB_PROBE_BUILD_PACKED: return pick<WB_PROBE_BUILD_PACKED>(ilp);
    case WB_PROBE_PARTITIONED: // its last kernel is probe_claimed_kernel (claimed_of)
    case WB_PROBE_PARTITION: return pick<WB_PROBE_DIRECT>(ilp); // a non-null answer: the ILP is compiled
    }
    return nullptr;
}

}  // namespace

using claimed_kernel_t = void (*)(wb_probe_args, unsigned long long *);
claimed_kernel_t claimed_of(int ilp) {
    return wb_with_ilp(ilp, (claimed_kernel_t)nullptr,
                       [](auto i) -> claimed_kernel_t { return probe_claimed_kernel<decltype(i)::value>; });
}

extern "C" cudaError_t wb_probe_plan(wb_probe_op op, wb_launch *l, int64_t items) {
    if (l->block < 32 || l->block % 32 != 0) return cudaErrorInvalidValue;
    const int64_t tile = (int64_t)l->block * l->ilp;
    if (op == WB_PROBE_PARTITIONED || op == WB_PROBE_PARTITION) {
        claimed_kernel_t c = claimed_of(l->ilp);
        return c ? wb_plan_kernel(c, l, items, tile, wb_grid_mode::persistent, 0) : cudaErrorInvalidValue;
    }
    probe_kernel_t k = kernel_of(op, l->ilp);
    if (!k) return cudaErrorInvalidValue;
    return wb_plan_kernel(k, l, items, tile, wb_grid_mode::persistent, 0);
}

// Blocks of a partition kernel that fit on the device at once.
template <typename K>
static cudaError_t part_resident(K kernel, int smem, int *blocks) {
    wb_device_limits d;
    cudaError_t e = wb_device_limits_get(&d);
    if (e != cudaSuccess) return e;
    if (smem > 48 * 1024 &&
        (e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem)) != cudaSuccess)
        return e;
    int bps = 0;
    if ((e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bps, kernel, PART_BLOCK, smem)) != cudaSuccess) return e;
    if (bps < 1) return cudaErrorInvalidValue;
    *blocks = bps * d.sms;
    return cudaSuccess;
}

static size_t align256(size_t b) { return (b + 255) / 256 * 256; }

static cudaError_t part_scan(void *temp, size_t &bytes, const unsigned *counts, unsigned *starts, int cells,
                             cudaStream_t s) {
    return cub::DeviceScan::ExclusiveSum(temp, bytes, counts, starts, cells, s);
}

extern "C" cudaError_t wb_probe_parts_plan(wb_launch *l, int64_t n, int64_t dim_rows, int partitions,
                                           wb_probe_parts *pp) {
    if (partitions < 2 || partitions > WB_PROBE_PARTS_MAX || (partitions & (partitions - 1)) || n < 0 ||
        n >= ((int64_t)1 << 31))
        return cudaErrorInvalidValue;
    cudaError_t e = wb_probe_plan(WB_PROBE_PARTITIONED, l, n);
    if (e != cudaSuccess) return e;
    int bits = 0, table_bits = 0;
    while ((1 << bits) < partitions) bits++;
    while (((int64_t)1 << table_bits) < dim_rows) table_bits++;
    pp->partitions = partitions;
    pp->shift = table_bits > bits ? table_bits - bits : 0;
    pp->hist_smem = partitions * (int)sizeof(unsigned);
    pp->scatter_smem = 3 * partitions * (int)sizeof(int) + PART_TILE * (int)sizeof(int32_t);
    // One grid for both kernels, one wave of each: the blocks both can hold
    // resident at once, each a whole number of tiles; then only as many
    // blocks as that number of tiles needs, so that no block is empty.
    int most = 0, hist_most = 0;
    if ((e = part_resident(part_scatter_kernel, pp->scatter_smem, &most)) != cudaSuccess ||
        (e = part_resident(part_hist_kernel, pp->hist_smem, &hist_most)) != cudaSuccess)
        return e;
    if (hist_most < most) most = hist_most;
    const int64_t tiles = (n + PART_TILE - 1) / PART_TILE;
    const int64_t per_block = tiles > 0 ? (tiles + most - 1) / most : 0;
    pp->grid = per_block > 0 ? (int)((tiles + per_block - 1) / per_block) : 0;
    pp->chunk = per_block * PART_TILE;
    const int64_t cells = (int64_t)partitions * pp->grid;
    pp->scan_bytes = 0;
    if (cells > 0 && (e = part_scan(nullptr, pp->scan_bytes, nullptr, nullptr, (int)cells, 0)) != cudaSuccess) return e;
    l->temp_bytes = align256((size_t)n * sizeof(int32_t)) + 2 * align256((size_t)cells * sizeof(unsigned)) +
                    align256(pp->scan_bytes) + align256(sizeof(unsigned long long));
    return cudaSuccess;
}

extern "C" void wb_probe_parts_bind(wb_probe_parts *pp, void *temp, int64_t n) {
    const size_t cells = align256((size_t)pp->partitions * (size_t)pp->grid * sizeof(unsigned));
    char *t = static_cast<char *>(temp);
    pp->keys = reinterpret_cast<int32_t *>(t);
    t += align256((size_t)n * sizeof(int32_t));
    pp->counts = reinterpret_cast<unsigned *>(t);
    pp->starts = reinterpret_cast<unsigned *>(t + cells);
    pp->scan_temp = t + 2 * cells;
    pp->next_tile = reinterpret_cast<unsigned long long *>(t + 2 * cells + align256(pp->scan_bytes));
}

// Histogram, scan, scatter: a->fact_keys partitioned into pp->keys.
static cudaError_t part_launch(const wb_probe_args *a, cudaStream_t s) {
    const wb_probe_parts *pp = a->parts;
    if (!pp || !pp->keys || !pp->next_tile) return cudaErrorInvalidValue;
    if (pp->grid <= 0) return cudaSuccess;
    part_hist_kernel<<<pp->grid, PART_BLOCK, pp->hist_smem, s>>>(a->fact_keys, a->n, pp->chunk, pp->shift,
                                                                 pp->partitions, pp->counts, pp->next_tile);
    cudaError_t e = wb_launched();
    size_t bytes = pp->scan_bytes;
    if (e == cudaSuccess)
        e = part_scan(pp->scan_temp, bytes, pp->counts, pp->starts, pp->partitions * pp->grid, s);
    if (e != cudaSuccess) return e;
    part_scatter_kernel<<<pp->grid, PART_BLOCK, pp->scatter_smem, s>>>(a->fact_keys, a->n, pp->chunk, pp->shift,
                                                                       pp->partitions, pp->starts, pp->keys);
    return wb_launched();
}

extern "C" cudaError_t wb_probe_launch(wb_probe_op op, const wb_launch *l, const wb_probe_args *a, cudaStream_t s) {
    probe_kernel_t k = kernel_of(op, l->ilp);
    if (!k) return cudaErrorInvalidValue;
    if (l->grid <= 0) return cudaSuccess;
    if (op != WB_PROBE_PARTITIONED && op != WB_PROBE_PARTITION) {
        k<<<l->grid, l->block, l->smem_bytes, s>>>(*a);
        return wb_launched();
    }
    cudaError_t e = part_launch(a, s);
    if (e != cudaSuccess || op == WB_PROBE_PARTITION) return e;
    claimed_kernel_t c = claimed_of(l->ilp);
    if (!c) return cudaErrorInvalidValue;
    wb_probe_args b = *a;
    b.fact_keys = a->parts->keys;
    c<<<l->grid, l->block, l->smem_bytes, s>>>(b, a->parts->next_tile);
    return wb_launched();
}

// ceiling.cu - the ceiling kernels (see ceiling.h). Memory kernels move
// 16-byte words with ILP words in flight per thread before first use; reads
// end in one atomic per block so that the checksum costs nothing measurable.
// Loads that must hit a cache level are volatile PTX, so the compiler can
// neither hoist a repeated pass out of its loop nor merge passes.
#include <cub/device/device_reduce.cuh>

#include "kernels/ceiling.h"
#include "kernels/launch.cuh"
#include "kernels/tile_dispatch.cuh"
#include "kernels/tile_loop.cuh"

namespace {

__device__ __forceinline__ uint32_t lanes_sum(uint4 v) { return (v.x + v.y) + (v.z + v.w); }
__device__ __forceinline__ uint32_t lanes_sum(uint32_t v) { return v; }

__device__ __forceinline__ uint4 load_cg(const uint4 *p) {  // L2, not L1
    uint4 v;
    asm volatile("ld.global.cg.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
    return v;
}
__device__ __forceinline__ uint4 load_nc(const uint4 *p) {  // read-only path, cached in L1
    uint4 v;
    asm volatile("ld.global.nc.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
    return v;
}
__device__ __forceinline__ uint4 load_shared(const uint4 *p) {
    uint4 v;
    const unsigned a = (unsigned)__cvta_generic_to_shared(p);
    asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "r"(a));
    return v;
}

// Adds every thread's acc to *sum: warp shuffles, one word per warp in
// shared memory, one atomic per block. All threads of the block must call it.
__device__ __forceinline__ void block_sum_add(uint32_t acc, uint32_t *sum) {
    __shared__ uint32_t warp_sums[32];
    acc = wb_warp_sum(acc);
    const int warp = threadIdx.x / 32, warps = (blockDim.x + 31) / 32;
    if (threadIdx.x % 32 == 0) warp_sums[warp] = acc;
    __syncthreads();
    if (threadIdx.x == 0) {
        uint32_t total = 0;
        for (int w = 0; w < warps; w++) total += warp_sums[w];
        atomicAdd(sum, total);
    }
}

// One pass over items [0, n), grid-stride: ILP loads (load(i) for item i)
// before the first add, then their sum. T is what one load returns.
template <int ILP, typename T, typename Load>
__device__ __forceinline__ uint32_t sum_pass(int64_t n, Load &&load) {
    uint32_t acc = 0;
    wb_for_tiles<ILP>(n, [&](int64_t base, auto full) {
        T v[ILP];
#pragma unroll
        for (int k = 0; k < ILP; k++) v[k] = T{}; // past the end: adds nothing
        wb_tile_items<ILP>(base, n, full, [&](int k, int64_t i) { v[k] = load(i); });
#pragma unroll
        for (int k = 0; k < ILP; k++) acc += lanes_sum(v[k]);
    });
    return acc;
}

// One pass over n words.
template <int ILP, bool CG>
__device__ __forceinline__ uint32_t read_pass(const uint4 *__restrict__ src, int64_t n) {
    return sum_pass<ILP, uint4>(n, [&](int64_t i) { return CG ? load_cg(src + i) : src[i]; });
}

template <int ILP>
__global__ void dram_read_kernel(const uint4 *__restrict__ src, int64_t n, uint32_t *sum) {
    block_sum_add(read_pass<ILP, false>(src, n), sum);
}

template <int ILP>
__global__ void l2_read_kernel(const uint4 *__restrict__ src, int64_t n, int reps, uint32_t *sum) {
    uint32_t acc = 0;
    for (int r = 0; r < reps; r++) acc += read_pass<ILP, true>(src, n);
    block_sum_add(acc, sum);
}

// reps passes over a resident set of n words, each thread ILP loads before
// the first add; load(p) is the one thing the L1 and shared-memory ceilings
// do differently. n is a multiple of blockDim.x * ILP (plan checks).
template <int ILP, typename Load>
__device__ __forceinline__ uint32_t resident_passes(const uint4 *__restrict__ set, int64_t n, int reps, Load load) {
    uint32_t acc = 0;
    for (int r = 0; r < reps; r++)
        wb_for_block_tiles<ILP>(n, [&](int64_t base, auto full) {
            uint4 v[ILP];
            wb_tile_items<ILP>(base, n, full, [&](int k, int64_t i) { v[k] = load(set + i); });
#pragma unroll
            for (int k = 0; k < ILP; k++) acc += lanes_sum(v[k]);
        });
    return acc;
}

// Every block reads the whole set, reps times: the blocks of one SM share
// its L1 copy.
template <int ILP>
__global__ void l1_read_kernel(const uint4 *__restrict__ set, int64_t n, int reps, uint32_t *sum) {
    block_sum_add(resident_passes<ILP>(set, n, reps, [](const uint4 *p) { return load_nc(p); }), sum);
}

// The set is copied into shared memory once, then read reps times; the
// copy is not part of the bytes the point reports (it is 1/reps of them).
template <int ILP>
__global__ void smem_read_kernel(const uint4 *__restrict__ set, int64_t n, int reps, uint32_t *sum) {
    extern __shared__ uint4 tile[];
    for (int64_t i = threadIdx.x; i < n; i += blockDim.x) tile[i] = set[i];
    __syncthreads();
    block_sum_add(resident_passes<ILP>(tile, n, reps, [](const uint4 *p) { return load_shared(p); }), sum);
}

template <int ILP>
__global__ void dram_write_kernel(uint4 *__restrict__ dst, int64_t n, uint32_t seed) {
    wb_for_tiles<ILP>(n, [&](int64_t base, auto full) {
        wb_tile_items<ILP>(base, n, full, [&](int, int64_t i) {
            const uint64_t j = 4 * (uint64_t)i;
            dst[i] = make_uint4(wb_ceiling_pattern(j, seed), wb_ceiling_pattern(j + 1, seed),
                                wb_ceiling_pattern(j + 2, seed), wb_ceiling_pattern(j + 3, seed));
        });
    });
}

// __restrict__ here keeps 32 registers at ILP 4 (34 without), and ptxas
// (CUDA 13.0) still issues all ILP loads before the first store, checked in
// the SASS; transform.cu's stream_tiles needed the opposite choice.
template <int ILP>
__global__ void dram_copy_kernel(const uint4 *__restrict__ src, uint4 *__restrict__ dst, int64_t n) {
    wb_for_tiles<ILP>(n, [&](int64_t base, auto full) {
        uint4 v[ILP];
        wb_tile_items<ILP>(base, n, full, [&](int k, int64_t i) { v[k] = src[i]; });
        wb_tile_items<ILP>(base, n, full, [&](int k, int64_t i) { dst[i] = v[k]; });
    });
}

// Random 4-byte words: request i reads the word its hash names. The ILP
// slots are computed and loaded before the first add, so ILP independent
// random loads are in flight per thread; __ldg is the probes' load path.
template <int ILP>
__global__ void gather_word_kernel(const uint32_t *__restrict__ table, uint64_t words, int64_t n, uint32_t seed,
                                   uint32_t *sum) {
    block_sum_add(sum_pass<ILP, uint32_t>(
                      n, [&](int64_t i) { return __ldg(table + wb_ceiling_gather_slot((uint64_t)i, seed, words)); }),
                  sum);
}

// Random aligned 32-byte sectors: lanes 2r and 2r + 1 read the two 16-byte
// halves of request r's sector, so one warp load asks for 16 whole sectors
// (sm_90 has no 32-byte load per thread). Items are half-sectors, 2n of them.
template <int ILP>
__global__ void gather_sector_kernel(const uint4 *__restrict__ table, uint64_t sectors, int64_t n, uint32_t seed,
                                     uint32_t *sum) {
    block_sum_add(sum_pass<ILP, uint4>(2 * n,
                                       [&](int64_t i) {
                                           return __ldg(table + 2 * wb_ceiling_gather_slot((uint64_t)i >> 1, seed, sectors) +
                                                        (i & 1));
                                       }),
                  sum);
}

// Atomics: reps passes over requests [0, n), ILP requests per thread issued
// back to back; the return value is unused (PTX atom.add: ptxas may make it
// a RED, which the L2 counts apart from ATOM; the limiter sums both; the SASS
// is not checked yet).
template <int ILP>
__device__ __forceinline__ void atom_passes(uint32_t *table, uint64_t entries, int64_t n, int reps, uint32_t seed) {
    for (int r = 0; r < reps; r++)
        wb_for_tiles<ILP>(n, [&](int64_t base, auto full) {
            wb_tile_items<ILP>(base, n, full, [&](int, int64_t i) {
                atomicAdd(table + wb_ceiling_gather_slot((uint64_t)i, seed, entries),
                          wb_ceiling_atom_value((uint64_t)i, seed));
            });
        });
}

template <int ILP>
__global__ void atom_global_kernel(uint32_t *table, uint64_t entries, int64_t n, int reps, uint32_t seed) {
    atom_passes<ILP>(table, entries, n, reps, seed);
}

// The block's requests into its own table in shared memory, which it then
// adds to the global table (entries x blocks global atomics, a small share
// of the n x reps the point counts).
template <int ILP>
__global__ void atom_shared_kernel(uint32_t *table, uint64_t entries, int64_t n, int reps, uint32_t seed) {
    extern __shared__ uint32_t bins[];
    for (uint64_t e = threadIdx.x; e < entries; e += blockDim.x) bins[e] = 0;
    __syncthreads();
    atom_passes<ILP>(bins, entries, n, reps, seed);
    __syncthreads();
    for (uint64_t e = threadIdx.x; e < entries; e += blockDim.x)
        if (bins[e]) atomicAdd(table + e, bins[e]);
}

__global__ void gather_fill_kernel(uint4 *__restrict__ table, uint64_t quads, uint32_t seed) {
    wb_for_grid_items(quads, [&](uint64_t q) {
        table[q] = make_uint4(wb_ceiling_gather_word(4 * q, seed), wb_ceiling_gather_word(4 * q + 1, seed),
                              wb_ceiling_gather_word(4 * q + 2, seed), wb_ceiling_gather_word(4 * q + 3, seed));
    });
}

// One output per thread id t < n, grid-stride (persistent grid: every thread
// does the same number of ids, so no SM idles at the end).
template <wb_ceiling_variant V>
__global__ void inst_kernel(uint32_t *__restrict__ out, int64_t n, uint32_t seed, int turns) {
    wb_for_grid_items(n, [&](int64_t t) {
        if constexpr (V == WB_CEILING_INST_ISSUE) out[t] = wb_ceiling_inst_issue((uint32_t)t, seed, turns);
        else if constexpr (V == WB_CEILING_INT_ALU) out[t] = wb_ceiling_int_alu((uint32_t)t, seed, turns);
        else out[t] = wb_ceiling_fma((uint32_t)t, seed, turns);
    });
}

// The kernel a variant runs at an ILP, for planning.
const void *pick(wb_ceiling_variant v, int ilp) {
    return wb_with_ilp(ilp, (const void *)nullptr, [&](auto I) -> const void * {
        constexpr int K = decltype(I)::value;
        switch (v) {
        case WB_CEILING_DRAM_READ: return reinterpret_cast<const void *>(dram_read_kernel<K>);
        case WB_CEILING_DRAM_WRITE: return reinterpret_cast<const void *>(dram_write_kernel<K>);
        case WB_CEILING_DRAM_COPY: return reinterpret_cast<const void *>(dram_copy_kernel<K>);
        case WB_CEILING_L2_READ: return reinterpret_cast<const void *>(l2_read_kernel<K>);
        case WB_CEILING_L1_READ: return reinterpret_cast<const void *>(l1_read_kernel<K>);
        case WB_CEILING_SMEM_READ: return reinterpret_cast<const void *>(smem_read_kernel<K>);
        case WB_CEILING_INST_ISSUE: return reinterpret_cast<const void *>(inst_kernel<WB_CEILING_INST_ISSUE>);
        case WB_CEILING_INT_ALU: return reinterpret_cast<const void *>(inst_kernel<WB_CEILING_INT_ALU>);
        case WB_CEILING_FMA: return reinterpret_cast<const void *>(inst_kernel<WB_CEILING_FMA>);
        case WB_CEILING_GATHER_WORD: return reinterpret_cast<const void *>(gather_word_kernel<K>);
        case WB_CEILING_GATHER_SECTOR: return reinterpret_cast<const void *>(gather_sector_kernel<K>);
        case WB_CEILING_ATOM_GLOBAL: return reinterpret_cast<const void *>(atom_global_kernel<K>);
        case WB_CEILING_ATOM_SHARED: return reinterpret_cast<const void *>(atom_shared_kernel<K>);
        default: return nullptr;
        }
    });
}

bool is_inst(wb_ceiling_variant v) {
    return v == WB_CEILING_INST_ISSUE || v == WB_CEILING_INT_ALU || v == WB_CEILING_FMA;
}

// The items l1/smem give wb_plan_kernel: more than any grid covers, so the
// persistent grid is one full wave of blocks, each reading the whole set.
constexpr int64_t whole_wave = (int64_t)1 << 40;

}  // namespace

extern "C" cudaError_t wb_ceiling_plan(const wb_ceiling_args *c, wb_launch *l) {
    const wb_ceiling_variant v = c->variant;
    if (v == WB_CEILING_MEMCPY || v == WB_CEILING_H2D || v == WB_CEILING_D2H) return cudaSuccess;
    if (v == WB_CEILING_CUB_REDUCE) {
        size_t bytes = 0;
        cudaError_t e = cub::DeviceReduce::Sum(nullptr, bytes, static_cast<const uint32_t *>(c->src), c->sum,
                                               (int64_t)4 * c->n);
        l->temp_bytes = bytes;
        return e;
    }
    const int ilp = is_inst(v) ? 1 : l->ilp;
    const void *k = pick(v, ilp);
    if (!k) return cudaErrorInvalidValue;
    const int64_t per_block = (int64_t)l->block * ilp;
    switch (v) {
    case WB_CEILING_L1_READ:
    case WB_CEILING_SMEM_READ:
        if (c->n <= 0 || c->n % per_block != 0) return cudaErrorInvalidValue;
        // l1_read uses no shared memory beyond its 128-byte reduction: ask for
        // the largest L1 split (occupancy padding, when asked for, overrides it).
        if (v == WB_CEILING_L1_READ) {
            cudaError_t e = cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout,
                                                 (int)cudaSharedmemCarveoutMaxL1);
            if (e != cudaSuccess) return e;
        }
        return wb_plan_kernel(k, l, whole_wave, l->block, wb_grid_mode::persistent,
                              v == WB_CEILING_SMEM_READ ? (int)(c->n * sizeof(uint4)) : 0);
    case WB_CEILING_DRAM_WRITE:
    case WB_CEILING_DRAM_COPY:
        return wb_plan_kernel(k, l, c->n, per_block, l->sm_limit > 0 ? wb_grid_mode::persistent : wb_grid_mode::cover, 0);
    case WB_CEILING_GATHER_SECTOR:  // two threads per request
        return wb_plan_kernel(k, l, 2 * c->n, per_block, wb_grid_mode::persistent, 0);
    case WB_CEILING_ATOM_SHARED:  // the block's table in shared memory
        if (c->table_words == 0 || c->table_words > WB_CEILING_ATOM_SHARED_MAX) return cudaErrorInvalidValue;
        return wb_plan_kernel(k, l, c->n, per_block, wb_grid_mode::persistent, (int)(c->table_words * sizeof(uint32_t)));
    case WB_CEILING_ATOM_GLOBAL:
        if (c->table_words == 0) return cudaErrorInvalidValue;
        return wb_plan_kernel(k, l, c->n, per_block, wb_grid_mode::persistent, 0);
    default:  // reads, gathers and inst kernels: persistent
        return wb_plan_kernel(k, l, c->n, per_block, wb_grid_mode::persistent, 0);
    }
}

extern "C" cudaError_t wb_ceiling_launch(const wb_ceiling_args *c, const wb_launch *l, cudaStream_t s) {
    const uint4 *src = static_cast<const uint4 *>(c->src);
    uint4 *dst = static_cast<uint4 *>(c->dst);
    const size_t bytes = (size_t)c->n * sizeof(uint4);
    switch (c->variant) {
    case WB_CEILING_MEMCPY: return cudaMemcpyAsync(c->dst, c->src, bytes, cudaMemcpyDeviceToDevice, s);
    case WB_CEILING_H2D: return cudaMemcpyAsync(c->dst, c->src, bytes, cudaMemcpyHostToDevice, s);
    case WB_CEILING_D2H: return cudaMemcpyAsync(c->dst, c->src, bytes, cudaMemcpyDeviceToHost, s);
    case WB_CEILING_CUB_REDUCE: {
        size_t temp_bytes = l->temp_bytes;
        return cub::DeviceReduce::Sum(c->temp, temp_bytes, static_cast<const uint32_t *>(c->src), c->sum,
                                      (int64_t)4 * c->n, s);
    }
    default: break;
    }
    if (l->grid == 0) return cudaSuccess;
    const int ilp = is_inst(c->variant) ? 1 : l->ilp;
    uint32_t *out = static_cast<uint32_t *>(c->dst);
    const cudaError_t e = wb_with_ilp(ilp, cudaErrorInvalidValue, [&](auto I) {
        constexpr int K = decltype(I)::value;
        const dim3 g(l->grid), b(l->block);
        const size_t sm = l->smem_bytes;
        switch (c->variant) {
        case WB_CEILING_DRAM_READ: dram_read_kernel<K><<<g, b, sm, s>>>(src, c->n, c->sum); break;
        case WB_CEILING_DRAM_WRITE: dram_write_kernel<K><<<g, b, sm, s>>>(dst, c->n, c->seed); break;
        case WB_CEILING_DRAM_COPY: dram_copy_kernel<K><<<g, b, sm, s>>>(src, dst, c->n); break;
        case WB_CEILING_L2_READ: l2_read_kernel<K><<<g, b, sm, s>>>(src, c->n, c->reps, c->sum); break;
        case WB_CEILING_L1_READ: l1_read_kernel<K><<<g, b, sm, s>>>(src, c->n, c->reps, c->sum); break;
        case WB_CEILING_SMEM_READ: smem_read_kernel<K><<<g, b, sm, s>>>(src, c->n, c->reps, c->sum); break;
        case WB_CEILING_INST_ISSUE:
            inst_kernel<WB_CEILING_INST_ISSUE><<<g, b, sm, s>>>(out, c->n, c->seed, c->reps);
            break;
        case WB_CEILING_INT_ALU: inst_kernel<WB_CEILING_INT_ALU><<<g, b, sm, s>>>(out, c->n, c->seed, c->reps); break;
        case WB_CEILING_FMA: inst_kernel<WB_CEILING_FMA><<<g, b, sm, s>>>(out, c->n, c->seed, c->reps); break;
        case WB_CEILING_GATHER_WORD:
            gather_word_kernel<K><<<g, b, sm, s>>>(static_cast<const uint32_t *>(c->src), c->table_words, c->n,
                                                   c->seed, c->sum);
            break;
        case WB_CEILING_GATHER_SECTOR:
            gather_sector_kernel<K><<<g, b, sm, s>>>(src, c->table_words / 8, c->n, c->seed, c->sum);
            break;
        case WB_CEILING_ATOM_GLOBAL:
            atom_global_kernel<K><<<g, b, sm, s>>>(out, c->table_words, c->n, c->reps, c->seed);
            break;
        case WB_CEILING_ATOM_SHARED:
            atom_shared_kernel<K><<<g, b, sm, s>>>(out, c->table_words, c->n, c->reps, c->seed);
            break;
        default: return cudaErrorInvalidValue;
        }
        return cudaSuccess;
    });
    if (e != cudaSuccess) return e;
    return wb_launched();
}

extern "C" cudaError_t wb_ceiling_gather_fill(uint32_t *table, uint64_t words, uint32_t seed, cudaStream_t s) {
    if (words == 0) return cudaSuccess;
    if (words % 4 != 0) return cudaErrorInvalidValue;
    int dev = 0, sms = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (e != cudaSuccess) return e;
    gather_fill_kernel<<<8 * sms, 256, 0, s>>>(reinterpret_cast<uint4 *>(table), words / 4, seed);
    return wb_launched();
}

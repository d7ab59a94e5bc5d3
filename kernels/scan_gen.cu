// scan_gen.cu - the scan family's inputs and reference on the GPU (see scan_gen.h).
#include "kernels/scan_gen.h"

#include "kernels/launch.cuh"
#include "kernels/tile_loop.cuh"
#include "kernels/splitmix.h"

namespace {

constexpr int GEN_BLOCK = 256, GEN_BLOCKS_PER_SM = 8;

// wb_rng_below of draw j of a stream: the high half of draw * bound.
__device__ __forceinline__ uint64_t below(uint64_t stream, uint64_t j, uint64_t bound) {
    return bound ? wb_mulhi(wb_stream_draw(stream, j), bound) : 0;
}

__global__ void __launch_bounds__(GEN_BLOCK) gen_kernel(wb_scan_gen g, int32_t *c0, int32_t *c1, int32_t *c2, int32_t *c3) {
    const int draws = g.shape == WB_SCAN_Q11 ? 4 : 3;
    const uint64_t date_span = (uint64_t)((int64_t)g.q.date_hi - g.q.date_lo + 1);
    const int64_t lo_out = g.q.date_lo > g.date_min ? (int64_t)g.q.date_lo - g.date_min : 0;
    const int64_t hi_out = g.q.date_hi < g.date_max ? (int64_t)g.date_max - g.q.date_hi : 0;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < g.n; i += (int64_t)gridDim.x * blockDim.x) {
        const uint64_t s = wb_chunk_stream(g.seed, (uint64_t)(i / g.chunk)), j = (uint64_t)(i % g.chunk) * draws;
        if ((int64_t)wb_perm_at(&g.perm, (uint64_t)i) < g.k) {
            c0[i] = g.q.date_lo + (int32_t)below(s, j, date_span);
        } else { // date_outside: below the range, then above it
            const int64_t r = (int64_t)below(s, j, (uint64_t)(lo_out + hi_out));
            c0[i] = (int32_t)(r < lo_out ? g.date_min + r : (int64_t)g.q.date_hi + 1 + (r - lo_out));
        }
        if (g.shape == WB_SCAN_Q11) {
            c1[i] = (int32_t)below(s, j + 1, 11);
            c2[i] = 1 + (int32_t)below(s, j + 2, 50);
            c3[i] = g.price_min + (int32_t)below(s, j + 3, g.price_span);
        } else {
            c1[i] = (int32_t)below(s, j + 1, (uint64_t)g.dim_entries);
            c2[i] = g.price_min + (int32_t)below(s, j + 2, g.price_span);
        }
    }
}

__global__ void __launch_bounds__(GEN_BLOCK) dim_kernel(int64_t entries, uint64_t stream, int regions, int32_t *dim) {
    for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < entries; e += (int64_t)gridDim.x * blockDim.x)
        dim[e] = (int32_t)below(stream, (uint64_t)e, (uint64_t)regions);
}

// The reference's counts, each an unsigned 64-bit sum (the sum two's complement).
enum { R_SUM, R_FIRST, R_ALL, R_NEED0, R_NEED1, R_NEED2, R_DIM, R_COUNT };

__device__ __forceinline__ void add_warp(unsigned long long *out, unsigned long long v) {
    v = wb_warp_sum(v);
    if ((threadIdx.x & 31) == 0 && v) atomicAdd(out, v);
}

// One thread per 32-byte sector of rows (8 rows), the CPU reference's rules
// written out plainly: a sector of a later column is needed when one of its
// rows still passes before that column.
__global__ void __launch_bounds__(GEN_BLOCK)
    ref_kernel(int shape, int64_t n, wb_scan_query q, const int32_t *c0, const int32_t *c1, const int32_t *c2,
               const int32_t *c3, const int32_t *dim, unsigned char *dim_hit, unsigned long long *out) {
    unsigned long long sum = 0, first = 0, all = 0, need[3] = {0, 0, 0};
    const int64_t sectors = (n + 7) / 8;
    for (int64_t sec = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; sec < sectors;
         sec += (int64_t)gridDim.x * blockDim.x) {
        bool sn[3] = {false, false, false};
        for (int64_t i = sec * 8; i < sec * 8 + 8 && i < n; i++) {
            bool pass = c0[i] >= q.date_lo && c0[i] <= q.date_hi;
            first += pass;
            sn[0] |= pass;
            if (shape == WB_SCAN_Q11) {
                pass = pass && c1[i] >= q.disc_lo && c1[i] <= q.disc_hi;
                sn[1] |= pass;
                pass = pass && c2[i] < q.qty_below;
                sn[2] |= pass;
                if (pass) sum += (unsigned long long)((long long)c3[i] * c1[i]);
            } else {
                if (pass) dim_hit[c1[i] / 8] = 1;
                pass = pass && dim[c1[i]] == q.region;
                sn[1] |= pass;
                if (pass) sum += (unsigned long long)(long long)c2[i];
            }
            all += pass;
        }
        for (int j = 0; j < 3; j++) need[j] += sn[j];
    }
    add_warp(out + R_SUM, sum), add_warp(out + R_FIRST, first), add_warp(out + R_ALL, all);
    for (int j = 0; j < 3; j++) add_warp(out + R_NEED0 + j, need[j]);
}

__global__ void __launch_bounds__(GEN_BLOCK) dim_count_kernel(const unsigned char *dim_hit, int64_t m, unsigned long long *out) {
    unsigned long long c = 0;
    for (int64_t s = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; s < m; s += (int64_t)gridDim.x * blockDim.x) c += dim_hit[s];
    add_warp(out + R_DIM, c);
}

int64_t dim_sectors_of(int64_t dim_entries) { return dim_entries > 0 ? (dim_entries + 7) / 8 : 0; }

}  // namespace

extern "C" cudaError_t wb_scan_gen_gpu(const wb_scan_gen *g, int32_t *const col[4], int32_t *dim_region, cudaStream_t s) {
    if (g->chunk <= 0 || g->n < 0 || (g->shape != WB_SCAN_Q11 && g->shape != WB_SCAN_Q31)) return cudaErrorInvalidValue;
    const int64_t lo_out = g->q.date_lo > g->date_min ? (int64_t)g->q.date_lo - g->date_min : 0;
    const int64_t hi_out = g->q.date_hi < g->date_max ? (int64_t)g->date_max - g->q.date_hi : 0;
    if (g->k < g->n && lo_out + hi_out == 0) return cudaErrorInvalidValue;
    int grid = 0;
    cudaError_t e = wb_helper_grid(g->n, GEN_BLOCK, GEN_BLOCKS_PER_SM, &grid);
    if (e == cudaSuccess && g->n > 0) {
        gen_kernel<<<grid, GEN_BLOCK, 0, s>>>(*g, col[0], col[1], col[2], col[3]);
        e = wb_launched();
    }
    if (e == cudaSuccess && g->shape == WB_SCAN_Q31 && g->dim_entries > 0 &&
        (e = wb_helper_grid(g->dim_entries, GEN_BLOCK, GEN_BLOCKS_PER_SM, &grid)) == cudaSuccess) {
        dim_kernel<<<grid, GEN_BLOCK, 0, s>>>(g->dim_entries, g->dim_stream, g->regions, dim_region);
        e = wb_launched();
    }
    return e;
}

extern "C" size_t wb_scan_ref_gpu_scratch(int64_t dim_entries) {
    return R_COUNT * sizeof(unsigned long long) + (size_t)dim_sectors_of(dim_entries);
}

extern "C" cudaError_t wb_scan_ref_gpu(int shape, int64_t n, const wb_scan_query *q, const int32_t *const col[4],
                                       const int32_t *dim_region, int64_t dim_entries, void *scratch,
                                       wb_scan_gen_ref *out, cudaStream_t s) {
    unsigned long long *sums = static_cast<unsigned long long *>(scratch), host[R_COUNT];
    unsigned char *dim_hit = reinterpret_cast<unsigned char *>(sums + R_COUNT);
    const int64_t dim_sectors = shape == WB_SCAN_Q31 ? dim_sectors_of(dim_entries) : 0;
    int grid = 0;
    cudaError_t e = cudaMemsetAsync(scratch, 0, wb_scan_ref_gpu_scratch(shape == WB_SCAN_Q31 ? dim_entries : 0), s);
    if (e == cudaSuccess && n > 0 &&
        (e = wb_helper_grid((n + 7) / 8, GEN_BLOCK, GEN_BLOCKS_PER_SM, &grid)) == cudaSuccess) {
        ref_kernel<<<grid, GEN_BLOCK, 0, s>>>(shape, n, *q, col[0], col[1], col[2], col[3], dim_region, dim_hit, sums);
        e = wb_launched();
    }
    if (e == cudaSuccess && dim_sectors > 0 &&
        (e = wb_helper_grid(dim_sectors, GEN_BLOCK, GEN_BLOCKS_PER_SM, &grid)) == cudaSuccess) {
        dim_count_kernel<<<grid, GEN_BLOCK, 0, s>>>(dim_hit, dim_sectors, sums);
        e = wb_launched();
    }
    if (e == cudaSuccess) e = cudaMemcpyAsync(host, sums, sizeof host, cudaMemcpyDeviceToHost, s);
    if (e == cudaSuccess) e = cudaStreamSynchronize(s);
    if (e != cudaSuccess) return e;
    *out = wb_scan_gen_ref{(long long)host[R_SUM], (int64_t)host[R_FIRST], (int64_t)host[R_ALL],
                           {(int64_t)host[R_NEED0], (int64_t)host[R_NEED1], (int64_t)host[R_NEED2]},
                           (int64_t)host[R_DIM]};
    return cudaSuccess;
}

// probe_gen.cu - the probe family's inputs on the GPU (see probe_gen.h). The
// expressions are those of micro/probe_gen.c (payload, wb_probe_dim_val,
// fact_chunk), written again here as fill.cu writes the fill's (the streams
// are splitmix.h's, shared): the test holds the two sides equal.
#include "kernels/probe_gen.h"

#include "kernels/launch.cuh"
#include "kernels/tile_loop.cuh"
#include "kernels/probe.h"
#include "kernels/splitmix.h"

namespace {

constexpr int GEN_BLOCK = 256, GEN_BLOCKS_PER_SM = 8;
constexpr uint64_t FACT_SALT = 3; // the fact streams' seed is seed ^ 3 (fact_chunk)

// payload(): the value of a passing key, a hash of it in [0, 2^30) (the
// first draw of the stream the key keys, as the host's wb_rng_next makes it).
__device__ __forceinline__ int32_t payload(uint64_t seed, int64_t key) {
    return (int32_t)(wb_chunk_stream(seed, (uint64_t)key) & 0x3FFFFFFF);
}


__global__ void __launch_bounds__(GEN_BLOCK) dim_kernel(wb_probe_gen_params g, int32_t *keys, int32_t *vals) {
    for (int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k < g.dim_rows;
         k += (int64_t)gridDim.x * blockDim.x) {
        keys[k] = (int32_t)k;
        vals[k] = wb_feistel_fwd(&g.dim_rank, (uint64_t)k) < (uint64_t)g.passing ? payload(g.seed, k)
                                                                                  : WB_PROBE_FILTERED;
    }
}


// Row i hits iff its rank < hits (every row when hits == n, as the host
// skips the bijection then), and draws its key's rank uniformly from the
// passing ranks [0, passing) on a hit, from [passing, dim_rows) on a miss,
// with draw i % chunk of chunk i / chunk's stream: the host's one draw per
// row, so row i needs no other row's draws.
__global__ void __launch_bounds__(GEN_BLOCK)
    fact_kernel(wb_probe_gen_params g, int32_t *fact, unsigned long long *sums) {
    const uint64_t passing = (uint64_t)g.passing, misses = (uint64_t)(g.dim_rows - g.passing);
    const bool all_hit = g.hits == g.n;
    unsigned long long sum = 0, packed = 0, matches = 0;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < g.n; i += (int64_t)gridDim.x * blockDim.x) {
        const uint64_t c = (uint64_t)(i / g.chunk), j = (uint64_t)(i % g.chunk);
        const uint64_t z = wb_stream_draw(wb_chunk_stream(g.seed ^ FACT_SALT, c), j);
        const bool hit = all_hit || wb_feistel_fwd(&g.row_rank, (uint64_t)i) < (uint64_t)g.hits;
        const uint64_t rank = hit ? wb_mulhi(z, passing) : passing + wb_mulhi(z, misses); /* bounds nonzero: checked */
        const int64_t key = (int64_t)wb_feistel_inv(&g.dim_rank, rank);
        fact[i] = (int32_t)key;
        if (hit) { // rank < passing: the key passes
            const int32_t v = payload(g.seed, key);
            sum += (unsigned long long)v;
            packed += (unsigned long long)(v & WB_PROBE_PACKED_MASK);
            matches++;
        }
    }
    // Every thread of the block gets here (no early exit): full-warp shuffles.
    sum = wb_warp_sum(sum), packed = wb_warp_sum(packed), matches = wb_warp_sum(matches);
    if ((threadIdx.x & 31) == 0 && matches) {
        atomicAdd(sums + WB_PROBE_GEN_SUM, sum);
        atomicAdd(sums + WB_PROBE_GEN_PACKED_SUM, packed);
        atomicAdd(sums + WB_PROBE_GEN_MATCHES, matches);
    }
}

// Blocks for `rows` rows: enough for the rows, at most GEN_BLOCKS_PER_SM a
// multiprocessor (the loops are grid-stride).
cudaError_t grid_of(int64_t rows, int *grid) { return wb_helper_grid(rows, GEN_BLOCK, GEN_BLOCKS_PER_SM, grid); }

// What wb_probe_gen_init makes for the dimension: int32 keys, a passing
// count within the rows, the rank bijection over them.
bool dim_ok(const wb_probe_gen_params &g) {
    if (g.n < 0 || g.dim_rows < 0 || g.dim_rows > INT32_MAX || g.chunk <= 0) return false;
    return g.dim_rows == 0 || (g.passing >= 0 && g.passing <= g.dim_rows && g.dim_rank.n == (uint64_t)g.dim_rows);
}

}  // namespace

extern "C" cudaError_t wb_probe_gen_dim_gpu(const wb_probe_gen_params *g, int32_t *keys, int32_t *vals,
                                            cudaStream_t s) {
    if (!dim_ok(*g)) return cudaErrorInvalidValue;
    if (g->dim_rows == 0) return cudaSuccess;
    int grid = 0;
    cudaError_t c = grid_of(g->dim_rows, &grid);
    if (c != cudaSuccess) return c;
    dim_kernel<<<grid, GEN_BLOCK, 0, s>>>(*g, keys, vals);
    return wb_launched();
}

extern "C" cudaError_t wb_probe_gen_fact_gpu(const wb_probe_gen_params *g, int32_t *fact, unsigned long long *sums,
                                             cudaStream_t s) {
    if (!dim_ok(*g) || g->hits < 0 || g->hits > g->n) return cudaErrorInvalidValue;
    // A row draws from the passing ranks (some row hits) or the filtered
    // ones (some row misses): the host's wb_rng_below makes no draw for an
    // empty set, which would shift its stream, so such a set is an error
    // (wb_probe_gen_init never makes one).
    if (g->n > 0 && ((g->hits > 0 && g->passing < 1) || (g->hits < g->n && g->passing >= g->dim_rows) ||
                     (g->hits < g->n && g->row_rank.n != (uint64_t)g->n)))
        return cudaErrorInvalidValue;
    cudaError_t c = cudaMemsetAsync(sums, 0, WB_PROBE_GEN_SUMS * sizeof *sums, s);
    if (c != cudaSuccess || g->n == 0) return c;
    int grid = 0;
    if ((c = grid_of(g->n, &grid)) != cudaSuccess) return c;
    fact_kernel<<<grid, GEN_BLOCK, 0, s>>>(*g, fact, sums);
    return wb_launched();
}

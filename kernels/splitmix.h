/* splitmix.h - splitmix64's finaliser, the one mix behind the suite's random
 * inputs (micro/data.h's streams, kernels/fill.cu's GPU fill, the ssb
 * generator) and the probe partition's fingerprints. Plain C on the host,
 * __host__ __device__ under nvcc, so that both sides compute the same bits.
 * (The ceiling kernels and the counter reference kernel keep their own copy:
 * they are measured code.) */
#ifndef WB_KERNELS_SPLITMIX_H
#define WB_KERNELS_SPLITMIX_H

#include <stdint.h>

#ifdef __CUDACC__
#define WB_SPLITMIX_HD __host__ __device__
#else
#define WB_SPLITMIX_HD
#endif

#define WB_GOLDEN_GAMMA 0x9E3779B97F4A7C15ull /* splitmix64's increment */

static inline WB_SPLITMIX_HD uint64_t wb_splitmix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The parallel fills' streams (micro/exact.h, wb_chunk_seed): chunk c of a
 * fill seeded `seed` draws from the stream this returns, and draw j of a
 * stream (wb_rng_at, micro/data.h) is wb_stream_draw(stream, j): any row's
 * draws can be made on their own, on the host or a GPU thread. */
static inline WB_SPLITMIX_HD uint64_t wb_chunk_stream(uint64_t seed, uint64_t chunk) {
    return wb_splitmix((seed ^ (chunk * 0xD1B54A32D192ED03ull)) + WB_GOLDEN_GAMMA);
}
static inline WB_SPLITMIX_HD uint64_t wb_stream_draw(uint64_t stream, uint64_t j) {
    return wb_splitmix(stream + (j + 1) * WB_GOLDEN_GAMMA);
}

/* The high half of a * b: a draw scaled to [0, b) (wb_rng_below), the same
 * bits on the host and a GPU. */
static inline WB_SPLITMIX_HD uint64_t wb_mulhi(uint64_t a, uint64_t b) {
#ifdef __CUDA_ARCH__
    return __umul64hi(a, b);
#else
    return (uint64_t)(((unsigned __int128)a * b) >> 64);
#endif
}

#endif

/* probe_gen.h - the probe family's inputs generated on the GPU, bit for bit
 * those of the host generator (micro/probe_gen.h, wb_probe_gen_dim and
 * wb_probe_gen_fact), with the fact keys' reference sums reduced on the GPU:
 * 2^28 fact keys took ~21 s of the default run on 16 host cores plus a 1 GiB
 * upload, and the host never needs to hold them. Why it can: every row is
 * drawn on its own. Dimension key k's value is a function of k; fact row i
 * is draw i % WB_KEYS_CHUNK of its chunk's stream (splitmix64 is counter-
 * based, data.h's wb_rng_at), one draw per row, and its hit or miss and key
 * come from the two bijections (kernels/bijection.h, shared with the host).
 * Not measured: inputs only. tests/test_gpu_probe_gen.c holds it to the host
 * generator. */
#ifndef WB_KERNELS_PROBE_GEN_H
#define WB_KERNELS_PROBE_GEN_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#include "kernels/bijection.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The generator's parameters, by value (micro/probe_gen.h's wb_probe_gen
 * less what the kernels do not read; wb_probe_gen_params_of copies them). */
typedef struct wb_probe_gen_params {
    int64_t n, dim_rows;    /* fact rows, dimension rows */
    int64_t passing, hits;  /* dimension rows that pass the filter, fact rows that name one */
    uint64_t seed;
    wb_bijection dim_rank;  /* key -> rank: key k passes iff its rank < passing (dim_rows >= 1) */
    wb_bijection row_rank;  /* fact row -> rank: row i hits iff its rank < hits (n >= 1) */
    int64_t chunk;          /* rows per fact chunk stream: WB_KEYS_CHUNK */
} wb_probe_gen_params;

/* Words of the reference sums (device, unsigned long long each). */
enum { WB_PROBE_GEN_SUM, WB_PROBE_GEN_PACKED_SUM, WB_PROBE_GEN_MATCHES, WB_PROBE_GEN_SUMS };

/* Enqueues on s: keys[i] = i and vals[i] = the value of key i (its payload
 * when it passes, WB_PROBE_FILTERED otherwise) for i < dim_rows (device
 * columns of dim_rows int32). Returns the first CUDA error;
 * cudaErrorInvalidValue for parameters the host init would not make. */
cudaError_t wb_probe_gen_dim_gpu(const wb_probe_gen_params *g, int32_t *keys, int32_t *vals, cudaStream_t s);

/* Enqueues on s: fact[0, n) = the fact keys (device, n int32) and sums[0,
 * WB_PROBE_GEN_SUMS) (device; zeroed here first) = over the rows that hit,
 * the sum of their keys' values, of those values & WB_PROBE_PACKED_MASK, and
 * their count (integer sums mod 2^64: exact in any order). Returns the first
 * CUDA error; cudaErrorInvalidValue for parameters the host init would not
 * make (a rank set that a row must draw from is empty). */
cudaError_t wb_probe_gen_fact_gpu(const wb_probe_gen_params *g, int32_t *fact, unsigned long long *sums,
                                  cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif

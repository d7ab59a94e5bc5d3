/* fill.h - random input columns generated on the GPU, bit for bit the values
 * of the host fill of the same spec (micro/fill.h, wb_fill_host_range): a
 * column of 2^28 rows costs ~1 ms here against ~0.1 s of fill, first touch
 * and pageable upload on 16 host cores, and the host never holds it. Why it
 * can: the RNG is splitmix64 (micro/data.h), counter-based, so draw j of a
 * stream is mix(seed + (j+1) * golden) and any row can be drawn on its own.
 * Row i lies in fill chunk c = i / chunk and is draw i % chunk of that
 * chunk's stream, seeded mix(seed ^ ((c + chunk_salt) * 0xD1B54A32D192ED03) +
 * golden): wb_chunk_seed(seed, c + chunk_salt) of micro/exact.h. Not
 * measured: inputs only. tests/test_gpu_fill.c holds it to the host fill. */
#ifndef WB_FILL_H
#define WB_FILL_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { WB_FILL_I32, WB_FILL_I64, WB_FILL_F64 }; /* element types */

/* One column's values: ints uniform in [lo, lo + span) (wb_rng_below: the
 * high half of draw * span), doubles lo + (hi - lo) * unit (wb_rng_unit: the
 * top 53 bits of the draw over 2^53, each operation rounded separately). */
typedef struct wb_fill_spec {
    int type;          /* WB_FILL_* */
    uint64_t seed;     /* the column's stream seed */
    int64_t chunk;     /* rows per chunk stream, > 0 */
    uint64_t chunk_salt; /* added to the chunk index before it keys the stream */
    int64_t lo;        /* integers: the smallest value */
    uint64_t span;     /* integers: how many values (0: every value is lo) */
    double dlo, dhi;   /* doubles: [dlo, dhi) */
} wb_fill_spec;

/* Enqueues on s: x[0, n) = rows [first, first + n) of the spec's column (x:
 * device memory of n elements of 4 or 8 bytes). Returns the launch error. */
cudaError_t wb_fill_gpu(const wb_fill_spec *spec, void *x, int64_t first, int64_t n, cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif

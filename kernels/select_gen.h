/* select_gen.h - the selection family's input on the GPU, bit for bit the
 * host fill (micro/select_ref.h, wb_select_fill): row i is selected iff its
 * rank r = wb_perm_at(perm, i) is below k, and then holds r; another row
 * holds k + the high half of (draw i % chunk of chunk i / chunk's stream) *
 * (INT32_MAX - k + 1). Not measured: inputs only; at 2^28 rows the host fill
 * took ~0.2 s on 16 cores, and its pinned buffer and upload more.
 * tests/test_gpu_select_gen.c holds it to the host. */
#ifndef WB_SELECT_GEN_H
#define WB_SELECT_GEN_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#include "kernels/perm.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wb_select_gen {
    int64_t n, k, chunk; /* rows, selected rows, rows per chunk stream */
    uint64_t seed;       /* chunk c's stream: wb_chunk_stream(seed, c) */
    wb_perm perm;
} wb_select_gen;

/* Enqueues x[0, n) on s; returns the launch error (cudaErrorInvalidValue
 * for chunk < 1 or k outside [0, n]). */
cudaError_t wb_select_gen_gpu(const wb_select_gen *g, int32_t *x, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif

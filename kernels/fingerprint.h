/* fingerprint.h - a 64-bit fingerprint of an array's bits, so that an output
 * of 2^28 elements is verified without being read back: the host computes
 * the fingerprint its reference must have (micro/fingerprint.h), the GPU
 * the one the output has (a plain reduction, not the code measured), and the
 * two are compared. The fingerprint of elements x[0, n) at positions first +
 * i is the sum mod 2^64 of wb_print_term(first + i, bits of x[i]): order-free,
 * so that any split of the work adds up to the same value; an element wrong
 * at one position moves it by a splitmix64 difference, so a wrong output
 * passes with probability about 2^-64. A family falls back to its
 * element-by-element check when the two differ: that check decides, and
 * names the elements. */
#ifndef WB_KERNELS_FINGERPRINT_H
#define WB_KERNELS_FINGERPRINT_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#include "kernels/splitmix.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The term of one element: its position and its bits (4-byte elements
 * zero-extended), each through splitmix64. */
static inline WB_SPLITMIX_HD uint64_t wb_print_term(uint64_t position, uint64_t bits) {
    return wb_splitmix(bits + wb_splitmix(position ^ 0x6A09E667F3BCC909ull));
}

/* Device scratch of wb_print_gpu: one counter. */
#define WB_PRINT_SCRATCH_BYTES 8
/* *print = the fingerprint of x[0, n) (device memory, elem 4 or 8 bytes) at
 * positions first + i, computed on s (synchronised). scratch: device memory
 * of WB_PRINT_SCRATCH_BYTES. cudaErrorInvalidValue for another elem. */
cudaError_t wb_print_gpu(const void *x, int64_t n, int elem, int64_t first, void *scratch, uint64_t *print,
                         cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif

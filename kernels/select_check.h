/* select_check.h - the select family's check of an output in any order, on
 * the GPU. It is not measured: it replaces the host's multiset comparison of
 * the tile, warp and atomic selections (about 0.2 s a 2^28-row point on 16
 * host cores), the largest share of the default run's verification.
 * Exact, and against the CPU reference: micro/select.c checks at data
 * creation that the reference (micro/select_ref.c) is a permutation of
 * 0..k-1, so "out[0, k) is a permutation of 0..k-1" is "out[0, k) equals the
 * reference as a multiset". tests/test_gpu_select_check.c holds it to the
 * host comparison on passing and failing outputs. */
#ifndef WB_SELECT_CHECK_H
#define WB_SELECT_CHECK_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Device scratch of the check for k selected values: a bitmap of k bits and
 * one counter. */
size_t wb_select_check_bytes(int64_t k);

/* Enqueues on s: *bad = the slots of out[0, n) that break "out[0, count) holds
 * each of 0..k-1 at most once and out[count, n) still holds poison" (a value
 * out of range, a value seen before, a slot past the count overwritten).
 * scratch: wb_select_check_bytes(k) bytes of device memory, cleared here; bad
 * points into it. With count == k and *bad == 0 the output is the reference's
 * multiset; the caller tests count == k. */
cudaError_t wb_select_check_unordered(const int32_t *out, int64_t n, int64_t count, int64_t k, int32_t poison,
                                      void *scratch, unsigned long long **bad, cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif

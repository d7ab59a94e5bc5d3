/* probe_check.h - the probe family's check of a partitioned key column on
 * the GPU (the partition alone, WB_PROBE_PARTITION). Not measured: it
 * replaces the host's download and scan of the partitioned keys (1 GiB at
 * 2^28 keys, ~2.5 s a point on the H200's host at 493c106, 23 s of the
 * default run's verification) by a pass of ~1 ms and a summary of a few KiB.
 *
 * What it computes is order-free and exact; micro/probe_gen.c compares it
 * with the host's reference from the fact keys (wb_probe_parts_compare) and
 * computes the same summary on the host (wb_probe_parts_summary_host), which
 * tests/test_gpu_probe_parts.c holds the kernel to. */
#ifndef WB_PROBE_CHECK_H
#define WB_PROBE_CHECK_H

#include <stdint.h>
#include <cuda_runtime_api.h>
#include "kernels/splitmix.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The summary of keys[0, n) partitioned into `partitions` runs by key >>
 * shift, given the runs the reference expects (start[0] = 0 <= start[1] <=
 * ... <= start[partitions] = n): u64 words
 *   [0] misplaced: positions i whose key is of no partition (key < 0 or
 *       key >> shift >= partitions) or of a partition p whose run
 *       [start[p], start[p+1]) does not hold i;
 *   [1] the first misplaced position (UINT64_MAX: none);
 *   [2 + p] count of keys of partition p (wherever they are);
 *   [2 + partitions + p] their fingerprint: the sum mod 2^64 of
 *       wb_probe_key_mix(key) (splitmix64's finaliser of the key). */
static inline size_t wb_probe_parts_summary_words(int partitions) { return 2 + 2 * (size_t)partitions; }

/* The finaliser the fingerprints sum (host and device). */
#ifdef __CUDACC__
__host__ __device__
#endif
static inline uint64_t wb_probe_key_mix(int32_t key) { return wb_splitmix((uint64_t)(uint32_t)key + WB_GOLDEN_GAMMA); }

/* Device scratch of the check: the summary and the runs' starts. */
size_t wb_probe_parts_check_bytes(int partitions);

/* Computes the summary of keys[0, n) (device) on s into summary[0,
 * wb_probe_parts_summary_words(partitions)) (host memory), and waits for it.
 * start: host, partitions + 1 entries. scratch: wb_probe_parts_check_bytes
 * bytes of device memory. cudaErrorInvalidValue for partitions < 1, shift
 * outside 0..31 or n < 0. Returns the first CUDA error. */
cudaError_t wb_probe_parts_check(const int32_t *keys, int64_t n, int partitions, int shift, const int64_t *start,
                                 void *scratch, uint64_t *summary, cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif

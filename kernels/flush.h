/* flush.h - evicts the L2 cache between timed samples by READING a buffer of
 * several times the L2 size (timing.c says how many and why). A read, not a
 * memset: a memset leaves dirty lines whose write-back then lands inside the
 * next timed kernel, while the clean lines a read leaves behind are dropped
 * for free. */
#ifndef WB_FLUSH_H
#define WB_FLUSH_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Enqueues on s one kernel that reads buf[0, bytes) in 16-byte words
 * (buf 16-byte aligned, as cudaMalloc returns; a tail of bytes % 16 is not
 * read). buf must hold zeros (cudaMemset once): the kernel stores to *sink
 * only when the xor of what it read equals a key no zero buffer gives, which
 * keeps the compiler from dropping the loads. Returns the launch error. */
cudaError_t wb_flush_l2(const void *buf, size_t bytes, unsigned *sink, int grid, int block, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif

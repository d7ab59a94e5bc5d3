/* hashprobe_kernel.h - the example plugin's kernel, seen from C: a probe of
 * a linear-probing hash table (one thread per key, or ILP keys per thread). */
#ifndef HASHPROBE_KERNEL_H
#define HASHPROBE_KERNEL_H

#include <stdint.h>

#include "kernels/launch.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HASHPROBE_EMPTY 0xFFFFFFFFu /* a table slot without a key */
#define HASHPROBE_MISS (-1)         /* out[i] of a key not in the table */

#ifdef __CUDACC__
#define HASHPROBE_HD __host__ __device__
#else
#define HASHPROBE_HD
#endif

/* The table's slot hash (murmur3's finalizer); the CPU reference uses the same. */
static inline HASHPROBE_HD uint32_t hashprobe_hash(uint32_t k) {
    k ^= k >> 16;
    k *= 0x85ebca6bu;
    k ^= k >> 13;
    k *= 0xc2b2ae35u;
    return k ^ (k >> 16);
}

/* Fills l (grid, regs, occupancy, ...) for n keys at l->block and l->ilp
 * (1 or 4); returns a cudaError_t. */
int hashprobe_plan(wb_launch *l, int64_t n);
/* out[i] = vals[slot of probe[i]] or HASHPROBE_MISS; capacity a power of two.
 * Enqueues on stream (a cudaStream_t); returns a cudaError_t. */
int hashprobe_launch(const wb_launch *l, const uint32_t *keys, const int32_t *vals, uint32_t capacity,
                     const uint32_t *probe, int32_t *out, int64_t n, void *stream);

#ifdef __cplusplus
}
#endif
#endif

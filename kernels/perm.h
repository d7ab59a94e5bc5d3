/* perm.h - the keyed bijection of [0, n) behind exact selectivities
 * (micro/exact.h says how the fills use it). Plain C on the host,
 * __host__ __device__ under nvcc, so that a GPU fill (kernels/scan_gen.cu)
 * picks the same rows as the host fill. Row i is a member iff
 * wb_perm_at(p, i) < k: a few invertible mixing rounds on the next power of
 * two, walked until the value lands below n, so exactly k of the n rows are
 * members, scattered pseudo-randomly, with no shuffle and O(1) memory. */
#ifndef WB_KERNELS_PERM_H
#define WB_KERNELS_PERM_H

#include <stdint.h>

#ifdef __CUDACC__
#define WB_PERM_HD __host__ __device__
#else
#define WB_PERM_HD
#endif

typedef struct wb_perm {
    uint64_t n;        /* domain [0, n) */
    uint64_t mask;     /* next power of two >= n, minus one */
    uint64_t mul[3];   /* odd multipliers, one per round */
    uint64_t add[3];   /* round keys */
    int shift;         /* xorshift distance, about half the bit width */
} wb_perm;

static inline WB_PERM_HD uint64_t wb_perm_round(const wb_perm *p, uint64_t x) {
    for (int r = 0; r < 3; r++) {
        /* Each step is invertible on mask+1 values: odd multiply, xorshift, add. */
        x = (x * p->mul[r]) & p->mask;
        x ^= x >> p->shift;
        x = (x + p->add[r]) & p->mask;
    }
    return x;
}

/* The image of i (< n) under the bijection. Cycle-walking: the power-of-two
 * domain is under 2n, so fewer than two rounds on average. */
static inline WB_PERM_HD uint64_t wb_perm_at(const wb_perm *p, uint64_t i) {
    uint64_t x = wb_perm_round(p, i);
    while (x >= p->n) x = wb_perm_round(p, x);
    return x;
}

#endif

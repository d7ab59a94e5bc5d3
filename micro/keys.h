/* keys.h - key generators of the probe and group-by families: a seeded
 * random bijection of [0, n) with its inverse (exact match rates without
 * shuffling huge arrays: a fact key is drawn as a rank and mapped back to a
 * key, which exact.h's forward-only wb_perm cannot do), and a Zipf sampler
 * with O(1) draws (alias table). The parallel fills use exact.h's chunk loop. */
#ifndef WB_KEYS_H
#define WB_KEYS_H

#include <stdint.h>

#include "harness/base/error.h"
#include "kernels/bijection.h"

/* wb_bijection (kernels/bijection.h: header code, which the GPU generator
 * shares) keyed from seed. n >= 1. */
void wb_bijection_init(wb_bijection *b, uint64_t n, uint64_t seed);
/* x < n: the image of x, and its inverse. */
uint64_t wb_bijection_fwd(const wb_bijection *b, uint64_t x);
uint64_t wb_bijection_inv(const wb_bijection *b, uint64_t y);

/* Zipf over n ranks, P(rank r) proportional to 1 / (r + 1)^s, each rank
 * mapped to a key by a seeded random permutation (so the hot keys are not
 * neighbours in a table). Walker/Vose alias method: one draw = one random
 * number, one table read. */
typedef struct wb_zipf {
    int64_t n;
    double s;
    uint64_t *threshold; /* per column: keep the column when the coin (32 bits) is below, out of 2^32 */
    int32_t *alias;      /* per column: the rank taken otherwise */
    int32_t *key;        /* key of each rank */
} wb_zipf;

/* 1 <= n < 2^31, s >= 0. WB_ERR (out of memory) leaves nothing allocated. */
int wb_zipf_init(wb_zipf *z, int64_t n, double s, uint64_t seed, wb_err *e);
void wb_zipf_free(wb_zipf *z);
static inline int32_t wb_zipf_draw(const wb_zipf *z, uint64_t random) {
    uint64_t col = ((random & 0xFFFFFFFFull) * (uint64_t)z->n) >> 32;
    int32_t rank = (random >> 32) < z->threshold[col] ? (int32_t)col : z->alias[col];
    return z->key[rank];
}

/* Rows per chunk of the parallel fills; a chunk's rows are seeded by its
 * index (wb_chunk_seed), so the data never depends on the worker count. */
#define WB_KEYS_CHUNK (1 << 20)

/* A seed from a base seed and up to four values (axes of a point). */
uint64_t wb_keys_seed(uint64_t base, uint64_t a, uint64_t b, uint64_t c, uint64_t d);

#endif

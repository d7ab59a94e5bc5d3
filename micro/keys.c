/* keys.c - bijection, Zipf sampler and chunked parallel loop (see keys.h). */
#include "micro/keys.h"

#include <math.h>
#include <stdlib.h>

#include "micro/data.h"
#include "micro/exact.h"

/* Ranks per task of the key map: small, so that 2^20 ranks still spread
 * over every worker (wb_perm_at is per index: no effect on the keys). */
#define ZIPF_KEY_CHUNK ((int64_t)1 << 14)

void wb_bijection_init(wb_bijection *b, uint64_t n, uint64_t seed) {
    int bits = 1;
    while (bits < 64 && (1ull << bits) < n) bits++;
    b->n = n;
    b->wl = bits / 2;
    b->wr = bits - b->wl;
    uint64_t s = seed;
    for (int i = 0; i < 4; i++) b->key[i] = wb_rng_next(&s);
}

/* The network itself is header code (kernels/bijection.h), shared with the
 * GPU generator; these keep the C API. */
uint64_t wb_bijection_fwd(const wb_bijection *b, uint64_t x) { return wb_feistel_fwd(b, x); }

uint64_t wb_bijection_inv(const wb_bijection *b, uint64_t y) { return wb_feistel_inv(b, y); }

typedef struct key_job {
    int32_t *key;
    wb_perm perm;
} key_job;

static void key_chunk(void *ctx, int worker, int64_t chunk, int64_t begin, int64_t end) {
    key_job *j = ctx;
    (void)worker, (void)chunk;
    for (int64_t r = begin; r < end; r++) j->key[r] = (int32_t)wb_perm_at(&j->perm, (uint64_t)r);
}

int wb_zipf_init(wb_zipf *z, int64_t n, double s, uint64_t seed, wb_err *e) {
    z->n = n;
    z->s = s;
    z->threshold = wb_host_alloc((size_t)n * sizeof *z->threshold, "zipf thresholds", e);
    z->alias = wb_host_alloc((size_t)n * sizeof *z->alias, "zipf aliases", e);
    z->key = wb_host_alloc((size_t)n * sizeof *z->key, "zipf keys", e);
    double *p = wb_host_alloc((size_t)n * sizeof *p, "zipf weights", e);
    int32_t *small = wb_host_alloc((size_t)n * sizeof *small, "zipf work list", e);
    int32_t *large = wb_host_alloc((size_t)n * sizeof *large, "zipf work list", e);
    if (!z->threshold || !z->alias || !z->key || !p || !small || !large) {
        free(p), free(small), free(large);
        wb_zipf_free(z);
        return WB_ERR;
    }
    double total = 0;
    for (int64_t r = 0; r < n; r++) total += p[r] = pow((double)(r + 1), -s);
    /* Vose: scale to mean 1, pair each column below 1 with one above. */
    int64_t ns = 0, nl = 0;
    for (int64_t r = 0; r < n; r++) {
        p[r] *= (double)n / total;
        if (p[r] < 1.0)
            small[ns++] = (int32_t)r;
        else
            large[nl++] = (int32_t)r;
    }
    while (ns > 0 && nl > 0) {
        int32_t lo = small[--ns], hi = large[--nl];
        z->threshold[lo] = (uint64_t)(p[lo] * 4294967296.0);
        z->alias[lo] = hi;
        p[hi] -= 1.0 - p[lo];
        if (p[hi] < 1.0)
            small[ns++] = hi;
        else
            large[nl++] = hi;
    }
    /* What is left holds probability 1 up to rounding: always keep it. */
    while (nl > 0) {
        int32_t r = large[--nl];
        z->threshold[r] = 1ull << 32;
        z->alias[r] = r;
    }
    while (ns > 0) {
        int32_t r = small[--ns];
        z->threshold[r] = 1ull << 32;
        z->alias[r] = r;
    }
    /* rank -> key: exact.h's keyed bijection, one index at a time on every
     * core (no shuffle: a Fisher-Yates pass is a cache miss per entry). */
    key_job kj = {.key = z->key};
    wb_perm_init(&kj.perm, (uint64_t)n, seed);
    wb_par_chunks(n, ZIPF_KEY_CHUNK, key_chunk, &kj);
    free(p), free(small), free(large);
    return WB_OK;
}

void wb_zipf_free(wb_zipf *z) {
    free(z->threshold), free(z->alias), free(z->key);
    z->threshold = NULL, z->alias = z->key = NULL;
}

uint64_t wb_keys_seed(uint64_t base, uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
    uint64_t s = base;
    uint64_t v[4] = {a, b, c, d};
    for (int i = 0; i < 4; i++) {
        s ^= v[i];
        s = wb_rng_next(&s);
    }
    return s;
}

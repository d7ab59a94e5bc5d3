/* select_ref.c - input, CPU reference and comparison of the selection family
 * (see select_ref.h). Every pass runs in chunks on all cores: at 2^28 rows a
 * serial bitmap pass alone would take seconds per point. */
#include "micro/select_ref.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "micro/data.h"
#include "micro/exact.h"
#include "micro/fingerprint.h"

#define CHUNK ((int64_t)1 << 20)

typedef struct fill_ctx {
    int32_t *x;
    const wb_select_gen *g;
} fill_ctx;

/* One draw per row, used by the rows that are not selected: so that row i's
 * value needs no other row's draws (kernels/select_gen.cu makes the same). */
static void fill_chunk(void *vctx, int worker, int64_t c, int64_t begin, int64_t end) {
    fill_ctx *f = vctx;
    const wb_select_gen *g = f->g;
    (void)worker;
    uint64_t rng = wb_chunk_seed(g->seed, c);
    const uint64_t span = (uint64_t)INT32_MAX - (uint64_t)g->k + 1;
    for (int64_t i = begin; i < end; i++) {
        uint64_t r = wb_perm_at(&g->perm, (uint64_t)i), other = wb_rng_below(&rng, span);
        f->x[i] = (int32_t)((int64_t)r < g->k ? (int64_t)r : g->k + (int64_t)other);
    }
}

int wb_select_gen_of(int64_t n, double s, uint64_t seed, wb_select_gen *g, wb_err *e) {
    if (n < 0 || n > INT32_MAX) return wb_fail(e, "select input of %lld rows: int32 values need n <= %d", (long long)n, INT32_MAX);
    *g = (wb_select_gen){.n = n, .k = wb_exact_k(n, s), .chunk = CHUNK, .seed = seed};
    wb_perm_init(&g->perm, (uint64_t)n, seed);
    return WB_OK;
}

int64_t wb_select_fill(int32_t *x, int64_t n, double s, uint64_t seed, wb_err *e) {
    wb_select_gen g;
    if (wb_select_gen_of(n, s, seed, &g, e) != WB_OK) return -1;
    fill_ctx f = {.x = x, .g = &g};
    wb_par_chunks(n, CHUNK, fill_chunk, &f);
    return g.k;
}

/* The two passes of a chunked compaction over [0, n): `count` writes each
 * chunk's selected rows into at[c]; at[c] then becomes the chunk's first
 * output slot, and `write`, which needs them, runs unless NULL. ctx holds
 * at (chunk_slots). Returns the total. */
static int64_t compact(int64_t n, int64_t *at, wb_par_fn count, wb_par_fn write, void *ctx) {
    wb_par_chunks(n, CHUNK, count, ctx);
    int64_t total = 0;
    for (int64_t c = 0; c < (n + CHUNK - 1) / CHUNK; c++) {
        const int64_t k = at[c];
        at[c] = total;
        total += k;
    }
    if (write) wb_par_chunks(n, CHUNK, write, ctx);
    return total;
}

static int64_t *chunk_slots(int64_t n, const char *what, wb_err *e) {
    const int64_t chunks = (n + CHUNK - 1) / CHUNK;
    return wb_host_alloc((size_t)(chunks ? chunks : 1) * sizeof(int64_t), what, e);
}

/* The expected output from the permutation alone (no input held): pass 1
 * counts each chunk's selected rows, pass 2 knows each one's output slot. */
typedef struct expect_ctx {
    const wb_select_gen *g;
    int64_t *at;         /* per chunk: count, then first slot */
    int32_t *ref;        /* NULL: not written */
    _Atomic uint64_t *print; /* NULL: not summed */
} expect_ctx;

static void expect_count(void *vctx, int worker, int64_t c, int64_t begin, int64_t end) {
    expect_ctx *x = vctx;
    (void)worker;
    int64_t k = 0;
    for (int64_t i = begin; i < end; i++) k += (int64_t)wb_perm_at(&x->g->perm, (uint64_t)i) < x->g->k;
    x->at[c] = k;
}

static void expect_write(void *vctx, int worker, int64_t c, int64_t begin, int64_t end) {
    expect_ctx *x = vctx;
    (void)worker;
    int64_t slot = x->at[c];
    uint64_t sum = 0;
    for (int64_t i = begin; i < end; i++) {
        const int64_t r = (int64_t)wb_perm_at(&x->g->perm, (uint64_t)i);
        if (r >= x->g->k) continue;
        if (x->ref) x->ref[slot] = (int32_t)r;
        sum += wb_print_term((uint64_t)slot, (uint32_t)r);
        slot++;
    }
    if (x->print) atomic_fetch_add_explicit(x->print, sum, memory_order_relaxed);
}

int64_t wb_select_expected(const wb_select_gen *g, int32_t *ref, uint64_t *print, wb_err *e) {
    _Atomic uint64_t sum;
    atomic_init(&sum, 0);
    expect_ctx x = {.g = g, .ref = ref, .print = print ? &sum : NULL, .at = chunk_slots(g->n, "select expected chunks", e)};
    if (!x.at) return -1;
    const int64_t total = compact(g->n, x.at, expect_count, expect_write, &x);
    free(x.at);
    if (print) *print = atomic_load(&sum) + wb_print_fill(g->n - total, 4, 0xFF, total);
    return total;
}

typedef struct ref_ctx {
    const int32_t *x;
    int32_t v;
    int32_t *ref;
    int64_t *at; /* per chunk: count (pass 1), then output offset (pass 2) */
} ref_ctx;

static void ref_count(void *vctx, int worker, int64_t c, int64_t begin, int64_t end) {
    ref_ctx *r = vctx;
    (void)worker;
    int64_t k = 0;
    for (int64_t i = begin; i < end; i++) k += r->x[i] < r->v;
    r->at[c] = k;
}

/* Branch-free through a stack buffer: at s = 0.5 on random data the `if`
 * this replaces mispredicted every other row, and the pass took 3x longer
 * (2^28 rows on one core: 1.30-1.46 s before, 0.44-0.61 s after,
 * tests/hw/host_prep.c). Writing ref[k] unconditionally instead could step
 * into the next chunk's first slot, which another worker owns. */
#define REF_BLOCK 256
static void ref_write(void *vctx, int worker, int64_t c, int64_t begin, int64_t end) {
    ref_ctx *r = vctx;
    (void)worker;
    int64_t k = r->at[c];
    int32_t buf[REF_BLOCK];
    for (int64_t lo = begin; lo < end; lo += REF_BLOCK) {
        const int len = end - lo < REF_BLOCK ? (int)(end - lo) : REF_BLOCK;
        int m = 0;
        for (int i = 0; i < len; i++) {
            const int32_t x = r->x[lo + i];
            buf[m] = x;
            m += x < r->v;
        }
        memcpy(r->ref + k, buf, (size_t)m * sizeof *buf);
        k += m;
    }
}

int64_t wb_select_reference(const int32_t *x, int64_t n, int32_t v, int32_t *ref, wb_err *e) {
    ref_ctx r = {.x = x, .v = v, .ref = ref, .at = chunk_slots(n, "select reference chunks", e)};
    if (!r.at) return -1;
    const int64_t total = compact(n, r.at, ref_count, ref ? ref_write : NULL, &r);
    free(r.at);
    return total;
}

int wb_select_seen_alloc(wb_select_seen *s, int64_t k, wb_err *e) {
    s->words = (k + 63) / 64;
    s->bits = calloc((size_t)(s->words ? s->words : 1), sizeof *s->bits);
    if (!s->bits) return wb_fail(e, "calloc(select bitmap, %lld words) failed", (long long)s->words);
    return WB_OK;
}

void wb_select_seen_free(wb_select_seen *s) {
    free((void *)s->bits);
    s->bits = NULL;
    s->words = 0;
}

static void seen_clear(void *vctx, int worker, int64_t c, int64_t begin, int64_t end) {
    wb_select_seen *s = vctx;
    (void)worker, (void)c;
    for (int64_t w = begin; w < end; w++) atomic_store_explicit(&s->bits[w], 0, memory_order_relaxed);
}

/* 1 the first time value x is marked, 0 after. */
static int seen_mark(wb_select_seen *s, int64_t x) {
    uint64_t bit = 1ull << (x & 63);
    return !(atomic_fetch_or_explicit(&s->bits[x >> 6], bit, memory_order_relaxed) & bit);
}

static int seen_has(wb_select_seen *s, int64_t x) {
    return (int)((atomic_load_explicit(&s->bits[x >> 6], memory_order_relaxed) >> (x & 63)) & 1);
}

typedef struct cmp_ctx {
    const int32_t *out, *ref;
    int64_t m, k; /* m: slots the device says it filled, within [0, n] */
    int ordered;
    wb_select_seen *seen;
    int64_t bad[WB_PAR_MAX];
} cmp_ctx;

/* 0 if slot j is as expected; marks j's value in the unordered case. */
static int slot_bad(cmp_ctx *c, int64_t j) {
    int32_t x = c->out[j];
    if (j >= c->m) return x != WB_SELECT_POISON;
    if (c->ordered) return j >= c->k || x != c->ref[j];
    return x < 0 || x >= c->k || !seen_mark(c->seen, x);
}

static void cmp_chunk(void *vctx, int worker, int64_t chunk, int64_t begin, int64_t end) {
    cmp_ctx *c = vctx;
    (void)chunk;
    int64_t bad = 0;
    for (int64_t j = begin; j < end; j++) bad += slot_bad(c, j);
    c->bad[worker] += bad;
}

static void ref_mark_chunk(void *vctx, int worker, int64_t chunk, int64_t begin, int64_t end) {
    cmp_ctx *c = vctx;
    (void)chunk;
    int64_t bad = 0;
    for (int64_t j = begin; j < end; j++) bad += c->ref[j] < 0 || c->ref[j] >= c->k || !seen_mark(c->seen, c->ref[j]);
    c->bad[worker] += bad;
}

static int64_t total_bad(const cmp_ctx *c) {
    int64_t t = 0;
    for (int w = 0; w < WB_PAR_MAX; w++) t += c->bad[w];
    return t;
}

int wb_select_ref_is_permutation(const int32_t *ref, int64_t k, wb_select_seen *seen, wb_err *e) {
    cmp_ctx c = {.ref = ref, .k = k, .seen = seen};
    wb_par_chunks(seen->words, CHUNK, seen_clear, seen);
    wb_par_chunks(k, CHUNK, ref_mark_chunk, &c);
    int64_t bad = total_bad(&c);
    if (bad) return wb_fail(e, "select reference: %lld of %lld values are not a permutation of 0..k-1", (long long)bad, (long long)k);
    return WB_OK;
}

/* The serial pass that names what is wrong; runs only after a failed check. */
static int report(cmp_ctx *c, int64_t n, int64_t count, wb_err *e) {
    wb_mismatches mm;
    wb_mismatch_init(&mm);
    char got[48], want[48];
    if (!c->ordered) seen_clear(c->seen, 0, 0, 0, c->seen->words);
    for (int64_t j = 0; j < n; j++) {
        if (!slot_bad(c, j)) continue;
        int32_t x = c->out[j];
        snprintf(got, sizeof got, "%d", x);
        if (j >= c->m) snprintf(want, sizeof want, "%d (untouched: beyond the count)", WB_SELECT_POISON);
        else if (c->ordered && j >= c->k) snprintf(want, sizeof want, "nothing (beyond %lld selected)", (long long)c->k);
        else if (c->ordered) snprintf(want, sizeof want, "%d", c->ref[j]);
        else if (x < 0 || x >= c->k) snprintf(want, sizeof want, "a selected value in [0, %lld)", (long long)c->k);
        else snprintf(want, sizeof want, "%d once, not again", x);
        wb_mismatch_add(&mm, j, got, want);
    }
    if (!c->ordered)
        for (int64_t x = 0; x < c->k; x++)
            if (!seen_has(c->seen, x)) {
                snprintf(want, sizeof want, "value %lld", (long long)x);
                wb_mismatch_add(&mm, x, "absent", want);
            }
    int rc = wb_mismatch_finish(&mm, n, c->ordered ? "select output (in order)" : "select output (as a multiset)", e);
    if (count != c->k) {
        char what[96];
        snprintf(what, sizeof what, "selected count %lld, expected %lld", (long long)count, (long long)c->k);
        if (rc == WB_OK) return wb_fail(e, "%s", what);
        wb_err_prefix(e, what);
    }
    return WB_ERR;
}

int wb_select_compare(const int32_t *out, int64_t n, int64_t count, const int32_t *ref, int64_t k, int ordered,
                      wb_select_seen *seen, wb_err *e) {
    cmp_ctx c = {.out = out, .ref = ref, .m = count < 0 ? 0 : count > n ? n : count, .k = k, .ordered = ordered, .seen = seen};
    if (!ordered) {
        if (seen->words * 64 < k) return wb_fail(e, "select bitmap of %lld bits is smaller than k = %lld", (long long)seen->words * 64, (long long)k);
        wb_par_chunks(seen->words, CHUNK, seen_clear, seen);
    }
    wb_par_chunks(n, CHUNK, cmp_chunk, &c);
    if (count == k && total_bad(&c) == 0) return WB_OK;
    return report(&c, n, count, e);
}

/* probe_gen.c - probe family inputs, reference and checks (see probe_gen.h). */
#include "micro/probe_gen.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kernels/probe.h"
#include "micro/data.h"
#include "micro/exact.h"

int wb_probe_gen_init(wb_probe_gen *g, int64_t n, int64_t dim_rows, double match, uint64_t seed, wb_err *e) {
    memset(g, 0, sizeof *g);
    if (n < 0 || dim_rows < 0 || !(match > 0 && match <= 1))
        return wb_fail(e, "probe data: n %lld, dimension rows %lld, match %g out of range", (long long)n,
                       (long long)dim_rows, match);
    if (dim_rows > INT32_MAX)
        return wb_skip(e, "probe data: %lld dimension rows exceed int32 keys", (long long)dim_rows);
    if ((n > 0 && dim_rows < 1) || (match < 1 && dim_rows < 2))
        return wb_skip(e, "probe data: match %g needs %s dimension rows", match, match < 1 ? "at least 2" : "some");
    g->n = n;
    g->dim_rows = dim_rows;
    g->match = match;
    g->seed = seed;
    g->hits = match == 1 ? n : llround(match * (double)n);
    g->passing = match == 1 ? dim_rows : llround(match * (double)dim_rows);
    if (match < 1 && g->passing < 1) g->passing = 1;
    if (match < 1 && g->passing > dim_rows - 1) g->passing = dim_rows - 1;
    if (dim_rows > 0) wb_bijection_init(&g->dim_rank, (uint64_t)dim_rows, wb_keys_seed(seed, 1, 0, 0, 0));
    if (n > 0) wb_bijection_init(&g->row_rank, (uint64_t)n, wb_keys_seed(seed, 2, 0, 0, 0));
    return WB_OK;
}

/* The value of a passing key. */
static int32_t payload(const wb_probe_gen *g, int64_t key) {
    uint64_t s = g->seed ^ ((uint64_t)key * 0xD1B54A32D192ED03ull);
    return (int32_t)(wb_rng_next(&s) & 0x3FFFFFFF);
}

int32_t wb_probe_dim_val(const wb_probe_gen *g, int64_t key) {
    return wb_bijection_fwd(&g->dim_rank, (uint64_t)key) < (uint64_t)g->passing ? payload(g, key) : WB_PROBE_FILTERED;
}

typedef struct dim_job {
    const wb_probe_gen *g;
    int32_t *keys, *vals;
} dim_job;

static void dim_chunk(void *ctx, int worker, int64_t chunk, int64_t begin, int64_t end) {
    const dim_job *j = ctx;
    (void)worker, (void)chunk;
    for (int64_t k = begin; k < end; k++) {
        j->keys[k] = (int32_t)k;
        j->vals[k] = wb_probe_dim_val(j->g, k);
    }
}

void wb_probe_gen_dim(const wb_probe_gen *g, int32_t *keys, int32_t *vals) {
    dim_job j = {g, keys, vals};
    wb_par_chunks(g->dim_rows, WB_KEYS_CHUNK, dim_chunk, &j);
}

typedef struct fact_job {
    const wb_probe_gen *g;
    int32_t *fact;
    wb_probe_ref part[WB_PAR_MAX];
} fact_job;

static void fact_chunk(void *ctx, int worker, int64_t chunk, int64_t begin, int64_t end) {
    fact_job *j = ctx;
    const wb_probe_gen *g = j->g;
    uint64_t s = wb_chunk_seed(g->seed ^ 3, chunk);
    wb_probe_ref r = j->part[worker];
    for (int64_t i = begin; i < end; i++) {
        int hit = g->hits == g->n || wb_bijection_fwd(&g->row_rank, (uint64_t)i) < (uint64_t)g->hits;
        uint64_t rank = hit ? wb_rng_below(&s, (uint64_t)g->passing)
                            : (uint64_t)g->passing + wb_rng_below(&s, (uint64_t)(g->dim_rows - g->passing));
        int64_t key = (int64_t)wb_bijection_inv(&g->dim_rank, rank);
        j->fact[i] = (int32_t)key;
        if (hit) { /* rank < passing: the key passes */
            int32_t v = payload(g, key);
            r.sum += (uint64_t)v;
            r.packed_sum += (uint64_t)(v & WB_PROBE_PACKED_MASK);
            r.matches++;
        }
    }
    j->part[worker] = r;
}

void wb_probe_gen_fact(const wb_probe_gen *g, int32_t *fact, wb_probe_ref *ref) {
    fact_job j = {.g = g, .fact = fact};
    wb_par_chunks(g->n, WB_KEYS_CHUNK, fact_chunk, &j);
    memset(ref, 0, sizeof *ref);
    for (int w = 0; w < WB_PAR_MAX; w++) {
        ref->sum += j.part[w].sum;
        ref->packed_sum += j.part[w].packed_sum;
        ref->matches += j.part[w].matches;
    }
}

void wb_probe_reference(const int32_t *fact, int64_t n, const int32_t *dim_vals, int64_t dim_rows, wb_probe_ref *ref) {
    memset(ref, 0, sizeof *ref);
    for (int64_t i = 0; i < n; i++) {
        int32_t k = fact[i];
        if (k < 0 || k >= dim_rows || dim_vals[k] < 0) continue;
        ref->sum += (uint64_t)dim_vals[k];
        ref->packed_sum += (uint64_t)(dim_vals[k] & WB_PROBE_PACKED_MASK);
        ref->matches++;
    }
}

int wb_probe_check_sums(uint64_t sum, uint64_t matches, uint64_t want_sum, int64_t want_matches, wb_err *e) {
    wb_mismatches m;
    wb_mismatch_init(&m);
    if (sum != want_sum) wb_mismatch_add_i64(&m, 0, (long long)sum, (long long)want_sum);
    if (matches != (uint64_t)want_matches) wb_mismatch_add_i64(&m, 1, (long long)matches, (long long)want_matches);
    return wb_mismatch_finish(&m, 2, "probe [0] sum, [1] matches", e);
}

/* The table checks run on every worker through wb_par_check, which leaves
 * the report as one pass in index order would. */
typedef struct check_job {
    const wb_probe_gen *g;
    const void *table;
    int64_t nslots;
    int64_t occupied[WB_PAR_MAX];
} check_job;

static void direct_range(void *ctx, int64_t begin, int64_t end, wb_mismatches *m) {
    const check_job *j = ctx;
    const int32_t *table = j->table;
    for (int64_t k = begin; k < end; k++) {
        int32_t want = wb_probe_dim_val(j->g, k);
        if (table[k] != want) wb_mismatch_add_i64(m, k, table[k], want);
    }
}

int wb_probe_check_direct(const int32_t *table, const wb_probe_gen *g, wb_err *e) {
    check_job j = {.g = g, .table = table};
    wb_mismatches m;
    wb_mismatch_init(&m);
    wb_par_check(g->dim_rows, WB_KEYS_CHUNK, direct_range, &j, &m);
    return wb_mismatch_finish(&m, g->dim_rows, "direct table entries", e);
}

/* Formats a slot only when it is reported: a snprintf per occupied slot was
 * most of the check's time. */
static void bad_slot(wb_mismatches *m, int64_t p, int32_t key, int32_t val, const char *want) {
    char got[64];
    snprintf(got, sizeof got, "key %d value %d", key, val);
    wb_mismatch_add(m, p, got, want);
}

static void hash_range(void *ctx, int64_t begin, int64_t end, wb_mismatches *m) {
    const check_job *j = ctx;
    const uint64_t *slots = j->table;
    const uint64_t n = (uint64_t)j->nslots;
    char want[64];
    for (int64_t p = begin; p < end; p++) {
        if (slots[p] == WB_PROBE_EMPTY_SLOT) continue;
        int32_t key = (int32_t)(uint32_t)slots[p], val = (int32_t)(uint32_t)(slots[p] >> 32);
        if (key < 0 || key >= j->g->dim_rows) {
            bad_slot(m, p, key, val, "a dimension key");
            continue;
        }
        int32_t v = wb_probe_dim_val(j->g, key);
        if (v != val) {
            if (v < 0)
                snprintf(want, sizeof want, "no slot (filtered row)");
            else
                snprintf(want, sizeof want, "value %d", v);
            bad_slot(m, p, key, val, want);
            continue;
        }
        /* The linear-probing walk from the home slot must reach p. */
        for (uint64_t q = wb_probe_home(key, n); q != (uint64_t)p; q = q + 1 == n ? 0 : q + 1) {
            if (slots[q] == WB_PROBE_EMPTY_SLOT || (int32_t)(uint32_t)slots[q] == key) {
                snprintf(want, sizeof want, "reachable from slot %llu, stopped at %llu",
                         (unsigned long long)wb_probe_home(key, n), (unsigned long long)q);
                bad_slot(m, p, key, val, want);
                break;
            }
        }
    }
}

/* Occupied slots, counted in a local: the workers' slots share cache lines. */
static void occupied_chunk(void *ctx, int worker, int64_t chunk, int64_t begin, int64_t end) {
    check_job *j = ctx;
    const uint64_t *slots = j->table;
    int64_t occupied = 0;
    (void)chunk;
    for (int64_t p = begin; p < end; p++) occupied += slots[p] != WB_PROBE_EMPTY_SLOT;
    j->occupied[worker] += occupied;
}

int wb_probe_check_hash(const uint64_t *slots, int64_t nslots, const wb_probe_gen *g, wb_err *e) {
    check_job j = {.g = g, .table = slots, .nslots = nslots};
    wb_mismatches m;
    wb_mismatch_init(&m);
    wb_par_check(nslots, WB_KEYS_CHUNK, hash_range, &j, &m);
    wb_par_chunks(nslots, WB_KEYS_CHUNK, occupied_chunk, &j);
    int64_t occupied = 0;
    for (int w = 0; w < WB_PAR_MAX; w++) occupied += j.occupied[w];
    if (occupied != g->passing) wb_mismatch_add_i64(&m, -1, (long long)occupied, (long long)g->passing);
    return wb_mismatch_finish(&m, nslots, "hash table slots ([-1]: occupied slots)", e);
}

int64_t wb_probe_hash_slots(int64_t dim_rows, double load_factor) {
    return dim_rows > 0 ? (int64_t)ceil((double)dim_rows / load_factor) : 0;
}

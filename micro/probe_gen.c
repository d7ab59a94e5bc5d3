/* probe_gen.c - probe family inputs, reference and checks (see probe_gen.h). */
#include "micro/probe_gen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/probe.h"
#include "kernels/probe_check.h"
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

/* A key's fine bucket, or -1. */
static int64_t fine_bucket(int32_t key, int shift) {
    const int64_t b = key >= 0 ? (int64_t)(key >> shift) : -1;
    return b < WB_PROBE_PARTS_MAX ? b : -1;
}

int wb_probe_fine_shift(int64_t dim_rows) {
    int bits = 0, table_bits = 0;
    while ((1 << bits) < WB_PROBE_PARTS_MAX) bits++;
    while (((int64_t)1 << table_bits) < dim_rows) table_bits++;
    return table_bits > bits ? table_bits - bits : 0;
}

/* Per-worker fine buckets of one column (counted in locals per chunk: the
 * workers' rows share no cache lines then). */
typedef struct fine_job {
    const int32_t *keys;
    int shift;
    int64_t *count; /* [WB_PAR_MAX][WB_PROBE_PARTS_MAX] */
    uint64_t *print;
    int64_t outside[WB_PAR_MAX];
} fine_job;

static void fine_chunk(void *ctx, int worker, int64_t chunk, int64_t begin, int64_t end) {
    fine_job *j = ctx;
    int64_t *count = j->count + (int64_t)worker * WB_PROBE_PARTS_MAX;
    uint64_t *print = j->print + (int64_t)worker * WB_PROBE_PARTS_MAX;
    int64_t outside = 0;
    (void)chunk;
    for (int64_t i = begin; i < end; i++) {
        const int64_t b = fine_bucket(j->keys[i], j->shift);
        if (b < 0) outside++;
        else count[b]++, print[b] += wb_probe_key_mix(j->keys[i]);
    }
    j->outside[worker] += outside;
}

int wb_probe_fine_of(const int32_t *keys, int64_t n, int shift, wb_probe_fine *fine, wb_err *e) {
    const size_t cells = (size_t)WB_PAR_MAX * WB_PROBE_PARTS_MAX;
    fine_job j = {.keys = keys, .shift = shift};
    j.count = calloc(cells, sizeof *j.count);
    j.print = calloc(cells, sizeof *j.print);
    if (!j.count || !j.print) {
        free(j.count), free(j.print);
        return wb_fail(e, "partition check: out of host memory for the fine buckets");
    }
    wb_par_chunks(n, WB_KEYS_CHUNK, fine_chunk, &j);
    memset(fine, 0, sizeof *fine);
    fine->shift = shift;
    for (int w = 0; w < WB_PAR_MAX; w++) {
        fine->outside += j.outside[w];
        for (int b = 0; b < WB_PROBE_PARTS_MAX; b++) {
            fine->count[b] += j.count[(int64_t)w * WB_PROBE_PARTS_MAX + b];
            fine->print[b] += j.print[(int64_t)w * WB_PROBE_PARTS_MAX + b];
        }
    }
    free(j.count), free(j.print);
    return WB_OK;
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

/* ---- the partition step ---- */

/* A key's partition; UINT32_MAX for a key no partition holds (poison). */
static uint32_t part_of(int32_t key, int partitions, int shift) {
    uint32_t p = (uint32_t)key >> shift;
    return key >= 0 && p < (uint32_t)partitions ? p : UINT32_MAX;
}

/* The fingerprint sums splitmix64's finaliser over a partition's keys
 * (wb_probe_key_mix, kernels/probe_check.h), so that a key replaced by
 * another of the same partition changes the sum. */
static uint64_t key_mix(int32_t key) { return wb_probe_key_mix(key); }

/* Per-worker counts and fingerprints by partition of one column. */
typedef struct parts_job {
    const int32_t *keys;
    int partitions, shift;
    int64_t *count; /* [WB_PAR_MAX][partitions] */
    uint64_t *print;
    int64_t outside[WB_PAR_MAX]; /* keys of no partition */
    const int64_t *start; /* [partitions + 1]: the reference's runs (the position check) */
} parts_job;

static void parts_chunk(void *ctx, int worker, int64_t chunk, int64_t begin, int64_t end) {
    parts_job *j = ctx;
    int64_t *count = j->count + (int64_t)worker * j->partitions;
    uint64_t *print = j->print + (int64_t)worker * j->partitions;
    (void)chunk;
    for (int64_t i = begin; i < end; i++) {
        uint32_t p = part_of(j->keys[i], j->partitions, j->shift);
        if (p == UINT32_MAX) { /* in got, the position check reports it */
            j->outside[worker]++;
            continue;
        }
        count[p]++;
        print[p] += key_mix(j->keys[i]);
    }
}

/* Sums the workers' counts and fingerprints into row 0. */
static void parts_sum(parts_job *j, const int32_t *keys, int64_t n) {
    memset(j->count, 0, (size_t)WB_PAR_MAX * (size_t)j->partitions * sizeof *j->count);
    memset(j->print, 0, (size_t)WB_PAR_MAX * (size_t)j->partitions * sizeof *j->print);
    memset(j->outside, 0, sizeof j->outside);
    j->keys = keys;
    wb_par_chunks(n, WB_KEYS_CHUNK, parts_chunk, j);
    for (int w = 1; w < WB_PAR_MAX; w++) {
        j->outside[0] += j->outside[w];
        for (int p = 0; p < j->partitions; p++) {
            j->count[p] += j->count[(int64_t)w * j->partitions + p];
            j->print[p] += j->print[(int64_t)w * j->partitions + p];
        }
    }
}

static void parts_range(void *ctx, int64_t begin, int64_t end, wb_mismatches *m) {
    const parts_job *j = ctx;
    /* The run that covers begin: the last partition starting at or before it. */
    int lo = 0, hi = j->partitions - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (j->start[mid] <= begin) lo = mid;
        else hi = mid - 1;
    }
    char want[48];
    for (int64_t i = begin, q = lo; i < end; i++) {
        while (j->start[q + 1] <= i) q++;
        if (part_of(j->keys[i], j->partitions, j->shift) != (uint32_t)q) {
            snprintf(want, sizeof want, "a key of partition %lld", (long long)q);
            char got[32];
            snprintf(got, sizeof got, "%d", j->keys[i]);
            wb_mismatch_add(m, i, got, want);
        }
    }
}

int wb_probe_check_parts(const int32_t *got, const int32_t *fact, int64_t n, int partitions, int shift, wb_err *e) {
    if (partitions < 1 || shift < 0 || shift > 31)
        return wb_fail(e, "partition check: %d partitions, shift %d", partitions, shift);
    parts_job j = {.partitions = partitions, .shift = shift};
    int64_t *ref_count = malloc((size_t)partitions * sizeof *ref_count);
    int64_t *start = malloc(((size_t)partitions + 1) * sizeof *start);
    uint64_t *ref_print = malloc((size_t)partitions * sizeof *ref_print);
    j.count = malloc((size_t)WB_PAR_MAX * (size_t)partitions * sizeof *j.count);
    j.print = malloc((size_t)WB_PAR_MAX * (size_t)partitions * sizeof *j.print);
    if (!ref_count || !start || !ref_print || !j.count || !j.print) {
        free(ref_count), free(start), free(ref_print), free(j.count), free(j.print);
        return wb_fail(e, "partition check: out of host memory for %d partitions", partitions);
    }
    /* The reference: fact's counts and fingerprints, the runs they make. A
     * fact key of no partition is a bad input, not a bad partition. */
    parts_sum(&j, fact, n);
    int rc = WB_OK;
    if (j.outside[0]) {
        rc = wb_fail(e, "partition check: %lld fact keys outside %d partitions of key >> %d",
                     (long long)j.outside[0], partitions, shift);
    } else {
        memcpy(ref_count, j.count, (size_t)partitions * sizeof *ref_count);
        memcpy(ref_print, j.print, (size_t)partitions * sizeof *ref_print);
        start[0] = 0;
        for (int p = 0; p < partitions; p++) start[p + 1] = start[p] + ref_count[p];
        wb_mismatches m;
        wb_mismatch_init(&m);
        j.keys = got;
        j.start = start;
        wb_par_check(n, WB_KEYS_CHUNK, parts_range, &j, &m);
        parts_sum(&j, got, n);
        char g[64], w[64];
        for (int p = 0; p < partitions; p++)
            if (j.count[p] != ref_count[p] || j.print[p] != ref_print[p]) {
                snprintf(g, sizeof g, "partition %d: %lld keys, print %016llx", p, (long long)j.count[p],
                         (unsigned long long)j.print[p]);
                snprintf(w, sizeof w, "%lld keys, print %016llx", (long long)ref_count[p],
                         (unsigned long long)ref_print[p]);
                wb_mismatch_add(&m, start[p], g, w);
            }
        rc = wb_mismatch_finish(&m, n, "partitioned keys (index: position; a partition's multiset at its first)", e);
    }
    free(ref_count), free(start), free(ref_print), free(j.count), free(j.print);
    return rc;
}

int wb_probe_parts_ref(const wb_probe_fine *fine, int64_t n, int partitions, int shift, int64_t *count,
                       uint64_t *print, int64_t *start, wb_err *e) {
    if (partitions < 1 || partitions > WB_PROBE_PARTS_MAX || shift < 0 || shift > 31)
        return wb_fail(e, "partition check: %d partitions, shift %d", partitions, shift);
    if (fine->shift < 0 || shift < fine->shift)
        return wb_fail(e, "partition check: shift %d finer than the reference's buckets (shift %d)", shift,
                       fine->shift);
    memset(count, 0, (size_t)partitions * sizeof *count);
    memset(print, 0, (size_t)partitions * sizeof *print);
    int64_t outside = fine->outside, total = 0;
    for (int b = 0; b < WB_PROBE_PARTS_MAX; b++) {
        if (!fine->count[b]) continue;
        const int64_t p = (int64_t)b >> (shift - fine->shift);
        if (p >= partitions) {
            outside += fine->count[b];
            continue;
        }
        count[p] += fine->count[b];
        print[p] += fine->print[b];
    }
    if (outside)
        return wb_fail(e, "partition check: %lld fact keys outside %d partitions of key >> %d", (long long)outside,
                       partitions, shift);
    start[0] = 0;
    for (int p = 0; p < partitions; p++) start[p + 1] = start[p] + count[p], total += count[p];
    if (total != n)
        return wb_fail(e, "partition check: the reference holds %lld keys, the column %lld", (long long)total,
                       (long long)n);
    return WB_OK;
}

void wb_probe_parts_summary_host(const int32_t *got, int64_t n, int partitions, int shift, const int64_t *start,
                                 uint64_t *summary) {
    memset(summary, 0, wb_probe_parts_summary_words(partitions) * sizeof *summary);
    summary[1] = UINT64_MAX;
    uint64_t *count = summary + 2, *print = summary + 2 + partitions;
    for (int64_t i = 0; i < n; i++) {
        const uint32_t p = part_of(got[i], partitions, shift);
        if (p == UINT32_MAX || i < start[p] || i >= start[p + 1]) {
            if (!summary[0]) summary[1] = (uint64_t)i;
            summary[0]++;
        }
        if (p != UINT32_MAX) count[p]++, print[p] += key_mix(got[i]);
    }
}

int wb_probe_parts_compare(const uint64_t *summary, int64_t n, int partitions, const int64_t *count,
                           const uint64_t *print, const int64_t *start, wb_err *e) {
    wb_mismatches m;
    wb_mismatch_init(&m);
    if (summary[0]) {
        char g[64];
        snprintf(g, sizeof g, "%llu misplaced keys, the first", (unsigned long long)summary[0]);
        wb_mismatch_add(&m, (int64_t)summary[1], g, "none");
    }
    char g[64], w[64];
    for (int p = 0; p < partitions; p++) {
        const uint64_t c = summary[2 + p], f = summary[2 + partitions + p];
        if (c != (uint64_t)count[p] || f != print[p]) {
            snprintf(g, sizeof g, "partition %d: %llu keys, print %016llx", p, (unsigned long long)c,
                     (unsigned long long)f);
            snprintf(w, sizeof w, "%lld keys, print %016llx", (long long)count[p], (unsigned long long)print[p]);
            wb_mismatch_add(&m, start[p], g, w);
        }
    }
    return wb_mismatch_finish(&m, n, "partitioned keys on the GPU (index: first misplaced; a partition's multiset at its first)", e);
}

int64_t wb_probe_hash_slots(int64_t dim_rows, double load_factor) {
    return dim_rows > 0 ? (int64_t)ceil((double)dim_rows / load_factor) : 0;
}

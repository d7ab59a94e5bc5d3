/* groupby_gen.c - group-by inputs, reference and checks (see groupby_gen.h). */
#include "micro/groupby_gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "micro/data.h"
#include "micro/exact.h"
#include "micro/keys.h"

int wb_groupby_ref_alloc(wb_groupby_ref *r, int64_t groups, wb_err *e) {
    r->groups = groups;
    r->present = 0;
    r->sum = calloc((size_t)groups, sizeof *r->sum);
    r->count = calloc((size_t)groups, sizeof *r->count);
    if (!r->sum || !r->count) {
        wb_groupby_ref_free(r);
        return wb_fail(e, "calloc(group-by reference, %lld groups) failed", (long long)groups);
    }
    return WB_OK;
}

void wb_groupby_ref_free(wb_groupby_ref *r) {
    free(r->sum), free(r->count);
    r->sum = NULL, r->count = NULL;
}

/* Each worker sums into its own tables (worker 0 into the reference itself;
 * the others allocate theirs on their first chunk, so a small input costs
 * one table), merged after the join: integer sums, so order does not matter. */
typedef struct gen_job {
    const wb_groupby_gen *g;
    const wb_zipf *zipf;
    int32_t *keys, *vals;
    uint64_t *sum[WB_PAR_MAX];
    int64_t *count[WB_PAR_MAX];
    int failed[WB_PAR_MAX];
} gen_job;

static void gen_chunk(void *ctx, int worker, int64_t chunk, int64_t begin, int64_t end) {
    gen_job *j = ctx;
    if (!j->sum[worker]) {
        j->sum[worker] = calloc((size_t)j->g->groups, sizeof *j->sum[worker]);
        j->count[worker] = calloc((size_t)j->g->groups, sizeof *j->count[worker]);
    }
    if (!j->sum[worker] || !j->count[worker]) {
        j->failed[worker] = 1;
        return;
    }
    uint64_t s = wb_chunk_seed(j->g->seed ^ 4, chunk);
    uint64_t *sum = j->sum[worker];
    int64_t *count = j->count[worker];
    for (int64_t i = begin; i < end; i++) {
        int32_t k = j->zipf ? wb_zipf_draw(j->zipf, wb_rng_next(&s))
                            : (int32_t)wb_rng_below(&s, (uint64_t)j->g->groups);
        int32_t v = (int32_t)(uint32_t)wb_rng_next(&s);
        j->keys[i] = k;
        j->vals[i] = v;
        sum[k] += (uint64_t)(int64_t)v;
        count[k]++;
    }
}

int wb_groupby_generate(const wb_groupby_gen *g, int32_t *keys, int32_t *vals, wb_groupby_ref *ref, wb_err *e) {
    wb_zipf zipf = {0};
    if (g->zipf && wb_zipf_init(&zipf, g->groups, WB_GROUPBY_ZIPF_S, wb_keys_seed(g->seed, 5, 0, 0, 0), e) != WB_OK)
        return WB_ERR;
    gen_job j = {.g = g, .zipf = g->zipf ? &zipf : NULL, .keys = keys, .vals = vals};
    memset(ref->sum, 0, (size_t)g->groups * sizeof *ref->sum);
    memset(ref->count, 0, (size_t)g->groups * sizeof *ref->count);
    j.sum[0] = ref->sum;
    j.count[0] = ref->count;
    wb_par_chunks(g->n, WB_KEYS_CHUNK, gen_chunk, &j);
    int failed = 0;
    for (int w = 1; w < WB_PAR_MAX; w++) {
        failed |= j.failed[w];
        for (int64_t k = 0; j.sum[w] && j.count[w] && k < g->groups; k++) {
            ref->sum[k] += j.sum[w][k];
            ref->count[k] += j.count[w][k];
        }
        free(j.sum[w]), free(j.count[w]);
    }
    ref->present = 0;
    for (int64_t k = 0; k < g->groups; k++) ref->present += ref->count[k] > 0;
    wb_zipf_free(&zipf);
    return failed ? wb_fail(e, "calloc(group-by partial sums, %lld groups) failed", (long long)g->groups) : WB_OK;
}

void wb_groupby_reference(const int32_t *keys, const int32_t *vals, int64_t n, wb_groupby_ref *ref) {
    memset(ref->sum, 0, (size_t)ref->groups * sizeof *ref->sum);
    memset(ref->count, 0, (size_t)ref->groups * sizeof *ref->count);
    for (int64_t i = 0; i < n; i++) {
        ref->sum[keys[i]] += (uint64_t)(int64_t)vals[i];
        ref->count[keys[i]]++;
    }
    ref->present = 0;
    for (int64_t k = 0; k < ref->groups; k++) ref->present += ref->count[k] > 0;
}

int wb_groupby_check_table(const unsigned long long *got, const wb_groupby_ref *ref, wb_err *e) {
    wb_mismatches m;
    wb_mismatch_init(&m);
    for (int64_t k = 0; k < ref->groups; k++)
        if ((uint64_t)got[k] != ref->sum[k]) wb_mismatch_add_i64(&m, k, (long long)got[k], (long long)ref->sum[k]);
    return wb_mismatch_finish(&m, ref->groups, "group sums", e);
}

int wb_groupby_check_runs(const int32_t *keys, const long long *sums, int64_t runs, const wb_groupby_ref *ref,
                          wb_err *e) {
    wb_mismatches m;
    wb_mismatch_init(&m);
    if (runs != ref->present) {
        wb_mismatch_add_i64(&m, -1, runs, ref->present);
        if (runs < 0 || runs > ref->groups) return wb_mismatch_finish(&m, ref->groups, "runs ([-1]: run count)", e);
    }
    /* Every run: a present group, after the previous run's, with its sum;
     * with the count equal to the present groups, none is missing. */
    int64_t prev = -1;
    for (int64_t r = 0; r < runs; r++) {
        int64_t k = keys[r];
        char got[64], want[64];
        if (k <= prev || k >= ref->groups || ref->count[k] == 0) {
            snprintf(got, sizeof got, "key %lld", (long long)k);
            snprintf(want, sizeof want, "a present group after %lld", (long long)prev);
            wb_mismatch_add(&m, r, got, want);
        } else if ((uint64_t)sums[r] != ref->sum[k]) {
            snprintf(got, sizeof got, "group %lld sum %lld", (long long)k, sums[r]);
            snprintf(want, sizeof want, "%lld", (long long)ref->sum[k]);
            wb_mismatch_add(&m, r, got, want);
        }
        if (k > prev) prev = k;
    }
    return wb_mismatch_finish(&m, ref->groups, "runs ([-1]: run count)", e);
}

/* ssb_ref.c - the CPU answer of the 13 SSB queries: one pass over the rows of
 * ssb_gen.h's formulas (nothing read back from the GPU, no map shared with
 * the kernels: each dimension attribute comes from its own formula and the
 * query's filter levels), chunked over the cores with per-worker sums. */
#include <stdlib.h>
#include <string.h>

#include "micro/exact.h"
#include "micro/ssb_query.h"

typedef struct ref_job {
    uint64_t seed;
    const wb_ssb_sizes *z;
    wb_ssb_layout layout[WB_SSB_QUERIES];
    int64_t *sums[WB_PAR_MAX][WB_SSB_QUERIES]; /* per worker */
    int64_t stage[WB_PAR_MAX][WB_SSB_QUERIES][WB_SSB_DIMS + 1];
} ref_job;

/* fine[dim]: the row's customer city, supplier city and part brand. */
static void answer_row(const ref_job *j, int qi, const wb_ssb_line *l, const int32_t *fine, int64_t *sums,
                       int64_t *stage) {
    const wb_ssb_spec *q = &wb_ssb_specs[qi];
    const wb_ssb_layout *lay = &j->layout[qi];
    stage[0]++;
    if (q->flight == 1) {
        if (l->orderdate < q->date_lo || l->orderdate > q->date_hi) return;
        stage[1]++;
        if (l->quantity < q->qty_lo || l->quantity > q->qty_hi) return;
        stage[2]++;
        if (l->discount < q->disc_lo || l->discount > q->disc_hi) return;
        stage[3]++;
        sums[0] += (int64_t)l->extendedprice * l->discount;
        return;
    }
    int64_t group = 0;
    for (int p = 0; p < q->nprobe; p++) {
        const int dim = q->order[p];
        const wb_ssb_dim_spec *d = &q->dim[dim];
        int32_t code;
        if (dim == WB_SSB_DATE) {
            if (l->orderdate < q->date_lo || l->orderdate > q->date_hi) return;
            code = l->orderdate / 10000 - lay->base[dim];
        } else {
            const int32_t f = fine[dim];
            if (!wb_ssb_dim_passes(d, dim, f)) return;
            code = d->group_level < 0 ? 0 : wb_ssb_level(dim, f, d->group_level) - lay->base[dim];
        }
        group += (int64_t)code * lay->stride[dim];
        stage[p + 1]++;
    }
    sums[group] += q->flight == 4 ? l->revenue - l->supplycost : l->revenue;
}

static void ref_chunk(void *ctx, int worker, int64_t chunk, int64_t begin, int64_t end) {
    ref_job *j = ctx;
    (void)chunk;
    for (int qi = 0; qi < WB_SSB_QUERIES; qi++)
        if (!j->sums[worker][qi]) j->sums[worker][qi] = calloc((size_t)j->layout[qi].groups, sizeof(int64_t));
    for (int64_t r = begin; r < end; r++) {
        const wb_ssb_line l = wb_ssb_line_at(j->seed, j->z, r);
        int32_t fine[WB_SSB_DIMS] = {0};
        fine[WB_SSB_CUST] = wb_ssb_c_city(j->seed, l.custkey);
        fine[WB_SSB_SUPP] = wb_ssb_s_city(j->seed, l.suppkey);
        fine[WB_SSB_PART] = wb_ssb_p_brand(j->seed, l.partkey);
        for (int qi = 0; qi < WB_SSB_QUERIES; qi++)
            if (j->sums[worker][qi]) answer_row(j, qi, &l, fine, j->sums[worker][qi], j->stage[worker][qi]);
    }
}

void wb_ssb_answers_free(wb_ssb_answer ans[WB_SSB_QUERIES]) {
    for (int qi = 0; qi < WB_SSB_QUERIES; qi++) {
        free(ans[qi].sums);
        ans[qi].sums = NULL;
    }
}

int wb_ssb_reference(uint64_t seed, const wb_ssb_sizes *z, wb_ssb_answer ans[WB_SSB_QUERIES], wb_err *e) {
    ref_job *j = calloc(1, sizeof *j);
    if (!j) return wb_fail(e, "calloc(ssb reference) failed");
    j->seed = seed;
    j->z = z;
    for (int qi = 0; qi < WB_SSB_QUERIES; qi++) wb_ssb_layout_of(&wb_ssb_specs[qi], &j->layout[qi]);
    wb_par_chunks(z->lineorder, 1 << 16, ref_chunk, j);
    int rc = WB_OK;
    memset(ans, 0, sizeof(wb_ssb_answer) * WB_SSB_QUERIES);
    for (int qi = 0; qi < WB_SSB_QUERIES && rc == WB_OK; qi++) {
        wb_ssb_answer *a = &ans[qi];
        a->layout = j->layout[qi];
        a->nstages = (wb_ssb_specs[qi].flight == 1 ? 3 : wb_ssb_specs[qi].nprobe) + 1;
        a->sums = calloc((size_t)a->layout.groups, sizeof(int64_t));
        if (!a->sums) {
            rc = wb_fail(e, "calloc(ssb answer %s) failed", wb_ssb_specs[qi].name);
            break;
        }
        for (int w = 0; w < WB_PAR_MAX; w++) {
            for (int s = 0; s < a->nstages; s++) a->stage[s] += j->stage[w][qi][s];
            if (!j->sums[w][qi]) continue;
            for (int64_t g = 0; g < a->layout.groups; g++) a->sums[g] += j->sums[w][qi][g];
        }
    }
    for (int w = 0; w < WB_PAR_MAX; w++)
        for (int qi = 0; qi < WB_SSB_QUERIES; qi++) free(j->sums[w][qi]);
    /* A worker whose sums could not be allocated skipped its rows: the stage
     * counts say so. */
    for (int qi = 0; qi < WB_SSB_QUERIES && rc == WB_OK; qi++)
        if (ans[qi].stage[0] != z->lineorder)
            rc = wb_fail(e, "ssb reference: %s saw %lld of %lld rows (out of memory)", wb_ssb_specs[qi].name,
                         (long long)ans[qi].stage[0], (long long)z->lineorder);
    free(j);
    if (rc != WB_OK) wb_ssb_answers_free(ans);
    return rc;
}

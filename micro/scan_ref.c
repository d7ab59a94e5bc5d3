/* scan_ref.c - columns, CPU reference and byte model of the scan family
 * (see scan_ref.h). Fill and reference run in chunks of 2^20 rows on all
 * cores; a chunk starts on a sector boundary, so sector counts add up. */
#include "micro/scan_ref.h"

#include <stdatomic.h>
#include <stdlib.h>

#include "micro/data.h"
#include "micro/exact.h"

#define CHUNK ((int64_t)1 << 20)
#define DATE_MIN 19920101 /* SSB's orderdates span 1992..1998 */
#define DATE_MAX 19981231
#define PRICE_MIN 80000
#define PRICE_MAX 10490000
#define REGIONS 5

const wb_scan_query wb_scan_ssb = {
    .date_lo = 19930101, .date_hi = 19931231, .disc_lo = 1, .disc_hi = 3, .qty_below = 25, .region = 2};

int64_t wb_scan_dim_entries(int64_t n) { return n / 200 > 0 ? n / 200 : 1; }

typedef struct fill_ctx {
    wb_scan_cols *c;
    const wb_scan_gen *g;
} fill_ctx;

static int32_t date_outside(const wb_scan_gen *g, uint64_t *rng) {
    int64_t below = g->q.date_lo > g->date_min ? (int64_t)g->q.date_lo - g->date_min : 0;
    int64_t above = g->q.date_hi < g->date_max ? (int64_t)g->date_max - g->q.date_hi : 0;
    if (below + above == 0) return g->q.date_lo - 1;
    int64_t r = (int64_t)wb_rng_below(rng, (uint64_t)(below + above));
    return (int32_t)(r < below ? g->date_min + r : (int64_t)g->q.date_hi + 1 + (r - below));
}

/* Row by row as kernels/scan_gen.cu draws them: the same draws in the same
 * order, which test_gpu_scan_gen holds equal. */
static void fill_chunk(void *vctx, int worker, int64_t chunk, int64_t begin, int64_t end) {
    fill_ctx *f = vctx;
    wb_scan_cols *c = f->c;
    const wb_scan_gen *g = f->g;
    (void)worker;
    uint64_t rng = wb_chunk_seed(g->seed, chunk);
    const uint64_t date_span = (uint64_t)((int64_t)g->q.date_hi - g->q.date_lo + 1);
    for (int64_t i = begin; i < end; i++) {
        int member = (int64_t)wb_perm_at(&g->perm, (uint64_t)i) < g->k;
        c->orderdate[i] = member ? g->q.date_lo + (int32_t)wb_rng_below(&rng, date_span) : date_outside(g, &rng);
        if (c->shape == WB_SCAN_Q11) {
            c->discount[i] = (int32_t)wb_rng_below(&rng, 11);
            c->quantity[i] = 1 + (int32_t)wb_rng_below(&rng, 50);
            c->extendedprice[i] = g->price_min + (int32_t)wb_rng_below(&rng, g->price_span);
        } else {
            c->custkey[i] = (int32_t)wb_rng_below(&rng, (uint64_t)c->dim_entries);
            c->revenue[i] = g->price_min + (int32_t)wb_rng_below(&rng, g->price_span);
        }
    }
}

void wb_scan_gen_of(int shape, int64_t n, int64_t dim_entries, const wb_scan_query *q, double s, uint64_t seed,
                    wb_scan_gen *g) {
    *g = (wb_scan_gen){.shape = shape, .n = n, .k = wb_exact_k(n, s), .chunk = CHUNK,
                       .dim_entries = shape == WB_SCAN_Q31 ? dim_entries : 0, .q = *q, .seed = seed,
                       .date_min = DATE_MIN, .date_max = DATE_MAX, .price_min = PRICE_MIN, .regions = REGIONS,
                       .price_span = PRICE_MAX - PRICE_MIN + 1, .dim_stream = wb_chunk_seed(seed, -1)};
    wb_perm_init(&g->perm, (uint64_t)n, seed);
}

void wb_scan_fill(wb_scan_cols *c, const wb_scan_query *q, double s, uint64_t seed) {
    wb_scan_gen g;
    wb_scan_gen_of(c->shape, c->n, c->dim_entries, q, s, seed, &g);
    fill_ctx f = {.c = c, .g = &g};
    wb_par_chunks(c->n, CHUNK, fill_chunk, &f);
    if (c->shape == WB_SCAN_Q31) {
        uint64_t rng = g.dim_stream;
        for (int64_t e = 0; e < c->dim_entries; e++) c->dim_region[e] = (int32_t)wb_rng_below(&rng, REGIONS);
    }
}

typedef struct ref_ctx {
    const wb_scan_cols *c;
    const wb_scan_query *q;
    _Atomic unsigned char *dim_hit; /* per dimension sector: touched by a lookup */
    long long sum[WB_PAR_MAX];
    int64_t first[WB_PAR_MAX], all[WB_PAR_MAX], need[WB_PAR_MAX][3];
} ref_ctx;

/* Counts go to locals and into the worker's slots once per chunk: the slots
 * of all workers share cache lines, and updating them per row made the
 * reference 10x slower on two cores (false sharing). */
static void ref_chunk(void *vctx, int w, int64_t chunk, int64_t begin, int64_t end) {
    ref_ctx *r = vctx;
    const wb_scan_cols *c = r->c;
    const wb_scan_query *q = r->q;
    (void)chunk;
    long long sum = 0;
    int64_t first = 0, all = 0, need[3] = {0, 0, 0};
    /* Whether the current sector of q1.1's discount, quantity, extendedprice
     * (q3.1's custkey, revenue) holds a row that must be loaded. */
    int sector_need[3] = {0, 0, 0};
    for (int64_t i = begin; i < end; i++) {
        int pass = c->orderdate[i] >= q->date_lo && c->orderdate[i] <= q->date_hi;
        first += pass;
        sector_need[0] |= pass;
        if (c->shape == WB_SCAN_Q11) {
            pass = pass && c->discount[i] >= q->disc_lo && c->discount[i] <= q->disc_hi;
            sector_need[1] |= pass;
            pass = pass && c->quantity[i] < q->qty_below;
            sector_need[2] |= pass;
            if (pass) sum += (long long)c->extendedprice[i] * c->discount[i];
        } else {
            if (pass) atomic_store_explicit(&r->dim_hit[c->custkey[i] / 8], 1, memory_order_relaxed);
            pass = pass && c->dim_region[c->custkey[i]] == q->region;
            sector_need[1] |= pass;
            if (pass) sum += c->revenue[i];
        }
        all += pass;
        if ((i + 1) % 8 == 0 || i + 1 == end) {
            for (int j = 0; j < 3; j++) {
                need[j] += sector_need[j];
                sector_need[j] = 0;
            }
        }
    }
    r->sum[w] += sum;
    r->first[w] += first;
    r->all[w] += all;
    for (int j = 0; j < 3; j++) r->need[w][j] += need[j];
}

int wb_scan_reference(const wb_scan_cols *c, const wb_scan_query *q, wb_scan_expect *x, wb_err *e) {
    ref_ctx *r = calloc(1, sizeof *r);
    if (!r) return wb_fail(e, "calloc(scan reference) failed");
    int64_t dim_sectors = c->shape == WB_SCAN_Q31 ? (c->dim_entries + 7) / 8 : 0;
    r->c = c;
    r->q = q;
    if (dim_sectors && !(r->dim_hit = calloc((size_t)dim_sectors, sizeof *r->dim_hit))) {
        free(r);
        return wb_fail(e, "calloc(scan dimension sectors, %lld) failed", (long long)dim_sectors);
    }
    wb_par_chunks(c->n, CHUNK, ref_chunk, r);
    *x = (wb_scan_expect){.sectors = (c->n + 7) / 8};
    for (int w = 0; w < WB_PAR_MAX; w++) {
        x->sum += r->sum[w];
        x->rows_first += r->first[w];
        x->rows_all += r->all[w];
        for (int j = 0; j < 3; j++) x->need[j] += r->need[w][j];
    }
    for (int64_t s = 0; s < dim_sectors; s++) x->dim_sectors += atomic_load_explicit(&r->dim_hit[s], memory_order_relaxed);
    free((void *)r->dim_hit);
    free(r);
    return WB_OK;
}

double wb_scan_bytes_model(const wb_scan_expect *x, int shape, int variant) {
    const double sector = 32.0;
    const int later = shape == WB_SCAN_Q11 ? 3 : 2; /* columns after orderdate */
    double bytes = shape == WB_SCAN_Q31 ? sector * (double)x->dim_sectors : 0.0;
    bytes += sector * (double)x->sectors; /* orderdate: every variant reads all of it */
    for (int j = 0; j < later; j++) bytes += sector * (double)(wb_scan_skips_loads(variant) ? x->need[j] : x->sectors);
    return bytes;
}

int wb_scan_compare(long long got, long long expected, wb_err *e) {
    if (got == expected) return WB_OK;
    return wb_fail(e, "verification of scan sum: got %lld expected %lld (off by %lld)", got, expected, got - expected);
}

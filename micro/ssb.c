/* ssb.c - the ssb family: the 13 Star Schema Benchmark queries (Q1.1-Q4.3),
 * each in the tiled (Crystal), direct, packed and bitmap (seed 002) forms and the
 * bitmap form over bit-packed columns (compressed), on data generated
 * on the GPU at scale factor SF = n / 6,000,000 (ssb_gen.h) and answered on
 * the CPU (ssb_ref.c). One data set per n serves all 65 variants; the
 * dimension maps of every query are built on the host once per data set,
 * outside the timed region (a resident engine keeps its dimension filters),
 * so a point times the query's one kernel over lineorder. Queries as data:
 * ssb_query.c; kernels: kernels/ssb.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/run/family.h"
#include "kernels/ssb.h"
#include "kernels/ssb_pack.h"
#include "micro/data.h"
#include "micro/keys.h"
#include "micro/ssb_query.h"

/* Variant v is query v / WB_SSB_FORMS in form v % WB_SSB_FORMS (wb_ssb_form order). */
#define FORMS(q)                                                                                              \
    {q "_tiled", "SSB " q ", Crystal tiles"}, {q "_direct", "SSB " q ", grid-stride direct"},                 \
        {q "_packed", "SSB " q ", direct with 1-byte maps and a private group table"},                        \
        {q "_bitmap", "SSB " q ", the first filter over every row, the rest over queued survivors"},                \
        {q "_compressed", "SSB " q ", the bitmap form over bit-packed columns"}
static const wb_variant ssb_variants[] = {
    FORMS("q1.1"), FORMS("q1.2"), FORMS("q1.3"), FORMS("q2.1"), FORMS("q2.2"), FORMS("q2.3"), FORMS("q3.1"),
    FORMS("q3.2"), FORMS("q3.3"), FORMS("q3.4"), FORMS("q4.1"), FORMS("q4.2"), FORMS("q4.3"),
};
#define VARIANTS (WB_SSB_FORMS * WB_SSB_QUERIES)
_Static_assert(WB_VARIANT_COUNT(ssb_variants) == VARIANTS, "one variant per query and form");
_Static_assert(WB_SSB_FORMS == 5, "FORMS lists the five forms of wb_ssb_form");

static int query_of(int variant) { return variant / WB_SSB_FORMS; }
static wb_ssb_form form_of(int variant) { return (wb_ssb_form)(variant % WB_SSB_FORMS); }

#define SSB_BLOCK 256
/* The bitmap form runs one block of 1024 threads per SM beside its bitmaps:
 * they take what a block may opt into (227 KB on the H100/H200, 99 KB on an
 * L4) less the group table. At SF 100 supplier (25 KB) and part (175 KB)
 * fit, customer (366 KB) does not; at SF 10 all three do (140 KB). */
#define BITMAP_BLOCK 1024
/* The bitmap plan leaves room for the survivor queues of this ILP (24 KB at
 * 1024 threads; ILP 16 queues no more than ILP 8): at SF 100 part and
 * supplier still fit beside them for every query. */
#define BITMAP_QUEUE_ILP 16
/* The forms that run the bitmap form's plan and kernel (compressed: over the packed columns). */
static int queued(wb_ssb_form f) { return f == WB_SSB_BITMAP || f == WB_SSB_COMPRESSED; }
static int block_of(int variant) { return queued(form_of(variant)) ? BITMAP_BLOCK : SSB_BLOCK; }
/* Whether kernels/ssb.cu compiles the variant's form at this ILP: the
 * compressed form only at 4 and 8 (its kernels' compile time), the others at
 * 1-16; a sweep adds no point that would only be skipped. */
static int ilp_compiled(int variant, int ilp) { return form_of(variant) != WB_SSB_COMPRESSED || ilp == 4 || ilp == 8; }
#define SF(x) ((int64_t)llround((x) * WB_SSB_ROWS_PER_SF))

/* ---- sweep ---- */

static int add_on(const wb_sink *s, int variant, int64_t n, int block, int ilp, double occ, int sm_limit) {
    const wb_ssb_spec *q = &wb_ssb_specs[query_of(variant)];
    wb_ssb_layout l;
    wb_ssb_layout_of(q, &l);
    wb_point p;
    wb_point_init(&p);
    p.variant_id = variant;
    snprintf(p.dtype, sizeof p.dtype, "int32");
    snprintf(p.layout, sizeof p.layout, "ssb");
    p.n = n;
    p.selectivity = wb_ssb_expected_selectivity(q);
    p.groups = l.groups;
    p.columns = q->flight == 1 ? 4 : q->nprobe + (q->flight == 4 ? 2 : 1);
    /* table_entries: the largest dimension the query joins (-1 for flight 1) */
    const wb_ssb_sizes z = wb_ssb_sizes_of(n);
    for (int dim = WB_SSB_CUST; dim < WB_SSB_DIMS; dim++)
        if (q->dim[dim].joined && wb_ssb_map_entries(dim, &z) - 1 > p.table_entries)
            p.table_entries = wb_ssb_map_entries(dim, &z) - 1;
    p.launch.block = block;
    p.launch.ilp = ilp;
    p.launch.occupancy_target = occ;
    p.launch.sm_limit = sm_limit;
    return wb_sink_add(s, &p);
}

static int add(const wb_sink *s, int variant, int64_t n, int block, int ilp, double occ) {
    return add_on(s, variant, n, block, ilp, occ, 0);
}

static int add_all(const wb_sink *s, int64_t n, int ilp, double occ) {
    for (int v = 0; v < VARIANTS; v++)
        if (ilp_compiled(v, ilp) && add(s, v, n, block_of(v), ilp, occ) != WB_OK) return WB_ERR;
    return WB_OK;
}

/* test: every variant at an odd n near SF 0.01 (60,011 rows: 300 customers,
 * 20 suppliers, 2,000 parts) and near SF 0.17, ILP 1 and 4 (compressed: 4),
 * tiled blocks of 128 and 512 too, the bitmap form at ILP 16 (two queue
 * pushes a tile) and on 4 SMs (245 tiles a block: its warps' queues outlive
 * 63 tiles and are drained by age), the compressed form at ILP 8 and on one
 * SM at ILP 4 (245 tiles), and a one-row table. 377 points, 3 data sets. */
static int sweep_test(const wb_sink *s) {
    static const int64_t ns[] = {60011, 1000003};
    for (int i = 0; i < 2; i++)
        for (int ilp = 1; ilp <= 4; ilp += 3)
            if (add_all(s, ns[i], ilp, 1) != WB_OK) return WB_ERR;
    for (int v = 0; v < VARIANTS; v += WB_SSB_FORMS)
        if (add(s, v, ns[0], 128, 4, 1) != WB_OK || add(s, v, ns[1], 512, 2, 1) != WB_OK) return WB_ERR;
    for (int qi = 0; qi < WB_SSB_QUERIES; qi++)
        if (add_on(s, qi * WB_SSB_FORMS + WB_SSB_BITMAP, ns[1], BITMAP_BLOCK, 1, 1, 4) != WB_OK ||
            add(s, qi * WB_SSB_FORMS + WB_SSB_BITMAP, ns[1], BITMAP_BLOCK, 16, 1) != WB_OK ||
            add_on(s, qi * WB_SSB_FORMS + WB_SSB_COMPRESSED, ns[1], BITMAP_BLOCK, 4, 1, 1) != WB_OK ||
            add(s, qi * WB_SSB_FORMS + WB_SSB_COMPRESSED, ns[1], BITMAP_BLOCK, 8, 1) != WB_OK)
            return WB_ERR;
    return add_all(s, 1, 4, 1);
}

/* Launch shapes beside the default (ILP 4, occupancy 1, in add_all). */
typedef struct shapes {
    int nilp;
    int ilps[4];
    int nocc;
    double occs[2];
} shapes;
static const shapes wide = {4, {1, 2, 8, 16}, 2, {0.25, 0.5}}, narrow = {1, {8}, 1, {0.5}};

/* The ILP x occupancy grid of one query's forms. */
static int add_grid(const wb_sink *s, int query, int64_t n, const shapes *g) {
    for (int f = 0; f < WB_SSB_FORMS; f++) {
        const int v = query * WB_SSB_FORMS + f;
        for (int i = 0; i < g->nilp; i++)
            if (ilp_compiled(v, g->ilps[i]) && add(s, v, n, block_of(v), g->ilps[i], 1) != WB_OK) return WB_ERR;
        for (int o = 0; o < g->nocc; o++)
            if (add(s, v, n, block_of(v), 4, g->occs[o]) != WB_OK) return WB_ERR;
    }
    return WB_OK;
}

/* quick: SF 1 and 10, every variant (130); ILP {1, 2, 8, 16} (compressed: 8)
 * and occupancy {1/4, 1/2} of Q1.1 (a scan) and Q4.1 (four probes) at SF 10
 * (54). 184 points, 2 data sets (SF 10: 2.2 GB plain and 1.1 GB packed,
 * generated in ~10 ms on an H200, CPU reference ~1 s on 16 cores). */
static int sweep_quick(const wb_sink *s) {
    if (add_all(s, SF(1), 4, 1) != WB_OK || add_all(s, SF(10), 4, 1) != WB_OK) return WB_ERR;
    return add_grid(s, 0, SF(10), &wide) == WB_OK && add_grid(s, 10, SF(10), &wide) == WB_OK ? WB_OK : WB_ERR;
}

/* full: the quick sweep, then SF 100 (600 M rows, 21.6 GB plain and 11.4 GB
 * packed: skipped where it does not fit): every variant (65) and ILP 8 and
 * occupancy 1/2 of every query and form (130). The SF 100 part: generation
 * ~0.1 s, CPU reference ~7 s on 16 cores, 195 points of 1-10 ms launches.
 * 379 points. */
static int sweep_full(const wb_sink *s) {
    if (sweep_quick(s) != WB_OK || add_all(s, SF(100), 4, 1) != WB_OK) return WB_ERR;
    for (int q = 0; q < WB_SSB_QUERIES; q++)
        if (add_grid(s, q, SF(100), &narrow) != WB_OK) return WB_ERR;
    return WB_OK;
}

/* ---- data ---- */

static double maps_bytes(const wb_ssb_sizes *z) {
    double b = 0;
    for (int qi = 0; qi < WB_SSB_QUERIES; qi++)
        for (int dim = 0; dim < WB_SSB_DIMS; dim++)
            if (wb_ssb_specs[qi].dim[dim].joined) /* int32 + packed + bitmap */
                b += (4.0 + 1.0 + 1.0 / 8) * (double)wb_ssb_map_entries(dim, z) + 4;
    return b;
}

/* The compressed form's width of column c at sizes z: its domain's
 * (wb_ssb_column_range, from the generator's formulas). */
static int column_width(int c, const wb_ssb_sizes *z) {
    int32_t lo = 0, hi = 0;
    wb_ssb_column_range(c, z, &lo, &hi);
    return wb_ssb_pack_width(lo, hi);
}

/* The packed columns' bytes (the compressed form's copy beside the plain ones). */
static double packed_bytes(int64_t n, const wb_ssb_sizes *z) {
    double b = 0;
    for (int c = 0; c < WB_SSB_LO_COLUMNS; c++) b += 4.0 * (double)wb_ssb_pack_words(n, column_width(c, z));
    return b;
}

static double ssb_device_bytes(const wb_point *p) {
    const wb_ssb_sizes z = wb_ssb_sizes_of(p->n);
    double groups = 0;
    for (int qi = 0; qi < WB_SSB_QUERIES; qi++) {
        wb_ssb_layout l;
        wb_ssb_layout_of(&wb_ssb_specs[qi], &l);
        groups += wb_placed_bytes(8.0 * (double)l.groups);
    }
    return 4.0 * WB_SSB_LO_COLUMNS * (double)p->n + packed_bytes(p->n, &z) + maps_bytes(&z) + groups;
}

static int ssb_same_data(const wb_point *a, const wb_point *b) { return a->n == b->n; }

typedef struct ssb_data {
    uint64_t seed;
    wb_ssb_sizes z;
    wb_ssb_columns cols;
    uint32_t *packed_words[WB_SSB_LO_COLUMNS]; /* the compressed form's columns (device) */
    wb_ssb_packed_column pcol[WB_SSB_LO_COLUMNS];
    int bits[WB_SSB_LO_COLUMNS];               /* their widths */
    float pack_ms;                             /* the encoder's time on the GPU (not a measured operator) */
    int32_t *map[WB_SSB_QUERIES][WB_SSB_DIMS]; /* device; NULL where the query does not join */
    uint8_t *packed[WB_SSB_QUERIES][WB_SSB_DIMS]; /* the same maps, one byte an entry (the group code) */
    wb_ssb_bitmap_plan plan[WB_SSB_QUERIES];      /* the bitmap form's bitmaps and probe order */
    uint32_t *bitmap[WB_SSB_QUERIES][WB_SSB_DIMS]; /* its filters, one bit a key (the first: 4-bit codes where
                                                      its plan says); NULL: no bitmap */
    wb_placed out[WB_SSB_QUERIES];             /* device group sums, moved by each reset (data.h) */
    wb_ssb_answer ans[WB_SSB_QUERIES];
} ssb_data;

static void ssb_data_destroy(void *data) {
    ssb_data *d = data;
    if (!d) return;
    for (int c = 0; c < WB_SSB_LO_COLUMNS; c++) wb_dev_free(d->cols.col[c]), wb_dev_free(d->packed_words[c]);
    for (int qi = 0; qi < WB_SSB_QUERIES; qi++) {
        for (int dim = 0; dim < WB_SSB_DIMS; dim++)
            wb_dev_free(d->map[qi][dim]), wb_dev_free(d->packed[qi][dim]), wb_dev_free(d->bitmap[qi][dim]);
        wb_placed_free(&d->out[qi]);
    }
    wb_ssb_answers_free(d->ans);
    free(d);
}

/* Whether query qi's bitmap of dim holds codes, and its words. */
static int holds_codes(const ssb_data *d, int qi, int dim) { return wb_ssb_plan_holds_codes(&d->plan[qi], dim); }
static int32_t bitmap_words(const ssb_data *d, int qi, int dim) {
    const int64_t entries = wb_ssb_map_entries(dim, &d->z);
    return (int32_t)(holds_codes(d, qi, dim) ? wb_ssb_code_words(entries) : wb_ssb_bitmap_words(entries));
}

/* One query's dimension map: int32, packed and (where the bitmap form's plan
 * says) as filter bits or codes. */
static int upload_map(ssb_data *d, int qi, int dim, int32_t *host, uint8_t *bytes, wb_err *e) {
    const wb_ssb_layout *l = &d->ans[qi].layout;
    const int64_t entries = wb_ssb_map_entries(dim, &d->z);
    wb_ssb_map_fill(&wb_ssb_specs[qi], l, dim, &d->z, d->seed, host);
    if (wb_ssb_pack_map(host, entries, l->stride[dim], bytes) != WB_OK)
        return wb_fail(e, "ssb %s: a group code does not fit the packed map", wb_ssb_specs[qi].name);
    int rc = wb_dev_alloc((void **)&d->map[qi][dim], (size_t)entries * sizeof(int32_t), "ssb dimension map", e);
    if (rc == WB_OK) rc = wb_upload(d->map[qi][dim], host, (size_t)entries * sizeof(int32_t), e);
    if (rc == WB_OK) rc = wb_dev_alloc((void **)&d->packed[qi][dim], (size_t)entries, "ssb packed map", e);
    if (rc == WB_OK) rc = wb_upload(d->packed[qi][dim], bytes, (size_t)entries, e);
    if (rc != WB_OK || !d->plan[qi].bits[dim]) return rc;
    const size_t bits_bytes = (size_t)bitmap_words(d, qi, dim) * sizeof(uint32_t);
    uint32_t *bits = wb_host_alloc(bits_bytes, "ssb bitmap", e);
    if (!bits) return WB_ERR;
    if (!holds_codes(d, qi, dim)) wb_ssb_bitmap_of(host, entries, bits);
    else if (wb_ssb_codes_of(bytes, entries, bits) != WB_OK)
        rc = wb_fail(e, "ssb %s: a group code does not fit 4 bits", wb_ssb_specs[qi].name);
    if (rc == WB_OK) rc = wb_dev_alloc((void **)&d->bitmap[qi][dim], bits_bytes, "ssb bitmap", e);
    if (rc == WB_OK) rc = wb_upload(d->bitmap[qi][dim], bits, bits_bytes, e);
    free(bits);
    return rc;
}

/* The bitmap form's clusters (sm_90 on): wb_ssb_bitmap_plan_auto's choice up
 * to clusters of 4. Experiment switch (not in a file's command line):
 * WB_SSB_CLUSTER = 1 plans no cluster; 2, 4 or 8 that cluster wherever it
 * makes more filters bitmaps (wb_ssb_bitmap_plan_cluster), with a trailing
 * "a" (4a) wherever two filters are bitmaps (the family's tests, at sizes
 * where every filter fits a block). */
static void plan_bitmaps(const wb_ssb_spec *q, const wb_ssb_sizes *z, int64_t max_bytes, int64_t code_queue_bytes,
                         int major, wb_ssb_bitmap_plan *p) {
    const char *v = getenv("WB_SSB_CLUSTER");
    const int c = v ? atoi(v) : 0;
    if (major < 9 || c == 1) wb_ssb_bitmap_plan_of(q, z, max_bytes, code_queue_bytes, p);
    else if (c == 2 || c == 4 || c == 8)
        wb_ssb_bitmap_plan_cluster(q, z, max_bytes, code_queue_bytes, c, strchr(v, 'a') != NULL, p);
    else wb_ssb_bitmap_plan_auto(q, z, max_bytes, code_queue_bytes, 4, p);
}

/* Experiment switch: WB_SSB_QUEUE_ILP = 4 or 8 plans the bitmaps beside
 * the queues of that ILP instead of ILP 16's (a point at a larger ILP may
 * then not fit). */
static int queue_ilp(void) {
    const char *v = getenv("WB_SSB_QUEUE_ILP");
    const int i = v ? atoi(v) : BITMAP_QUEUE_ILP;
    return i == 4 || i == 8 ? i : BITMAP_QUEUE_ILP;
}

static int upload_maps(ssb_data *d, wb_err *e) {
    int dev = 0, optin = 0, major = 0;
    WB_CUDA_TRY(e, cudaGetDevice(&dev));
    WB_CUDA_TRY(e, cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    WB_CUDA_TRY(e, cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));

    int64_t most = 0;
    for (int dim = 0; dim < WB_SSB_DIMS; dim++)
        if (wb_ssb_map_entries(dim, &d->z) > most) most = wb_ssb_map_entries(dim, &d->z);
    int32_t *host = wb_host_alloc((size_t)most * sizeof(int32_t), "ssb dimension map", e);
    uint8_t *bytes = host ? wb_host_alloc((size_t)most, "ssb packed map", e) : NULL;
    int rc = bytes ? WB_OK : WB_ERR;
    for (int qi = 0; qi < WB_SSB_QUERIES && rc == WB_OK; qi++) {
        const int64_t table = d->ans[qi].layout.groups * (int64_t)sizeof(unsigned long long);
        const int64_t queues = wb_ssb_bitmap_queue_bytes(BITMAP_BLOCK, queue_ilp(), 0);
        plan_bitmaps(&wb_ssb_specs[qi], &d->z, optin - table - queues,
                     wb_ssb_bitmap_queue_bytes(BITMAP_BLOCK, queue_ilp(), 1) - queues, major, &d->plan[qi]);
        rc = wb_placed_alloc(&d->out[qi], (size_t)d->ans[qi].layout.groups * sizeof(unsigned long long),
                             "ssb group sums", e);
        for (int dim = 0; dim < WB_SSB_DIMS && rc == WB_OK; dim++)
            if (wb_ssb_specs[qi].dim[dim].joined) rc = upload_map(d, qi, dim, host, bytes, e);
    }
    free(host);
    free(bytes);
    return rc;
}

/* The compressed form's columns: each generated column packed on the GPU
 * at its domain's width, once per data set; the encoder's time (events
 * around the nine kernels) goes into the compressed points' notes. */
static int pack_columns(ssb_data *d, wb_err *e) {
    int *bad = NULL, host_bad = 0;
    cudaEvent_t t0 = NULL, t1 = NULL;
    if (d->cols.n > WB_SSB_PACK_ROWS)
        return wb_fail(e, "ssb: the compressed form packs at most %lld rows (SF 715), not %lld", WB_SSB_PACK_ROWS,
                       (long long)d->cols.n);
    int rc = wb_dev_alloc((void **)&bad, sizeof(int), "ssb pack flag", e);
    if (rc == WB_OK) rc = WB_CUDA(e, cudaMemset(bad, 0, sizeof(int)));
    if (rc == WB_OK) rc = WB_CUDA(e, cudaEventCreate(&t0));
    if (rc == WB_OK) rc = WB_CUDA(e, cudaEventCreate(&t1));
    for (int c = 0; c < WB_SSB_LO_COLUMNS && rc == WB_OK; c++) {
        int32_t lo = 0, hi = 0;
        wb_ssb_column_range(c, &d->z, &lo, &hi);
        d->bits[c] = wb_ssb_pack_width(lo, hi);
        d->pcol[c] = (wb_ssb_packed_column){.base = lo, .width = d->bits[c]};
        rc = wb_dev_alloc((void **)&d->packed_words[c],
                          (size_t)wb_ssb_pack_words(d->cols.n, d->bits[c]) * sizeof(uint32_t), "ssb packed column", e);
        d->pcol[c].words = d->packed_words[c];
    }
    if (rc == WB_OK) rc = WB_CUDA(e, cudaEventRecord(t0, 0));
    for (int c = 0; c < WB_SSB_LO_COLUMNS && rc == WB_OK; c++)
        rc = WB_CUDA(e, wb_ssb_pack(d->cols.col[c], d->cols.n, d->pcol[c].base, d->bits[c], d->packed_words[c], bad, 0));
    if (rc == WB_OK) rc = WB_CUDA(e, cudaEventRecord(t1, 0));
    if (rc == WB_OK) rc = WB_CUDA(e, cudaEventSynchronize(t1));
    if (rc == WB_OK) rc = WB_CUDA(e, cudaEventElapsedTime(&d->pack_ms, t0, t1));
    if (rc == WB_OK) rc = wb_download(&host_bad, bad, sizeof(int), e);
    if (rc == WB_OK && host_bad)
        rc = wb_fail(e, "ssb: a generated value lies outside its column's range (kernels/ssb_pack.h) and cannot be packed");
    if (t0) cudaEventDestroy(t0);
    if (t1) cudaEventDestroy(t1);
    wb_dev_free(bad);
    return rc;
}

static int ssb_data_create(const wb_point *p, uint64_t run_seed, void **out, wb_err *e) {
    *out = NULL;
    ssb_data *d = calloc(1, sizeof *d);
    if (!d) return wb_fail(e, "calloc(ssb data) failed");
    d->seed = wb_keys_seed(run_seed, 0x737362ull, 0, 0, 0);
    d->z = wb_ssb_sizes_of(p->n);
    d->cols.n = p->n;
    int rc = WB_OK;
    for (int c = 0; c < WB_SSB_LO_COLUMNS && rc == WB_OK; c++)
        rc = wb_dev_alloc((void **)&d->cols.col[c], (size_t)(p->n > 0 ? p->n : 1) * sizeof(int32_t),
                          "ssb lineorder column", e);
    if (rc == WB_OK) rc = WB_CUDA(e, wb_ssb_generate(&d->cols, &d->z, d->seed, 0));
    /* The reference runs on the host while the GPU generates. */
    if (rc == WB_OK) rc = wb_ssb_reference(d->seed, &d->z, d->ans, e);
    if (rc == WB_OK) rc = WB_CUDA(e, cudaDeviceSynchronize());
    if (rc == WB_OK) rc = pack_columns(d, e);
    if (rc == WB_OK) rc = upload_maps(d, e);
    if (rc != WB_OK) {
        ssb_data_destroy(d);
        return rc;
    }
    *out = d;
    return WB_OK;
}

/* ---- plan, reset, launch, verify ---- */

/* The bitmap form's batches compacted where the plan says so
 * (wb_ssb_plan_compacts). Experiment switch (not in a file's command line):
 * WB_SSB_COMPACT=0 runs every stage over the batch's 4 rows a lane. */
static int compact_batches(void) {
    const char *v = getenv("WB_SSB_COMPACT");
    return !(v && strcmp(v, "0") == 0);
}

/* The query as the kernels of `form` run it: the specification's probe
 * order, or the bitmap form's plan (bitmaps first). */
static wb_ssb_query query_args(const ssb_data *d, int qi, wb_ssb_form form) {
    const wb_ssb_spec *s = &wb_ssb_specs[qi];
    const wb_ssb_layout *l = &d->ans[qi].layout;
    wb_ssb_query q;
    memset(&q, 0, sizeof q);
    q.flight = s->flight;
    q.date_lo = s->date_lo, q.date_hi = s->date_hi;
    q.qty_lo = s->qty_lo, q.qty_hi = s->qty_hi, q.disc_lo = s->disc_lo, q.disc_hi = s->disc_hi;
    q.nprobe = s->nprobe;
    const wb_ssb_bitmap_plan *bp = &d->plan[qi];
    const int *order = queued(form) ? bp->order : s->order;
    for (int p = 0; p < s->nprobe; p++) {
        const int dim = order[p];
        const int bits = queued(form) && bp->bits[dim];
        q.probe[p] = (wb_ssb_probe){.dim = dim,
                                    .key = d->cols.col[wb_ssb_key_column(dim)],
                                    .map = d->map[qi][dim],
                                    .packed = d->packed[qi][dim],
                                    .stride = l->stride[dim],
                                    .codes = bits && holds_codes(d, qi, dim),
                                    .bits = bits ? d->bitmap[qi][dim] : NULL,
                                    .bits_words = bits ? bitmap_words(d, qi, dim) : 0,
                                    .grouped = s->dim[dim].group_level >= 0};
    }
    q.year_base = l->base[WB_SSB_DATE];
    q.date_last = queued(form) && bp->date_last;
    q.cluster = queued(form) ? bp->cluster : 0;
    q.compact = queued(form) && compact_batches() && wb_ssb_plan_compacts(s, bp);
    q.out = wb_placed_here(&d->out[qi]);
    q.groups = l->groups;
    return q;
}

static int ssb_plan(void *data, wb_point *p, wb_err *e) {
    ssb_data *d = data;
    if (p->variant_id < 0 || p->variant_id >= VARIANTS) return wb_fail(e, "ssb: no variant %d", p->variant_id);
    const int qi = query_of(p->variant_id);
    const wb_ssb_spec *q = &wb_ssb_specs[qi];
    const wb_ssb_form form = form_of(p->variant_id);
    if (queued(form) && q->flight != 1 && d->plan[qi].nbits == 0)
        return wb_skip(e, "ssb: no dimension filter of %s fits a block's shared memory as a bitmap at SF %g", q->name,
                       (double)d->cols.n / WB_SSB_ROWS_PER_SF);
    const wb_ssb_query args = query_args(d, qi, form);
    /* Every form reads its later columns sparsely, a sector for the rows
     * still passing: at the device's 64-byte fetch the L2 brings a sector's
     * neighbour too (on the H200 at SF 100: DRAM 1.01-1.44x the bytes model,
     * Q1.1 6.97 against 5.60 GB); at 32 bytes it reads the model's bytes
     * (5.60 GB) and Q1.1 runs 12% faster (results/h200-issue31/, in history: results/HISTORY.md). */
    p->launch.l2_fetch_bytes = 32;
    cudaError_t ce = wb_ssb_plan(form, &args, &p->launch, d->cols.n);
    if (ce == cudaErrorInvalidValue)
        return wb_skip(e, "ssb: block %d / ILP %d is not a compiled shape, or %lld groups (bitmap: with its bitmaps and queues) exceed shared memory",
                       p->launch.block, p->launch.ilp, (long long)d->ans[qi].layout.groups);
    WB_CUDA_TRY(e, ce);
    double lookups = 0;
    p->bytes_model = form == WB_SSB_COMPRESSED ? wb_ssb_bytes_model_bits(q, &d->ans[qi], &d->z, d->bits, &lookups)
                                               : wb_ssb_bytes_model(q, &d->ans[qi], &d->z, &lookups);
    p->items = (double)d->cols.n;
    p->lookups = lookups;
    p->places = d->out[qi].places;
    /* The compressed form's note says in fewer words where its bitmaps are,
     * to leave room for its columns' bits a row and the encoder's time. */
    char spread[48] = "", packed[48] = "";
    if (args.cluster > 1)
        snprintf(spread, sizeof spread, form == WB_SSB_COMPRESSED ? "; clusters of %d" : "; bitmaps spread over clusters of %d",
                 args.cluster);
    if (form == WB_SSB_COMPRESSED) {
        int row_bits = 0;
        for (int c = 0; c < WB_SSB_LO_COLUMNS; c++) row_bits += d->bits[c];
        snprintf(packed, sizeof packed, "; %d bits a row, packed in %.3g ms", row_bits, (double)d->pack_ms);
    }
    snprintf(p->note, sizeof p->note, "SF %.4g; %lld rows pass; %.4g M map lookups%s%s", (double)d->cols.n / WB_SSB_ROWS_PER_SF,
             (long long)d->ans[qi].stage[d->ans[qi].nstages - 1], lookups / 1e6, spread, packed);
    return WB_OK;
}

static int ssb_reset(void *data, const wb_point *p, int poison, cudaStream_t s, wb_err *e) {
    ssb_data *d = data;
    const int qi = query_of(p->variant_id);
    (void)poison;
    /* The group sums are the atomics' targets and must start at 0, poison or
     * not; a query that did not run leaves 0 in every group, which fails
     * wherever the reference has a row. */
    return wb_placed_reset(&d->out[qi], s, e);
}

static int ssb_launch(void *data, const wb_point *p, cudaStream_t s, wb_err *e) {
    ssb_data *d = data;
    const wb_ssb_form form = form_of(p->variant_id);
    const wb_ssb_query q = query_args(d, query_of(p->variant_id), form);
    /* The compressed form's key columns in the query's probe order. */
    wb_ssb_packed_columns pc;
    memcpy(pc.col, d->pcol, sizeof pc.col);
    memset(pc.key, 0, sizeof pc.key);
    for (int k = 0; k < q.nprobe; k++) pc.key[k] = d->pcol[wb_ssb_key_column(q.probe[k].dim)];
    pc.n = d->cols.n;
    return WB_CUDA(e, wb_ssb_launch(form, &p->launch, &d->cols, &pc, &q, s));
}

/* Every group of the dense result, the empty ones included. */
static int ssb_verify(void *data, const wb_point *p, wb_err *e) {
    ssb_data *d = data;
    const int qi = query_of(p->variant_id);
    const wb_ssb_answer *a = &d->ans[qi];
    const size_t bytes = (size_t)a->layout.groups * sizeof(unsigned long long);
    unsigned long long *got = wb_host_alloc(bytes, "ssb group sums copy", e);
    if (!got) return WB_ERR;
    int rc = wb_download(got, wb_placed_here(&d->out[qi]), bytes, e);
    if (rc == WB_OK) {
        wb_mismatches m;
        wb_mismatch_init(&m);
        for (int64_t g = 0; g < a->layout.groups; g++)
            if ((long long)got[g] != (long long)a->sums[g]) wb_mismatch_add_i64(&m, g, (long long)got[g], (long long)a->sums[g]);
        rc = wb_mismatch_finish(&m, a->layout.groups, "ssb groups", e);
    }
    free(got);
    return rc;
}

const wb_family wb_family_ssb = {
    .name = "ssb",
    .summary = "Star Schema Benchmark Q1.1-Q4.3: Crystal-tiled, direct, packed, bitmap, compressed; GPU-generated data by SF",
    .variants = ssb_variants,
    .nvariants = WB_VARIANT_COUNT(ssb_variants),
    .sweep = {sweep_test, sweep_quick, sweep_full},
    .device_bytes = ssb_device_bytes,
    .same_data = ssb_same_data,
    .data_create = ssb_data_create,
    .data_destroy = ssb_data_destroy,
    .plan = ssb_plan,
    .reset = ssb_reset,
    .launch = ssb_launch,
    .verify = ssb_verify,
};

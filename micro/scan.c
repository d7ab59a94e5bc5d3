/* scan.c - the scan family: an SSB Q1.1-shaped filtered SUM over four int32
 * columns and a Q3.1-shaped one with a dense-key dimension lookup, each run
 * tiled (Crystal), direct (SHADB, short-circuit loads), direct_noskip and
 * direct_sector (direct with 32-byte L2 fetches) (seed 002 section 3.2,
 * Table 2). Axes: selectivity of the first predicate (exact by construction;
 * the others pass at SSB's rates: discount 3/11, quantity 24/50, region 1/5),
 * size, ILP (seed 002's batching), occupancy.
 * bytes_model counts the 32-byte sectors each variant must read.
 * Layout q1.1_host is Crystal's regime A (section 3.1): the four columns live
 * in pinned host memory and every query copies them over the interconnect
 * first (the launch enqueues the copies, then the kernel); bytes_model is
 * the 16n bytes copied, the h2d ceiling its roof. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/scan.h"
#include "kernels/tile_shape.h"
#include "micro/data.h"
#include "harness/run/family.h"
#include "micro/scan_ref.h"

WB_VARIANT_TABLE(scan_variants, WB_SCAN_VARIANT_LIST, WB_SCAN_VARIANTS);
static const char *const shape_names[WB_SCAN_SHAPES] = {"q1.1", "q3.1"};
static const double scan_axis[] = {1, 0.5, 0.1, 0.01};
#define BLOCK 256
enum { Q11_HOST = WB_SCAN_SHAPES }; /* add_point's shape for q1.1 with its columns in host memory (regime A) */

typedef struct scan_data {
    int shape;
    int64_t n;
    int32_t *d_col[4]; /* orderdate + the shape's other columns */
    int32_t *d_dim;
    wb_placed sum;           /* the sum, moved by each reset (data.h); io.sum is where it is now */
    wb_scan_io io;
    wb_scan_expect x;
    int32_t *h_col[4];    /* q1.1_host: the columns, pinned, copied up by every launch; NULL otherwise */
} scan_data;

static int shape_of(const wb_point *p) { return strncmp(p->layout, "q3.1", 4) == 0 ? WB_SCAN_Q31 : WB_SCAN_Q11; }
static int is_host(const wb_point *p) { return strstr(p->layout, "_host") != NULL; }

static int add_point(const wb_sink *sink, int shape, int variant, int64_t n, double s, int ilp, double occ,
                     int block) {
    wb_point p;
    wb_point_init(&p);
    p.variant_id = variant;
    snprintf(p.dtype, sizeof p.dtype, "int32");
    const int host = shape == Q11_HOST;
    if (host) shape = WB_SCAN_Q11;
    snprintf(p.layout, sizeof p.layout, "%s%s", shape_names[shape], host ? "_host" : "");
    p.n = n;
    p.selectivity = s;
    p.columns = shape == WB_SCAN_Q11 ? 4 : 3;
    if (shape == WB_SCAN_Q31) p.table_entries = wb_scan_dim_entries(n);
    p.launch.block = block;
    p.launch.ilp = ilp;
    p.launch.occupancy_target = occ;
    p.vector_bytes = 4 * (ilp < 4 ? ilp : 4);
    return wb_sink_add(sink, &p);
}

/* Regime A: tiled and direct on q1.1_host at 2^lo..2^hi (x4) and each s. */
static int add_host(const wb_sink *sink, int lo, int hi, const double *sels, int nsel) {
    for (int lg = lo; lg <= hi; lg += 2)
        for (int j = 0; j < nsel; j++)
            for (int v = WB_SCAN_TILED; v <= WB_SCAN_DIRECT; v++)
                if (add_point(sink, Q11_HOST, v, (int64_t)1 << lg, sels[j], 4, 1.0, BLOCK)) return WB_ERR;
    return WB_OK;
}

static int sweep_test(const wb_sink *sink) {
    static const int64_t sizes[] = {0, 1, 4097, 1000003};
    static const double sels[] = {0, 0.5, 1};
    static const int more_ilps[] = {2, 8, 16};
    for (int sh = 0; sh < WB_SCAN_SHAPES; sh++)
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 3; j++)
                for (int v = 0; v < WB_SCAN_VARIANTS; v++) {
                    int64_t n = sizes[i];
                    double s = sels[j];
                    if (add_point(sink, sh, v, n, s, 1, 1.0, BLOCK) || add_point(sink, sh, v, n, s, 4, 1.0, BLOCK))
                        return WB_ERR;
                    if (n != 1000003 || s != 0.5) continue;
                    /* 8-byte vectors, several vectors per batch, other blocks, occupancy padding. */
                    for (int k = 0; k < 3; k++)
                        if (add_point(sink, sh, v, n, s, more_ilps[k], 1.0, BLOCK)) return WB_ERR;
                    if (add_point(sink, sh, v, n, s, 4, 1.0, 128) || add_point(sink, sh, v, n, s, 4, 1.0, 512) ||
                        add_point(sink, sh, v, n, s, 4, 0.5, BLOCK))
                        return WB_ERR;
                }
    for (int i = 0; i < 4; i++) /* regime A: every variant, odd sizes */
        for (int v = 0; v < WB_SCAN_VARIANTS; v++)
            if (add_point(sink, Q11_HOST, v, sizes[i], 0.5, 4, 1.0, BLOCK)) return WB_ERR;
    return WB_OK;
}

/* Quick sweep, 62 points at 2^28 rows (4 GiB of q1.1 columns, 3 of q3.1):
 * 32 for every variant x selectivity x shape at ILP 4, 24 more for the ILP
 * grid of tiled, direct and direct_sector (q1.1, s = 1 and 0.01), 6
 * occupancy points. On the H200 (f9ac739) it took 54 s, 50 of them making the
 * 8 data sets, before the reference stopped sharing cache lines between
 * workers. */
static int sweep_quick(const wb_sink *sink) {
    const int64_t n = (int64_t)1 << 28;
    static const int ilps[] = {1, 2, 8, 16};
    static const double occs[] = {0.25, 0.5};
    for (int sh = 0; sh < WB_SCAN_SHAPES; sh++)
        for (int j = 0; j < 4; j++) {
            double s = scan_axis[j];
            for (int v = 0; v < WB_SCAN_VARIANTS; v++)
                if (add_point(sink, sh, v, n, s, 4, 1.0, BLOCK)) return WB_ERR;
            if (sh != WB_SCAN_Q11 || (s != 1 && s != 0.01)) continue;
            static const int grid_variants[] = {WB_SCAN_TILED, WB_SCAN_DIRECT, WB_SCAN_DIRECT_SECTOR};
            for (int gv = 0; gv < 3; gv++) {
                const int v = grid_variants[gv];
                for (int i = 0; i < 4; i++)
                    if (add_point(sink, sh, v, n, s, ilps[i], 1.0, BLOCK)) return WB_ERR;
                for (int o = 0; o < 2 && s == 1; o++)
                    if (add_point(sink, sh, v, n, s, 4, occs[o], BLOCK)) return WB_ERR;
            }
        }
    /* Regime A at 2^24 and 2^26, s = 0.01: 4 points, the 2^26 copies 1 GiB
     * (~20 ms) a launch: ~2 s. */
    static const double low[] = {0.01};
    return add_host(sink, 24, 26, low, 1);
}

/* Full sweep: every variant x selectivity x shape at 2^24 and 2^28 rows;
 * at 2^28 the q1.1 scan also over ILP (seed 002's batching), occupancy and
 * block size. */
static int sweep_full(const wb_sink *sink) {
    static const double sels[] = {1, 0.5, 0.1, 0.01};
    static const int ilps[] = {1, 2, 8, 16};
    static const double occs[] = {0.25, 0.5};
    for (int sh = 0; sh < WB_SCAN_SHAPES; sh++)
        for (int j = 0; j < 4; j++)
            for (int lg = 24; lg <= 28; lg += 4)
                for (int v = 0; v < WB_SCAN_VARIANTS; v++) {
                    int64_t n = (int64_t)1 << lg;
                    double s = sels[j];
                    if (add_point(sink, sh, v, n, s, 4, 1.0, BLOCK)) return WB_ERR;
                    if (lg < 28 || sh != WB_SCAN_Q11) continue;
                    for (int i = 0; i < 4; i++)
                        if (add_point(sink, sh, v, n, s, ilps[i], 1.0, BLOCK)) return WB_ERR;
                    for (int o = 0; o < 2; o++)
                        if (add_point(sink, sh, v, n, s, 4, occs[o], BLOCK)) return WB_ERR;
                    if (add_point(sink, sh, v, n, s, 4, 1.0, 128) || add_point(sink, sh, v, n, s, 4, 1.0, 512))
                        return WB_ERR;
                }
    /* Regime A: 2^24 and 2^26 at s = 1 and 0.01 (8 points, ~4 s). */
    static const double host_sels[] = {1, 0.01};
    return add_host(sink, 24, 26, host_sels, 2);
}

static double scan_device_bytes(const wb_point *p) {
    double n = (double)p->n;
    if (shape_of(p) == WB_SCAN_Q11) return 16.0 * n + 1024.0 * 1024;
    return 12.0 * n + 4.0 * (double)wb_scan_dim_entries(p->n) + 1024.0 * 1024;
}

static int scan_same_data(const wb_point *a, const wb_point *b) {
    return a->n == b->n && a->selectivity == b->selectivity && strcmp(a->layout, b->layout) == 0;
}

static void scan_data_destroy(void *vd) {
    scan_data *d = vd;
    if (!d) return;
    for (int c = 0; c < 4; c++) wb_dev_free(d->d_col[c]);
    for (int c = 0; c < 4; c++)
        if (d->h_col[c]) (void)cudaFreeHost(d->h_col[c]);
    wb_dev_free(d->d_dim);
    wb_placed_free(&d->sum);
    free(d);
}

/* The columns are made on the GPU (kernels/scan_gen.h: wb_scan_fill's
 * values bit for bit) and the reference computed there by a plain
 * per-sector kernel, which test_gpu_scan_gen holds to the CPU reference
 * (wb_scan_reference). The host holds the columns only for regime A, copied
 * down once into the pinned buffers the launches copy up from. */
static int scan_data_create(const wb_point *p, uint64_t run_seed, void **out, wb_err *e) {
    *out = NULL;
    scan_data *d = calloc(1, sizeof *d);
    if (!d) return wb_fail(e, "calloc(scan data) failed");
    d->shape = shape_of(p);
    d->n = p->n;
    const int ncols = d->shape == WB_SCAN_Q11 ? 4 : 3;
    const size_t bytes = (size_t)d->n * sizeof(int32_t);
    const int64_t dim_entries = d->shape == WB_SCAN_Q31 ? wb_scan_dim_entries(d->n) : 0;
    uint64_t seed = run_seed ^ ((uint64_t)d->n * 0x9E3779B97F4A7C15ull) ^ (uint64_t)llround(p->selectivity * 1e9) ^
                    ((uint64_t)d->shape << 60);
    wb_scan_gen g;
    wb_scan_gen_of(d->shape, d->n, dim_entries, &wb_scan_ssb, p->selectivity, wb_rng_next(&seed), &g);
    void *scratch = NULL;
    wb_scan_gen_ref ref;
    int rc = WB_ERR;
    for (int c = 0; c < ncols; c++)
        if (wb_dev_alloc((void **)&d->d_col[c], bytes, "scan column", e)) goto done;
    if (dim_entries && wb_dev_alloc((void **)&d->d_dim, (size_t)dim_entries * sizeof(int32_t), "scan dimension", e))
        goto done;
    if (wb_dev_alloc(&scratch, wb_scan_ref_gpu_scratch(dim_entries), "scan reference scratch", e)) goto done;
    if (WB_CUDA(e, wb_scan_gen_gpu(&g, d->d_col, d->d_dim, 0)) != WB_OK ||
        WB_CUDA(e, wb_scan_ref_gpu(d->shape, d->n, &wb_scan_ssb, (const int32_t *const *)d->d_col, d->d_dim,
                                   dim_entries, scratch, &ref, 0)) != WB_OK)
        goto done;
    d->x = (wb_scan_expect){.sum = ref.sum, .rows_first = ref.rows_first, .rows_all = ref.rows_all,
                            .sectors = (d->n + 7) / 8, .need = {ref.need[0], ref.need[1], ref.need[2]},
                            .dim_sectors = ref.dim_sectors};
    for (int c = 0; is_host(p) && c < ncols; c++)
        if (WB_CUDA(e, cudaMallocHost((void **)&d->h_col[c], bytes ? bytes : sizeof(int32_t))) != WB_OK ||
            (bytes && wb_download(d->h_col[c], d->d_col[c], bytes, e)))
            goto done;
    if (wb_placed_alloc(&d->sum, sizeof(unsigned long long), "scan sum", e)) goto done;
    d->io = (wb_scan_io){.n = d->n, .orderdate = d->d_col[0], .dim_region = d->d_dim, .q = wb_scan_ssb,
                         .sum = wb_placed_here(&d->sum)};
    if (d->shape == WB_SCAN_Q11) {
        d->io.discount = d->d_col[1], d->io.quantity = d->d_col[2], d->io.extendedprice = d->d_col[3];
    } else {
        d->io.custkey = d->d_col[1], d->io.revenue = d->d_col[2];
    }
    rc = WB_OK;
done:
    wb_dev_free(scratch);
    if (rc == WB_OK) *out = d;
    else scan_data_destroy(d);
    return rc;
}

static int scan_plan(void *vd, wb_point *p, wb_err *e) {
    scan_data *d = vd;
    if (!wb_tile_shape_ok(p->launch.block, p->launch.ilp))
        return wb_skip(e, "block %d x ILP %d is not a compiled tile shape", p->launch.block, p->launch.ilp);
    if (WB_CUDA(e, wb_scan_plan(p->variant_id, d->shape, &p->launch, p->n)) != WB_OK) return WB_ERR;
    /* direct_sector's one difference: the L2 fetches single 32-byte sectors
     * (a per-context hint the harness sets before the point's launches and
     * puts back for the next point that does not ask). */
    const int fetch = p->variant_id == WB_SCAN_DIRECT_SECTOR ? 32 : 0;
    p->launch.l2_fetch_bytes = fetch;
    if (d->shape == WB_SCAN_Q31) p->table_entries = wb_scan_dim_entries(d->n); /* --n may have changed n */
    p->bytes_model = d->h_col[0] ? 16.0 * (double)d->n : wb_scan_bytes_model(&d->x, d->shape, p->variant_id);
    p->items = (double)d->n;
    p->places = d->sum.places;
    double n = d->n > 0 ? (double)d->n : 1.0;
    snprintf(p->note, sizeof p->note, "pass %.4f first, %.4f all; MB tiled %.0f, direct %.0f; sum %lld; L2 fetch %s",
             (double)d->x.rows_first / n, (double)d->x.rows_all / n,
             wb_scan_bytes_model(&d->x, d->shape, WB_SCAN_TILED) / 1e6,
             wb_scan_bytes_model(&d->x, d->shape, WB_SCAN_DIRECT) / 1e6, d->x.sum, fetch ? "32 B" : "default");
    return WB_OK;
}

static int scan_reset(void *vd, const wb_point *p, int poison, cudaStream_t s, wb_err *e) {
    scan_data *d = vd;
    (void)p; /* the sum is the only output, and an accumulator: it must start at 0 */
    /* regime A: a launch that does not copy the columns scans poison */
    for (int c = 0; poison && c < 4 && d->h_col[c]; c++)
        WB_CUDA_TRY(e, cudaMemsetAsync(d->d_col[c], 0xFF, (size_t)d->n * sizeof(int32_t), s));
    if (wb_placed_reset(&d->sum, s, e) != WB_OK) return WB_ERR;
    d->io.sum = wb_placed_here(&d->sum);
    return WB_OK;
}

static int scan_launch(void *vd, const wb_point *p, cudaStream_t s, wb_err *e) {
    scan_data *d = vd;
    for (int c = 0; d->n && c < 4 && d->h_col[c]; c++)
        WB_CUDA_TRY(e, cudaMemcpyAsync(d->d_col[c], d->h_col[c], (size_t)d->n * sizeof(int32_t), cudaMemcpyHostToDevice, s));
    return WB_CUDA(e, wb_scan_launch(p->variant_id, d->shape, &p->launch, &d->io, s));
}

static int scan_verify(void *vd, const wb_point *p, wb_err *e) {
    scan_data *d = vd;
    (void)p;
    unsigned long long sum = 0;
    if (wb_download(&sum, d->io.sum, sizeof sum, e)) return WB_ERR;
    return wb_scan_compare((long long)sum, d->x.sum, e);
}

const wb_family wb_family_scan = {
    .name = "scan",
    .summary = "SSB q1.1/q3.1-shaped filtered SUM: tiled (Crystal) vs direct (short-circuit), direct_noskip, direct_sector",
    .variants = scan_variants,
    .nvariants = WB_VARIANT_COUNT(scan_variants),
    .sweep = {sweep_test, sweep_quick, sweep_full},
    .device_bytes = scan_device_bytes,
    .same_data = scan_same_data,
    .data_create = scan_data_create,
    .data_destroy = scan_data_destroy,
    .plan = scan_plan,
    .reset = scan_reset,
    .launch = scan_launch,
    .verify = scan_verify,
};

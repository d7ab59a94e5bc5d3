/* compress.c - the compress family (issue 51): an int32 column scanned by a
 * predicated sum and by a selection, read plain and read compressed (frame
 * of reference + bit-packing with a width per tile, delta + bit-packing,
 * dictionary codes), decoded in registers inline with the operator
 * (kernels/compress.h). Axes: bit_width (what the data is drawn to fill),
 * layout (uniform, skewed, sorted, dict: compress_ref.h), selectivity 0.5.
 * bytes_model = the bytes the variant reads (plain: 4n; compressed: payload
 * + tile headers + lane bases + dictionary) + what it writes (8 for a sum,
 * 4 a selected row). The encoder runs on the host in data_create, before
 * any timing; its time goes into the point's note, never into the measured
 * operator. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness/run/family.h"
#include "kernels/compress.h"
#include "micro/compress_ref.h"
#include "micro/data.h"

WB_VARIANT_TABLE(compress_variants, WB_COMPRESS_VARIANT_LIST, WB_COMPRESS_VARIANTS);

#define SELECTIVITY 0.5

typedef struct compress_data {
    wb_ccolumn col;
    wb_cenc enc[4];         /* by form: [WB_FORM_FOR], [WB_FORM_DELTA], [WB_FORM_DICT] where the layout has it */
    wb_compress_col dcol[4]; /* the device copies */
    void *dmem[4][4];       /* their allocations: head, payload, base, dict */
    double encode_ms[4];
    int32_t *d_plain, *d_out;
    wb_placed acc;          /* the sum (8 bytes) or the selection's cursor */
    void *d_temp;
    size_t temp_cap;
    int32_t t, rank_t; /* the threshold; the dictionary's entries below it */
    wb_cref ref;
} compress_data;

/* The forms a layout is encoded in: frame of reference always, delta for
 * the sorted layout, the dictionary for the dict layout. */
static int layout_has(int layout, wb_compress_form f) {
    return f == WB_FORM_PLAIN || f == WB_FORM_FOR || (f == WB_FORM_DELTA && layout == WB_CLAYOUT_SORTED) ||
           (f == WB_FORM_DICT && layout == WB_CLAYOUT_DICT);
}

static int add(const wb_sink *s, int v, int64_t n, int layout, int w) {
    wb_point p;
    wb_point_init(&p);
    p.variant_id = v;
    snprintf(p.dtype, sizeof p.dtype, "int32");
    snprintf(p.layout, sizeof p.layout, "%s", wb_clayout_name(layout));
    p.n = n;
    p.bit_width = w;
    p.selectivity = SELECTIVITY;
    p.columns = 1;
    if (v != WB_COMPRESS_CUB_SUM) {
        p.launch.block = WB_COMPRESS_BLOCK;
        p.launch.ilp = WB_COMPRESS_LANE_ROWS;
        p.launch.occupancy_target = 1.0;
    }
    return wb_sink_add(s, &p);
}

/* The variants of a layout at one width: plain and cub peers, and each
 * compressed form the layout is encoded in, sum and (select) selection. */
static int add_layout(const wb_sink *s, int64_t n, int layout, int w, int select) {
    for (int v = 0; v < WB_COMPRESS_VARIANTS; v++) {
        if (!layout_has(layout, wb_compress_form_of(v)) || (wb_compress_is_select(v) && !select)) continue;
        if (v == WB_COMPRESS_CUB_SUM && layout != WB_CLAYOUT_UNIFORM) continue;
        if (add(s, v, n, layout, w)) return WB_ERR;
    }
    return WB_OK;
}

/* Odd sizes (0, 1, one row past a tile, a partial last tile), every
 * variant, widths at the format's edges. */
static int sweep_test(const wb_sink *s) {
    static const int64_t sizes[] = {0, 1, 4097, 1000003};
    static const int widths[] = {1, 7, 12, 32};
    for (int i = 0; i < 4; i++)
        for (int l = 0; l < WB_CLAYOUTS; l++)
            for (int k = 0; k < 4; k++)
                if ((l != WB_CLAYOUT_DICT || widths[k] <= WB_COMPRESS_DICT_BITS_MAX) && add_layout(s, sizes[i], l, widths[k], 1))
                    return WB_ERR;
    return WB_OK;
}

#define BIG ((int64_t)1 << 28)

/* Quick: the crossover's shape at 2^28 rows in few points: uniform at
 * widths 4, 8, 16 (sum and select), one sorted (delta) and one dict point,
 * the skewed column at width 4. */
static int sweep_quick(const wb_sink *s) {
    static const int widths[] = {4, 8, 16};
    for (int k = 0; k < 3; k++)
        if (add_layout(s, BIG, WB_CLAYOUT_UNIFORM, widths[k], 1)) return WB_ERR;
    return add_layout(s, BIG, WB_CLAYOUT_SORTED, 4, 0) || add_layout(s, BIG, WB_CLAYOUT_DICT, 8, 0) ||
                   add_layout(s, BIG, WB_CLAYOUT_SKEWED, 4, 0)
               ? WB_ERR
               : WB_OK;
}

/* Full: the width axis 1..32 at 2^28 rows for uniform (sum and select),
 * sorted and skewed (sums; skewed to 24, past which its outliers change
 * nothing), dict 1..12. */
static int sweep_full(const wb_sink *s) {
    for (int w = 1; w <= 32; w++)
        if (add_layout(s, BIG, WB_CLAYOUT_UNIFORM, w, 1) || add_layout(s, BIG, WB_CLAYOUT_SORTED, w, w <= 8) ||
            (w <= 24 && add_layout(s, BIG, WB_CLAYOUT_SKEWED, w, 0)) ||
            (w <= WB_COMPRESS_DICT_BITS_MAX && add_layout(s, BIG, WB_CLAYOUT_DICT, w, w == 8)))
            return WB_ERR;
    return WB_OK;
}

static double compress_device_bytes(const wb_point *p) {
    /* plain, its encodings (at most ~4n + headers each, two of them), the
     * selection's output, CUB's scratch, the placed accumulator */
    return 4.0 * (double)p->n * 4.2 + 64.0 * 1024 * 1024 + wb_placed_bytes(8);
}

static int compress_same_data(const wb_point *a, const wb_point *b) {
    return a->n == b->n && a->bit_width == b->bit_width && strcmp(a->layout, b->layout) == 0;
}

static void compress_destroy(void *vd) {
    compress_data *d = vd;
    if (!d) return;
    for (int f = 0; f < 4; f++) {
        wb_cenc_free(&d->enc[f]);
        for (int k = 0; k < 4; k++) wb_dev_free(d->dmem[f][k]);
    }
    wb_ccolumn_free(&d->col);
    wb_dev_free(d->d_plain);
    wb_dev_free(d->d_out);
    wb_dev_free(d->d_temp);
    wb_placed_free(&d->acc);
    free(d);
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Encodes the column in form f on the host (timed apart) and copies it up. */
static int encode_form(compress_data *d, wb_compress_form f, wb_err *e) {
    wb_cenc *c = &d->enc[f];
    const double t0 = now_ms();
    if (wb_cenc_make(c, f, d->col.x, d->col.n, d->col.dict, d->col.dict_n, e) != WB_OK) return WB_ERR;
    d->encode_ms[f] = now_ms() - t0;
    const size_t sizes[4] = {(size_t)(c->tiles ? c->tiles : 1) * sizeof(wb_compress_tile),
                             (size_t)(c->words + 4) * sizeof(uint32_t),
                             c->base ? (size_t)(c->tiles ? c->tiles : 1) * 32 * sizeof(int32_t) : 0,
                             c->dict ? (size_t)c->dict_n * sizeof(int32_t) : 0};
    const void *src[4] = {c->head, c->payload, c->base, c->dict};
    for (int k = 0; k < 4; k++)
        if (sizes[k] && (wb_dev_alloc(&d->dmem[f][k], sizes[k], "compress encoded column", e) ||
                         (c->tiles && wb_upload(d->dmem[f][k], src[k], sizes[k], e))))
            return WB_ERR;
    d->dcol[f] = (wb_compress_col){f, c->n, c->tiles, d->dmem[f][0], d->dmem[f][1], c->words, d->dmem[f][2],
                                   d->dmem[f][3], c->dict_n};
    return WB_OK;
}

static uint64_t data_seed(uint64_t run_seed, const wb_point *p) {
    uint64_t s = run_seed ^ ((uint64_t)p->n * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)p->bit_width << 40) ^
                 ((uint64_t)wb_clayout_of(p->layout) << 56);
    return wb_rng_next(&s);
}

static int compress_create(const wb_point *p, uint64_t run_seed, void **out, wb_err *e) {
    *out = NULL;
    const int layout = wb_clayout_of(p->layout);
    if (layout < 0) return wb_fail(e, "compress: no layout '%s' (uniform, skewed, sorted, dict)", p->layout);
    if (p->n > INT32_MAX) return wb_skip(e, "%lld rows: the selection's int32 row indices need n <= %d", (long long)p->n, INT32_MAX);
    compress_data *d = calloc(1, sizeof *d);
    if (!d) return wb_fail(e, "compress: out of host memory");
    const uint64_t seed = data_seed(run_seed, p);
    if (wb_ccolumn_make(&d->col, layout, p->bit_width, p->n, seed, e) != WB_OK) goto fail;
    for (int f = WB_FORM_FOR; f <= WB_FORM_DICT; f++)
        if (layout_has(layout, f) && encode_form(d, f, e) != WB_OK) goto fail;
    const size_t nb = (size_t)(p->n ? p->n : 1) * sizeof(int32_t);
    if (wb_dev_alloc((void **)&d->d_plain, nb, "compress plain column", e) ||
        wb_dev_alloc((void **)&d->d_out, nb, "compress selection", e) ||
        wb_placed_alloc(&d->acc, sizeof(unsigned long long), "compress sum", e) ||
        (p->n && wb_upload(d->d_plain, d->col.x, nb, e)))
        goto fail;
    d->t = wb_compress_threshold(d->col.x, d->col.n, SELECTIVITY, seed ^ 0x7417ull);
    d->ref = wb_compress_reference(d->col.x, d->col.n, d->t);
    while (d->rank_t < d->col.dict_n && d->col.dict[d->rank_t] < d->t) d->rank_t++;
    *out = d;
    return WB_OK;
fail:
    compress_destroy(d);
    return WB_ERR;
}

static int compress_plan(void *vd, wb_point *p, wb_err *e) {
    compress_data *d = vd;
    const int v = p->variant_id;
    const wb_compress_form f = wb_compress_form_of(v);
    if (!layout_has(wb_clayout_of(p->layout), f))
        return wb_skip(e, "the %s layout is not encoded in %s's form", p->layout, compress_variants[v].name);
    WB_CUDA_TRY(e, wb_compress_plan(v, &p->launch, p->n));
    if (p->launch.temp_bytes > d->temp_cap) {
        wb_dev_free(d->d_temp);
        d->d_temp = NULL, d->temp_cap = 0;
        if (wb_dev_alloc(&d->d_temp, p->launch.temp_bytes, "compress scratch", e)) return WB_ERR;
        d->temp_cap = p->launch.temp_bytes;
    }
    const double read = f == WB_FORM_PLAIN ? 4.0 * (double)p->n : wb_cenc_bytes(&d->enc[f]);
    const double written = wb_compress_is_select(v) ? 4.0 * (double)d->ref.count + 8 : 8;
    p->bytes_model = read + written;
    p->items = (double)p->n;
    p->places = d->acc.places;
    if (f == WB_FORM_PLAIN)
        snprintf(p->note, sizeof p->note, "t %d: %lld rows below; plain, 32 bits a row", (int)d->t,
                 (long long)d->ref.count);
    else
        snprintf(p->note, sizeof p->note,
                 "t %d: %lld rows below; %.3f bits a row read (payload %.3f); host encode %.0f ms", (int)d->t,
                 (long long)d->ref.count, p->n ? 8.0 * read / (double)p->n : 0.0, wb_cenc_mean_width(&d->enc[f]),
                 d->encode_ms[f]);
    return WB_OK;
}

static int compress_reset(void *vd, const wb_point *p, int poison, cudaStream_t s, wb_err *e) {
    compress_data *d = vd;
    if (wb_placed_reset(&d->acc, s, e) != WB_OK) return WB_ERR;
    if (poison && p->n && wb_compress_is_select(p->variant_id))
        WB_CUDA_TRY(e, cudaMemsetAsync(d->d_out, 0xFF, (size_t)p->n * sizeof(int32_t), s));
    return WB_OK;
}

static int compress_launch(void *vd, const wb_point *p, cudaStream_t s, wb_err *e) {
    compress_data *d = vd;
    const int v = p->variant_id;
    unsigned long long *acc = wb_placed_here(&d->acc);
    wb_compress_io io = {d->d_plain, d->dcol[wb_compress_form_of(v)], p->n, d->t, d->rank_t, acc, acc, d->d_out,
                         d->d_temp, p->launch.temp_bytes};
    return WB_CUDA(e, wb_compress_launch(v, &p->launch, &io, s));
}

/* The selection's check downloads it in pieces of 16 MiB, each checked on
 * every CPU (compress_ref.h). Read into one fresh 1 GiB host copy and checked
 * on one core, a 2^28-row selection point's set-up (plan, one run, the check)
 * took 0.56-1.57 s on the H200's host (setup_ms in
 * results/h200-compress/20261204T162836Z-f48394d.h5). */
#define CHECK_PIECE ((int64_t)1 << 22)

static int download_out(void *ctx, int32_t *dst, int64_t k0, int64_t rows, wb_err *e) {
    const compress_data *d = ctx;
    return wb_download(dst, d->d_out + k0, (size_t)rows * sizeof(int32_t), e);
}

static int compress_verify(void *vd, const wb_point *p, wb_err *e) {
    compress_data *d = vd;
    unsigned long long got = 0;
    if (wb_download(&got, wb_placed_here(&d->acc), sizeof got, e)) return WB_ERR;
    if (!wb_compress_is_select(p->variant_id)) {
        if (got == d->ref.sum) return WB_OK;
        return wb_fail(e, "compress sum: got %lld, the reference %lld (%lld rows below t %d)", (long long)got,
                       (long long)d->ref.sum, (long long)d->ref.count, (int)d->t);
    }
    const int64_t count = got > (unsigned long long)INT64_MAX ? -1 : (int64_t)got;
    return wb_compress_check_select_pieces(download_out, d, CHECK_PIECE, count, d->col.x, p->n, d->t, d->ref.count, e);
}

const wb_family wb_family_compress = {
    .name = "compress",
    .summary = "int32 scans (predicated sum, selection) plain vs compressed: FOR + bit-packing a width per tile, "
               "delta, dictionary; bit widths 1-32",
    .variants = compress_variants,
    .nvariants = WB_VARIANT_COUNT(compress_variants),
    .sweep = {sweep_test, sweep_quick, sweep_full},
    .device_bytes = compress_device_bytes,
    .same_data = compress_same_data,
    .data_create = compress_create,
    .data_destroy = compress_destroy,
    .plan = compress_plan,
    .reset = compress_reset,
    .launch = compress_launch,
    .verify = compress_verify,
};

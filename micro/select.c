/* select.c - the selection family: SELECT y FROM R WHERE y < v on int32
 * (seed 001 Steps 4-6, Crystal section 4.2, Figs 4 and 6). Axes: selectivity
 * (exact by construction), size, ILP, occupancy; the model is Crystal's
 * 4n / Br + 4sn / Bw, so bytes_model = 4n + 4k with k = round(s n) selected.
 * layout=host is Crystal's regime A (section 3.1): the input lives in pinned
 * host memory and every query copies it over the interconnect first; the
 * launch enqueues that copy and the kernel, and bytes_model is the 4n bytes
 * of the copy (the h2d ceiling is its roof). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/select.h"
#include "kernels/select_check.h"
#include "kernels/select_gen.h"
#include "kernels/tile_shape.h"
#include "micro/data.h"
#include "micro/exact.h"
#include "micro/fingerprint.h"
#include "harness/run/family.h"
#include "micro/select_ref.h"

_Static_assert(WB_SELECT_POISON == -1, "reset poisons with memset 0xFF");

WB_VARIANT_TABLE(select_variants, WB_SELECT_VARIANT_LIST, WB_SELECT_VARIANTS);

static const double select_axis[] = {0, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 1};
#define AXIS_LEN ((int)(sizeof select_axis / sizeof *select_axis))
#define BLOCK 256 /* Crystal's SSB block (section 5.2); the full sweep also runs 128 and 512 */

typedef struct select_data {
    int64_t n, k;
    int32_t *d_in, *d_out;
    wb_placed count; /* the count (the atomics' cursor), moved by each reset (data.h) */
    void *d_temp;
    size_t temp_cap;
    int32_t *h_in;  /* layout=host: the input, pinned, copied up by every launch; NULL otherwise */
    wb_select_gen gen; /* the input's spec: made on the GPU, the expected output from it on the host */
    uint64_t print;    /* the fingerprint an output in input order must have (all n slots) */
    void *d_print;     /* wb_print_gpu's scratch */
    void *d_check;     /* the GPU check's bitmap and counter (kernels/select_check.h) */
    /* The host comparison's, made on its first use (a check the GPU's could not pass) */
    int32_t *h_buf;    /* the result read back */
    int32_t *ref;      /* the k selected values in input order */
    wb_select_seen seen;
} select_data;

static int is_atomic(int v) { return v == WB_SELECT_IF_ATOMIC || v == WB_SELECT_PRED_ATOMIC; }
static int is_three_kernel(int v) { return v == WB_SELECT_IF_THREE_KERNEL || v == WB_SELECT_PRED_THREE_KERNEL; }

static int is_host(const wb_point *p) { return strcmp(p->layout, "host") == 0; }

static int add_point_in(const wb_sink *sink, const char *layout, int variant, int64_t n, double s, int ilp,
                        double occ, int block) {
    wb_point p;
    wb_point_init(&p);
    p.variant_id = variant;
    snprintf(p.dtype, sizeof p.dtype, "int32");
    snprintf(p.layout, sizeof p.layout, "%s", layout);
    p.n = n;
    p.selectivity = s;
    p.columns = 1;
    if (variant != WB_SELECT_CUB) { /* CUB picks its own launch shape */
        p.launch.block = block;
        p.launch.ilp = ilp;
        p.launch.occupancy_target = occ;
        p.vector_bytes = 4 * (ilp < 4 ? ilp : 4);
    }
    return wb_sink_add(sink, &p);
}

static int add_point(const wb_sink *sink, int variant, int64_t n, double s, int ilp, double occ, int block) {
    return add_point_in(sink, "uniform", variant, n, s, ilp, occ, block);
}

/* Regime A: the fastest tile shape (pred_tile, ILP 16, blocks of 512) and
 * CUB with their input in host memory, at sizes 2^lo..2^hi (x4) and each s. */
static int add_host(const wb_sink *sink, int lo, int hi, const double *sels, int nsel) {
    for (int lg = lo; lg <= hi; lg += 2)
        for (int j = 0; j < nsel; j++)
            if (add_point_in(sink, "host", WB_SELECT_PRED_TILE, (int64_t)1 << lg, sels[j], 16, 1.0, 2 * BLOCK) ||
                add_point_in(sink, "host", WB_SELECT_CUB, (int64_t)1 << lg, sels[j], -1, NAN, -1))
                return WB_ERR;
    return WB_OK;
}

/* Every variant once at ILP 4, occupancy 1; skip_atomic leaves out the atomic pair. */
static int add_all(const wb_sink *sink, int64_t n, double s, int skip_atomic) {
    for (int v = 0; v < WB_SELECT_VARIANTS; v++)
        if (!(skip_atomic && is_atomic(v)) && add_point(sink, v, n, s, 4, 1.0, BLOCK)) return WB_ERR;
    return WB_OK;
}

static int sweep_test(const wb_sink *sink) {
    static const int64_t sizes[] = {0, 1, 4097, 1000003};
    static const double sels[] = {0, 0.5, 1};
    static const int ilps[] = {1, 4}, more_ilps[] = {2, 8, 16}, blocks[] = {128, 512};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 3; j++)
            for (int v = 0; v < WB_SELECT_VARIANTS; v++) {
                int64_t n = sizes[i];
                double s = sels[j];
                if (v == WB_SELECT_CUB) {
                    if (add_point(sink, v, n, s, -1, NAN, -1)) return WB_ERR;
                    continue;
                }
                for (int k = 0; k < 2; k++)
                    if (add_point(sink, v, n, s, ilps[k], 1.0, BLOCK)) return WB_ERR;
                if (n != 1000003 || s != 0.5) continue;
                /* The other vector widths, multi-vector tiles, block sizes and occupancy padding. */
                for (int k = 0; k < 3; k++)
                    if (add_point(sink, v, n, s, more_ilps[k], 1.0, BLOCK)) return WB_ERR;
                for (int k = 0; k < 2; k++)
                    if (add_point(sink, v, n, s, 4, 1.0, blocks[k])) return WB_ERR;
                if (add_point(sink, v, n, s, 4, 0.5, BLOCK)) return WB_ERR;
            }
    /* regime A: odd sizes, every variant once (the copy precedes any kernel) */
    for (int i = 0; i < 4; i++)
        for (int v = 0; v < WB_SELECT_VARIANTS; v++)
            if (add_point_in(sink, "host", v, sizes[i], 0.5, v == WB_SELECT_CUB ? -1 : 4,
                             v == WB_SELECT_CUB ? NAN : 1.0, v == WB_SELECT_CUB ? -1 : BLOCK))
                return WB_ERR;
    return WB_OK;
}

/* Quick sweep, 173 points: 126 at 2^28 (every variant x every s at ILP 4,
 * occupancy 1, except the atomic pair above s = 0.1: one atomic per survivor
 * costs ~0.18 s per launch at 2^28, s = 1), the atomic pair over every s at
 * 2^24 (23 points with the other variants at s = 0.5), every variant at 2^20,
 * and pred_tile's ILP x occupancy grid at 2^26 (15). On the H200 (f9ac739) it
 * took 47 s: checks (1 GiB download + parallel compare per 2^28 point) 27 s,
 * data 10 s, counter pass 7 s, timing 3 s. */
static int sweep_quick(const wb_sink *sink) {
    const int64_t big = (int64_t)1 << 28;
    for (int j = 0; j < AXIS_LEN; j++) {
        double s = select_axis[j];
        if (add_all(sink, big, s, s > 0.1)) return WB_ERR;
        /* The tile pair at ILP 8 and 16 too, in blocks of 256 and 512: one
         * same-address atomic per tile, and ILP 4 in blocks of 256 makes 2^18
         * tiles of 2^28 items. ILP 16 in blocks of 512 is the fastest tile
         * shape at s <= 0.9, ILP 8 in blocks of 512 at s = 1
         * (results/h200/20261130T011431Z-0dafc16.h5). */
        for (int ilp = 8; ilp <= 16; ilp *= 2)
            for (int block = BLOCK; block <= 2 * BLOCK; block *= 2)
                if (add_point(sink, WB_SELECT_IF_TILE, big, s, ilp, 1.0, block) ||
                    add_point(sink, WB_SELECT_PRED_TILE, big, s, ilp, 1.0, block))
                    return WB_ERR;
    }
    static const int ilps[] = {1, 2, 4, 8, 16};
    static const double occs[] = {0.25, 0.5, 1.0};
    for (int i = 0; i < 5; i++)
        for (int o = 0; o < 3; o++)
            if (add_point(sink, WB_SELECT_PRED_TILE, (int64_t)1 << 26, 0.5, ilps[i], occs[o], BLOCK)) return WB_ERR;
    for (int j = 0; j < AXIS_LEN; j++) {
        double s = select_axis[j];
        if (s == 0.5) {
            if (add_all(sink, (int64_t)1 << 24, s, 0)) return WB_ERR;
        } else {
            if (add_point(sink, WB_SELECT_IF_ATOMIC, (int64_t)1 << 24, s, 4, 1.0, BLOCK) ||
                add_point(sink, WB_SELECT_PRED_ATOMIC, (int64_t)1 << 24, s, 4, 1.0, BLOCK))
                return WB_ERR;
        }
    }
    /* Regime A at 2^24 and 2^26, s = 0.5: 4 points; a 256 MiB copy is ~5 ms
     * at ~55 GB/s, ~35 launches a point: ~2 s. */
    static const double half[] = {0.5};
    if (add_host(sink, 24, 26, half, 1)) return WB_ERR;
    return add_all(sink, (int64_t)1 << 20, 0.5, 0);
}

/* Full sweep: every variant x selectivity at 2^20, 2^24 and 2^28 (the atomic
 * pair only up to s = 0.1 at 2^28: one atomic per survivor takes ~0.5 s a
 * launch at s = 1 there), the ILP x occupancy grid at 2^24, s = 0.5, and the
 * block sizes at 2^28, with the tile pair at ILP 16 (blocks of 256, 512) and
 * ILP 8 (512) at every s there. */
static int sweep_full(const wb_sink *sink) {
    /* Regime A at 2^22..2^28, s = 0.5 (8 points, ~4 s: the 2^28 copies take
     * ~20 ms each). */
    static const double half[] = {0.5};
    if (add_host(sink, 22, 28, half, 1)) return WB_ERR;
    for (int lg = 20; lg <= 28; lg += 4)
        for (int j = 0; j < AXIS_LEN; j++) {
            int64_t n = (int64_t)1 << lg;
            double s = select_axis[j];
            if (add_all(sink, n, s, lg == 28 && s > 0.1)) return WB_ERR;
            if (lg == 24 && s == 0.5) {
                static const int ilps[] = {1, 4, 16};
                static const double occs[] = {0.25, 0.5, 1.0};
                for (int v = 0; v < WB_SELECT_CUB; v++)
                    for (int i = 0; i < 3; i++)
                        for (int o = 0; o < 3; o++)
                            if (add_point(sink, v, n, s, ilps[i], occs[o], BLOCK)) return WB_ERR;
            }
            if (lg == 28 && s == 0.5)
                for (int v = 0; v < WB_SELECT_CUB; v++)
                    if (!is_atomic(v) && (add_point(sink, v, n, s, 4, 1.0, 128) || add_point(sink, v, n, s, 4, 1.0, 512)))
                        return WB_ERR;
            if (lg == 28) /* the largest tiles: fewest same-address atomics */
                for (int v = WB_SELECT_IF_TILE; v <= WB_SELECT_PRED_TILE; v++)
                    if (add_point(sink, v, n, s, 16, 1.0, 256) || add_point(sink, v, n, s, 16, 1.0, 512) ||
                        add_point(sink, v, n, s, 8, 1.0, 512))
                        return WB_ERR;
        }
    return WB_OK;
}

static double select_device_bytes(const wb_point *p) {
    double n = (double)p->n;
    /* input, output, CUB's scratch (+ the pinned copy on the host), the check's bitmap (at most n bits) */
    double bytes = 8.0 * n + 64.0 * 1024 * 1024 + n / 8.0;
    if (is_three_kernel(p->variant_id) && p->launch.ilp > 0) bytes += 12.0 * n / p->launch.ilp;
    return bytes;
}

static int select_same_data(const wb_point *a, const wb_point *b) {
    return a->n == b->n && a->selectivity == b->selectivity && is_host(a) == is_host(b);
}

static void select_data_destroy(void *vd) {
    select_data *d = vd;
    if (!d) return;
    wb_dev_free(d->d_in);
    wb_dev_free(d->d_out);
    wb_placed_free(&d->count);
    wb_dev_free(d->d_temp);
    wb_dev_free(d->d_check);
    wb_dev_free(d->d_print);
    if (d->h_in) (void)cudaFreeHost(d->h_in); /* teardown: nothing to report to */
    free(d->h_buf);
    free(d->ref);
    wb_select_seen_free(&d->seen);
    free(d);
}

static uint64_t data_seed(uint64_t run_seed, const wb_point *p) {
    uint64_t s = run_seed ^ ((uint64_t)p->n * 0x9E3779B97F4A7C15ull) ^ (uint64_t)llround(p->selectivity * 1e9);
    return wb_rng_next(&s);
}

/* The input is made on the GPU (kernels/select_gen.h, the host fill's values
 * bit for bit) and never held by the host but for regime A; what an output
 * must hold comes from the input's spec (wb_select_expected): its count k,
 * the multiset 0..k-1 the GPU check of unordered outputs holds them to, and
 * the fingerprint of the output in input order. */
static int select_data_create(const wb_point *p, uint64_t run_seed, void **out, wb_err *e) {
    *out = NULL;
    if (p->n > INT32_MAX) return wb_skip(e, "%lld rows: the distinct int32 selected values need n <= %d", (long long)p->n, INT32_MAX);
    select_data *d = calloc(1, sizeof *d);
    if (!d) return wb_fail(e, "calloc(select data) failed");
    d->n = p->n;
    size_t bytes = (size_t)d->n * sizeof(int32_t);
    if (wb_select_gen_of(d->n, p->selectivity, data_seed(run_seed, p), &d->gen, e) != WB_OK) goto fail;
    d->k = d->gen.k;
    const int64_t count = wb_select_expected(&d->gen, NULL, &d->print, e);
    if (count < 0) goto fail;
    if (count != d->k) {
        wb_fail(e, "select generator: %lld values below v = %lld, expected exactly %lld", (long long)count,
                (long long)d->k, (long long)d->k);
        goto fail;
    }
    if (wb_dev_alloc((void **)&d->d_in, bytes, "select input", e) ||
        wb_dev_alloc((void **)&d->d_out, bytes, "select output", e) ||
        wb_dev_alloc(&d->d_check, wb_select_check_bytes(d->k), "select check", e) ||
        wb_dev_alloc(&d->d_print, WB_PRINT_SCRATCH_BYTES, "select output fingerprint", e) ||
        wb_placed_alloc(&d->count, sizeof(unsigned long long), "select count", e) ||
        WB_CUDA(e, wb_select_gen_gpu(&d->gen, d->d_in, 0)) || WB_CUDA(e, cudaDeviceSynchronize()))
        goto fail;
    if (is_host(p)) {
        if (WB_CUDA(e, cudaMallocHost((void **)&d->h_in, bytes ? bytes : sizeof(int32_t))) != WB_OK ||
            (bytes && wb_download(d->h_in, d->d_in, bytes, e)))
            goto fail;
    }
    *out = d;
    return WB_OK;
fail:
    select_data_destroy(d);
    return WB_ERR;
}

/* The host comparison's buffers and reference, on its first use. */
static int host_check_ready(select_data *d, wb_err *e) {
    if (d->h_buf) return WB_OK;
    int32_t *buf = wb_host_alloc((size_t)(d->n ? d->n : 1) * sizeof(int32_t), "select result copy", e);
    int32_t *ref = buf ? wb_host_alloc((size_t)(d->k ? d->k : 1) * sizeof(int32_t), "select reference", e) : NULL;
    const int64_t k = ref ? wb_select_expected(&d->gen, ref, NULL, e) : -1;
    if (k >= 0 && k != d->k) wb_fail(e, "select reference: %lld selected values, expected %lld", (long long)k, (long long)d->k);
    if (k != d->k || wb_select_seen_alloc(&d->seen, d->k, e) || wb_select_ref_is_permutation(ref, d->k, &d->seen, e)) {
        free(buf), free(ref);
        return WB_ERR;
    }
    d->h_buf = buf, d->ref = ref;
    return WB_OK;
}

static int select_plan(void *vd, wb_point *p, wb_err *e) {
    select_data *d = vd;
    int v = p->variant_id;
    if (v != WB_SELECT_CUB && !wb_tile_shape_ok(p->launch.block, p->launch.ilp))
        return wb_skip(e, "block %d x ILP %d is not a compiled tile shape", p->launch.block, p->launch.ilp);
    if (WB_CUDA(e, wb_select_plan(v, &p->launch, p->n)) != WB_OK) return WB_ERR;
    if (p->launch.temp_bytes > d->temp_cap) {
        wb_dev_free(d->d_temp);
        d->d_temp = NULL;
        d->temp_cap = 0;
        if (wb_dev_alloc(&d->d_temp, p->launch.temp_bytes, "select scratch", e)) return WB_ERR;
        d->temp_cap = p->launch.temp_bytes;
    }
    p->bytes_model = d->h_in ? 4.0 * (double)d->n : 4.0 * (double)d->n + 4.0 * (double)d->k;
    p->items = (double)d->n;
    p->places = d->count.places;
    snprintf(p->note, sizeof p->note, "count %lld, v %lld; %s%s", (long long)d->k, (long long)d->k,
             wb_select_keeps_order(v) ? "input order" : "any order",
             d->h_in                ? "; regime A: H2D copy + kernel, bytes = the 4n copied"
             : is_three_kernel(v) ? "; input read twice + 24 B scratch traffic per thread"
                                  : "");
    return WB_OK;
}

static int select_reset(void *vd, const wb_point *p, int poison, cudaStream_t s, wb_err *e) {
    select_data *d = vd;
    (void)p;
    if (wb_placed_reset(&d->count, s, e) != WB_OK) return WB_ERR;
    if (poison && d->n) WB_CUDA_TRY(e, cudaMemsetAsync(d->d_out, 0xFF, (size_t)d->n * sizeof(int32_t), s));
    /* regime A: a launch that does not copy the input selects from poison */
    if (poison && d->n && d->h_in) WB_CUDA_TRY(e, cudaMemsetAsync(d->d_in, 0xFF, (size_t)d->n * sizeof(int32_t), s));
    return WB_OK;
}

static int select_launch(void *vd, const wb_point *p, cudaStream_t s, wb_err *e) {
    select_data *d = vd;
    wb_select_io io = {d->d_in, d->n, (int32_t)d->k, d->d_out, wb_placed_here(&d->count), d->d_temp, p->launch.temp_bytes};
    if (d->h_in && d->n)
        WB_CUDA_TRY(e, cudaMemcpyAsync(d->d_in, d->h_in, (size_t)d->n * sizeof(int32_t), cudaMemcpyHostToDevice, s));
    return WB_CUDA(e, wb_select_launch(p->variant_id, &p->launch, &io, s));
}

/* An output in any order with the expected count is checked on the GPU
 * (kernels/select_check.h: exact, against the multiset 0..k-1), one in input
 * order by its fingerprint against the expected one (kernels/fingerprint.h);
 * one either check fails goes to the host comparison, which decides and
 * names what is wrong. */
static int select_verify(void *vd, const wb_point *p, wb_err *e) {
    select_data *d = vd;
    unsigned long long count = 0, bad = 1;
    if (wb_download(&count, wb_placed_here(&d->count), sizeof count, e)) return WB_ERR;
    int64_t got = count > (unsigned long long)INT64_MAX ? INT64_MAX : (int64_t)count;
    const int ordered = wb_select_keeps_order(p->variant_id);
    if (!ordered && got == d->k) {
        unsigned long long *d_bad = NULL;
        if (WB_CUDA(e, wb_select_check_unordered(d->d_out, d->n, got, d->k, WB_SELECT_POISON, d->d_check, &d_bad, 0)) ||
            wb_download(&bad, d_bad, sizeof bad, e))
            return WB_ERR;
        if (bad == 0) return WB_OK;
    }
    if (ordered && got == d->k) { /* every slot's fingerprint, the poisoned ones from k on included */
        uint64_t print = 0;
        if (WB_CUDA(e, wb_print_gpu(d->d_out, d->n, 4, 0, d->d_print, &print, 0))) return WB_ERR;
        if (print == d->print) return WB_OK;
    }
    if (host_check_ready(d, e) || wb_download(d->h_buf, d->d_out, (size_t)d->n * sizeof(int32_t), e)) return WB_ERR;
    return wb_select_compare(d->h_buf, d->n, got, d->ref, d->k, ordered, &d->seen, e);
}

const wb_family wb_family_select = {
    .name = "select",
    .summary = "SELECT y FROM R WHERE y < v, int32: if vs pred x {three_kernel, atomic, warp, tile}, and CUB",
    .variants = select_variants,
    .nvariants = WB_VARIANT_COUNT(select_variants),
    .sweep = {sweep_test, sweep_quick, sweep_full},
    .device_bytes = select_device_bytes,
    .same_data = select_same_data,
    .data_create = select_data_create,
    .data_destroy = select_data_destroy,
    .plan = select_plan,
    .reset = select_reset,
    .launch = select_launch,
    .verify = select_verify,
};

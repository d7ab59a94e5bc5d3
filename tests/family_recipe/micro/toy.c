/* toy.c - the toy family of tests/gpu_family_recipe.sh, written by the steps
 * of docs/adding-a-family.md alone: out[i] = in[i] % groups, a plain and a
 * wide (ILP 4) variant, random input, verified element by element. Not part
 * of the suite: the test copies it into a scratch tree. */
#include <stdio.h>
#include <stdlib.h>

#include "harness/run/family.h"
#include "kernels/toy.h"
#include "micro/data.h"

WB_VARIANT_TABLE(toy_variants, WB_TOY_VARIANT_LIST, WB_TOY_VARIANTS);

typedef struct toy_data {
    int64_t n;
    int32_t m, *d_in, *d_out, *ref, *got;
} toy_data;

static int add(const wb_sink *s, int v, int64_t n, int64_t groups) {
    wb_point p;
    wb_point_init(&p);
    p.variant_id = v;
    snprintf(p.dtype, sizeof p.dtype, "int32");
    p.n = n;
    p.groups = groups;
    p.launch.block = 256;
    p.launch.ilp = v == WB_TOY_WIDE ? 4 : 1;
    p.launch.occupancy_target = 1.0;
    return wb_sink_add(s, &p);
}
static int sweep(const wb_sink *s, int64_t n) {
    for (int v = 0; v < WB_TOY_VARIANTS; v++)
        for (int64_t g = 1; g <= 64; g *= 4)
            if (add(s, v, n, g)) return WB_ERR;
    return WB_OK;
}
static int sweep_test(const wb_sink *s) { return sweep(s, 0) || sweep(s, 1) || sweep(s, 12345) ? WB_ERR : WB_OK; }
static int sweep_quick(const wb_sink *s) { return sweep(s, 1 << 24); }
static int sweep_full(const wb_sink *s) { return sweep(s, 1 << 26); }

static double toy_bytes(const wb_point *p) { return 8.0 * (double)p->n; }
static int toy_same(const wb_point *a, const wb_point *b) { return a->n == b->n && a->groups == b->groups; }
static void toy_destroy(void *data) {
    toy_data *d = data;
    if (!d) return;
    wb_dev_free(d->d_in);
    wb_dev_free(d->d_out);
    free(d->ref);
    free(d->got);
    free(d);
}
static int toy_create(const wb_point *p, uint64_t seed, void **data, wb_err *e) {
    *data = NULL;
    toy_data *d = calloc(1, sizeof *d);
    if (!d) return wb_fail(e, "toy: out of host memory");
    d->n = p->n, d->m = (int32_t)p->groups;
    const size_t nb = (size_t)(d->n ? d->n : 1) * 4;
    int32_t *in = wb_host_alloc(nb, "toy input", e);
    d->ref = wb_host_alloc(nb, "toy reference", e);
    d->got = wb_host_alloc(nb, "toy output", e);
    int rc = in && d->ref && d->got ? WB_OK : WB_ERR;
    uint64_t rng = seed;
    for (int64_t i = 0; rc == WB_OK && i < d->n; i++) {
        in[i] = (int32_t)wb_rng_below(&rng, 1000000);
        d->ref[i] = in[i] % d->m;
    }
    if (rc == WB_OK) rc = wb_dev_alloc((void **)&d->d_in, nb, "toy input", e);
    if (rc == WB_OK) rc = wb_dev_alloc((void **)&d->d_out, nb, "toy output", e);
    if (rc == WB_OK) rc = wb_upload(d->d_in, in, nb, e);
    free(in);
    if (rc != WB_OK) return toy_destroy(d), WB_ERR;
    *data = d;
    return WB_OK;
}
static int toy_plan(void *data, wb_point *p, wb_err *e) {
    (void)data;
    WB_CUDA_TRY(e, wb_toy_plan(&p->launch, p->n));
    p->bytes_model = 8.0 * (double)p->n;
    p->items = (double)p->n;
    return WB_OK;
}
static int toy_reset(void *data, const wb_point *p, int poison, cudaStream_t s, wb_err *e) {
    toy_data *d = data;
    (void)p;
    return poison && d->n ? WB_CUDA(e, cudaMemsetAsync(d->d_out, 0x80, (size_t)d->n * 4, s)) : WB_OK;
}
static int toy_launch(void *data, const wb_point *p, cudaStream_t s, wb_err *e) {
    toy_data *d = data;
    return WB_CUDA(e, wb_toy_launch(&p->launch, d->d_in, d->d_out, d->n, d->m, s));
}
static int toy_verify(void *data, const wb_point *p, wb_err *e) {
    toy_data *d = data;
    (void)p;
    if (d->n && wb_download(d->got, d->d_out, (size_t)d->n * 4, e) != WB_OK) return WB_ERR;
    wb_mismatches m;
    wb_mismatch_init(&m);
    for (int64_t i = 0; i < d->n; i++)
        if (d->got[i] != d->ref[i]) wb_mismatch_add_i64(&m, i, d->got[i], d->ref[i]);
    return wb_mismatch_finish(&m, d->n, "toy output", e);
}

const wb_family wb_family_toy = {
    .name = "toy", .summary = "the guide's toy family", .variants = toy_variants,
    .nvariants = WB_VARIANT_COUNT(toy_variants), .sweep = {sweep_test, sweep_quick, sweep_full},
    .device_bytes = toy_bytes, .same_data = toy_same, .data_create = toy_create, .data_destroy = toy_destroy,
    .plan = toy_plan, .reset = toy_reset, .launch = toy_launch, .verify = toy_verify,
};

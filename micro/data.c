/* data.c - fills, device buffers and the verification report (see data.h). */
#include "micro/data.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/gpu/cuda_check.h"


void wb_fill_i32(int32_t *x, size_t n, int32_t lo, int32_t hi, uint64_t seed) {
    uint64_t s = seed;
    uint64_t span = (uint64_t)((int64_t)hi - (int64_t)lo) + 1;
    for (size_t i = 0; i < n; i++) x[i] = (int32_t)((int64_t)lo + (int64_t)wb_rng_below(&s, span));
}

void wb_fill_f64(double *x, size_t n, double lo, double hi, uint64_t seed) {
    uint64_t s = seed;
    for (size_t i = 0; i < n; i++) x[i] = lo + (hi - lo) * wb_rng_unit(&s);
}

int wb_dev_alloc(void **p, size_t bytes, const char *what, wb_err *e) {
    *p = NULL;
    cudaError_t c = cudaMalloc(p, bytes ? bytes : 1);
    if (c != cudaSuccess) {
        *p = NULL;
        return wb_fail(e, "cudaMalloc(%s, %zu bytes): %s (%s)", what, bytes, cudaGetErrorName(c),
                       cudaGetErrorString(c));
    }
    return WB_OK;
}

/* Places start a page and 33 lines apart: another page and another set of
 * slices each (the slice of a line depends on bits below and above 2 MiB). */
static size_t placed_stride(size_t bytes) {
    const size_t page = (size_t)2 << 20;
    return (bytes + page - 1) / page * page + 33 * 128;
}

/* Every place starts a 2 MiB page, so the budget caps them at 127. */
static int places_for(size_t stride) {
    const size_t fit = WB_PLACES_BYTES / stride;
    return fit < WB_PLACES_MIN ? WB_PLACES_MIN : (int)fit;
}

double wb_placed_bytes(double bytes) {
    const size_t stride = placed_stride((size_t)bytes);
    return places_for(stride) * (double)stride;
}

int wb_placed_alloc(wb_placed *b, size_t bytes, const char *what, wb_err *e) {
    b->bytes = bytes;
    b->stride = placed_stride(bytes);
    b->places = places_for(b->stride);
    b->at = 0;
    return wb_dev_alloc((void **)&b->pool, (size_t)b->places * b->stride, what, e);
}

void *wb_placed_here(const wb_placed *b) { return b->pool ? b->pool + (size_t)b->at * b->stride : NULL; }

int wb_placed_reset(wb_placed *b, cudaStream_t s, wb_err *e) {
    b->at = b->places > 0 ? (b->at + 1) % b->places : 0;
    return WB_CUDA(e, cudaMemsetAsync(wb_placed_here(b), 0, b->bytes, s));
}

void wb_placed_free(wb_placed *b) {
    wb_dev_free(b->pool);
    b->pool = NULL;
}

int wb_upload(void *dst, const void *src, size_t bytes, wb_err *e) {
    return bytes ? WB_CUDA(e, cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice)) : WB_OK;
}

int wb_download(void *dst, const void *src, size_t bytes, wb_err *e) {
    return bytes ? WB_CUDA(e, cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost)) : WB_OK;
}

void wb_dev_free(void *p) {
    if (p) cudaFree(p);
}

void *wb_host_alloc(size_t bytes, const char *what, wb_err *e) {
    void *p = malloc(bytes ? bytes : 1);
    if (!p) wb_fail(e, "malloc(%s, %zu bytes) failed", what, bytes);
    return p;
}

void wb_mismatch_init(wb_mismatches *m) { memset(m, 0, sizeof *m); }

void wb_mismatch_add(wb_mismatches *m, int64_t index, const char *got, const char *expected) {
    m->total++;
    if (m->shown >= WB_MISMATCH_SHOW) return;
    size_t at = strlen(m->text);
    if (at < sizeof m->text)
        snprintf(m->text + at, sizeof m->text - at, "%s[%lld] got %s expected %s", m->shown ? "; " : "",
                 (long long)index, got, expected);
    m->shown++;
}

void wb_mismatch_add_i64(wb_mismatches *m, int64_t index, long long got, long long expected) {
    char g[32], x[32];
    snprintf(g, sizeof g, "%lld", got);
    snprintf(x, sizeof x, "%lld", expected);
    wb_mismatch_add(m, index, g, x);
}

void wb_mismatch_add_f64(wb_mismatches *m, int64_t index, double got, double expected) {
    char g[32], x[32];
    snprintf(g, sizeof g, "%.17g", got);
    snprintf(x, sizeof x, "%.17g", expected);
    wb_mismatch_add(m, index, g, x);
}

int wb_mismatch_finish(const wb_mismatches *m, int64_t checked, const char *what, wb_err *e) {
    if (m->total == 0) return WB_OK;
    return wb_fail(e, "verification of %s: %lld of %lld mismatched; first: %s", what, (long long)m->total,
                   (long long)checked, m->text);
}

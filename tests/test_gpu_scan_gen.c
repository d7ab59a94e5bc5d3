/* test_gpu_scan_gen.c - the scan family's GPU inputs and reference
 * (kernels/scan_gen.h) against the host's (micro/scan_ref.h): every column
 * bit for bit as wb_scan_fill makes it, and the GPU reference's sum, row and
 * sector counts equal to wb_scan_reference's, for both shapes, selectivities
 * 0 to 1, sizes that are not multiples of a sector or a chunk stream, and
 * another query. Device buffers are poisoned first, so that a row the GPU
 * leaves unwritten differs. Exit 77 without a GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "tests/check.h"
#include "harness/gpu/device.h"
#include "micro/data.h"
#include "micro/scan_ref.h"

static int cuda_ok(cudaError_t c, const char *what) {
    if (c == cudaSuccess) return 1;
    fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(c));
    return 0;
}

/* One data set: host fill + CPU reference against GPU fill + GPU reference. */
static int same_data_set(int shape, int64_t n, double s, const wb_scan_query *q, uint64_t seed) {
    const int ncols = shape == WB_SCAN_Q11 ? 4 : 3;
    const int64_t dim = shape == WB_SCAN_Q31 ? wb_scan_dim_entries(n) : 0;
    const size_t bytes = (size_t)(n > 0 ? n : 1) * sizeof(int32_t), dim_bytes = (size_t)(dim > 0 ? dim : 1) * 4;
    int32_t *host[4] = {NULL, NULL, NULL, NULL}, *dev[4] = {NULL, NULL, NULL, NULL}, *hdim = malloc(dim_bytes),
            *got = malloc(bytes > dim_bytes ? bytes : dim_bytes), *ddim = NULL;
    void *scratch = NULL;
    int ok = hdim && got;
    for (int c = 0; ok && c < ncols; c++) {
        ok = (host[c] = malloc(bytes)) != NULL && cuda_ok(cudaMalloc((void **)&dev[c], bytes), "cudaMalloc") &&
             cuda_ok(cudaMemset(dev[c], 0xA5, bytes), "cudaMemset");
    }
    ok = ok && cuda_ok(cudaMalloc((void **)&ddim, dim_bytes), "cudaMalloc") &&
         cuda_ok(cudaMemset(ddim, 0xA5, dim_bytes), "cudaMemset") &&
         cuda_ok(cudaMalloc(&scratch, wb_scan_ref_gpu_scratch(dim)), "cudaMalloc");
    if (!ok) goto out;
    wb_scan_cols h = {.shape = shape, .n = n, .orderdate = host[0], .dim_region = hdim, .dim_entries = dim};
    if (shape == WB_SCAN_Q11) h.discount = host[1], h.quantity = host[2], h.extendedprice = host[3];
    else h.custkey = host[1], h.revenue = host[2];
    wb_scan_fill(&h, q, s, seed);
    wb_scan_expect want;
    wb_err e = {""};
    if (wb_scan_reference(&h, q, &want, &e) != WB_OK) {
        fprintf(stderr, "CPU reference: %s\n", e.msg);
        ok = 0;
        goto out;
    }
    wb_scan_gen g;
    wb_scan_gen_of(shape, n, dim, q, s, seed, &g);
    wb_scan_gen_ref ref;
    ok = cuda_ok(wb_scan_gen_gpu(&g, dev, ddim, 0), "wb_scan_gen_gpu") &&
         cuda_ok(wb_scan_ref_gpu(shape, n, q, (const int32_t *const *)dev, ddim, dim, scratch, &ref, 0), "wb_scan_ref_gpu");
    for (int c = 0; ok && c < ncols; c++) {
        ok = cuda_ok(cudaMemcpy(got, dev[c], (size_t)n * 4, cudaMemcpyDeviceToHost), "cudaMemcpy");
        if (ok && n > 0 && memcmp(got, host[c], (size_t)n * 4) != 0) {
            int64_t i = 0;
            while (got[i] == host[c][i]) i++;
            fprintf(stderr, "column %d row %lld: GPU %d, host %d\n", c, (long long)i, got[i], host[c][i]);
            ok = 0;
        }
    }
    if (ok && dim > 0) {
        ok = cuda_ok(cudaMemcpy(got, ddim, (size_t)dim * 4, cudaMemcpyDeviceToHost), "cudaMemcpy") &&
             memcmp(got, hdim, (size_t)dim * 4) == 0;
        if (!ok) fprintf(stderr, "dimension regions differ\n");
    }
    if (ok && (ref.sum != want.sum || ref.rows_first != want.rows_first || ref.rows_all != want.rows_all ||
               ref.need[0] != want.need[0] || ref.need[1] != want.need[1] || ref.need[2] != want.need[2] ||
               ref.dim_sectors != want.dim_sectors)) {
        fprintf(stderr, "reference: GPU sum %lld first %lld all %lld need %lld %lld %lld dim %lld; CPU %lld %lld %lld "
                        "need %lld %lld %lld dim %lld\n",
                ref.sum, (long long)ref.rows_first, (long long)ref.rows_all, (long long)ref.need[0],
                (long long)ref.need[1], (long long)ref.need[2], (long long)ref.dim_sectors, want.sum,
                (long long)want.rows_first, (long long)want.rows_all, (long long)want.need[0], (long long)want.need[1],
                (long long)want.need[2], (long long)want.dim_sectors);
        ok = 0;
    }
out:
    if (!ok) fprintf(stderr, "  ^ shape %s n %lld s %g seed %llu\n", shape == WB_SCAN_Q11 ? "q1.1" : "q3.1", (long long)n,
                     s, (unsigned long long)seed);
    for (int c = 0; c < 4; c++) free(host[c]), cudaFree(dev[c]);
    free(hdim), free(got), cudaFree(ddim), cudaFree(scratch);
    return ok;
}

int main(void) {
    if (!wb_device_present()) return printf("SKIP: no usable GPU\n"), WB_TEST_SKIP;
    uint64_t r = 20261201;
    const int64_t sizes[] = {1, 7, 9, 1000003, ((int64_t)1 << 21) + 5};
    const double sels[] = {0, 0.01, 0.5, 1};
    int sets = 0;
    for (int shape = WB_SCAN_Q11; shape <= WB_SCAN_Q31; shape++)
        for (int i = 0; i < 5; i++)
            for (int j = 0; j < 4; j++, sets++) CHECK(same_data_set(shape, sizes[i], sels[j], &wb_scan_ssb, wb_rng_next(&r)));
    /* Another query: dates from the range's start (none below it), other constants. */
    wb_scan_query q = {.date_lo = 19920101, .date_hi = 19940630, .disc_lo = 0, .disc_hi = 5, .qty_below = 40, .region = 4};
    for (int shape = WB_SCAN_Q11; shape <= WB_SCAN_Q31; shape++, sets++)
        CHECK(same_data_set(shape, 1000003, 0.3, &q, wb_rng_next(&r)));
    /* No date outside the range is left: only all rows as members can be made. */
    wb_scan_query all = {.date_lo = 19920101, .date_hi = 19981231, .disc_lo = 1, .disc_hi = 3, .qty_below = 25};
    wb_scan_gen g;
    wb_scan_gen_of(WB_SCAN_Q11, 100, 0, &all, 0.5, 1, &g);
    int32_t *cols[4] = {NULL, NULL, NULL, NULL};
    CHECK(wb_scan_gen_gpu(&g, cols, NULL, 0) == cudaErrorInvalidValue);
    printf("%d data sets: GPU columns and reference equal the host's\n", sets);
    return TEST_DONE();
}

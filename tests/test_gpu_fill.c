/* test_gpu_fill.c - the GPU fill (kernels/fill.h) gives the host fill's
 * values (micro/fill.h) bit for bit: every type, random seeds, chunk sizes
 * and salts, odd sizes and odd first rows, across chunk boundaries; and
 * the expression family's specs give wb_expr_fill's columns on the GPU.
 * Exit 77 without a GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "tests/check.h"
#include "harness/gpu/device.h"
#include "micro/data.h"
#include "micro/expr_plan.h"
#include "micro/fill.h"

/* 1 when the GPU's rows [first, first + n) of f equal the host's. */
static int same_on_gpu(const wb_fill_spec *f, int64_t first, int64_t n) {
    const size_t bytes = (size_t)(n > 0 ? n : 1) * (size_t)wb_fill_elem_bytes(f);
    unsigned char *want = malloc(bytes), *got = malloc(bytes);
    void *d = NULL;
    int ok = want && got && cudaMalloc(&d, bytes) == cudaSuccess;
    if (ok) {
        wb_fill_host_range(f, want, first, n);
        memset(got, 0x5A, bytes);
        ok = wb_fill_gpu(f, d, first, n, 0) == cudaSuccess && cudaDeviceSynchronize() == cudaSuccess &&
             cudaMemcpy(got, d, bytes, cudaMemcpyDeviceToHost) == cudaSuccess;
        if (!ok) fprintf(stderr, "CUDA call failed\n");
        else if (n > 0 && memcmp(want, got, (size_t)n * (size_t)wb_fill_elem_bytes(f)) != 0) ok = 0;
    }
    if (!ok) fprintf(stderr, "type %d seed %llu chunk %lld first %lld n %lld: GPU fill differs\n", f->type,
                     (unsigned long long)f->seed, (long long)f->chunk, (long long)first, (long long)n);
    cudaFree(d);
    free(want);
    free(got);
    return ok;
}

int main(void) {
    if (!wb_device_present()) return printf("SKIP: no usable GPU\n"), WB_TEST_SKIP;
    uint64_t s = 20261201;
    const int64_t sizes[] = {1, 31, 257, 65537, 1000003, (1 << 22) + 5};
    for (int t = WB_FILL_I32; t <= WB_FILL_F64; t++)
        for (int k = 0; k < 6; k++) {
            wb_fill_spec f = {0};
            f.type = t;
            f.seed = wb_rng_next(&s);
            f.chunk = k % 2 ? 1 << 20 : 1000 + (int64_t)wb_rng_below(&s, 70000);
            f.chunk_salt = k % 3;
            f.lo = -(int64_t)wb_rng_below(&s, (uint64_t)1 << 40);
            f.span = k == 0 ? 0 : t == WB_FILL_I32 ? 1 + wb_rng_below(&s, 1u << 31) : ((uint64_t)1 << 41) + 1;
            f.dlo = -100.0 * (double)(k + 1);
            f.dhi = 100.0 / (double)(k + 1);
            const int64_t first = k % 2 ? (int64_t)wb_rng_below(&s, 3000000) : 0;
            CHECK(same_on_gpu(&f, first, sizes[k]));
        }
    /* The expression family's columns: wb_expr_fill on the host, its spec on the GPU. */
    for (int type = WB_EXPR_INT32; type <= WB_EXPR_F64; type++) {
        const int64_t n = (1 << 21) + 3;
        const size_t bytes = (size_t)n * (size_t)wb_expr_type_bytes(type);
        unsigned char *want = malloc(bytes), *got = malloc(bytes);
        void *d = NULL;
        wb_fill_spec f;
        wb_expr_fill_spec(type, 4242 + (uint64_t)type, &f);
        wb_expr_fill(type, want, n, 4242 + (uint64_t)type);
        CHECK(want && got && cudaMalloc(&d, bytes) == cudaSuccess && wb_fill_gpu(&f, d, 0, n, 0) == cudaSuccess &&
              cudaMemcpy(got, d, bytes, cudaMemcpyDeviceToHost) == cudaSuccess && memcmp(want, got, bytes) == 0);
        cudaFree(d);
        free(want);
        free(got);
    }
    return TEST_DONE();
}

/* test_gpu_select_gen.c - the selection family's GPU input (kernels/
 * select_gen.h) equals the host fill (micro/select_ref.h, wb_select_fill)
 * bit for bit: selectivities 0 to 1, sizes across chunk streams and not
 * multiples of a warp, a poisoned buffer first; bad specs are refused.
 * Exit 77 without a GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "tests/check.h"
#include "harness/gpu/device.h"
#include "micro/data.h"
#include "micro/select_ref.h"

static int same(int64_t n, double s, uint64_t seed) {
    const size_t bytes = (size_t)(n > 0 ? n : 1) * sizeof(int32_t);
    int32_t *want = malloc(bytes), *got = malloc(bytes), *d = NULL;
    wb_err e = {""};
    wb_select_gen g;
    int ok = want && got && cudaMalloc((void **)&d, bytes) == cudaSuccess && cudaMemset(d, 0xA5, bytes) == cudaSuccess &&
             wb_select_gen_of(n, s, seed, &g, &e) == WB_OK && wb_select_fill(want, n, s, seed, &e) == g.k &&
             wb_select_gen_gpu(&g, d, 0) == cudaSuccess && cudaDeviceSynchronize() == cudaSuccess &&
             cudaMemcpy(got, d, bytes, cudaMemcpyDeviceToHost) == cudaSuccess;
    if (!ok) fprintf(stderr, "n %lld s %g: a call failed: %s\n", (long long)n, s, e.msg);
    else if (n > 0 && memcmp(want, got, (size_t)n * sizeof *got) != 0) {
        int64_t i = 0;
        while (want[i] == got[i]) i++;
        fprintf(stderr, "n %lld s %g seed %llu: row %lld GPU %d host %d\n", (long long)n, s, (unsigned long long)seed,
                (long long)i, got[i], want[i]);
        ok = 0;
    }
    cudaFree(d), free(want), free(got);
    return ok;
}

int main(void) {
    if (!wb_device_present()) return printf("SKIP: no usable GPU\n"), WB_TEST_SKIP;
    uint64_t r = 20261201;
    const int64_t sizes[] = {0, 1, 33, 1000003, ((int64_t)1 << 21) + 5};
    const double sels[] = {0, 0.01, 0.5, 0.9, 1};
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++) CHECK(same(sizes[i], sels[j], wb_rng_next(&r)));
    wb_select_gen bad = {.n = 10, .k = 11, .chunk = 1 << 20};
    CHECK(wb_select_gen_gpu(&bad, NULL, 0) == cudaErrorInvalidValue);
    bad.k = 5, bad.chunk = 0;
    CHECK(wb_select_gen_gpu(&bad, NULL, 0) == cudaErrorInvalidValue);
    printf("select inputs: GPU equals host\n");
    return TEST_DONE();
}

/* test_gpu_fingerprint.c - the GPU's fingerprint of an array (kernels/
 * fingerprint.h) equals the host's (micro/fingerprint.h) for 4- and 8-byte
 * elements, odd sizes and first positions, and a filled array equals its
 * wb_print_fill; one flipped bit, two swapped elements or a shifted first
 * position change it. Exit 77 without a GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "tests/check.h"
#include "harness/gpu/device.h"
#include "micro/data.h"
#include "micro/fingerprint.h"

static uint64_t gpu_print(const void *host, int64_t n, int elem, int64_t first) {
    void *d = NULL, *scratch = NULL;
    uint64_t print = 0x5A5A5A5A5A5A5A5Aull;
    const size_t bytes = (size_t)(n > 0 ? n : 1) * (size_t)elem;
    if (cudaMalloc(&d, bytes) != cudaSuccess || cudaMalloc(&scratch, WB_PRINT_SCRATCH_BYTES) != cudaSuccess ||
        cudaMemset(scratch, 0x77, WB_PRINT_SCRATCH_BYTES) != cudaSuccess ||
        (n > 0 && cudaMemcpy(d, host, (size_t)n * (size_t)elem, cudaMemcpyHostToDevice) != cudaSuccess) ||
        wb_print_gpu(d, n, elem, first, scratch, &print, 0) != cudaSuccess) {
        fprintf(stderr, "CUDA call failed (n %lld, elem %d)\n", (long long)n, elem);
        wb_test_failures++;
    }
    cudaFree(d);
    cudaFree(scratch);
    return print;
}

int main(void) {
    if (!wb_device_present()) return printf("SKIP: no usable GPU\n"), WB_TEST_SKIP;
    uint64_t r = 20261201;
    const int64_t sizes[] = {0, 1, 33, 1000003, ((int64_t)1 << 22) + 7};
    for (int elem = 4; elem <= 8; elem += 4)
        for (int k = 0; k < 5; k++) {
            const int64_t n = sizes[k], first = k % 2 ? (int64_t)wb_rng_below(&r, 1u << 30) : 0;
            unsigned char *x = malloc((size_t)(n > 0 ? n : 1) * (size_t)elem);
            for (int64_t i = 0; i < n * elem; i++) x[i] = (unsigned char)wb_rng_next(&r);
            const uint64_t host = wb_print_host(x, n, elem, first);
            CHECK(gpu_print(x, n, elem, first) == host);
            if (n >= 2) {
                x[(n / 2) * elem] ^= 0x04; /* one bit */
                CHECK(gpu_print(x, n, elem, first) != host && wb_print_host(x, n, elem, first) != host);
                x[(n / 2) * elem] ^= 0x04;
                unsigned char t[8]; /* two elements swapped */
                memcpy(t, x, (size_t)elem), memcpy(x, x + elem, (size_t)elem), memcpy(x + elem, t, (size_t)elem);
                CHECK(x[0] == x[elem] || wb_print_host(x, n, elem, first) != host);
                CHECK(wb_print_host(x, n, elem, first + 1) != wb_print_host(x, n, elem, first));
            }
            /* poison: every byte 0xAA */
            memset(x, 0xAA, (size_t)(n > 0 ? n : 1) * (size_t)elem);
            CHECK(gpu_print(x, n, elem, first) == wb_print_fill(n, elem, 0xAA, first));
            free(x);
        }
    CHECK(wb_print_gpu(NULL, 10, 2, 0, NULL, NULL, 0) == cudaErrorInvalidValue);
    printf("fingerprints: GPU equals host\n");
    return TEST_DONE();
}

/* test_gpu_select_check.c - the select family's GPU check of an output in any
 * order (kernels/select_check.h) agrees with the host comparison
 * (wb_select_compare, micro/select_ref.h) on outputs that pass and on each
 * way one can fail: a value twice, a value out of range, a value missing
 * with the count short, a slot past the count overwritten. Sizes that are not
 * multiples of the block, the warp or 32 bits of the bitmap. Exit 77 without
 * a GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "tests/check.h"
#include "harness/gpu/device.h"
#include "kernels/select_check.h"
#include "micro/data.h"
#include "micro/select_ref.h"

enum { PASS, TWICE, OUT_OF_RANGE, SHORT, PAST_COUNT, CASES };
static const char *const case_name[CASES] = {"a permutation", "a value twice", "a value out of range",
                                             "a value missing (count short)", "a slot past the count written"};

/* out[0, k): a random permutation of 0..k-1, out[k, n): poison; then the case's damage. */
static int64_t make_output(int32_t *out, int64_t n, int64_t k, int c, uint64_t seed) {
    for (int64_t i = 0; i < k; i++) out[i] = (int32_t)i;
    for (int64_t i = k - 1; i > 0; i--) {
        int64_t j = (int64_t)wb_rng_below(&seed, (uint64_t)i + 1);
        int32_t t = out[i];
        out[i] = out[j], out[j] = t;
    }
    for (int64_t i = k; i < n; i++) out[i] = WB_SELECT_POISON;
    int64_t count = k;
    const int64_t at = (int64_t)wb_rng_below(&seed, (uint64_t)k);
    if (c == TWICE) out[at] = out[(at + 1) % k];
    if (c == OUT_OF_RANGE) out[at] = (int32_t)k;
    if (c == SHORT) count = k - 1;
    if (c == PAST_COUNT && n > k) out[n - 1] = 0;
    return count;
}

static int gpu_check(const int32_t *h, int64_t n, int64_t count, int64_t k, unsigned long long *bad) {
    int32_t *d = NULL;
    void *scratch = NULL;
    unsigned long long *d_bad = NULL;
    int ok = cudaMalloc((void **)&d, (size_t)n * sizeof *d) == cudaSuccess &&
             cudaMalloc(&scratch, wb_select_check_bytes(k)) == cudaSuccess &&
             cudaMemcpy(d, h, (size_t)n * sizeof *d, cudaMemcpyHostToDevice) == cudaSuccess &&
             wb_select_check_unordered(d, n, count, k, WB_SELECT_POISON, scratch, &d_bad, 0) == cudaSuccess &&
             cudaMemcpy(bad, d_bad, sizeof *bad, cudaMemcpyDeviceToHost) == cudaSuccess;
    cudaFree(d);
    cudaFree(scratch);
    return ok;
}

int main(void) {
    if (!wb_device_present()) return printf("SKIP: no usable GPU\n"), WB_TEST_SKIP;
    const int64_t sizes[][2] = {{1, 1}, {33, 31}, {257, 200}, {1000003, 999983}, {(1 << 22) + 5, 1 << 21}};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        const int64_t n = sizes[s][0], k = sizes[s][1];
        int32_t *out = malloc((size_t)n * sizeof *out), *ref = malloc((size_t)k * sizeof *ref);
        wb_select_seen seen = {0};
        wb_err e = {""};
        CHECK(out && ref && wb_select_seen_alloc(&seen, k, &e) == WB_OK);
        if (!out || !ref || !seen.bits) return TEST_DONE();
        for (int64_t i = 0; i < k; i++) ref[i] = (int32_t)i;
        for (int c = 0; c < CASES; c++) {
            if (c == PAST_COUNT && n == k) continue;
            if ((c == TWICE || c == SHORT) && k < 2) continue;
            const int64_t count = make_output(out, n, k, c, 0x5e1ec7 + (uint64_t)(s * CASES + c));
            unsigned long long bad = 0;
            CHECK(gpu_check(out, n, count, k, &bad));
            const int gpu_pass = count == k && bad == 0;
            wb_err ce = {""};
            const int host_pass = wb_select_compare(out, n, count, ref, k, 0, &seen, &ce) == WB_OK;
            if (gpu_pass != host_pass || gpu_pass != (c == PASS))
                fprintf(stderr, "n %lld, k %lld, %s: GPU %s (%llu bad), host %s\n", (long long)n, (long long)k,
                        case_name[c], gpu_pass ? "pass" : "fail", bad, host_pass ? "pass" : "fail");
            CHECK(gpu_pass == host_pass);
            CHECK(gpu_pass == (c == PASS));
        }
        wb_select_seen_free(&seen);
        free(out);
        free(ref);
    }
    return TEST_DONE();
}

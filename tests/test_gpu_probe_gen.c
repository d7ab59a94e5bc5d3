/* test_gpu_probe_gen.c - the probe family's inputs made on the GPU
 * (wb_probe_gen_gpu, kernels/probe_gen.h) are the host generator's
 * (wb_probe_gen_dim, wb_probe_gen_fact) bit for bit: dimension keys and
 * values, fact keys and the reference sums, for several seeds, match rates
 * 1, 0.5, 0.01 and 0.9999 (the last two clamp the passing count of a small
 * dimension, from below and above), odd sizes across the fact chunks'
 * boundaries and empty columns. Every column is written into device memory
 * poisoned with 0xA5 bytes, with a poisoned tail past its end, so that an
 * element the GPU leaves unwritten, or one it writes past the end, shows;
 * the reference sums are reduced into poisoned memory too (the launch must
 * zero them). Exit 77 without a GPU. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "tests/check.h"
#include "harness/gpu/device.h"
#include "kernels/probe_gen.h"
#include "micro/data.h"
#include "micro/probe_gen.h"

#define POISON 0xA5
#define TAIL 64 /* poisoned int32 past each column's end */

/* Device memory of n + TAIL int32, every byte POISON; NULL on failure. */
static int32_t *poisoned(int64_t n) {
    void *d = NULL;
    const size_t bytes = ((size_t)n + TAIL) * sizeof(int32_t);
    if (cudaMalloc(&d, bytes) != cudaSuccess) return NULL;
    if (cudaMemset(d, POISON, bytes) != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess) {
        cudaFree(d);
        return NULL;
    }
    return d;
}

/* 1 when the device column d holds want[0, n) and its tail is still poison. */
static int same_column(const char *what, const int32_t *want, const int32_t *d, int64_t n) {
    const size_t bytes = ((size_t)n + TAIL) * sizeof(int32_t);
    unsigned char *got = malloc(bytes);
    int ok = got && cudaMemcpy(got, d, bytes, cudaMemcpyDeviceToHost) == cudaSuccess;
    if (!ok) {
        fprintf(stderr, "%s: read back failed\n", what);
    } else {
        for (int64_t i = 0; i < n && ok; i++)
            if (memcmp(got + (size_t)i * 4, want + i, 4) != 0) {
                int32_t g;
                memcpy(&g, got + (size_t)i * 4, 4);
                fprintf(stderr, "%s: [%lld] GPU %d, host %d\n", what, (long long)i, g, want[i]);
                ok = 0;
            }
        for (size_t b = (size_t)n * 4; b < bytes && ok; b++)
            if (got[b] != POISON) fprintf(stderr, "%s: written past the end, byte %zu\n", what, b), ok = 0;
    }
    free(got);
    return ok;
}

static int same_ref(const char *what, const wb_probe_ref *got, const wb_probe_ref *want) {
    if (got->sum == want->sum && got->packed_sum == want->packed_sum && got->matches == want->matches) return 1;
    fprintf(stderr, "%s: GPU sum %llu packed %llu matches %lld, host %llu %llu %lld\n", what,
            (unsigned long long)got->sum, (unsigned long long)got->packed_sum, (long long)got->matches,
            (unsigned long long)want->sum, (unsigned long long)want->packed_sum, (long long)want->matches);
    return 0;
}

/* One data set on both sides; returns 1 when the host init clamped its
 * passing count. */
static int check_case(int64_t n, int64_t rows, double match, uint64_t seed) {
    char what[128];
    snprintf(what, sizeof what, "n %lld rows %lld match %g seed %llu", (long long)n, (long long)rows, match,
             (unsigned long long)seed);
    wb_probe_gen g;
    wb_err e = {""};
    const int skip = (n > 0 && rows < 1) || (match < 1 && rows < 2);
    const int rc = wb_probe_gen_init(&g, n, rows, match, seed, &e);
    CHECK(rc == (skip ? WB_SKIP : WB_OK));
    if (rc != WB_OK) return 0;
    int32_t *keys = malloc(((size_t)rows + 1) * sizeof *keys), *vals = malloc(((size_t)rows + 1) * sizeof *vals);
    int32_t *fact = malloc(((size_t)n + 1) * sizeof *fact);
    int32_t *dk = poisoned(rows), *dv = poisoned(rows), *df = poisoned(n), *df2 = poisoned(n);
    unsigned long long *sums = (unsigned long long *)poisoned(2 * WB_PROBE_GEN_SUMS); /* the u64 sums as int32 */
    CHECK(keys && vals && fact && dk && dv && df && df2 && sums);
    if (keys && vals && fact && dk && dv && df && df2 && sums) {
        wb_probe_ref want, got;
        wb_probe_gen_dim(&g, keys, vals);
        wb_probe_gen_fact(&g, fact, &want);
        /* What the family calls. */
        const int gen = wb_probe_gen_gpu(&g, dk, dv, df, &got, &e);
        if (gen != WB_OK) fprintf(stderr, "%s: %s\n", what, e.msg);
        CHECK(gen == WB_OK);
        CHECK(same_column("dimension keys", keys, dk, rows));
        CHECK(same_column("dimension values", vals, dv, rows));
        CHECK(same_column("fact keys", fact, df, n));
        CHECK(same_ref(what, &got, &want));
        /* The fact kernel alone, its sums into poison. */
        wb_probe_gen_params p;
        wb_probe_gen_params_of(&g, &p);
        unsigned long long s[WB_PROBE_GEN_SUMS];
        CHECK(wb_probe_gen_fact_gpu(&p, df2, sums, 0) == cudaSuccess && cudaDeviceSynchronize() == cudaSuccess &&
              cudaMemcpy(s, sums, sizeof s, cudaMemcpyDeviceToHost) == cudaSuccess);
        got.sum = s[WB_PROBE_GEN_SUM], got.packed_sum = s[WB_PROBE_GEN_PACKED_SUM];
        got.matches = (int64_t)s[WB_PROBE_GEN_MATCHES];
        CHECK(same_ref(what, &got, &want));
        CHECK(same_column("fact keys (kernel alone)", fact, df2, n));
    }
    free(keys), free(vals), free(fact);
    cudaFree(dk), cudaFree(dv), cudaFree(df), cudaFree(df2), cudaFree(sums);
    return match < 1 && g.passing != llround(match * (double)rows);
}

/* Parameters no host init makes are refused, before any launch. */
static void check_refused(void) {
    wb_probe_gen g;
    wb_err e = {""};
    CHECK(wb_probe_gen_init(&g, 1000, 100, 0.5, 7, &e) == WB_OK);
    wb_probe_gen_params p, bad;
    wb_probe_gen_params_of(&g, &p);
    int32_t *d = poisoned(1000);
    unsigned long long *sums = (unsigned long long *)poisoned(2 * WB_PROBE_GEN_SUMS);
    CHECK(d && sums);
    bad = p, bad.passing = 0; /* hits with no passing rank */
    CHECK(wb_probe_gen_fact_gpu(&bad, d, sums, 0) == cudaErrorInvalidValue);
    bad = p, bad.passing = bad.dim_rows; /* misses with no filtered rank */
    CHECK(wb_probe_gen_fact_gpu(&bad, d, sums, 0) == cudaErrorInvalidValue);
    bad = p, bad.hits = bad.n + 1;
    CHECK(wb_probe_gen_fact_gpu(&bad, d, sums, 0) == cudaErrorInvalidValue);
    bad = p, bad.chunk = 0;
    CHECK(wb_probe_gen_fact_gpu(&bad, d, sums, 0) == cudaErrorInvalidValue);
    CHECK(wb_probe_gen_dim_gpu(&bad, d, d, 0) == cudaErrorInvalidValue);
    bad = p, bad.dim_rows = (int64_t)INT32_MAX + 1;
    CHECK(wb_probe_gen_dim_gpu(&bad, d, d, 0) == cudaErrorInvalidValue);
    CHECK(cudaGetLastError() == cudaSuccess && cudaDeviceSynchronize() == cudaSuccess);
    /* Nothing launched: the column is still poison. */
    unsigned char *got = malloc(1000 * 4);
    CHECK(got && cudaMemcpy(got, d, 1000 * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
    int untouched = got != NULL;
    for (int b = 0; got && b < 1000 * 4; b++) untouched &= got[b] == POISON;
    CHECK(untouched);
    free(got);
    cudaFree(d), cudaFree(sums);
}

int main(void) {
    if (!wb_device_present()) return printf("SKIP: no usable GPU\n"), WB_TEST_SKIP;
    /* (1 << 21) + 5 rows span three fact chunks of WB_KEYS_CHUNK, the last of 5. */
    static const int64_t ns[] = {0, 1, 31, 65537, 1000003, (1 << 21) + 5};
    static const int64_t rows[] = {1, 2, 1023, 1000003};
    static const double matches[] = {1, 0.5, 0.01, 0.9999};
    uint64_t s = 20261231;
    int clamped = 0;
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < 6; i++)
            for (int r = 0; r < 4; r++)
                for (int m = 0; m < 4; m++) clamped += check_case(ns[i], rows[r], matches[m], wb_rng_next(&s));
    CHECK(clamped > 0);
    /* Empty columns: no dimension and no fact keys; a dimension alone; fact
     * keys and no dimension, which the host init skips. */
    check_case(0, 0, 1, 5);
    check_case(0, 1000003, 0.5, 6);
    check_case(5, 0, 1, 7);
    check_refused();
    return TEST_DONE();
}

/* test_gpu_probe_parts.c - the partitioned probe's partition step
 * (kernels/probe.h: WB_PROBE_PARTITION, histogram, scan and scatter) on
 * random keys against a textbook counting sort on the host: each
 * partition's run holds exactly that partition's keys (both runs sorted and
 * compared), at sizes around the 8192-key tile, past several tiles a block
 * (each block owns a chunk of whole tiles), 2..4096 partitions, dimensions
 * smaller than the partition count and a skewed key set (most keys in one
 * partition). The family's check (wb_probe_check_parts) must agree, the
 * output is poisoned first, and the partitioned probe over the same keys
 * must return the reference's sum. The plan refuses partition counts that
 * are not powers of two in 2..4096. The family's GPU check of the
 * partition (kernels/probe_check.h against the fine buckets of the keys,
 * probe_gen.h) must agree with the host check: its summary equals the host
 * twin's (wb_probe_parts_summary_host) bit for bit, it passes the kernel's
 * output and fails it with a key moved across a partition border, a key
 * replaced by another of its partition, a key twice and a poisoned key.
 * Exit 77 without a GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "tests/check.h"
#include "harness/gpu/device.h"
#include "kernels/probe.h"
#include "kernels/probe_check.h"
#include "micro/data.h"
#include "micro/probe_gen.h"

static int cmp_i32(const void *a, const void *b) {
    const int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* The shift the plan must choose: partitions by the high bits of a key of
 * ceil(log2(rows)) bits (all of them, shift 0, when there are fewer bits). */
static int want_shift(int64_t rows, int parts) {
    int bits = 0, table_bits = 0;
    while ((1 << bits) < parts) bits++;
    while (((int64_t)1 << table_bits) < rows) table_bits++;
    return table_bits > bits ? table_bits - bits : 0;
}

/* Partitions whose run in got is not the multiset of their keys in keys
 * (by a stable counting sort of keys), or -1 when a key is of no partition. */
static int64_t bad_runs(const int32_t *keys, int32_t *got, int64_t n, int parts, int shift) {
    int64_t *start = calloc((size_t)parts + 1, sizeof *start), *at = malloc((size_t)parts * sizeof *at);
    int32_t *ref = malloc((size_t)(n ? n : 1) * sizeof *ref);
    int64_t bad = 0;
    for (int64_t i = 0; i < n; i++) {
        if (keys[i] < 0 || (keys[i] >> shift) >= parts) return free(start), free(at), free(ref), -1;
        start[(keys[i] >> shift) + 1]++;
    }
    for (int p = 0; p < parts; p++) start[p + 1] += start[p], at[p] = start[p];
    for (int64_t i = 0; i < n; i++) ref[at[keys[i] >> shift]++] = keys[i];
    for (int p = 0; p < parts; p++) {
        const int64_t b = start[p], c = start[p + 1] - start[p];
        qsort(ref + b, (size_t)c, sizeof *ref, cmp_i32);
        qsort(got + b, (size_t)c, sizeof *got, cmp_i32);
        bad += memcmp(ref + b, got + b, (size_t)c * sizeof *ref) != 0;
    }
    free(start), free(at), free(ref);
    return bad;
}

#define CUDA_OK(call, what)                                                                            \
    do {                                                                                               \
        cudaError_t c_ = (call);                                                                       \
        if (c_ != cudaSuccess) {                                                                       \
            fprintf(stderr, "%s: %s: %s\n", what, #call, cudaGetErrorString(c_));                      \
            CHECK(c_ == cudaSuccess);                                                                  \
            goto done;                                                                                 \
        }                                                                                              \
    } while (0)

/* The GPU check of host[0, n) (uploaded to d_keys) against fine: 1 pass, 0
 * fail, -1 no result; its summary must equal the host twin's. */
static int gpu_check(int32_t *d_keys, const int32_t *host, int64_t n, int parts, int shift, const wb_probe_fine *fine,
                     const char *what) {
    const size_t words = wb_probe_parts_summary_words(parts);
    int64_t *count = malloc((size_t)parts * sizeof *count), *start = malloc(((size_t)parts + 1) * sizeof *start);
    uint64_t *print = malloc((size_t)parts * sizeof *print), *gpu = malloc(words * sizeof *gpu),
             *cpu = malloc(words * sizeof *cpu);
    void *scratch = NULL;
    int ok = -1;
    wb_err e = {""};
    if (!count || !start || !print || !gpu || !cpu) {
        CHECK(!"host memory");
        goto done;
    }
    if (wb_probe_parts_ref(fine, n, parts, shift, count, print, start, &e) != WB_OK) {
        fprintf(stderr, "%s: %s\n", what, e.msg);
        CHECK(!"reference");
        goto done;
    }
    CUDA_OK(cudaMalloc(&scratch, wb_probe_parts_check_bytes(parts)), what);
    CUDA_OK(cudaMemcpy(d_keys, host, (size_t)n * sizeof *host, cudaMemcpyHostToDevice), what);
    CUDA_OK(wb_probe_parts_check(d_keys, n, parts, shift, start, scratch, gpu, 0), what);
    wb_probe_parts_summary_host(host, n, parts, shift, start, cpu);
    if (memcmp(gpu, cpu, words * sizeof *gpu) != 0)
        fprintf(stderr, "%s: GPU summary (misplaced %llu, first %llu) differs from the host's (%llu, %llu)\n", what,
                (unsigned long long)gpu[0], (unsigned long long)gpu[1], (unsigned long long)cpu[0],
                (unsigned long long)cpu[1]);
    CHECK(memcmp(gpu, cpu, words * sizeof *gpu) == 0);
    ok = wb_probe_parts_compare(gpu, n, parts, count, print, start, &e) == WB_OK;
done:
    cudaFree(scratch);
    free(count), free(start), free(print), free(gpu), free(cpu);
    return ok;
}

/* The GPU check on the kernel's output got (device copy d_keys, which it
 * overwrites) and on corruptions of it, each undone before the next. */
static void gpu_check_cases(int32_t *d_keys, int32_t *got, const int32_t *keys, int64_t n, int64_t rows, int parts,
                            int shift, const char *what) {
    wb_probe_fine *fine = malloc(sizeof *fine);
    if (!fine) {
        CHECK(!"host memory");
        return;
    }
    wb_err e = {""};
    CHECK(wb_probe_fine_of(keys, n, wb_probe_fine_shift(rows), fine, &e) == WB_OK);
    /* The fine buckets from the keys on the GPU (what the family uses) are the host's. */
    wb_probe_fine *on_gpu = malloc(sizeof *on_gpu);
    CHECK(on_gpu && cudaMemcpy(d_keys, keys, (size_t)n * sizeof *keys, cudaMemcpyHostToDevice) == cudaSuccess &&
          wb_probe_fine_gpu(d_keys, n, fine->shift, on_gpu, &e) == WB_OK);
    if (on_gpu) {
        CHECK(on_gpu->shift == fine->shift && on_gpu->outside == fine->outside);
        CHECK(memcmp(on_gpu->count, fine->count, sizeof fine->count) == 0 &&
              memcmp(on_gpu->print, fine->print, sizeof fine->print) == 0);
        free(on_gpu);
    }
    CHECK(shift >= fine->shift);
    CHECK(gpu_check(d_keys, got, n, parts, shift, fine, what) == 1);
    if (n >= 1000) {
        /* A border: the first position whose key is of another partition than the one before. */
        int64_t b = 1;
        while (b < n && (got[b] >> shift) == (got[b - 1] >> shift)) b++;
        if (b < n) {
            const int32_t x = got[b - 1], y = got[b];
            got[b - 1] = y, got[b] = x; /* swapped across it */
            CHECK(gpu_check(d_keys, got, n, parts, shift, fine, what) == 0);
            got[b - 1] = x, got[b] = x; /* one moved over, in place of the other */
            CHECK(gpu_check(d_keys, got, n, parts, shift, fine, what) == 0);
            got[b] = y;
        }
        /* Another key of the same partition (when the partition has two keys), twice a neighbour, poison. */
        const int64_t at = n / 2;
        const int32_t was = got[at];
        const int32_t other = (was & 1) ? was - 1 : was + 1;
        if ((other >> shift) == (was >> shift) && other < rows) {
            got[at] = other;
            CHECK(gpu_check(d_keys, got, n, parts, shift, fine, what) == 0);
        }
        const int32_t twice = got[at + 1];
        if (twice != was && (twice >> shift) == (was >> shift)) {
            got[at] = twice;
            CHECK(gpu_check(d_keys, got, n, parts, shift, fine, what) == 0);
        }
        got[at] = -1;
        CHECK(gpu_check(d_keys, got, n, parts, shift, fine, what) == 0);
        got[at] = was;
        CHECK(gpu_check(d_keys, got, n, parts, shift, fine, what) == 1);
    }
    free(fine);
}

/* skew: 9 keys in 10 drawn from the lowest 1/parts of the keys (one partition). */
static void run_case(int64_t n, int64_t rows, int parts, int skew, uint64_t seed) {
    char what[96];
    snprintf(what, sizeof what, "n %lld, rows %lld, %d partitions%s", (long long)n, (long long)rows, parts,
             skew ? ", skewed" : "");
    int32_t *keys = malloc((size_t)(n ? n : 1) * sizeof *keys), *got = malloc((size_t)(n ? n : 1) * sizeof *got);
    int32_t *vals = malloc((size_t)rows * sizeof *vals);
    int32_t *d_keys = NULL, *d_table = NULL;
    unsigned long long *d_out = NULL;
    void *d_temp = NULL;
    if (!keys || !got || !vals) {
        CHECK(!"host memory");
        goto done;
    }
    const int64_t low = rows / parts > 0 ? rows / parts : 1;
    for (int64_t i = 0; i < n; i++)
        keys[i] = (int32_t)(skew && wb_rng_below(&seed, 10) < 9 ? wb_rng_below(&seed, (uint64_t)low)
                                                                 : wb_rng_below(&seed, (uint64_t)rows));
    for (int64_t k = 0; k < rows; k++) /* a quarter filtered out: misses */
        vals[k] = wb_rng_below(&seed, 4) == 0 ? WB_PROBE_FILTERED : (int32_t)wb_rng_below(&seed, 1u << 30);

    wb_launch l;
    memset(&l, 0, sizeof l);
    l.block = 256, l.ilp = 4, l.occupancy_target = 1;
    wb_probe_parts pp;
    memset(&pp, 0, sizeof pp);
    CUDA_OK(wb_probe_parts_plan(&l, n, rows, parts, &pp), what);
    CHECK(pp.shift == want_shift(rows, parts));
    /* One chunk of whole tiles a block, every block some keys. */
    if (n > 0) CHECK(pp.grid >= 1 && pp.chunk % 8192 == 0 && pp.chunk * pp.grid >= n && pp.chunk * (pp.grid - 1) < n);
    else CHECK(pp.grid == 0);
    CUDA_OK(cudaMalloc((void **)&d_keys, (size_t)(n ? n : 1) * sizeof *d_keys), what);
    CUDA_OK(cudaMalloc((void **)&d_table, (size_t)rows * sizeof *d_table), what);
    CUDA_OK(cudaMalloc((void **)&d_out, 2 * sizeof *d_out), what);
    CUDA_OK(cudaMalloc(&d_temp, l.temp_bytes ? l.temp_bytes : 1), what);
    CUDA_OK(cudaMemcpy(d_keys, keys, (size_t)n * sizeof *keys, cudaMemcpyHostToDevice), what);
    CUDA_OK(cudaMemcpy(d_table, vals, (size_t)rows * sizeof *vals, cudaMemcpyHostToDevice), what);
    wb_probe_parts_bind(&pp, d_temp, n);
    wb_probe_args a = {d_keys, n, NULL, NULL, rows, d_table, 0, d_out, &pp};

    /* The partition alone, over poison (key -1, of no partition). */
    CUDA_OK(cudaMemset(pp.keys, 0xFF, (size_t)n * sizeof(int32_t)), what);
    CUDA_OK(wb_probe_launch(WB_PROBE_PARTITION, &l, &a, 0), what);
    CUDA_OK(cudaDeviceSynchronize(), what);
    CUDA_OK(cudaMemcpy(got, pp.keys, (size_t)n * sizeof *got, cudaMemcpyDeviceToHost), what);
    wb_err e = {""};
    const int family_check = wb_probe_check_parts(got, keys, n, parts, pp.shift, &e);
    if (family_check != WB_OK) fprintf(stderr, "%s: %s\n", what, e.msg);
    CHECK(family_check == WB_OK);
    /* The GPU check, on a scratch copy (the partitioned probe below reads pp.keys afresh). */
    {
        int32_t *d_copy = NULL;
        CUDA_OK(cudaMalloc((void **)&d_copy, (size_t)(n ? n : 1) * sizeof *d_copy), what);
        gpu_check_cases(d_copy, got, keys, n, rows, parts, pp.shift, what);
        cudaFree(d_copy);
    }
    const int64_t bad = bad_runs(keys, got, n, parts, pp.shift); /* sorts got's runs */
    if (bad) fprintf(stderr, "%s: %lld partitions wrong\n", what, (long long)bad);
    CHECK(bad == 0);

    /* The partitioned probe: partition, then the direct probe over the partitioned keys. */
    CUDA_OK(cudaMemset(pp.keys, 0, (size_t)n * sizeof(int32_t)), what);
    CUDA_OK(cudaMemset(d_out, 0, 2 * sizeof *d_out), what);
    CUDA_OK(wb_probe_launch(WB_PROBE_PARTITIONED, &l, &a, 0), what);
    CUDA_OK(cudaDeviceSynchronize(), what);
    unsigned long long sums[2];
    CUDA_OK(cudaMemcpy(sums, d_out, sizeof sums, cudaMemcpyDeviceToHost), what);
    wb_probe_ref ref;
    wb_probe_reference(keys, n, vals, rows, &ref);
    if (sums[0] != ref.sum || sums[1] != (unsigned long long)ref.matches)
        fprintf(stderr, "%s: partitioned probe sum %llu matches %llu, want %llu %lld\n", what, sums[0], sums[1],
                (unsigned long long)ref.sum, (long long)ref.matches);
    CHECK(sums[0] == ref.sum && sums[1] == (unsigned long long)ref.matches);
done:
    cudaFree(d_keys), cudaFree(d_table), cudaFree(d_out), cudaFree(d_temp);
    free(keys), free(got), free(vals);
}

int main(void) {
    if (!wb_device_present()) return printf("SKIP: no usable GPU\n"), WB_TEST_SKIP;
    /* Partition counts the plan refuses. */
    static const int refused[] = {0, 1, 3, 6, 8192};
    for (int i = 0; i < 5; i++) {
        wb_launch l;
        memset(&l, 0, sizeof l);
        l.block = 256, l.ilp = 4, l.occupancy_target = 1;
        wb_probe_parts pp;
        CHECK(wb_probe_parts_plan(&l, 1000, 1000, refused[i], &pp) == cudaErrorInvalidValue);
    }
    (void)cudaGetLastError();

    uint64_t seed = 0x9a2717;
    static const int64_t sizes[] = {0, 1, 33, 8191, 8192, 8193, 1000003};
    static const int64_t rows[] = {1000, 3000017}; /* fewer rows than partitions; past L1 */
    for (int s = 0; s < 7; s++)
        for (int r = 0; r < 2; r++)
            for (int parts = 2; parts <= WB_PROBE_PARTS_MAX; parts *= 2) run_case(sizes[s], rows[r], parts, 0, seed++);
    /* Several tiles a block (611 tiles of 8192 against at most a few hundred
     * resident blocks), and skewed keys: one partition's runs much longer
     * than a tile. */
    static const int many[] = {2, 128, 4096};
    for (int i = 0; i < 3; i++) {
        run_case(5000011, 3000017, many[i], 0, seed++);
        run_case(5000011, 3000017, many[i], 1, seed++);
        run_case(1000003, 1000, many[i], 1, seed++);
    }
    return TEST_DONE();
}

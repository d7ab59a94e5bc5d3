/* host_prep.c - times the host side of a point (the run summary's "data" and
 * "verify" minus the CUDA calls) on the CPU alone: fresh host memory, the
 * families' fills, references and comparisons at the quick sweep's largest
 * sizes, each with 1 and with all workers (WB_HOST_THREADS). Issue 31: which
 * host step dominates, measured where no GPU is. Build and run (no CMake
 * target: it is a one-off measurement, its output is host_prep-<host>.txt):
 *
 *   cc -O3 -std=c11 -D_GNU_SOURCE -I. -I/usr/local/cuda/include tests/hw/host_prep.c \
 *      micro/data.c micro/exact.c micro/parallel.c micro/select_ref.c micro/expr_plan.c micro/keys.c \
 *      micro/probe_gen.c micro/scan_ref.c micro/fill.c micro/fingerprint.c harness/base/error.c \
 *      harness/gpu/cuda_check.c \
 *      -L/usr/local/cuda/lib64 -lcudart -lpthread -lm -o /tmp/host_prep && /tmp/host_prep [log2 n [select]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "micro/data.h"
#include "micro/exact.h"
#include "micro/expr_plan.h"
#include "micro/parallel.h"
#include "micro/probe_gen.h"
#include "micro/scan_ref.h"
#include "micro/select_ref.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

#define TIME(label, stmt)                                                                              \
    do {                                                                                               \
        double t0_ = now();                                                                            \
        stmt;                                                                                          \
        printf("  %-44s %8.3f s\n", label, now() - t0_);                                               \
    } while (0)

static void touch(void *p, size_t bytes) { memset(p, 0x5A, bytes); }

static void run(int64_t n, int select_only) {
    wb_err e;
    const size_t b4 = (size_t)n * 4;
    int32_t *x = malloc(b4), *out = malloc(b4), *ref = malloc(b4);
    int32_t *y = malloc(b4);
    if (!x || !out || !ref || !y) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    if (select_only) touch(x, b4), touch(out, b4), touch(ref, b4);
    if (!select_only) TIME("first touch of 4n bytes (page faults)", touch(x, b4));
    if (!select_only) {
        TIME("memset of 4n touched bytes", touch(x, b4));
        TIME("memcpy of 4n bytes into fresh memory", memcpy(y, x, b4));
        TIME("memcpy of 4n bytes, touched", memcpy(y, x, b4));
        TIME("wb_fill_i32 (serial)", wb_fill_i32(x, (size_t)n, -100000, 100000, 1));
    }

    int64_t k = 0;
    TIME("select: wb_select_fill s=0.5", k = wb_select_fill(x, n, 0.5, 7, &e));
    TIME("select: wb_select_reference", wb_select_reference(x, n, (int32_t)k, ref, &e));
    wb_select_seen seen;
    wb_select_seen_alloc(&seen, k, &e);
    TIME("select: ref_is_permutation", wb_select_ref_is_permutation(ref, k, &seen, &e));
    memcpy(out, ref, (size_t)k * 4);
    memset(out + k, 0xFF, (size_t)(n - k) * 4);
    int rc = 0;
    TIME("select: compare ordered", rc |= wb_select_compare(out, n, k, ref, k, 1, &seen, &e));
    TIME("select: compare unordered", rc |= wb_select_compare(out, n, k, ref, k, 0, &seen, &e));
    if (rc) printf("  select compare FAILED: %s\n", e.msg);
    wb_select_seen_free(&seen);
    if (select_only) {
        free(x), free(out), free(ref), free(y);
        return;
    }

    TIME("expr: wb_expr_fill int32 (one column)", wb_expr_fill(WB_EXPR_INT32, x, n, 3));
    TIME("expr: wb_expr_fill int32 (second column)", wb_expr_fill(WB_EXPR_INT32, y, n, 4));
    wb_expr_plan plan;
    wb_expr_plan_build(&plan, WB_EXPR_INT32, 0, 8, 2, 5, &e);
    const void *cols[2] = {x, y};
    TIME("expr: wb_expr_eval 8 ops, 2 columns", wb_expr_eval(&plan, cols, ref, n));
    wb_mismatches m;
    wb_mismatch_init(&m);
    TIME("expr: wb_expr_compare", wb_expr_compare(WB_EXPR_INT32, ref, ref, n, 0, &m));

    wb_probe_gen g;
    wb_probe_ref pr;
    wb_probe_gen_init(&g, n, (int64_t)1 << 24, 0.5, 9, &e);
    int32_t *dim = malloc(((size_t)2 << 24) * 4);
    TIME("probe: gen_dim 2^24 rows", wb_probe_gen_dim(&g, dim, dim + ((int64_t)1 << 24)));
    free(dim);
    TIME("probe: gen_fact n rows", wb_probe_gen_fact(&g, x, &pr));

    wb_scan_cols c = {.shape = WB_SCAN_Q11, .n = n, .orderdate = x, .discount = y, .quantity = out, .extendedprice = ref};
    wb_scan_expect sx;
    TIME("scan: wb_scan_fill q1.1 (4 columns)", wb_scan_fill(&c, &wb_scan_ssb, 0.5, 11));
    TIME("scan: wb_scan_reference q1.1", wb_scan_reference(&c, &wb_scan_ssb, &sx, &e));
    free(x), free(out), free(ref), free(y);
}

int main(int argc, char **argv) {
    const int lg = argc > 1 ? atoi(argv[1]) : 28;
    const int select_only = argc > 2 && strcmp(argv[2], "select") == 0; /* the select steps alone, on touched memory */
    const int all = wb_par_workers();
    for (int w = 1; w <= all; w = w == all ? all + 1 : all) {
        wb_par_set_workers(w);
        printf("n = 2^%d, %d worker%s\n", lg, w, w == 1 ? "" : "s");
        run((int64_t)1 << lg, select_only);
    }
    return 0;
}

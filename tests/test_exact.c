/* test_exact.c - exact.h's parallel loops: every chunk runs exactly once
 * whatever the worker count (wb_par_set_workers), and wb_par_check leaves
 * the verification report exactly as one sequential pass would: the total,
 * and the first mismatches shown in index order, whichever chunk or worker
 * found them first. */
#include <stdlib.h>
#include <string.h>

#include "micro/data.h"
#include "micro/exact.h"
#include "tests/check.h"

static const int worker_counts[] = {1, 2, 3, 8};
#define N_WORKERS ((int)(sizeof worker_counts / sizeof worker_counts[0]))

typedef struct count_job {
    unsigned char *hits;
    int64_t *rows, *bad;
} count_job;

static void count_chunk(void *ctx, int worker, int64_t chunk, int64_t begin, int64_t end) {
    count_job *j = ctx;
    if (worker < 0 || worker >= wb_par_workers()) return; /* then rows miss this chunk */
    j->bad[worker] += begin != chunk * 1000;
    for (int64_t i = begin; i < end; i++) j->hits[i]++;
    j->rows[worker] += end - begin;
}

static void test_workers(void) {
    const int64_t n = 123457;
    unsigned char *hits = malloc((size_t)n);
    for (int w = 0; w < N_WORKERS; w++) {
        wb_par_set_workers(worker_counts[w]);
        CHECK(wb_par_workers() == worker_counts[w]);
        int64_t rows[WB_PAR_MAX] = {0}, bad[WB_PAR_MAX] = {0};
        memset(hits, 0, (size_t)n);
        count_job j = {hits, rows, bad};
        wb_par_chunks(n, 1000, count_chunk, &j);
        int64_t once = 0, total = 0, misplaced = 0;
        for (int64_t i = 0; i < n; i++) once += hits[i] == 1;
        for (int i = 0; i < WB_PAR_MAX; i++) total += rows[i], misplaced += bad[i];
        CHECK(once == n && total == n && misplaced == 0);
    }
    wb_par_set_workers(0);
    CHECK(wb_par_workers() >= 1 && wb_par_workers() <= WB_PAR_MAX);
    free(hits);
}

/* A check of got against want, element by element in index order. */
typedef struct cmp {
    const int32_t *got, *want;
} cmp;

static void cmp_range(void *ctx, int64_t begin, int64_t end, wb_mismatches *m) {
    const cmp *c = ctx;
    for (int64_t i = begin; i < end; i++)
        if (c->got[i] != c->want[i]) wb_mismatch_add_i64(m, i, c->got[i], c->want[i]);
}

static int same_report(const wb_mismatches *a, const wb_mismatches *b) {
    return a->total == b->total && a->shown == b->shown && strcmp(a->text, b->text) == 0;
}

/* The report of wb_par_check on every worker count, with `preshown`
 * mismatches already in m, equals the plain loop's. */
static void check_reports(const int32_t *got, const int32_t *want, int64_t n, int64_t chunk, int preshown,
                          int64_t expect_total) {
    wb_mismatches plain, par;
    wb_mismatch_init(&plain);
    for (int k = 0; k < preshown; k++) wb_mismatch_add(&plain, -1 - k, "earlier", "stage");
    for (int64_t i = 0; i < n; i++)
        if (got[i] != want[i]) wb_mismatch_add_i64(&plain, i, got[i], want[i]);
    CHECK(plain.total == preshown + expect_total);
    cmp c = {got, want};
    for (int w = 0; w < N_WORKERS; w++) {
        wb_par_set_workers(worker_counts[w]);
        wb_mismatch_init(&par);
        for (int k = 0; k < preshown; k++) wb_mismatch_add(&par, -1 - k, "earlier", "stage");
        wb_par_check(n, chunk, cmp_range, &c, &par);
        CHECK(same_report(&plain, &par));
    }
    wb_par_set_workers(0);
}

static void test_check(void) {
    const int64_t n = 1000003, chunk = 4096; /* 245 chunks */
    int32_t *want = malloc(sizeof *want * (size_t)n), *got = malloc(sizeof *got * (size_t)n);
    for (int64_t i = 0; i < n; i++) want[i] = got[i] = (int32_t)(i * 2654435761u);
    check_reports(got, want, n, chunk, 0, 0);
    /* A few, the first in a late chunk: found again from there. */
    got[n - 1]++, got[700000]--, got[500000] ^= 8;
    check_reports(got, want, n, chunk, 0, 3);
    check_reports(got, want, n, chunk, 4, 3); /* an earlier stage already showed 4 */
    check_reports(got, want, n, chunk, 12, 3); /* ... or all it can */
    /* Many, in many chunks, more than the report shows, two in one chunk. */
    for (int64_t i = 3; i < n; i += 41011) got[i] = -got[i] - 1;
    got[4] = 0;
    int64_t total = 0;
    for (int64_t i = 0; i < n; i++) total += got[i] != want[i];
    check_reports(got, want, n, chunk, 0, total);
    check_reports(got, want, n, chunk, 7, total);
    check_reports(got, want, n, n, 0, total);     /* one chunk */
    check_reports(got, want, n, 1, 0, total);     /* a chunk per element */
    check_reports(got, want, 0, chunk, 2, 0);     /* nothing to check */
    free(want);
    free(got);
}

int main(void) {
    test_workers();
    test_check();
    return TEST_DONE();
}

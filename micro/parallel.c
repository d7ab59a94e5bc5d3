/* parallel.c - the chunked parallel loop and check (see parallel.h). */
#include "micro/parallel.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "micro/data.h"

static atomic_int par_cap;   /* wb_par_set_workers; 0: none */
static atomic_int par_cores; /* WB_HOST_THREADS or the online CPUs, read once (sysconf reads a file each time); 0: not yet */

void wb_par_set_workers(int workers) { atomic_store(&par_cap, workers > 0 ? workers : 0); }

/* WB_HOST_THREADS as a worker count, 0 when unset; a value that is not a
 * number in 1..WB_PAR_MAX is said on stderr (once: the count is read once)
 * and left aside, so that a typo does not pass for a setting. */
static int env_workers(void) {
    const char *v = getenv("WB_HOST_THREADS");
    if (!v) return 0;
    char *end = NULL;
    long n = strtol(v, &end, 10);
    if (end != v && *end == '\0' && n >= 1 && n <= WB_PAR_MAX) return (int)n;
    fprintf(stderr, "warning: WB_HOST_THREADS=%s is not a number of workers in 1..%d; using one per online CPU\n", v,
            WB_PAR_MAX);
    return 0;
}

int wb_par_workers(void) {
    int n = atomic_load(&par_cap);
    if (n <= 0 && (n = atomic_load(&par_cores)) <= 0) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        n = env_workers();
        if (n == 0) n = cores < 1 ? 1 : cores > WB_PAR_MAX ? WB_PAR_MAX : (int)cores;
        atomic_store(&par_cores, n);
    }
    return n > WB_PAR_MAX ? WB_PAR_MAX : n;
}

typedef struct par_job {
    int64_t n, chunk, chunks;
    wb_par_fn fn;
    void *ctx;
    atomic_llong next;
} par_job;

typedef struct par_worker {
    par_job *job;
    int index;
} par_worker;

static void par_drain(par_job *j, int worker) {
    for (;;) {
        long long c = atomic_fetch_add_explicit(&j->next, 1, memory_order_relaxed);
        if (c >= j->chunks) return;
        int64_t begin = (int64_t)c * j->chunk;
        int64_t end = begin + j->chunk < j->n ? begin + j->chunk : j->n;
        j->fn(j->ctx, worker, (int64_t)c, begin, end);
    }
}

static void *par_main(void *arg) {
    par_worker *w = arg;
    par_drain(w->job, w->index);
    return NULL;
}

void wb_par_chunks(int64_t n, int64_t chunk, wb_par_fn fn, void *ctx) {
    if (n <= 0) return;
    if (chunk < 1) chunk = 1;
    par_job job = {.n = n, .chunk = chunk, .chunks = (n + chunk - 1) / chunk, .fn = fn, .ctx = ctx};
    atomic_init(&job.next, 0);
    int workers = wb_par_workers();
    if (workers > job.chunks) workers = (int)job.chunks;
    pthread_t tid[WB_PAR_MAX];
    par_worker w[WB_PAR_MAX];
    int started[WB_PAR_MAX] = {0};
    for (int i = 1; i < workers; i++) {
        w[i] = (par_worker){.job = &job, .index = i};
        started[i] = pthread_create(&tid[i], NULL, par_main, &w[i]) == 0;
    }
    par_drain(&job, 0);
    for (int i = 1; i < workers; i++)
        if (started[i]) pthread_join(tid[i], NULL);
}

typedef struct check_job {
    wb_check_fn fn;
    void *ctx;
    int64_t total[WB_PAR_MAX]; /* per worker */
    atomic_llong first_bad;    /* lowest chunk with a mismatch */
} check_job;

static void check_chunk(void *vctx, int worker, int64_t chunk, int64_t begin, int64_t end) {
    check_job *j = vctx;
    wb_mismatches local;
    wb_mismatch_init(&local);
    j->fn(j->ctx, begin, end, &local);
    if (local.total == 0) return;
    j->total[worker] += local.total;
    long long seen = atomic_load_explicit(&j->first_bad, memory_order_relaxed);
    while (chunk < seen && !atomic_compare_exchange_weak_explicit(&j->first_bad, &seen, chunk, memory_order_relaxed,
                                                                  memory_order_relaxed))
        ;
}

void wb_par_check(int64_t n, int64_t chunk, wb_check_fn fn, void *ctx, wb_mismatches *m) {
    if (n <= 0) return;
    if (chunk < 1) chunk = 1;
    check_job j = {.fn = fn, .ctx = ctx};
    atomic_init(&j.first_bad, LLONG_MAX);
    wb_par_chunks(n, chunk, check_chunk, &j);
    int64_t total = 0;
    for (int w = 0; w < WB_PAR_MAX; w++) total += j.total[w];
    if (total == 0) return;
    /* The report: the same adds in the same order as one sequential pass,
     * from the first chunk that mismatched until m shows no more. */
    const int64_t before = m->total;
    const int64_t from = (int64_t)atomic_load(&j.first_bad) * chunk;
    for (int64_t begin = from; begin < n && m->shown < WB_MISMATCH_SHOW; begin += chunk)
        fn(ctx, begin, begin + chunk < n ? begin + chunk : n, m);
    m->total = before + total;
}

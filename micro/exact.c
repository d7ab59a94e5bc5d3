/* exact.c - the keyed bijection behind exact selectivities, and the chunked
 * parallel loop (see exact.h). */
#include "exact.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

#include "data.h"

void wb_perm_init(wb_perm *p, uint64_t n, uint64_t seed) {
    int bits = 0;
    while (bits < 63 && (1ull << bits) < n) bits++;
    p->n = n;
    p->mask = bits ? (1ull << bits) - 1 : 0;
    /* Half the width moves high bits into the low ones that the multiply
     * cannot reach; at least 1 keeps the xorshift invertible and non-trivial. */
    p->shift = bits / 2 + 1;
    uint64_t s = seed ^ 0x5DEECE66Dull;
    for (int r = 0; r < 3; r++) {
        p->mul[r] = wb_rng_next(&s) | 1u;
        p->add[r] = wb_rng_next(&s);
    }
}

int64_t wb_exact_k(int64_t n, double s) {
    if (n <= 0 || !(s > 0)) return 0;
    if (s >= 1) return n;
    int64_t k = (int64_t)llround(s * (double)n);
    return k < 0 ? 0 : k > n ? n : k;
}

uint64_t wb_chunk_seed(uint64_t seed, int64_t chunk_index) {
    uint64_t s = seed ^ ((uint64_t)chunk_index * 0xD1B54A32D192ED03ull);
    return wb_rng_next(&s);
}

int wb_par_workers(void) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 1) cores = 1;
    return cores > WB_PAR_MAX ? WB_PAR_MAX : (int)cores;
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

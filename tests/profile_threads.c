/* profile_threads.c - a program for `wallbench profile` to run (tests/gpu_profile_threads.sh):
 * two threads launch one kernel at the same time, each on a stream of its own with a launch
 * shape of its own, 60 times; then the process forks a child that exits through exit() and its
 * atexit handlers, as Python's multiprocessing children and a DataLoader's workers may. It checks
 * the GPU's outputs against the CPU's, prints one line with their checksum and exits 0 when they
 * agree: a profiler that changes what it does changes that line or the exit code.
 * With the argument "reset", before the fork the main thread launches AROUND_RESET times alone,
 * destroys its context as cudaDeviceReset does (cuDevicePrimaryCtxReset), makes a new one and
 * launches AROUND_RESET more times in it, each checked and printed likewise: what a profiler held
 * of the first context (its last launches) must survive its end.
 * C and the driver API (the kernel is PTX: tests/profile_threads_ptx.h). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cuda.h>

#include "tests/profile_threads_ptx.h"

#define THREADS 2
#define LAUNCHES 60
#define AROUND_RESET 10

static CUcontext ctx;
static CUfunction accumulate;
static pthread_barrier_t together;

typedef struct worker {
    unsigned n;
    CUstream stream;
    CUdeviceptr in, out;
    uint32_t *host_in, *host_out, *got;
    CUresult err;
    const char *call;
} worker;

#define WORKER_TRY(w, c)                                   \
    do {                                                   \
        CUresult r_ = (c);                                 \
        if (r_ != CUDA_SUCCESS) {                          \
            (w)->err = r_, (w)->call = #c;                 \
            return NULL;                                   \
        }                                                  \
    } while (0)

static void *run_worker(worker *w, unsigned launches) {
    WORKER_TRY(w, cuCtxSetCurrent(ctx));
    for (unsigned k = 1; k <= launches; k++) {
        void *args[] = {&w->out, &w->in, &w->n, &k};
        WORKER_TRY(w, cuLaunchKernel(accumulate, (w->n + 127) / 128, 1, 1, 128, 1, 1, 0, w->stream, args, NULL));
    }
    WORKER_TRY(w, cuStreamSynchronize(w->stream));
    WORKER_TRY(w, cuMemcpyDtoH(w->got, w->out, (size_t)w->n * 4));
    return NULL;
}

static void *launch_all(void *arg) {
    pthread_barrier_wait(&together); /* both threads launch at once */
    return run_worker(arg, LAUNCHES);
}

#define TRY(c)                                                                     \
    do {                                                                           \
        CUresult r_ = (c);                                                         \
        if (r_ != CUDA_SUCCESS) {                                                  \
            const char *s_ = NULL;                                                 \
            cuGetErrorName(r_, &s_);                                               \
            fprintf(stderr, "profile_threads: %s: %s\n", #c, s_ ? s_ : "?");       \
            return 1;                                                              \
        }                                                                          \
    } while (0)

/* w's inputs and starting outputs (random, never zeros) on the host and in the current context. */
static int prepare(worker *w, unsigned n, uint32_t *state) {
    *w = (worker){.n = n};
    w->host_in = malloc((size_t)n * 4), w->host_out = malloc((size_t)n * 4), w->got = malloc((size_t)n * 4);
    if (!w->host_in || !w->host_out || !w->got) return fprintf(stderr, "profile_threads: out of memory\n"), 1;
    for (unsigned i = 0; i < n; i++) {
        *state = *state * 1664525u + 1013904223u, w->host_in[i] = *state >> 8;
        *state = *state * 1664525u + 1013904223u, w->host_out[i] = *state;
    }
    TRY(cuStreamCreate(&w->stream, CU_STREAM_NON_BLOCKING));
    TRY(cuMemAlloc(&w->in, (size_t)n * 4));
    TRY(cuMemAlloc(&w->out, (size_t)n * 4));
    TRY(cuMemcpyHtoD(w->in, w->host_in, (size_t)n * 4));
    TRY(cuMemcpyHtoD(w->out, w->host_out, (size_t)n * 4));
    return 0;
}

/* w's outputs after `launches` launches against the CPU's: how many differ (-1: the worker failed);
 * *sum takes them in. */
static long long check(const worker *w, unsigned launches, uint64_t *sum, const char *who) {
    if (w->err != CUDA_SUCCESS) {
        const char *s = NULL;
        cuGetErrorName(w->err, &s);
        fprintf(stderr, "profile_threads: %s: %s: %s\n", who, w->call, s ? s : "?");
        return -1;
    }
    long long wrong = 0;
    const uint32_t tri = (uint32_t)launches * (launches + 1) / 2; /* the sum of k over the launches */
    for (unsigned i = 0; i < w->n; i++) {
        uint32_t want = w->host_out[i] + w->host_in[i] * tri + i * launches;
        wrong += w->got[i] != want;
        *sum = (*sum ^ w->got[i]) * 1099511628211ull;
    }
    return wrong;
}

/* A context of its own's first steps: the primary one, current, the kernel loaded. */
static int open_context(CUdevice dev) {
    CUmodule mod;
    TRY(cuDevicePrimaryCtxRetain(&ctx, dev));
    TRY(cuCtxSetCurrent(ctx));
    TRY(cuModuleLoadData(&mod, accumulate_ptx));
    TRY(cuModuleGetFunction(&accumulate, mod, "wb_accumulate"));
    return 0;
}

int main(int argc, char **argv) {
    int reset = argc > 1 && !strcmp(argv[1], "reset");
    if (argc > 2 || (argc == 2 && !reset)) return fprintf(stderr, "usage: profile_threads [reset]\n"), 2;
    CUdevice dev;
    TRY(cuInit(0));
    TRY(cuDeviceGet(&dev, 0));
    if (open_context(dev)) return 1;
    worker w[THREADS];
    uint32_t state = 12345u;
    for (int t = 0; t < THREADS; t++) /* sizes not a multiple of the block */
        if (prepare(&w[t], 100000u + 12345u * (unsigned)t, &state)) return 1;
    pthread_t th[THREADS];
    if (pthread_barrier_init(&together, NULL, THREADS) != 0) return fprintf(stderr, "profile_threads: barrier\n"), 1;
    for (int t = 0; t < THREADS; t++)
        if (pthread_create(&th[t], NULL, launch_all, &w[t]) != 0) return fprintf(stderr, "profile_threads: pthread_create\n"), 1;
    for (int t = 0; t < THREADS; t++) pthread_join(th[t], NULL);
    long long wrong = 0, d;
    uint64_t sum = 1469598103934665603ull;
    for (int t = 0; t < THREADS; t++) {
        if ((d = check(&w[t], LAUNCHES, &sum, t ? "thread 1" : "thread 0")) < 0) return 1;
        wrong += d;
    }
    printf("profile_threads: %d threads x %d launches, %lld output(s) differ from the CPU's, checksum %016llx\n",
           THREADS, LAUNCHES, wrong, (unsigned long long)sum);
    if (reset) { /* alone, then cudaDeviceReset's driver call (the context and all in it go), then a new one */
        worker before, after;
        uint64_t sums[2] = {1469598103934665603ull, 1469598103934665603ull};
        long long differ[2];
        if (prepare(&before, 23456u, &state)) return 1;
        run_worker(&before, AROUND_RESET);
        if ((differ[0] = check(&before, AROUND_RESET, &sums[0], "before the reset")) < 0) return 1;
        TRY(cuDevicePrimaryCtxReset(dev));
        if (open_context(dev) || prepare(&after, 54321u, &state)) return 1;
        run_worker(&after, AROUND_RESET);
        if ((differ[1] = check(&after, AROUND_RESET, &sums[1], "after the reset")) < 0) return 1;
        wrong += differ[0] + differ[1];
        printf("profile_threads: %d launches alone, a context reset, %d launches in a new one: %lld and %lld output(s) "
               "differ from the CPU's, checksums %016llx %016llx\n", AROUND_RESET, AROUND_RESET, differ[0], differ[1],
               (unsigned long long)sums[0], (unsigned long long)sums[1]);
    }
    fflush(stdout); /* the child's exit must not print it again */
    pid_t child = fork();
    if (child == 0) exit(0); /* atexit handlers run in the child: a profiler's must do nothing here */
    int status = 0;
    if (child < 0 || waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return fprintf(stderr, "profile_threads: the forked child failed (status %d)\n", status), 1;
    return wrong ? 1 : 0;
}

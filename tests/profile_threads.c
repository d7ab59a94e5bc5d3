/* profile_threads.c - a program for `wallbench profile` to run (tests/gpu_profile_threads.sh):
 * two threads launch one kernel at the same time, each on a stream of its own with a launch
 * shape of its own, 60 times; then the process forks a child that exits through exit() and its
 * atexit handlers, as Python's multiprocessing children and a DataLoader's workers may. It checks
 * the GPU's outputs against the CPU's, prints one line with their checksum and exits 0 when they
 * agree: a profiler that changes what it does changes that line or the exit code.
 * C and the driver API (the kernel is PTX: tests/profile_threads_ptx.h). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cuda.h>

#include "tests/profile_threads_ptx.h"

#define THREADS 2
#define LAUNCHES 60

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

static void *launch_all(void *arg) {
    worker *w = arg;
    pthread_barrier_wait(&together); /* both threads launch at once */
    WORKER_TRY(w, cuCtxSetCurrent(ctx));
    for (unsigned k = 1; k <= LAUNCHES; k++) {
        void *args[] = {&w->out, &w->in, &w->n, &k};
        WORKER_TRY(w, cuLaunchKernel(accumulate, (w->n + 127) / 128, 1, 1, 128, 1, 1, 0, w->stream, args, NULL));
    }
    WORKER_TRY(w, cuStreamSynchronize(w->stream));
    WORKER_TRY(w, cuMemcpyDtoH(w->got, w->out, (size_t)w->n * 4));
    return NULL;
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

int main(void) {
    CUdevice dev;
    CUmodule mod;
    TRY(cuInit(0));
    TRY(cuDeviceGet(&dev, 0));
    TRY(cuDevicePrimaryCtxRetain(&ctx, dev));
    TRY(cuCtxSetCurrent(ctx));
    TRY(cuModuleLoadData(&mod, accumulate_ptx));
    TRY(cuModuleGetFunction(&accumulate, mod, "wb_accumulate"));
    worker w[THREADS];
    uint32_t state = 12345u;
    for (int t = 0; t < THREADS; t++) {
        w[t] = (worker){.n = 100000u + 12345u * (unsigned)t}; /* not a multiple of the block */
        w[t].host_in = malloc((size_t)w[t].n * 4), w[t].host_out = malloc((size_t)w[t].n * 4);
        w[t].got = malloc((size_t)w[t].n * 4);
        if (!w[t].host_in || !w[t].host_out || !w[t].got) return fprintf(stderr, "profile_threads: out of memory\n"), 1;
        for (unsigned i = 0; i < w[t].n; i++) { /* random inputs and starting outputs, never zeros */
            state = state * 1664525u + 1013904223u, w[t].host_in[i] = state >> 8;
            state = state * 1664525u + 1013904223u, w[t].host_out[i] = state;
        }
        TRY(cuStreamCreate(&w[t].stream, CU_STREAM_NON_BLOCKING));
        TRY(cuMemAlloc(&w[t].in, (size_t)w[t].n * 4));
        TRY(cuMemAlloc(&w[t].out, (size_t)w[t].n * 4));
        TRY(cuMemcpyHtoD(w[t].in, w[t].host_in, (size_t)w[t].n * 4));
        TRY(cuMemcpyHtoD(w[t].out, w[t].host_out, (size_t)w[t].n * 4));
    }
    pthread_t th[THREADS];
    if (pthread_barrier_init(&together, NULL, THREADS) != 0) return fprintf(stderr, "profile_threads: barrier\n"), 1;
    for (int t = 0; t < THREADS; t++)
        if (pthread_create(&th[t], NULL, launch_all, &w[t]) != 0) return fprintf(stderr, "profile_threads: pthread_create\n"), 1;
    for (int t = 0; t < THREADS; t++) pthread_join(th[t], NULL);
    long long wrong = 0;
    uint64_t sum = 1469598103934665603ull;
    const uint32_t tri = (uint32_t)LAUNCHES * (LAUNCHES + 1) / 2; /* the sum of k over the launches */
    for (int t = 0; t < THREADS; t++) {
        if (w[t].err != CUDA_SUCCESS) {
            const char *s = NULL;
            cuGetErrorName(w[t].err, &s);
            fprintf(stderr, "profile_threads: thread %d: %s: %s\n", t, w[t].call, s ? s : "?");
            return 1;
        }
        for (unsigned i = 0; i < w[t].n; i++) {
            uint32_t want = w[t].host_out[i] + w[t].host_in[i] * tri + i * (uint32_t)LAUNCHES;
            wrong += w[t].got[i] != want;
            sum = (sum ^ w[t].got[i]) * 1099511628211ull;
        }
    }
    printf("profile_threads: %d threads x %d launches, %lld output(s) differ from the CPU's, checksum %016llx\n",
           THREADS, LAUNCHES, wrong, (unsigned long long)sum);
    fflush(stdout); /* the child's exit must not print it again */
    pid_t child = fork();
    if (child == 0) exit(0); /* atexit handlers run in the child: a profiler's must do nothing here */
    int status = 0;
    if (child < 0 || waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return fprintf(stderr, "profile_threads: the forked child failed (status %d)\n", status), 1;
    return wrong ? 1 : 0;
}

/* test_gpu_counters.c - the in-process counter pass against Nsight Compute
 * (issue 3): three reference kernels (kernels/counters_ref.h) are counted
 * with the counters module, then this binary runs them again in --no-cupti
 * mode under `ncu --clock-control none`. Instructions must be identical, DRAM
 * sectors within 3%, and the copy's sectors within 2% of its bytes / 32.
 * Both sides flush L2 before each kernel (ncu's default cache control; the
 * harness's reset), so both count cold-cache traffic. Exit 77 (skipped)
 * without a GPU or without ncu. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "tests/check.h"
#include "harness/gpu/counters.h"
#include "harness/gpu/device.h"
#include "harness/base/metrics.h"
#include "kernels/counters_ref.h"
#include "kernels/flush.h"

enum { K_COPY, K_INST, K_GATHER, K_COUNT };
static const char *const kernel_fn[K_COUNT] = {"wb_ref_copy_kernel", "wb_ref_inst_kernel", "wb_ref_gather_kernel"};
static const char *const kernel_label[K_COUNT] = {"copy", "inst", "gather"};
enum { M_INST, M_READ, M_WRITE, M_COUNT };
static const char *const ncu_metric[M_COUNT] = {"smsp__inst_executed.sum", "dram__sectors_read.sum",
                                                "dram__sectors_write.sum"};

#define INST_ITERS 64
#define SEED 0x5EED5EEDull
#define BLOCK 256
/* 2 GiB per buffer: the L2's dirty lines left after a kernel (50 MB on an
 * H200) are then about 1% of the copy's traffic, well inside the 2-3%. */
#define N_MAX ((int64_t)1 << 29)

typedef struct work {
    uint32_t *in, *out, *idx;
    int64_t n; /* uint32 elements per buffer */
    int grid;
    void *flush;
    size_t flush_bytes;
    unsigned *sink;
    int kernel; /* what launch() runs */
} work;

static int fail_cuda(cudaError_t c, const char *what) {
    fprintf(stderr, "FAIL: %s: %s (%s)\n", what, cudaGetErrorName(c), cudaGetErrorString(c));
    return 1;
}

static int setup(work *w, const wb_device *d, int64_t n) {
    memset(w, 0, sizeof *w);
    w->n = n;
    w->grid = d->sms * (d->max_threads_per_sm / BLOCK > 0 ? d->max_threads_per_sm / BLOCK : 1);
    w->flush_bytes = 2 * (size_t)d->l2_bytes;
    cudaError_t c;
    if ((c = cudaMalloc((void **)&w->in, (size_t)n * 4)) != cudaSuccess) return fail_cuda(c, "cudaMalloc(in)");
    if ((c = cudaMalloc((void **)&w->out, (size_t)n * 4)) != cudaSuccess) return fail_cuda(c, "cudaMalloc(out)");
    if ((c = cudaMalloc((void **)&w->idx, (size_t)n * 4)) != cudaSuccess) return fail_cuda(c, "cudaMalloc(idx)");
    if ((c = cudaMalloc(&w->flush, w->flush_bytes)) != cudaSuccess) return fail_cuda(c, "cudaMalloc(flush)");
    if ((c = cudaMalloc((void **)&w->sink, sizeof *w->sink)) != cudaSuccess) return fail_cuda(c, "cudaMalloc(sink)");
    if ((c = cudaMemset(w->flush, 0, w->flush_bytes)) != cudaSuccess) return fail_cuda(c, "cudaMemset(flush)");
    if ((c = wb_ref_fill(w->in, n, 0, SEED, w->grid, BLOCK, 0)) != cudaSuccess) return fail_cuda(c, "wb_ref_fill(in)");
    if ((c = wb_ref_fill(w->idx, n, (uint32_t)n, SEED + 1, w->grid, BLOCK, 0)) != cudaSuccess)
        return fail_cuda(c, "wb_ref_fill(idx)");
    if ((c = cudaDeviceSynchronize()) != cudaSuccess) return fail_cuda(c, "fill");
    return 0;
}

static void teardown(work *w) {
    cudaFree(w->in), cudaFree(w->out), cudaFree(w->idx), cudaFree(w->flush), cudaFree(w->sink);
}

/* Replay steps: reset = read-flush L2 (clean lines only, so the previous
 * pass's writes reach DRAM before the range opens); launch = one kernel. */
static int reset_step(void *ctx, wb_err *e) {
    work *w = ctx;
    return WB_CUDA(e, wb_flush_l2(w->flush, w->flush_bytes, w->sink, w->grid, BLOCK, 0));
}

static int launch_kernel(work *w, int kernel, wb_err *e) {
    switch (kernel) {
    case K_COPY: return WB_CUDA(e, wb_ref_copy(w->in, w->out, w->n / 4, w->grid, BLOCK, 0));
    case K_INST: return WB_CUDA(e, wb_ref_inst(w->in, w->out, w->n, INST_ITERS, w->grid, BLOCK, 0));
    default: return WB_CUDA(e, wb_ref_gather(w->in, w->idx, w->out, w->n, w->grid, BLOCK, 0));
    }
}

static int launch_step(void *ctx, wb_err *e) {
    work *w = ctx;
    return launch_kernel(w, w->kernel, e);
}

/* A batch counts member m as kernel m: the ranges of one pass must come back
 * to their own members. */
static int member_reset(void *ctx, int m, wb_err *e) {
    (void)m;
    return reset_step(ctx, e);
}

static int member_launch(void *ctx, int m, wb_err *e) { return launch_kernel(ctx, m, e); }

/* Flush, then the kernel between two events; *ms = its event time. */
static int run_once(work *w, int k, double *ms) {
    wb_err e = {""};
    cudaEvent_t ev[2] = {NULL, NULL};
    float t = 0.0f;
    w->kernel = k;
    int rc = WB_CUDA(&e, cudaEventCreate(&ev[0]));
    if (rc == WB_OK) rc = WB_CUDA(&e, cudaEventCreate(&ev[1]));
    if (rc == WB_OK) rc = reset_step(w, &e);
    if (rc == WB_OK) rc = WB_CUDA(&e, cudaEventRecord(ev[0], 0));
    if (rc == WB_OK) rc = launch_step(w, &e);
    if (rc == WB_OK) rc = WB_CUDA(&e, cudaEventRecord(ev[1], 0));
    if (rc == WB_OK) rc = WB_CUDA(&e, cudaDeviceSynchronize());
    if (rc == WB_OK) rc = WB_CUDA(&e, cudaEventElapsedTime(&t, ev[0], ev[1]));
    for (int i = 0; i < 2; i++)
        if (ev[i]) cudaEventDestroy(ev[i]);
    if (rc != WB_OK) fprintf(stderr, "FAIL: %s: %s\n", kernel_label[k], e.msg);
    if (ms) *ms = t;
    return rc != WB_OK;
}

/* 64 spread elements of out against the host mirrors of the kernels. */
static int check_output(const work *w, int k) {
    int bad = 0;
    for (int64_t s = 0; s < 64; s++) {
        int64_t i = s * (w->n - 1) / 63;
        uint32_t got = 0, want = wb_ref_fill_value(i, 0, SEED);
        cudaError_t c = cudaMemcpy(&got, w->out + i, 4, cudaMemcpyDeviceToHost);
        if (c != cudaSuccess) return fail_cuda(c, "cudaMemcpy(out)");
        if (k == K_INST) want = wb_ref_inst_value(want, INST_ITERS);
        if (k == K_GATHER) want = wb_ref_fill_value(wb_ref_fill_value(i, (uint32_t)w->n, SEED + 1), 0, SEED);
        if (got != want && bad++ < 3)
            fprintf(stderr, "FAIL: %s: out[%lld] = %u, expected %u\n", kernel_label[k], (long long)i, got, want);
    }
    return bad != 0;
}

/* --no-cupti N: the same three kernels once each, for ncu to count. */
static int child(int64_t n) {
    wb_device d;
    wb_err e = {""};
    work w;
    if (wb_device_open(0, &d, &e) != WB_OK) return fprintf(stderr, "FAIL: %s\n", e.msg), 1;
    int rc = setup(&w, &d, n);
    for (int k = 0; rc == 0 && k < K_COUNT; k++) rc = run_once(&w, k, NULL) || check_output(&w, k);
    teardown(&w);
    return rc;
}

static double col(const wb_counters *c, const char *name) {
    int i = wb_metric_index(name);
    return i >= 0 ? c->v[i] : NAN;
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void print_counters(const wb_counters c[K_COUNT], const double pass_ms[K_COUNT], const double event_ms[K_COUNT],
                           int passes) {
    printf("\nin-process counters (CUPTI range profiler, %d replay passes per kernel)\n%-28s", passes, "column");
    for (int k = 0; k < K_COUNT; k++) printf(" %16s", kernel_label[k]);
    printf("\n");
    for (int i = 0; i < wb_n_metrics; i++) {
        printf("%-28s", wb_metrics[i].column);
        for (int k = 0; k < K_COUNT; k++) printf(" %16.6g", c[k].v[i]);
        printf("\n");
    }
    for (int g = 0; g < WB_STALL_GROUPS; g++) {
        printf("stall_%-22s", wb_stall_groups[g]);
        for (int k = 0; k < K_COUNT; k++) printf(" %16.6g", c[k].stall[g]);
        printf("\n");
    }
    const char *rows[] = {"launches",    "l1_sectors", "inst_per_sector", "gips", "event_ms (no profiler)",
                          "counter_pass_ms (host)"};
    for (int r = 0; r < 6; r++) {
        printf("%-28s", rows[r]);
        for (int k = 0; k < K_COUNT; k++) {
            double v[] = {c[k].launches, c[k].l1_sectors, c[k].inst_per_sector, c[k].gips, event_ms[k], pass_ms[k]};
            printf(" %16.6g", v[r]);
        }
        printf("\n");
    }
}

/* Splits one line of ncu's CSV ("..." fields, "" = a quote) in place. */
static int csv_fields(char *p, char **f, int max) {
    int n = 0;
    while (*p && n < max) {
        if (*p == '"') {
            char *w = ++p;
            f[n++] = w;
            while (*p && !(*p == '"' && p[1] != '"')) *w++ = (*p == '"') ? (p += 2, '"') : *p++;
            if (*p == '"') p++;
            *w = '\0';
        } else {
            f[n++] = p;
            while (*p && *p != ',') p++;
        }
        if (*p == ',') *p++ = '\0';
    }
    return n;
}

/* "1,234,567" (C locale thousands separators) -> 1234567; NaN if not a number. */
static double ncu_number(const char *s) {
    char digits[64];
    size_t j = 0;
    for (; *s && j + 1 < sizeof digits; s++)
        if (*s != ',') digits[j++] = *s;
    digits[j] = '\0';
    char *end = NULL;
    double v = strtod(digits, &end);
    return (j > 0 && end && *end == '\0') ? v : NAN;
}

/* Runs this binary under ncu; fills val[k][m] (NaN where missing). */
static int run_ncu(const char *ncu, int64_t n, double val[K_COUNT][M_COUNT], int seen[K_COUNT][M_COUNT]) {
    char exe[4096];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0) return fprintf(stderr, "FAIL: readlink(/proc/self/exe)\n"), 1;
    exe[len] = '\0';
    char cmd[8192];
    snprintf(cmd, sizeof cmd,
             "LC_ALL=C '%s' --clock-control none --csv --print-units base -k regex:^wb_ref_ --metrics %s,%s,%s "
             "'%s' --no-cupti %lld 2>&1",
             ncu, ncu_metric[M_INST], ncu_metric[M_READ], ncu_metric[M_WRITE], exe, (long long)n);
    printf("\n$ %s\n", cmd);
    fflush(stdout);
    FILE *p = popen(cmd, "r");
    if (!p) return fprintf(stderr, "FAIL: popen(ncu)\n"), 1;
    char line[8192];
    int kcol = -1, mcol = -1, vcol = -1;
    while (fgets(line, sizeof line, p)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] != '"') {
            printf("  %s\n", line); /* ncu's ==PROF== lines and the child's errors */
            continue;
        }
        char *f[64];
        int nf = csv_fields(line, f, 64);
        if (kcol < 0) { /* the header */
            for (int i = 0; i < nf; i++) {
                if (strcmp(f[i], "Kernel Name") == 0) kcol = i;
                if (strcmp(f[i], "Metric Name") == 0) mcol = i;
                if (strcmp(f[i], "Metric Value") == 0) vcol = i;
            }
            continue;
        }
        if (mcol < 0 || vcol < 0 || nf <= kcol || nf <= mcol || nf <= vcol) continue;
        for (int k = 0; k < K_COUNT; k++)
            for (int m = 0; m < M_COUNT; m++)
                if (strstr(f[kcol], kernel_fn[k]) && strcmp(f[mcol], ncu_metric[m]) == 0)
                    val[k][m] = ncu_number(f[vcol]), seen[k][m]++;
    }
    int status = pclose(p);
    if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return fprintf(stderr, "FAIL: ncu run failed (status %d)\n", status), 1;
    if (kcol < 0 || mcol < 0 || vcol < 0) return fprintf(stderr, "FAIL: no CSV header with Kernel/Metric columns\n"), 1;
    return 0;
}

static const char *find_ncu(char *buf, size_t len) {
    const char *env = getenv("WB_NCU");
    if (env && access(env, X_OK) == 0) return env;
    const char *path = getenv("PATH");
    while (path && *path) {
        size_t n = strcspn(path, ":");
        snprintf(buf, len, "%.*s/ncu", (int)n, path);
        if (n > 0 && access(buf, X_OK) == 0) return buf;
        path += n + (path[n] == ':');
    }
    snprintf(buf, len, "/usr/local/cuda/bin/ncu");
    return access(buf, X_OK) == 0 ? buf : NULL;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "--no-cupti") == 0) return child(strtoll(argv[2], NULL, 10));
    if (!wb_device_present()) return printf("SKIP: no usable GPU\n"), WB_TEST_SKIP;
    char ncu_buf[4096];
    const char *ncu = find_ncu(ncu_buf, sizeof ncu_buf);
    if (!ncu) return printf("SKIP: ncu not found (PATH, /usr/local/cuda/bin, $WB_NCU)\n"), WB_TEST_SKIP;

    wb_device d;
    wb_err e = {""};
    if (wb_device_open(0, &d, &e) != WB_OK) return fprintf(stderr, "FAIL: %s\n", e.msg), 1;
    size_t free_b = 0, total_b = 0;
    cudaError_t ce = cudaMemGetInfo(&free_b, &total_b);
    if (ce != cudaSuccess) return fail_cuda(ce, "cudaMemGetInfo");
    int64_t n = N_MAX;
    while (n > ((int64_t)1 << 22) && (double)n * 12 + 2.0 * d.l2_bytes > 0.8 * (double)free_b) n /= 2;
    printf("%s, %d SMs, L2 %.1f MiB: n = %lld uint32 per buffer (%.2f GiB), grid %d x %d\n", d.name, d.sms,
           d.l2_bytes / 1048576.0, (long long)n, n * 4.0 / 1073741824.0, d.sms * (d.max_threads_per_sm / BLOCK), BLOCK);

    work w;
    if (setup(&w, &d, n)) return teardown(&w), 1;
    wb_counters_session *s = NULL;
    if (wb_counters_open(&d, WB_COUNTER_SET_ALL, &s, &e) != WB_OK) {
        /* ncu is here, so the profiler should be too: not a skip. */
        fprintf(stderr, "FAIL: %s\n", e.msg);
        return teardown(&w), 1;
    }
    printf("%s\n", wb_counters_summary(s));
    CHECK(!wb_counters_profiling(s)); /* timed samples run between collections */
    wb_counters c[K_COUNT];
    double pass_ms[K_COUNT], event_ms[K_COUNT];
    for (int k = 0; k < K_COUNT; k++) {
        /* warm-up: module load stays out of the range; its event time shows what the range adds */
        if (run_once(&w, k, &event_ms[k])) wb_test_failures++;
        w.kernel = k;
        double t0 = now_ms();
        if (wb_counters_collect(s, reset_step, launch_step, &w, &c[k], &e) != WB_OK) {
            fprintf(stderr, "FAIL: %s: collect: %s\n", kernel_label[k], e.msg);
            wb_test_failures++;
        }
        pass_ms[k] = now_ms() - t0;
        CHECK(!wb_counters_profiling(s));
        wb_counters_derive(&c[k], NAN, NULL, NULL, NULL);
        if (check_output(&w, k)) wb_test_failures++;
    }
    /* The three kernels again as one batch, the run's way of counting points
     * that share data: each member must match its own single collection. */
    wb_counters cb[K_COUNT];
    wb_batch batch = {K_COUNT, member_reset, member_launch, &w};
    int failed = -1;
    if (wb_counters_collect_batch(s, &batch, cb, &failed, &e) != WB_OK) {
        fprintf(stderr, "FAIL: batch of %d: collect: %s (member %d)\n", K_COUNT, e.msg, failed);
        wb_test_failures++;
    }
    for (int k = 0; k < K_COUNT; k++) {
        double si = col(&c[k], "dram_sectors_read") + col(&c[k], "dram_sectors_write");
        double sb = col(&cb[k], "dram_sectors_read") + col(&cb[k], "dram_sectors_write");
        printf("batch member %d (%s): inst %.0f (alone %.0f), DRAM sectors %.0f (alone %.0f), launches %d\n", k,
               kernel_label[k], col(&cb[k], "inst"), col(&c[k], "inst"), sb, si, cb[k].launches);
        CHECK(col(&cb[k], "inst") == col(&c[k], "inst"));
        CHECK(fabs(sb - si) <= 0.03 * si);
        CHECK(cb[k].launches == 1);
    }
    int passes = wb_counters_passes(s);
    wb_counters_close(s);
    /* The roofline set (the quick sweep's): the same instructions and DRAM
     * sectors as the whole set, in fewer passes, no stall reasons. */
    wb_counters_session *rs = NULL;
    if (wb_counters_open(&d, WB_COUNTER_SET_ROOFLINE, &rs, &e) != WB_OK) {
        fprintf(stderr, "FAIL: roofline set: %s\n", e.msg);
        wb_test_failures++;
    } else {
        printf("%s\n", wb_counters_summary(rs));
        CHECK(wb_counters_passes(rs) < passes);
        for (int k = 0; k < K_COUNT; k++) {
            wb_counters cr;
            w.kernel = k;
            if (wb_counters_collect(rs, reset_step, launch_step, &w, &cr, &e) != WB_OK) {
                fprintf(stderr, "FAIL: %s: roofline set: collect: %s\n", kernel_label[k], e.msg);
                wb_test_failures++;
                continue;
            }
            double sr = col(&cr, "dram_sectors_read") + col(&cr, "dram_sectors_write");
            double sa = col(&c[k], "dram_sectors_read") + col(&c[k], "dram_sectors_write");
            printf("roofline set, %s: inst %.0f (all %.0f), DRAM sectors %.0f (all %.0f)\n", kernel_label[k],
                   col(&cr, "inst"), col(&c[k], "inst"), sr, sa);
            CHECK(col(&cr, "inst") == col(&c[k], "inst"));
            CHECK(fabs(sr - sa) <= 0.03 * sa);
            CHECK(isnan(col(&cr, "stall_raw_long_scoreboard")) && isnan(col(&cr, "l2_throughput_pct")));
            CHECK(col(&cr, "kernel_time_ms") > 0);
        }
        wb_counters_close(rs);
    }
    teardown(&w);
    print_counters(c, pass_ms, event_ms, passes);
    /* ncu's process must find the GPU's counters free: no context of ours left. */
    if ((ce = cudaDeviceReset()) != cudaSuccess) return fail_cuda(ce, "cudaDeviceReset");

    double nv[K_COUNT][M_COUNT];
    int seen[K_COUNT][M_COUNT] = {{0}};
    for (int k = 0; k < K_COUNT; k++)
        for (int m = 0; m < M_COUNT; m++) nv[k][m] = NAN;
    if (run_ncu(ncu, n, nv, seen)) return 1;

    int issued = 0;
    while (issued < WB_STALL_GROUPS - 1 && strcmp(wb_stall_groups[issued], "issued") != 0) issued++;
    printf("\n%-7s %16s %16s %14s %14s %8s %14s %8s %9s\n", "kernel", "inst cupti", "inst ncu", "sectors cupti",
           "sectors ncu", "diff%", "bytes/32", "diff%", "launches");
    for (int k = 0; k < K_COUNT; k++) {
        double inst = col(&c[k], "inst");
        double sect = col(&c[k], "dram_sectors_read") + col(&c[k], "dram_sectors_write");
        double nsect = nv[k][M_READ] + nv[k][M_WRITE];
        double diff = 100.0 * (sect - nsect) / nsect;
        double model = k == K_COPY ? 2.0 * (double)n * 4 / 32 : NAN; /* n * 4 bytes read, as many written */
        double mdiff = 100.0 * (sect - model) / model;
        printf("%-7s %16.0f %16.0f %14.0f %14.0f %8.3f %14.0f %8.3f %9d\n", kernel_label[k], inst, nv[k][M_INST], sect,
               nsect, diff, model, mdiff, c[k].launches);
        for (int m = 0; m < M_COUNT; m++)
            if (seen[k][m] != 1) {
                fprintf(stderr, "FAIL: ncu reported %s for %s %d time(s), expected once\n", ncu_metric[m],
                        kernel_fn[k], seen[k][m]);
                wb_test_failures++;
            }
        if (!(inst == nv[k][M_INST] && inst > 0)) {
            fprintf(stderr, "FAIL: %s: instructions differ: %.0f in-process, %.0f ncu\n", kernel_label[k], inst,
                    nv[k][M_INST]);
            wb_test_failures++;
        }
        if (!(fabs(diff) <= 3.0)) {
            fprintf(stderr, "FAIL: %s: DRAM sectors %.3f%% from ncu (limit 3%%)\n", kernel_label[k], diff);
            wb_test_failures++;
        }
        if (k == K_COPY && !(fabs(mdiff) <= 2.0)) {
            fprintf(stderr, "FAIL: copy: DRAM sectors %.3f%% from bytes/32 (limit 2%%)\n", mdiff);
            wb_test_failures++;
        }
        CHECK(c[k].launches == 1);
        for (int g = 0; g < WB_STALL_GROUPS; g++) CHECK(isfinite(c[k].stall[g]) && c[k].stall[g] >= 0);
        CHECK(c[k].stall[issued] > 0); /* every kernel issued something */
        CHECK(isfinite(c[k].inst_per_sector) && c[k].inst_per_sector > 0 && c[k].gips > 0);
    }
    /* The instruction-heavy kernel sits far right of the two memory-bound ones. */
    CHECK(c[K_INST].inst_per_sector > 10 * c[K_COPY].inst_per_sector);
    CHECK(c[K_INST].inst_per_sector > 10 * c[K_GATHER].inst_per_sector);
    return TEST_DONE();
}

/* test_gbench.c - the Google Benchmark shim without a GPU: fake points whose
 * samples take known times run through the real library. The suite's
 * console reporter prints exactly the lines the C side hands it, one per
 * call, on stdout, and none of Google Benchmark's table; with
 * --benchmark_format=json stdout holds the library's JSON, with the user
 * counters (median and every sample), and the point lines move to stderr;
 * --benchmark_out writes the JSON file beside the console lines; a skipped
 * call gets its line too. Each case runs in a child, since Google Benchmark
 * keeps global flags. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/check.h"
#include "harness/run/gbench.h"

typedef struct fake {
    const char *name;
    int skip;
    double seconds; /* of every sample */
} fake;

static int setup(void *ctx, int repetition, wb_err *e) {
    const fake *f = ctx;
    (void)repetition;
    return f->skip ? wb_skip(e, "does not fit") : WB_OK;
}

static int sample(void *ctx, int index, double *seconds, wb_err *e) {
    const fake *f = ctx;
    (void)e;
    *seconds = f->seconds * (1 + 0.01 * index);
    return WB_OK;
}

static int finish(void *ctx, int status, wb_gb_state *st, wb_err *e) {
    const fake *f = ctx;
    char line[256];
    snprintf(line, sizeof line, "LINE %s %s", f->name, status == WB_OK ? "ok" : e->msg);
    wb_gb_line(line);
    if (status == WB_OK) {
        wb_gb_counter(st, "median_ms", f->seconds * 1e3);
        wb_gb_counter(st, "sample_000_ms", f->seconds * 1e3);
    }
    return status;
}

static const wb_gb_calls calls = {setup, sample, finish};

/* Runs the fakes with the extra flag in a child; its stdout and stderr
 * land in out and err (NUL-terminated). Returns the child's exit code. */
static int run_case(const char *flag, const char *flag2, char *out, char *err, size_t len) {
    char outp[] = "/tmp/wb_test_gbench_outXXXXXX", errp[] = "/tmp/wb_test_gbench_errXXXXXX";
    int fo = mkstemp(outp), fe = mkstemp(errp);
    if (fo < 0 || fe < 0) return -1;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fo, 1), dup2(fe, 2);
        char *argv[] = {"wallbench", (char *)flag, (char *)flag2, NULL};
        int argc = flag2 ? 3 : flag ? 2 : 1;
        static fake f[] = {{"a/x/n:1", 0, 0.002}, {"a/y/n:1", 1, 0}, {"b/x/n:7", 0, 0.0005}};
        wb_err e;
        if (wb_gb_init(&argc, argv, &e) != WB_OK) _exit(2);
        for (int i = 0; i < 3; i++)
            if (wb_gb_register(f[i].name, 3, &calls, &f[i], &e) != WB_OK) _exit(3);
        int64_t matched = 0;
        int rc = wb_gb_run(&matched, &e) == WB_OK && matched == 3 ? 0 : 4;
        wb_gb_shutdown();
        fflush(NULL);
        _exit(rc);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    ssize_t n = pread(fo, out, len - 1, 0);
    out[n > 0 ? n : 0] = '\0';
    n = pread(fe, err, len - 1, 0);
    err[n > 0 ? n : 0] = '\0';
    close(fo), close(fe), unlink(outp), unlink(errp);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int count(const char *s, const char *needle) {
    int n = 0;
    for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle)) n++;
    return n;
}

int main(void) {
    static char out[1 << 16], err[1 << 16];
    CHECK(run_case(NULL, NULL, out, err, sizeof out) == 0);
    CHECK(strcmp(out, "LINE a/x/n:1 ok\nLINE a/y/n:1 does not fit\nLINE b/x/n:7 ok\n") == 0);
    CHECK(!strstr(out, "Benchmark") && !strstr(out, "CPU") && !strstr(err, "DEBUG"));

    CHECK(run_case("--benchmark_format=json", NULL, out, err, sizeof out) == 0);
    CHECK(out[0] == '{' && strstr(out, "\"benchmarks\""));
    CHECK(count(out, "\"median_ms\"") == 2 && count(out, "\"sample_000_ms\"") == 2);
    CHECK(!strstr(out, "LINE ") && count(err, "LINE ") == 3);

    char path[] = "/tmp/wb_test_gbench_jsonXXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    char flag[64];
    snprintf(flag, sizeof flag, "--benchmark_out=%s", path);
    CHECK(run_case(flag, "--benchmark_out_format=json", out, err, sizeof out) == 0);
    CHECK(count(out, "LINE ") == 3);
    static char file[1 << 16];
    ssize_t n = fd >= 0 ? pread(fd, file, sizeof file - 1, 0) : -1;
    file[n > 0 ? n : 0] = '\0';
    CHECK(strstr(file, "\"benchmarks\"") && count(file, "\"median_ms\"") == 2);
    if (fd >= 0) close(fd), unlink(path);
    return TEST_DONE();
}

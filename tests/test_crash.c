/* test_crash.c - a run killed with SIGKILL leaves a results file that opens
 * and holds every point it finished (issue 2). A child process writes rows
 * through the store and is killed with the file still open: first right
 * after its K-th append returned (K = 0 included), then at an arbitrary
 * moment while it appends rows and rewrites an attribute as fast as it can. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/check.h"
#include "harness/store/store_h5.h"
#include "tests/row_fixture.h"

static char dir[] = "/tmp/wb_test_crash_XXXXXX";

/* Child side: appends row k with its samples; exits 2 on any error so that
 * the parent sees an error and not the kill. */
static void child_append(wb_store *s, int64_t k) {
    wb_err e = {""};
    wb_row r;
    double ms[3];
    fixture_row(&r, k);
    for (int j = 0; j < fixture_nsamples(k); j++) ms[j] = fixture_sample(k, j);
    if (wb_store_append(s, &r, ms, fixture_nsamples(k), &e) != WB_OK || r.m.id != k) {
        fprintf(stderr, "child: row %lld: %s\n", (long long)k, e.msg);
        _exit(2);
    }
}

static wb_store *child_create(const char *path) {
    wb_err e = {""};
    wb_store *s;
    if (wb_store_create(path, &s, &e) != WB_OK || wb_store_attr_str(s, "git_rev", "crash-test", &e) != WB_OK) {
        fprintf(stderr, "child: %s\n", e.msg);
        _exit(2);
    }
    return s;
}

static void expect_killed(pid_t pid) {
    int status = 0;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

/* Opens path and checks at least min_rows rows, each one as written. */
static int64_t check_survivors(const char *path, int64_t min_rows) {
    wb_results res;
    wb_err e = {""};
    CHECK(wb_results_open(path, &res, &e) == WB_OK);
    if (e.msg[0]) fprintf(stderr, "%s\n", e.msg);
    CHECK(res.nrows >= min_rows);
    for (int64_t k = 0; k < res.nrows; k++) {
        wb_row want;
        char label[96];
        fixture_expect(&want, k);
        snprintf(label, sizeof label, "%s row %lld", path, (long long)k);
        CHECK(fixture_diff(&res.rows[k], &want, label) == 0);
        CHECK(res.sample_count[k] == fixture_nsamples(k));
        for (int j = 0; j < res.sample_count[k]; j++)
            CHECK(res.sample_ms[res.sample_start[k] + j] == fixture_sample(k, j));
    }
    const char *rev = wb_results_attr(&res, "git_rev");
    CHECK(rev && strcmp(rev, "crash-test") == 0);
    int64_t n = res.nrows;
    wb_results_free(&res);
    return n;
}

/* Killed by its own SIGKILL right after the K-th append returned. */
static void crash_after(int64_t k_rows) {
    char path[256];
    snprintf(path, sizeof path, "%s/after_%lld.h5", dir, (long long)k_rows);
    fflush(NULL);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        wb_store *s = child_create(path);
        for (int64_t k = 0; k < k_rows; k++) child_append(s, k);
        raise(SIGKILL);
        _exit(3);
    }
    expect_killed(pid);
    CHECK(check_survivors(path, k_rows) == k_rows);
}

/* Killed by the parent at whatever the child is doing once it has reported
 * `acked` finished rows: possibly inside the next append or attribute
 * rewrite. Every acknowledged row must be there; the one in flight may be. */
static void crash_during(int64_t acked) {
    char path[256];
    int fd[2];
    snprintf(path, sizeof path, "%s/during_%lld.h5", dir, (long long)acked);
    CHECK(pipe(fd) == 0);
    fflush(NULL);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        if (close(fd[0]) != 0) _exit(2);
        wb_store *s = child_create(path);
        for (int64_t k = 0; k < 100000; k++) {
            wb_err e = {""};
            child_append(s, k);
            /* Attributes change mid-run too: in place (same type), and
             * replaced by a longer one now and then. */
            char grow[64];
            snprintf(grow, sizeof grow, "%0*d", (int)(k / 16 % 60) + 1, 0);
            if (wb_store_attr_f64(s, "progress", (double)k, &e) != WB_OK ||
                (k % 16 == 0 && wb_store_attr_str(s, "growing", grow, &e) != WB_OK)) {
                fprintf(stderr, "child: %s\n", e.msg);
                _exit(2);
            }
            if (write(fd[1], &k, sizeof k) != (ssize_t)sizeof k) _exit(2);
        }
        _exit(3); /* the parent kills it long before */
    }
    CHECK(close(fd[1]) == 0);
    int64_t k = -1;
    while (k + 1 < acked && read(fd[0], &k, sizeof k) == (ssize_t)sizeof k) {}
    CHECK(k + 1 == acked);
    CHECK(kill(pid, SIGKILL) == 0);
    expect_killed(pid);
    CHECK(close(fd[0]) == 0);
    int64_t n = check_survivors(path, acked);
    if (n < acked) fprintf(stderr, "%s: %lld rows, %lld were acknowledged\n", path, (long long)n, (long long)acked);
}

int main(void) {
    if (!mkdtemp(dir)) return perror("mkdtemp"), 1;
    static const int64_t after[] = {0, 1, 5, 64, 130};
    for (size_t i = 0; i < sizeof after / sizeof after[0]; i++) crash_after(after[i]);
    static const int64_t during[] = {1, 3, 17, 64, 65, 200};
    for (size_t i = 0; i < sizeof during / sizeof during[0]; i++) crash_during(during[i]);
    if (!wb_test_failures) {
        char cmd[300];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        CHECK(system(cmd) == 0);
    } else fprintf(stderr, "files kept in %s\n", dir);
    return TEST_DONE();
}

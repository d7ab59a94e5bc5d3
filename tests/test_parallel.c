/* test_parallel.c - WB_HOST_THREADS sets the host loop's workers (read once,
 * before the first loop), wb_par_set_workers overrides it, and a loop run
 * with it still covers every row exactly once. A malformed value is said on
 * stderr and left aside (checked in a child process: the count is read once).
 * A fingerprint summed on several workers is the serial sum (fingerprint.h). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "micro/fingerprint.h"
#include "micro/parallel.h"
#include "tests/check.h"

typedef struct visit {
    _Atomic int rows[10007];
    _Atomic int used[WB_PAR_MAX];
} visit;

static void mark(void *ctx, int worker, int64_t chunk, int64_t begin, int64_t end) {
    visit *v = ctx;
    (void)chunk;
    atomic_store(&v->used[worker], 1);
    for (int64_t i = begin; i < end; i++) atomic_fetch_add(&v->rows[i], 1);
}

/* The child: WB_HOST_THREADS=3x gives one worker per online CPU. */
static int bad_value_child(void) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int want = cores < 1 ? 1 : cores > WB_PAR_MAX ? WB_PAR_MAX : (int)cores;
    CHECK(wb_par_workers() == want);
    return TEST_DONE();
}

static void check_bad_value(const char *self) {
    char err[] = "/tmp/wb_test_parallel_XXXXXX", cmd[4096], line[256] = "";
    int fd = mkstemp(err);
    CHECK(fd >= 0);
    if (fd < 0) return;
    close(fd);
    snprintf(cmd, sizeof cmd, "WB_HOST_THREADS=3x '%s' bad 2>'%s'", self, err);
    CHECK(system(cmd) == 0);
    FILE *f = fopen(err, "r");
    CHECK(f && fgets(line, sizeof line, f) && strstr(line, "WB_HOST_THREADS=3x is not a number of workers"));
    if (f) fclose(f);
    remove(err);
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "bad") == 0) return bad_value_child();
    check_bad_value(argv[0]);
    /* Before any loop: the count is read once and kept. */
    setenv("WB_HOST_THREADS", "3", 1);
    CHECK(wb_par_workers() == 3);
    static visit v;
    wb_par_chunks(10007, 100, mark, &v);
    int once = 1, workers = 0;
    for (int i = 0; i < 10007; i++) once &= atomic_load(&v.rows[i]) == 1;
    for (int w = 0; w < WB_PAR_MAX; w++) workers += atomic_load(&v.used[w]);
    CHECK(once);
    CHECK(workers >= 1 && workers <= 3);
    CHECK(atomic_load(&v.used[3]) == 0); /* worker indices stay below the count */
    wb_par_set_workers(7);
    CHECK(wb_par_workers() == 7);
    wb_par_set_workers(0); /* back to WB_HOST_THREADS, not to the CPUs */
    CHECK(wb_par_workers() == 3);
    /* The fingerprint summed on 3 workers is the serial sum of its terms. */
    const int64_t n = 3000017;
    uint32_t *x = malloc((size_t)n * 4);
    CHECK(x != NULL);
    if (x) {
        uint64_t serial = 0;
        for (int64_t i = 0; i < n; i++) {
            x[i] = (uint32_t)(i * 2654435761u);
            serial += wb_print_term((uint64_t)(i + 5), x[i]);
        }
        CHECK(wb_print_host(x, n, 4, 5) == serial);
        uint64_t fill = 0;
        for (int64_t i = 0; i < n; i++) fill += wb_print_term((uint64_t)i, 0xAAAAAAAAAAAAAAAAull);
        CHECK(wb_print_fill(n, 8, 0xAA, 0) == fill);
        free(x);
    }
    return TEST_DONE();
}

/* test_profile_watch.c - the verdict of a pass's watch file (harness/profile/watch.c) on written
 * files: a clean pass is undisturbed (the idle 0x1, application clocks 0x2 and sync boost 0x10
 * reasons are no slowdown); a hardware or thermal slowdown in any sample, the power cap in 10% of
 * the samples or more, or a pid that is neither the program's nor the profiler's is disturbed,
 * with the numbers; where no listed pid is the profile's own (a container's namespace) the count
 * decides; another GPU's lines do not count; no file, "# not watched", no sample of the GPU,
 * readings that all failed and malformed lines are "not checked". And the watch itself starts and
 * stops here, where NVML may be missing: its file then says why. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/profile/watch.h"
#include "tests/check.h"

static char dir[] = "/tmp/wb_test_watch_XXXXXX";
#define A "GPU-aaaaaaaa-0000-0000-0000-000000000000"
#define B "GPU-bbbbbbbb-0000-0000-0000-000000000000"
#define HEAD "# wallbench-watch 2 pass=timing period_ms=100 profiler_pid=900\n"

static const int program[] = {1000, 1001}; /* the pass's raw files' pids */

static int verdict(const char *text, const char *uuid, int ours, char *msg, size_t len) {
    char path[256];
    snprintf(path, sizeof path, "%s/w.tsv", dir);
    FILE *f = fopen(path, "w");
    if (f) fputs(text, f), fclose(f);
    return wb_watch_verdict(path, uuid, program, 2, ours, msg, len);
}

int main(void) {
    if (!mkdtemp(dir)) return fprintf(stderr, "mkdtemp\n"), 1;
    char msg[400];
    /* clean: reasons that are no slowdown; the program's process, then the profiler's too (--sample) */
    const char *clean = HEAD "W\t0.000\t" A "\t0x1\t1\t1000\t3\nW\t0.300\t" A "\t0x12\t2\t900,1000\t5\n"
                             "W\t0.000\t" B "\t0x20\t3\t1000,2000,2001\t4\n# end 8\n";
    CHECK(verdict(clean, A, 1, msg, sizeof msg) == 0 && strstr(msg, "undisturbed: 8 samples; no slowdown") &&
          strstr(msg, "no other process on it (by pid)"));
    /* B: thermal (0x20) in all 4, and two pids of nobody's */
    CHECK(verdict(clean, B, 1, msg, sizeof msg) == 1 && strstr(msg, "disturbed: 4 samples; 4 of 4 samples slowed") &&
          strstr(msg, "0x20") && strstr(msg, "2 other process(es) held the GPU in 4 of 4 samples (pid 2000, ...)"));
    /* the power cap: 1 sample in 20 is the board's own (undisturbed, said), 2 in 10 is not */
    CHECK(verdict(HEAD "W\t0\t" A "\t0x0\t1\t1000\t19\nW\t1.9\t" A "\t0x4\t1\t1000\t1\n", A, 1, msg, sizeof msg) == 0 &&
          strstr(msg, "undisturbed") && strstr(msg, "1 at the power cap"));
    CHECK(verdict(HEAD "W\t0\t" A "\t0x0\t1\t1000\t8\nW\t0.8\t" A "\t0x4\t1\t1000\t2\n", A, 1, msg, sizeof msg) == 1 &&
          strstr(msg, "2 at the power cap"));
    /* pids of another namespace (none is the profile's): the count decides */
    const char *container = HEAD "W\t0\t" A "\t0x0\t2\t51234,51235\t6\n";
    CHECK(verdict(container, A, 2, msg, sizeof msg) == 0 && strstr(msg, "(by count)"));
    CHECK(verdict(container, A, 1, msg, sizeof msg) == 1 && strstr(msg, "up to 1 process(es) beyond the profile's own 1"));
    /* the processes unread: the reasons still judged */
    CHECK(verdict(HEAD "W\t0\t" A "\t0x8\t-1\t-\t3\n", A, 1, msg, sizeof msg) == 1 && strstr(msg, "3 of 3 samples slowed") &&
          strstr(msg, "(not read)"));
    /* not checked */
    CHECK(verdict(HEAD "# not watched: dlopen(libnvidia-ml.so.1): not found\n", A, 1, msg, sizeof msg) == -1 &&
          strstr(msg, "not checked: dlopen"));
    CHECK(verdict(HEAD "W\t0\t" B "\t0x0\t1\t1000\t2\n", A, 1, msg, sizeof msg) == -1 && strstr(msg, "no sample of " A));
    CHECK(verdict(HEAD "W\t0\t" A "\t-\t-1\t-\t4\n", A, 1, msg, sizeof msg) == -1 && strstr(msg, "answered none of 4"));
    const char *bad[] = {"W\t0\t" A "\t0x0\t1\t1000\n", "W\t0\t" A "\t0xZZ\t1\t1000\t1\n", "W\t0\t" A "\t0x0\t1\t1000\t1\tx\n",
                         "W\t0\t" A "\t0x0\t1\t10a0\t1\n", "W\t0\t" A "\t0x0\t1\t1000\t0\n", "W\t0\t" A "\t7\t1\t1000\t1\n",
                         "X\t0\n"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char text[512];
        snprintf(text, sizeof text, "%s%s", HEAD, bad[i]);
        CHECK(verdict(text, A, 1, msg, sizeof msg) == -1 && strstr(msg, "line 2 is malformed"));
        if (!strstr(msg, "malformed")) fprintf(stderr, "bad line %zu: %s\n", i, msg);
    }
    CHECK(wb_watch_verdict("/nonexistent/watch.timing.tsv", A, program, 2, 1, msg, sizeof msg) == -1 &&
          strstr(msg, "no watch file"));
    /* the watch itself: a file always; without NVML it says why, with it W lines and an end */
    char path[256];
    snprintf(path, sizeof path, "%s/watch.counters.tsv", dir);
    wb_err e = {""};
    wb_watch *w = wb_watch_start(path, "counters", &e);
    CHECK(w != NULL);
    usleep(250000);
    wb_watch_stop(w);
    FILE *f = fopen(path, "r");
    char all[8192] = "";
    size_t n = f ? fread(all, 1, sizeof all - 1, f) : 0;
    all[n] = '\0';
    if (f) fclose(f);
    char head[128];
    snprintf(head, sizeof head, "# wallbench-watch 2 pass=counters period_ms=100 profiler_pid=%d\n", (int)getpid());
    CHECK(!strncmp(all, head, strlen(head)));
    CHECK(strstr(all, "# not watched: ") || (strstr(all, "\nW\t") && strstr(all, "\tGPU-") && strstr(all, "\n# end ")));
    CHECK(wb_watch_start("/nonexistent/dir/watch.tsv", "timing", &e) == NULL && strstr(e.msg, "cannot write"));
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    return TEST_DONE();
}

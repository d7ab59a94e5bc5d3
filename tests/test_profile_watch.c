/* test_profile_watch.c - the verdict of a pass's watch file (harness/profile/watch.c) on written
 * files: a clean pass is undisturbed; a power or thermal reason in any sample, or more processes
 * on the GPU than the profile's own, is disturbed, with the numbers; another GPU's samples do not
 * count; no file, "# not watched", no sample of the GPU, unread readings and a malformed line are
 * "not checked". And the watch itself starts and stops here, where NVML may be missing: its file
 * then says why, and the verdict says "not checked". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/profile/watch.h"
#include "tests/check.h"

static char dir[] = "/tmp/wb_test_watch_XXXXXX";
#define A "GPU-aaaaaaaa-0000-0000-0000-000000000000"
#define B "GPU-bbbbbbbb-0000-0000-0000-000000000000"

static const char *file(const char *name, const char *text) {
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (f) fputs(text, f), fclose(f);
    return path;
}

static int verdict(const char *text, const char *uuid, int ours, char *msg, size_t len) {
    return wb_watch_verdict(file("w.tsv", text), uuid, ours, msg, len);
}

int main(void) {
    if (!mkdtemp(dir)) return fprintf(stderr, "mkdtemp\n"), 1;
    char msg[400];
    const char *head = "# wallbench-watch 1 pass=timing period_ms=100\n";
    char text[2048];
    /* clean: idle and application-clock reasons (0x1) are no throttle; one process, the program's */
    snprintf(text, sizeof text, "%sW\t0.000\t" A "\t0x1\t0\nW\t0.100\t" A "\t0x0\t1\nW\t0.200\t" B "\t0x20\t3\n", head);
    CHECK(verdict(text, A, 1, msg, sizeof msg) == 0 && strstr(msg, "undisturbed: 2 samples") && strstr(msg, "at most 1"));
    /* B throttled (0x20, SW thermal) and held by 3: its own verdict */
    CHECK(verdict(text, B, 1, msg, sizeof msg) == 1 && strstr(msg, "1 of 1 samples throttled") && strstr(msg, "0x20") &&
          strstr(msg, "up to 2 process(es) beyond the profile's own 1"));
    /* a power cap (0x4) in one sample of three */
    snprintf(text, sizeof text, "%sW\t0\t" A "\t0x0\t1\nW\t0.1\t" A "\t0x4\t1\nW\t0.2\t" A "\t0x1\t1\n", head);
    CHECK(verdict(text, A, 1, msg, sizeof msg) == 1 && strstr(msg, "1 of 3 samples throttled") && !strstr(msg, "beyond"));
    /* another process: 2 listed where the profile has 1 (its sampler counted: 2 is fine) */
    snprintf(text, sizeof text, "%sW\t0\t" A "\t0x0\t2\n", head);
    CHECK(verdict(text, A, 1, msg, sizeof msg) == 1 && strstr(msg, "up to 1 process(es) beyond"));
    CHECK(verdict(text, A, 2, msg, sizeof msg) == 0);
    /* not checked: NVML missing, the GPU never sampled, every reading failed, a malformed line, no file */
    snprintf(text, sizeof text, "%s# not watched: dlopen(libnvidia-ml.so.1): not found\n", head);
    CHECK(verdict(text, A, 1, msg, sizeof msg) == -1 && strstr(msg, "not checked: dlopen"));
    snprintf(text, sizeof text, "%sW\t0\t" B "\t0x0\t1\n", head);
    CHECK(verdict(text, A, 1, msg, sizeof msg) == -1 && strstr(msg, "no sample of " A));
    snprintf(text, sizeof text, "%sW\t0\t" A "\t-\t-1\n", head);
    CHECK(verdict(text, A, 1, msg, sizeof msg) == -1 && strstr(msg, "answered none"));
    const char *bad[] = {"W\t0\t" A "\t0x0\n", "W\t0\t" A "\t0xZZ\t1\n", "W\t0\t" A "\t0x0\t1\textra\n", "X\t0\n"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(text, sizeof text, "%s%s", head, bad[i]);
        CHECK(verdict(text, A, 1, msg, sizeof msg) == -1 && strstr(msg, "line 2 is malformed"));
    }
    CHECK(wb_watch_verdict("/nonexistent/watch.timing.tsv", A, 1, msg, sizeof msg) == -1 && strstr(msg, "no watch file"));
    /* the watch itself: a file always; without NVML it says why, with it W lines for some GPU */
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
    CHECK(!strncmp(all, "# wallbench-watch 1 pass=counters period_ms=100\n", 48));
    CHECK(strstr(all, "# not watched: ") || (strstr(all, "\nW\t") && strstr(all, "\tGPU-")));
    CHECK(wb_watch_start("/nonexistent/dir/watch.tsv", "timing", &e) == NULL && strstr(e.msg, "cannot write"));
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    return TEST_DONE();
}

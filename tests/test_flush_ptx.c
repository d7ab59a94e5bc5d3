/* test_flush_ptx.c - the counter pass's own kernels (harness/profile/inject/flush_ptx.h), and the
 * kernel of the profiler's threaded test program (tests/profile_threads_ptx.h), assemble
 * with the toolkit's ptxas for sm_80, the oldest GPU the suite supports, and sm_90 (the H200):
 * the driver compiles them only on the GPU, where a PTX error would leave a profile without its
 * L2 flush. A PTX with an unknown instruction must fail to assemble (the check can fail). Skipped
 * (77) without ptxas. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/profile/inject/flush_ptx.h"
#include "tests/profile_threads_ptx.h"
#include "tests/check.h"

#ifndef WB_PTXAS
#define WB_PTXAS "ptxas"
#endif

/* 0: ptxas assembled ptx for arch; else its exit status (or -1: could not run it). */
static int assemble(const char *ptx, const char *arch) {
    char path[] = "/tmp/wb_flush_ptx_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return -1;
    size_t len = strlen(ptx);
    int ok = write(fd, ptx, len) == (ssize_t)len;
    close(fd);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' -arch=%s '%s' -o /dev/null > /dev/null 2>&1", WB_PTXAS, arch, path);
    int rc = ok ? system(cmd) : -1;
    unlink(path);
    return rc;
}

int main(void) {
    char probe[600];
    snprintf(probe, sizeof probe, "'%s' --version > /dev/null 2>&1", WB_PTXAS);
    if (system(probe) != 0) {
        printf("SKIP: %s not found\n", WB_PTXAS);
        return WB_TEST_SKIP;
    }
    static const char *const archs[] = {"sm_80", "sm_90"};
    for (size_t a = 0; a < sizeof archs / sizeof archs[0]; a++) {
        CHECK(assemble(flush_ptx, archs[a]) == 0);
        CHECK(assemble(discard_ptx, archs[a]) == 0);
        CHECK(assemble(accumulate_ptx, archs[a]) == 0); /* gpu_profile_threads.sh's program */
    }
    char broken[sizeof discard_ptx + 16];
    snprintf(broken, sizeof broken, "%s", discard_ptx);
    char *at = strstr(broken, "discard.global.L2");
    CHECK(at != NULL);
    if (at) memcpy(at, "discord", 7); /* no such instruction */
    CHECK(assemble(broken, "sm_80") != 0);
    return TEST_DONE();
}

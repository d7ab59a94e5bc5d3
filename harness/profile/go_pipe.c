/* go_pipe.c - the profiler's start signal to the program (go_pipe.h). */
#include "harness/profile/go_pipe.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness/base/clock.h"

int wb_go_pipe_open(int fds[2], char *env, size_t len) {
    struct stat sb;
    if (pipe2(fds, O_CLOEXEC) != 0) return -1;
    if (fstat(fds[0], &sb) != 0) {
        int err = errno;
        close(fds[0]), close(fds[1]);
        errno = err;
        return -1;
    }
    snprintf(env, len, "%s=%d:%llu", WB_GO_PIPE_ENV, fds[0], (unsigned long long)sb.st_ino);
    return 0;
}

double wb_go_pipe_wait(const char *value) {
    int fd = -1;
    unsigned long long ino = 0;
    char tail;
    struct stat sb;
    if (!value || sscanf(value, "%d:%llu%c", &fd, &ino, &tail) != 2 || fd < 0 || fstat(fd, &sb) != 0 ||
        !S_ISFIFO(sb.st_mode) || (unsigned long long)sb.st_ino != ino)
        return -1;
    double t0 = wb_clock_s();
    char buf[64];
    ssize_t got;
    while ((got = read(fd, buf, sizeof buf)) > 0 || (got < 0 && errno == EINTR)) {}
    close(fd);
    return wb_clock_s() - t0;
}

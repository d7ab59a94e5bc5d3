/* test_profile_go.c - --sample's start signal (go_pipe.h, child.h's hook): the
 * program waits until the profiler closes the pipe, and only on that pipe. */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness/profile/child.h"
#include "harness/profile/go_pipe.h"
#include "tests/check.h"

static void sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void *close_later(void *arg) {
    sleep_ms(300);
    close(*(int *)arg);
    return NULL;
}

typedef struct hook_ctx {
    int fd;
    int calls;
} hook_ctx;

static void close_after_300ms(void *arg) {
    hook_ctx *c = arg;
    c->calls++;
    sleep_ms(300);
    close(c->fd);
}

int main(void) {
    char env[128];
    int fds[2];
    /* in one process: the wait lasts until the other end closes, and closes the read end */
    CHECK(wb_go_pipe_open(fds, env, sizeof env) == 0);
    CHECK(!strncmp(env, WB_GO_PIPE_ENV "=", strlen(WB_GO_PIPE_ENV) + 1));
    CHECK((fcntl(fds[0], F_GETFD) & FD_CLOEXEC) && (fcntl(fds[1], F_GETFD) & FD_CLOEXEC));
    pthread_t t;
    CHECK(pthread_create(&t, NULL, close_later, &fds[1]) == 0);
    double waited = wb_go_pipe_wait(strchr(env, '=') + 1);
    pthread_join(t, NULL);
    CHECK(waited >= 0.25 && waited < 5);
    CHECK(fcntl(fds[0], F_GETFD) == -1); /* closed by the wait */

    /* no wait on anything but that pipe: unset, malformed, closed, another pipe's inode, a file */
    CHECK(wb_go_pipe_wait(NULL) < 0);
    CHECK(wb_go_pipe_wait("") < 0);
    CHECK(wb_go_pipe_wait("x:1") < 0);
    CHECK(wb_go_pipe_wait("3:12x") < 0);
    char stale[128];
    snprintf(stale, sizeof stale, "%s", strchr(env, '=') + 1); /* its descriptor was closed above */
    CHECK(wb_go_pipe_wait(stale) < 0);
    int other[2];
    CHECK(pipe(other) == 0);
    char wrong[128];
    snprintf(wrong, sizeof wrong, "%d:%s", other[0], strchr(stale, ':') + 1); /* the old pipe's inode */
    CHECK(wb_go_pipe_wait(wrong) < 0);
    int file = open("/dev/null", O_RDONLY);
    char notpipe[128];
    snprintf(notpipe, sizeof notpipe, "%d:0", file);
    CHECK(file >= 0 && wb_go_pipe_wait(notpipe) < 0);
    close(file), close(other[0]), close(other[1]);

    /* across exec (child.h's hook): the program keeps the read end, the hook runs while it starts,
     * and the program's read of the pipe ends when the hook closes the write end */
    CHECK(wb_go_pipe_open(fds, env, sizeof env) == 0);
    char script[256];
    snprintf(script, sizeof script, "cat <&%d >/dev/null && exit 7", fds[0]);
    char *argv[] = {"sh", "-c", script, NULL};
    hook_ctx ctx = {fds[1], 0};
    wb_child_hook hook = {fds[0], close_after_300ms, &ctx};
    wb_child_result r;
    wb_err e = {""};
    CHECK(wb_child_run(argv, NULL, 0, &hook, &r, &e) == WB_OK);
    close(fds[0]);
    CHECK(ctx.calls == 1);
    CHECK(r.exit_code == 7); /* cat read the pipe: the descriptor survived exec */
    CHECK(r.wall_s >= 0.25);
    /* without the hook the read end is closed at exec: cat fails at once */
    CHECK(wb_go_pipe_open(fds, env, sizeof env) == 0);
    snprintf(script, sizeof script, "exec 2>/dev/null; cat <&%d >/dev/null && exit 7; exit 9", fds[0]);
    CHECK(wb_child_run(argv, NULL, 0, NULL, &r, &e) == WB_OK);
    CHECK(r.exit_code == 9);
    close(fds[0]), close(fds[1]);
    return TEST_DONE();
}

/* child.c - one run of the profiled program (child.h). */
#include "harness/profile/child.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness/base/clock.h"

int wb_child_run(char *const *argv, char *const *env, int nenv, const wb_child_hook *hook, wb_child_result *out,
                 wb_err *e) {
    memset(out, 0, sizeof *out);
    int pipefd[2]; /* the child writes errno here when exec fails; closed on a successful exec */
    if (pipe2(pipefd, O_CLOEXEC) != 0) return wb_fail(e, "pipe2: %s", strerror(errno));
    double t0 = wb_clock_s();
    pid_t pid = fork();
    if (pid < 0) {
        close(pipefd[0]), close(pipefd[1]);
        return wb_fail(e, "fork: %s", strerror(errno));
    }
    if (pid == 0) {
        close(pipefd[0]);
        for (int i = 0; i < nenv; i++) putenv(env[i]);
        /* the descriptor the program keeps across exec; failing that, reported as exec's failure */
        if (!hook || hook->keep_fd < 0 || fcntl(hook->keep_fd, F_SETFD, 0) == 0) execvp(argv[0], argv);
        int err = errno;
        (void)!write(pipefd[1], &err, sizeof err);
        _exit(127);
    }
    close(pipefd[1]);
    if (hook && hook->started) hook->started(hook->ctx); /* while the program starts (it may wait on it) */
    int err = 0;
    ssize_t got = read(pipefd[0], &err, sizeof err);
    close(pipefd[0]);
    /* The profiler must outlive an interrupted program: ^C goes to the whole group, the program
     * decides, and the profiler keeps what the program's passes wrote. */
    void (*old_int)(int) = signal(SIGINT, SIG_IGN);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    signal(SIGINT, old_int);
    out->wall_s = wb_clock_s() - t0;
    if (got == (ssize_t)sizeof err) {
        out->not_found = 1;
        out->exit_code = err == ENOENT ? 127 : 126;
        snprintf(out->how, sizeof out->how, "could not be started: %s: %s", argv[0], strerror(err));
        return WB_OK;
    }
    if (WIFSIGNALED(status)) {
        out->signal = WTERMSIG(status);
        out->exit_code = 128 + out->signal;
        snprintf(out->how, sizeof out->how, "killed by signal %d (%s)", out->signal, strsignal(out->signal));
    } else {
        out->exit_code = WEXITSTATUS(status);
        snprintf(out->how, sizeof out->how, "exited %d", out->exit_code);
    }
    return WB_OK;
}

/* child.h - runs the profiled program once for a pass: fork, the pass's
 * environment, exec; waits and says how it ended. Its stdin, stdout and
 * stderr are the profiler's, so the program behaves as it would alone. */
#ifndef WB_PROFILE_CHILD_H
#define WB_PROFILE_CHILD_H

#include "harness/base/error.h"

typedef struct wb_child_result {
    int exit_code;      /* as a shell reports it: the status, 128 + signal, 127 not found, 126 not executable */
    int signal;         /* the signal that ended it, 0 if it exited */
    int not_found;      /* exec failed: the command does not exist or cannot run */
    double wall_s;      /* from fork to reaped */
    char how[160];      /* "exited 0", "exited 3", "killed by signal 11 (Segmentation fault)", "not found" */
} wb_child_result;

/* Work of the profiler's while the program starts (--sample: PM sampling set up
 * while a Python program imports): `started(ctx)` runs in the profiler once
 * the program is forked, before it is waited for; keep_fd (>= 0) stays open
 * across exec in the program (the read end of the pipe it waits on). */
typedef struct wb_child_hook {
    int keep_fd;
    void (*started)(void *ctx);
    void *ctx;
} wb_child_hook;

/* Runs argv (argv[0] searched in PATH) with the current environment plus
 * env[0..nenv) ("NAME=value"); hook may be NULL. Returns WB_OK when the
 * program ran (whatever its exit code), WB_ERR when it could not be started
 * (fork failed; the hook's started() is then not called). */
int wb_child_run(char *const *argv, char *const *env, int nenv, const wb_child_hook *hook, wb_child_result *out,
                 wb_err *e);

#endif

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

/* Runs argv (argv[0] searched in PATH) with the current environment plus
 * env[0..nenv) ("NAME=value"). Returns WB_OK when the program ran (whatever
 * its exit code), WB_ERR when it could not be started (fork failed). */
int wb_child_run(char *const *argv, char *const *env, int nenv, wb_child_result *out, wb_err *e);

#endif

/* go_pipe.h - a start signal from the profiler to the program it runs
 * (--sample): the profiler sets up PM sampling while the program starts, and
 * the program's first CUDA call (the injection's initialisation) waits until
 * the profiler closes the pipe's write end, so that sampling costs the
 * program only what it would not have spent starting anyway and no kernel
 * runs before the timeline starts. The variable names the descriptor and the
 * pipe's inode: a process that inherited the variable but not the descriptor
 * (closed, or its number reused for another file) does not wait. */
#ifndef WB_PROFILE_GO_PIPE_H
#define WB_PROFILE_GO_PIPE_H

#include <stddef.h>

#define WB_GO_PIPE_ENV "WB_PROFILE_GO"

/* The profiler: a pipe (both ends close-on-exec; the read end is the one to keep across exec) and
 * "WB_PROFILE_GO=<fd>:<inode>" in env. 0, or -1 with errno set. */
int wb_go_pipe_open(int fds[2], char *env, size_t len);

/* The program: waits until value's pipe is closed at its other end and closes it; returns the
 * seconds waited, or -1 when value names no such pipe (NULL, malformed, closed, another file). */
double wb_go_pipe_wait(const char *value);

#endif

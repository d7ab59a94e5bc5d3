/* watch.h - the board while a pass of `wallbench profile` runs: is the measurement disturbed?
 * A thread of the profiler reads, every WB_WATCH_PERIOD_MS, each GPU's clock-event reasons and
 * the compute processes on it (NVML, read only) into <rawdir>/watch.<pass>.tsv, a line each time
 * a GPU's state changes:
 *   # wallbench-watch 2 pass=<pass> period_ms=<ms> profiler_pid=<pid>
 *   # not watched: <why>                        (NVML unavailable: no W lines)
 *   # skipped: <why>                            (a GPU NVML refused; the others are watched)
 *   W  <s since start>  <uuid>  <reasons, 0x hex or ->  <processes, -1 unread>  <pids, comma-separated or ->  <samples>
 *   # end <samples>
 * After the pass (and in a --from-raw rebuild) the file gives a verdict for each GPU the pass's
 * raw files name. Disturbed: another process held it (a pid listed that is neither the program's,
 * from its raw files, nor the profiler's; where NVML's pids are another namespace's, a
 * container's, none of them matches and the count decides: more processes than the profile's
 * own), a hardware, thermal or power-brake slowdown in any sample, or the software power cap in
 * WB_WATCH_POWER_CAP_PCT of the samples or more (a heavy kernel may reach the cap on an idle
 * board now and then). */
#ifndef WB_PROFILE_WATCH_H
#define WB_PROFILE_WATCH_H

#include <stddef.h>

#include "harness/base/error.h"

#define WB_WATCH_PERIOD_MS 100
#define WB_WATCH_POWER_CAP_PCT 10.0

typedef struct wb_watch wb_watch;

/* Starts watching into path (the file is written at once; without NVML it says why and the
 * thread does not start). NULL only when the file cannot be written (e says why). */
wb_watch *wb_watch_start(const char *path, const char *pass, wb_err *e);
/* Stops the thread and writes its last lines; a thread stuck in NVML for 2 s is left behind
 * (said on stderr; its file is then read as far as it got). NULL does nothing. */
void wb_watch_stop(wb_watch *w);

/* The verdict of the watch file at path for the GPU uuid: pids[0..npids) are the profile's own
 * processes (the pass's raw files; the profiler's pid is in the file), ours how many processes
 * the profile held on the GPU at most (the count rule's). 1 disturbed, 0 not, -1 not checked (no
 * file, not watched, no sample of that GPU, every reading failed, a malformed file); msg says
 * which, with the numbers. */
int wb_watch_verdict(const char *path, const char *uuid, const int *pids, int npids, int ours, char *msg, size_t len);

#endif

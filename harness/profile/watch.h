/* watch.h - the board while a pass of `wallbench profile` runs: is the measurement disturbed?
 * A thread of the profiler reads, every WB_WATCH_PERIOD_MS, each GPU's clock-event reasons and
 * how many compute processes hold it (NVML, read only), into <rawdir>/watch.<pass>.tsv:
 *   # wallbench-watch 1 pass=<pass> period_ms=<ms>
 *   # not watched: <why>                       (NVML unavailable: no W lines)
 *   W  <s since start>  <uuid>  <reasons, hex>  <processes listed>
 * After the pass (and in a --from-raw rebuild) the file gives one verdict for the pass's GPU:
 * throttled for power or heat in any sample, or more processes on it than the program's own
 * (its raw files: one per process that used CUDA, plus the profiler's own while it samples). */
#ifndef WB_PROFILE_WATCH_H
#define WB_PROFILE_WATCH_H

#include <stddef.h>

#include "harness/base/error.h"

#define WB_WATCH_PERIOD_MS 100

typedef struct wb_watch wb_watch;

/* Starts watching into path (the file is written at once; without NVML it says why and the
 * thread does not start). NULL only when the file cannot be written (e says why). */
wb_watch *wb_watch_start(const char *path, const char *pass, wb_err *e);
/* Stops the thread, closes the file, frees w; NULL does nothing. */
void wb_watch_stop(wb_watch *w);

/* The verdict of the watch file at path for the GPU uuid, on which `ours` processes of the
 * profile's held a context: 1 disturbed, 0 not, -1 not checked (no file, not watched, no sample
 * of that GPU, a malformed file); msg says which and with what numbers. */
int wb_watch_verdict(const char *path, const char *uuid, int ours, char *msg, size_t len);

#endif

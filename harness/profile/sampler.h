/* sampler.h - the sampled timeline of `wallbench profile --sample`: CUPTI PM
 * sampling of the core counter set, device-wide, from the profiler's own
 * process while the program runs its timing pass. */
#ifndef WB_PROFILE_SAMPLER_H
#define WB_PROFILE_SAMPLER_H

#include "harness/base/error.h"

typedef struct wb_sampler wb_sampler;

/* Enables PM sampling on CUDA device `device` (as this process numbers them:
 * the program inherits the same CUDA_VISIBLE_DEVICES) every interval_ns and
 * starts a thread that decodes the samples into `path` as S lines (raw.h).
 * WB_ERR with the call that failed: the program is then timed unsampled. */
int wb_sampler_start(const char *path, int device, long long interval_ns, wb_sampler **out, wb_err *e);

/* Stops sampling, decodes what is left, writes the totals and closes the
 * file, then tears PM sampling and the CUDA context it sampled through down
 * on a thread of its own, beside the profiler's writing of its file instead
 * of after it; NULL is a no-op. WB_ERR names the call that failed (the
 * samples decoded until then stay in the file). */
int wb_sampler_stop(wb_sampler *s, wb_err *e);

/* Where the stop's seconds went: the decode thread's end, CUPTI's Stop, the last decode (also the
 * sampled file's "# stop" line); -1 each for NULL. */
void wb_sampler_stop_split(const wb_sampler *s, double split[3]);

/* Waits for the teardown and frees the sampler; the seconds it took to turn
 * sampling off (*disable_s) and to release the context (*release_s), -1 where
 * it did not run; either pointer may be NULL. WB_ERR names the teardown's
 * first failed call (the samples are written by then). NULL is a no-op. */
int wb_sampler_free(wb_sampler *s, double *disable_s, double *release_s, wb_err *e);

#endif

/* flush.h - the counter pass's L2 flush (--cache-control all): before each counted launch a
 * kernel of ours reads 2x the L2 (flush_ptx.h), so that the kernel starts as after ncu's flush;
 * with WB_PROFILE_FLUSH=empty a second kernel discards those lines too. With a one-pass set it
 * runs on the launch's own stream in the program's context; with kernel replay in a context of
 * its own, after synchronizing the launch's stream. A flush that cannot be set up says so (E
 * line, "# cache none") and counting goes on with the caches as the program left them. */
#ifndef WB_PROFILE_INJECT_FLUSH_H
#define WB_PROFILE_INJECT_FLUSH_H

#include <stdint.h>

#include <cuda.h>

typedef struct wb_flusher {
    CUcontext ctx;     /* a context of our own (kernel replay), or NULL: the program's */
    CUfunction fn;     /* NULL: no flush (not set up, or it failed) */
    CUfunction empty;  /* WB_PROFILE_FLUSH=empty: wb_l2_empty, run after fn; NULL otherwise */
    CUdeviceptr buf;
    unsigned long long words;
    unsigned blocks;
} wb_flusher;

/* Sets f up on device dev: in the current (the program's) context, or in one of its own. 0. */
int wb_flush_setup(wb_flusher *f, CUdevice dev, int own_context);
/* Launches the flush before launch seq; on the stream (in-stream flush): 1, or 2 with the
 * emptying kernel after it; -1 otherwise (its own context: synchronized there, no range here). */
int wb_flush_l2(const wb_flusher *f, int64_t seq, CUstream stream);
/* At exit: its own context destroyed; f does nothing after. */
void wb_flush_release(wb_flusher *f);

#endif

/* parallel.h - the one parallel loop of the host side: fills, references
 * and checks of 2^28-row columns run in chunks on every core, so that a
 * point's data and verify steps cost a fraction of a second on the GPU
 * host's 16 cores. C11 and pthreads, no pool: a loop of 2^28 rows lasts
 * 10-1000 ms, against ~20 us to start 16 threads. Values never depend on the
 * worker count: each chunk draws from its own stream (exact.h,
 * wb_chunk_seed) and merges of partial results are exact (integer sums) or
 * run in chunk order. */
#ifndef WB_PARALLEL_H
#define WB_PARALLEL_H

#include <stdint.h>

/* Calls fn for every chunk [begin, end) of [0, n) (chunk items each, the last
 * one shorter) from up to wb_par_workers() threads, the caller's included;
 * fn receives its worker index for per-worker partial results, which the
 * caller merges. Chunks are handed out one at a time, so a thread that cannot
 * be started only costs speed: every chunk still runs exactly once. */
#define WB_PAR_MAX 64
typedef void (*wb_par_fn)(void *ctx, int worker, int64_t chunk_index, int64_t begin, int64_t end);
/* The workers of a loop: WB_HOST_THREADS when set to 1..WB_PAR_MAX (1: every
 * loop runs serially on the caller's thread), else one per online CPU; a cap
 * set by wb_par_set_workers comes first. */
int wb_par_workers(void);
void wb_par_chunks(int64_t n, int64_t chunk, wb_par_fn fn, void *ctx);
/* Caps the workers at `workers` (tests: the data must not change with the
 * count); 0 goes back to one per online CPU. Not for use while a loop runs. */
void wb_par_set_workers(int workers);

/* A check of [0, n) split at chunk boundaries: fn adds the mismatches of
 * [begin, end) to m in index order, and the same ones whatever the split.
 * wb_par_check counts them on all workers and leaves m exactly as
 * fn(ctx, 0, n, m) would: the total, and the first ones shown (m's report),
 * found again in order on the caller's thread by rerunning the chunks from
 * the first one that mismatched, only while m can still show more. */
struct wb_mismatches;
typedef void (*wb_check_fn)(void *ctx, int64_t begin, int64_t end, struct wb_mismatches *m);
void wb_par_check(int64_t n, int64_t chunk, wb_check_fn fn, void *ctx, struct wb_mismatches *m);

#endif

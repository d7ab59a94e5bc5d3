/* data.h - the one place inputs come from and outputs are checked: seeded
 * random fills (never constants), device buffers, and the verification
 * report (at most ten mismatches printed, plus the total). */
#ifndef WB_DATA_H
#define WB_DATA_H

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#include "harness/base/error.h"
#include "kernels/splitmix.h"

/* splitmix64: fast, seedable, good enough for benchmark inputs. Counter-
 * based: draw j of the stream from seed is the mix of seed + (j+1) * golden,
 * so any draw can be made on its own (wb_rng_at; kernels/fill.cu makes the
 * same draws on the GPU, tests/test_gpu_fill.c holds the two equal). */
static inline uint64_t wb_rng_next(uint64_t *s) { return wb_splitmix(*s += WB_GOLDEN_GAMMA); }
/* Draw j (0-based) of the stream that wb_rng_next walks from seed. */
static inline uint64_t wb_rng_at(uint64_t seed, uint64_t j) { return wb_stream_draw(seed, j); }
/* Uniform in [0, bound). */
static inline uint64_t wb_rng_below(uint64_t *s, uint64_t bound) {
    return bound ? wb_mulhi(wb_rng_next(s), bound) : 0;
}
/* Uniform in [0, 1). */
static inline double wb_rng_unit(uint64_t *s) { return (double)(wb_rng_next(s) >> 11) * (1.0 / 9007199254740992.0); }


void wb_fill_i32(int32_t *x, size_t n, int32_t lo, int32_t hi, uint64_t seed);  /* uniform in [lo, hi] */
void wb_fill_f64(double *x, size_t n, double lo, double hi, uint64_t seed);

/* Device memory: allocate (named in the error), copy, free (NULL-safe). */
int wb_dev_alloc(void **p, size_t bytes, const char *what, wb_err *e);
int wb_upload(void *dst, const void *src, size_t bytes, wb_err *e);
int wb_download(void *dst, const void *src, size_t bytes, wb_err *e);
void wb_dev_free(void *p);
/* A small output that contended atomics hit (a cursor, a sum, group sums),
 * kept in `places` places of one allocation, each on another 2 MiB page and
 * at another offset in it; each reset moves it to the next place, and the
 * point records its places (wb_point.places) so that the harness takes one
 * sample per place before a plateau ends its sampling: the median is a
 * median over placements. Why: global atomics on a few lines run at a speed
 * set by the L2 slices those lines land in. On the H200, 2^26 atomic adds
 * into 1024 groups took 3.0-6.3 ms over 24 placements of the same 8 KB
 * (tests/hw/atomic_place.cu and its -h200.txt, 2026-12-01), and a warp
 * selection's one cursor runs at two speeds 7% apart by place; with one
 * placement per run, global group-by differed by up to 21% between runs.
 * With 16 places warp selection still moved 1-4% between processes (which
 * pages a process gets decides the share of fast places); with 127, at most
 * 0.55% (results/h200-places/repeat.txt, in history: results/HISTORY.md). So: as many places as fit
 * WB_PLACES_BYTES, at least WB_PLACES_MIN. 256 MiB is 127 places of an
 * output up to 2 MiB, small next to a sweep's 2-16 GiB of inputs. */
#define WB_PLACES_MIN 16
#define WB_PLACES_BYTES ((size_t)256 << 20)
typedef struct wb_placed {
    char *pool; /* device, places * stride bytes */
    size_t bytes, stride;
    int places;
    int at; /* the current place */
} wb_placed;
/* Device bytes that wb_placed_alloc takes for an output of `bytes`. */
double wb_placed_bytes(double bytes);
int wb_placed_alloc(wb_placed *b, size_t bytes, const char *what, wb_err *e);
/* Where the output is now (what launch and verify use). */
void *wb_placed_here(const wb_placed *b);
/* A family's reset: moves the output to the next place and zeroes it there
 * (on stream s), since every such output is an accumulator. */
int wb_placed_reset(wb_placed *b, cudaStream_t s, wb_err *e);
void wb_placed_free(wb_placed *b);

/* Host memory: NULL-checked malloc naming what failed. */
void *wb_host_alloc(size_t bytes, const char *what, wb_err *e);

/* Verification report. Add every mismatch; finish writes
 * "<total> of <n> mismatched; first: [i] got G expected E; ..." into e,
 * showing the first WB_MISMATCH_SHOW. */
#define WB_MISMATCH_SHOW 10
typedef struct wb_mismatches {
    int64_t total;
    int shown;
    char text[640];
} wb_mismatches;

void wb_mismatch_init(wb_mismatches *m);
void wb_mismatch_add(wb_mismatches *m, int64_t index, const char *got, const char *expected);
void wb_mismatch_add_i64(wb_mismatches *m, int64_t index, long long got, long long expected);
void wb_mismatch_add_f64(wb_mismatches *m, int64_t index, double got, double expected);
/* WB_OK when nothing mismatched, else WB_ERR with the report in e. */
int wb_mismatch_finish(const wb_mismatches *m, int64_t checked, const char *what, wb_err *e);

#endif

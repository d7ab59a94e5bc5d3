/* exact.h - inputs whose selectivity is exact by construction, and the
 * per-chunk random streams that keep a parallel fill independent of the
 * worker count (the loop itself: parallel.h).
 *
 * Row i is a member iff wb_perm_at(p, i) < k. wb_perm_at is a keyed bijection
 * of [0, n) (a few invertible mixing rounds on the next power of two, walked
 * until the value lands below n), so exactly k of the n rows are members and
 * they are scattered pseudo-randomly: no shuffle, no index array, O(1) memory.
 * The members' ranks wb_perm_at(p, i) are exactly 0..k-1, which the selection
 * family uses as its selected values. */
#ifndef WB_EXACT_H
#define WB_EXACT_H

#include <stdint.h>

#include "kernels/perm.h"
#include "micro/parallel.h" /* wb_par_chunks: the fills and checks that use the permutation */

/* Keys the bijection of [0, n) from seed (the struct and wb_perm_at, shared
 * with the GPU fills: kernels/perm.h). */
void wb_perm_init(wb_perm *p, uint64_t n, uint64_t seed);

/* The exact member count for selectivity s of n rows: round(s * n), within [0, n]. */
int64_t wb_exact_k(int64_t n, double s);

/* The random stream of chunk c of a fill: independent of the worker count, so
 * a parallel fill gives the same data on every machine. */
uint64_t wb_chunk_seed(uint64_t seed, int64_t chunk_index);

#endif

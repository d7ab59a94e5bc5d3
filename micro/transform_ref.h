/* transform_ref.h - the transform family's host side that tests reach
 * directly: seeded inputs (a function of the index, so the random gather's
 * reference needs no random host access), the gather maps, the
 * CPU reference, the poison values and the check of one downloaded chunk of
 * the output allocation (guard elements included). */
#ifndef WB_TRANSFORM_REF_H
#define WB_TRANSFORM_REF_H

#include <stdint.h>

#include "kernels/transform.h"
#include "micro/data.h"
#include "micro/exact.h"

/* Element size of a dtype, in bytes. */
int wb_transform_esz(wb_transform_dtype dt);

/* Input element j of the dataset with this seed: splitmix64 of (seed, j),
 * int32 over the whole range, double uniform in [-1, 1). */
int32_t wb_transform_input_i32(uint64_t seed, int64_t j);
double wb_transform_input_f64(uint64_t seed, int64_t j);

/* The operation's constants: int32 a even and non-zero, b odd, so every
 * correct int32 output is odd and the even poison is never written; double a
 * in [0.5, 2), b in [-1, 1). */
void wb_transform_constants(uint64_t seed, int32_t *a_i32, int32_t *b_i32, double *a_f64, double *b_f64);

/* The host data, on all CPUs (every element a function of its index, so
 * the same whatever the number of threads): in[j] = input(seed, j) for
 * j < n, as int32 or double; map[i] = wb_perm_at(q, i) (exact.h: O(1) per index, no
 * shuffle), or i when q is NULL. */
void wb_transform_fill_input(wb_transform_dtype dt, uint64_t seed, void *in, int64_t n);
void wb_transform_fill_map(int32_t *map, int64_t n, const wb_perm *q);

/* ref[i] = op(input(map ? map[i] : i)) for i < n (map NULL: identity), on all CPUs. */
void wb_transform_reference(wb_transform_dtype dt, uint64_t seed, const int32_t *map, int64_t n, int32_t a_i32,
                            int32_t b_i32, double a_f64, double b_f64, void *ref);

/* The byte the output allocation is poisoned with: 0xAA for int32 (even),
 * 0xFF for double (a NaN). */
int wb_transform_poison_byte(wb_transform_dtype dt);

/* Checks elements [first, first + count) of the output allocation, given in
 * chunk: the n outputs start at element lead of the allocation and must equal
 * expected[0, n) exactly; every element outside them must still hold the
 * poison. Adds each mismatch to m (index relative to the first output, so
 * guard elements before it are negative), in index order as one sequential
 * pass would; the count runs on all CPUs. */
void wb_transform_check_chunk(wb_transform_dtype dt, const void *chunk, int64_t first, int64_t count, int64_t lead,
                              int64_t n, const void *expected, wb_mismatches *m);

#endif

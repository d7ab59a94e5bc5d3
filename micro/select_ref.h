/* select_ref.h - host side of the selection family: the exact-selectivity
 * input, the CPU reference, and the comparison that verify() runs. Plain C
 * with no GPU calls, so tests/test_select_ref.c exercises all of it. */
#ifndef WB_SELECT_REF_H
#define WB_SELECT_REF_H

#include <stdatomic.h>
#include <stdint.h>

#include "harness/base/error.h"
#include "kernels/select_gen.h"

/* Every output slot holds this before a checked run; inputs are never negative. */
#define WB_SELECT_POISON (-1)

/* Fills x[0..n) for the threshold v = k = wb_exact_k(n, s): row i is selected
 * iff its rank r = wb_perm_at(i) is below k, and then holds r, so the selected
 * values are exactly 0..k-1 in a pseudo-random order; the other rows hold
 * uniform values in [k, INT32_MAX]. n must be <= INT32_MAX. Returns k, or -1
 * with e set (x is then unchanged). */
int64_t wb_select_fill(int32_t *x, int64_t n, double s, uint64_t seed, wb_err *e);
/* The same input as a spec for the GPU fill (kernels/select_gen.h), which
 * makes the values wb_select_fill would. WB_ERR for n outside [0, INT32_MAX]. */
int wb_select_gen_of(int64_t n, double s, uint64_t seed, wb_select_gen *g, wb_err *e);
/* What an output in input order must hold, from the spec alone (the input
 * is not read): ref[0, k) (NULL: not written) = the selected values in input
 * order, which wb_select_reference of the input gives too, and *print (NULL:
 * not summed) = the fingerprint (kernels/fingerprint.h) of all n output
 * slots, those from k on holding WB_SELECT_POISON. Returns the selected
 * count (k), or -1 with e set when out of memory. */
int64_t wb_select_expected(const wb_select_gen *g, int32_t *ref, uint64_t *print, wb_err *e);

/* The CPU reference: writes the values of x below v to ref (NULL: count only)
 * in input order and returns their count; -1 with e set when its chunk table
 * cannot be allocated. */
int64_t wb_select_reference(const int32_t *x, int64_t n, int32_t v, int32_t *ref, wb_err *e);

/* A bitmap over [0, k) for the unordered comparison; allocated in data_create. */
typedef struct wb_select_seen {
    _Atomic uint64_t *bits;
    int64_t words;
} wb_select_seen;

int wb_select_seen_alloc(wb_select_seen *s, int64_t k, wb_err *e);
void wb_select_seen_free(wb_select_seen *s);

/* WB_OK if ref[0..k) holds each of 0..k-1 exactly once, which is what makes
 * the unordered comparison a multiset comparison against ref; else WB_ERR. */
int wb_select_ref_is_permutation(const int32_t *ref, int64_t k, wb_select_seen *seen, wb_err *e);

/* Compares a device result copied to out[0..n) (n slots) and its count with
 * the reference ref[0..k): the count exactly; out[0..count) element by element
 * when ordered, else as a multiset (ref must pass wb_select_ref_is_permutation);
 * and every slot from count on must still hold WB_SELECT_POISON. WB_OK, or
 * WB_ERR with the total and up to ten mismatches in e. A parallel pass decides;
 * a serial pass, run only on failure, writes the report. */
int wb_select_compare(const int32_t *out, int64_t n, int64_t count, const int32_t *ref, int64_t k, int ordered,
                      wb_select_seen *seen, wb_err *e);

#endif

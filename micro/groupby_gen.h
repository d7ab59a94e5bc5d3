/* groupby_gen.h - inputs, CPU reference and checks of the group-by family:
 * n rows of int32 keys in [0, groups), uniform or Zipf-skewed, and int32
 * values over the whole int32 range (so a sum that is not 64-bit, or a value
 * not sign-extended, fails), with the per-group 64-bit sums and row counts
 * accumulated while the rows are drawn. */
#ifndef WB_GROUPBY_GEN_H
#define WB_GROUPBY_GEN_H

#include <stdint.h>

#include "harness/base/error.h"

#define WB_GROUPBY_ZIPF_S 1.0 /* Zipf exponent of the skewed layout: the rank-1 group gets 1/H(groups) */

typedef struct wb_groupby_gen {
    int64_t n, groups; /* 1 <= groups < 2^31 */
    int zipf;          /* 0 uniform, 1 Zipf with exponent WB_GROUPBY_ZIPF_S */
    uint64_t seed;
} wb_groupby_gen;

typedef struct wb_groupby_ref {
    int64_t groups;
    uint64_t *sum;   /* per group, two's complement */
    int64_t *count;  /* rows per group */
    int64_t present; /* groups with at least one row */
} wb_groupby_ref;

/* Allocates a zeroed reference of `groups` groups. */
int wb_groupby_ref_alloc(wb_groupby_ref *r, int64_t groups, wb_err *e);
void wb_groupby_ref_free(wb_groupby_ref *r);

/* Fills keys and vals (n each) and the reference (allocated by the
 * caller), on exact.h's parallel chunks. WB_ERR only when out of memory. */
int wb_groupby_generate(const wb_groupby_gen *g, int32_t *keys, int32_t *vals, wb_groupby_ref *ref, wb_err *e);

/* The textbook reference, for the tests: one pass, one add per row. */
void wb_groupby_reference(const int32_t *keys, const int32_t *vals, int64_t n, wb_groupby_ref *ref);

/* A dense result table (global, shared): every group's sum, 0 where empty. */
int wb_groupby_check_table(const unsigned long long *got, const wb_groupby_ref *ref, wb_err *e);
/* Runs of sort + reduce-by-key: one run per present group, keys ascending. */
int wb_groupby_check_runs(const int32_t *keys, const long long *sums, int64_t runs, const wb_groupby_ref *ref,
                          wb_err *e);

#endif

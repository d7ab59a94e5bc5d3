/* expr_plan.h - the expression family's host side: builds the plan of
 * kernels/expr.h (cuDF's linearization, slots reused), fills the input
 * columns, evaluates the plan on the CPU (the reference) and compares
 * outputs bit for bit. Fill, evaluation and comparison run on all CPUs
 * (exact.h's chunk loop): the quick sweep builds and checks 2^28-row
 * references for dozens of expressions. */
#ifndef WB_EXPR_PLAN_H
#define WB_EXPR_PLAN_H

#include <stdint.h>

#include "harness/base/error.h"
#include "kernels/expr.h"
#include "micro/data.h"
#include "micro/fill.h"

/* Element size of a WB_EXPR_INT32/INT64/F64 type. */
int wb_expr_type_bytes(int type);
/* "int32", "int64", "double" / "chain", "tree"; NULL if out of range. */
const char *wb_expr_type_name(int type);
const char *wb_expr_shape_name(int shape);
/* Inverse of the names; -1 if unknown. */
int wb_expr_type_parse(const char *name);
int wb_expr_shape_parse(const char *name);

/* Builds the plan of (type, shape, ops, columns) with literal values drawn
 * from seed. WB_ERR (p unspecified) when ops is outside 1..WB_EXPR_MAX_OPS,
 * columns outside 1..WB_EXPR_MAX_COLUMNS or above the expression's column
 * leaves (a column never read would break the bytes model). */
int wb_expr_plan_build(wb_expr_plan *p, int type, int shape, int ops, int columns, uint64_t seed, wb_err *e);

/* Fills n elements of a column of `type` from seed: int32 in
 * [-100000, 100000], int64 in [-2^40, 2^40], double in [-100, 100); the same
 * values whatever the number of threads. */
void wb_expr_fill(int type, void *x, int64_t n, uint64_t seed);

/* The fill spec of wb_expr_fill(type, ., ., seed): the same values from any
 * row on, on the GPU (wb_fill_gpu) or the host (wb_fill_host_range). */
void wb_expr_fill_spec(int type, uint64_t seed, wb_fill_spec *spec);

/* The CPU reference: evaluates p for rows [0, n) of columns (p->n_columns
 * pointers) into out, operator by operator over blocks of rows, with the
 * device's arithmetic (unsigned wrap for integers, separately rounded double
 * operations). */
void wb_expr_eval(const wb_expr_plan *p, const void *const *columns, void *out, int64_t n);

/* Adds every element where got and expected differ bit for bit to m,
 * reported at index first + i, in index order as one sequential pass would
 * (the count runs on all CPUs); returns the number found by this call. */
int64_t wb_expr_compare(int type, const void *got, const void *expected, int64_t n, int64_t first, wb_mismatches *m);

/* The reference without held inputs: rows [first, first + n) of the plan
 * over the columns of specs cols (p->n_columns of them), rebuilt block by
 * block on all CPUs and compared bit for bit with got[0, n); adds the
 * mismatches to m at index first + i as wb_expr_compare does against
 * wb_expr_eval's output; returns the number found by this call. */
int64_t wb_expr_check_stream(const wb_expr_plan *p, const wb_fill_spec *cols, const void *got, int64_t first, int64_t n,
                             wb_mismatches *m, uint64_t *print);
/* print (NULL: none): the call adds the fingerprint of the reference's rows
 * at positions first + i (kernels/fingerprint.h), which the points after
 * this one with the same expression check on the GPU instead. Meaningful
 * only when the call found no mismatch (a failed check repeats chunks to
 * report them in order). */

#endif

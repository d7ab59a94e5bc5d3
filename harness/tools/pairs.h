/* pairs.h - the suite's pairs (harness/tools/pairs.tsv: two ways to write one
 * operator at one size, issue 49 item 3) and the rule that picks each form's
 * row of a results file. pair_check.py holds the same rule in Python for its
 * validation table; tests/sh_rewrites.sh checks that both pick the same rows.
 *
 * The rule: rows with status ok, the pair's n, sm_limit 0 or -1 (all SMs) and
 * the pair's `where` axes; per form, of each tuple of the axes below the row
 * of least median time (the fastest launch shape); of the tuples both forms
 * have (an axis equal, or not applicable in either: NaN, -1, ""; vector_bytes
 * compared only when `where` names it), the one where the slower of the two
 * takes longest; the slower form of it is "slow". */
#ifndef WB_PAIRS_H
#define WB_PAIRS_H

#include "harness/base/error.h"
#include "harness/store/store_h5.h"
#include "harness/tools/rewrites.h"

#define WB_PAIRS_WHERE 8

typedef struct wb_pair {
    char pair[24], family[16], a[24], b[24];
    int64_t n;
    int nwhere;
    char where_key[WB_PAIRS_WHERE][24], where_val[WB_PAIRS_WHERE][24];
    /* The rewrite rule (columns 7-10, rewrites.h): the form whose kernel has the signature, the
     * rule, the shape in words; rule.limiter -1 and form "" when the pair has none. */
    char form[24];
    wb_rewrite_rule rule;
    char shape[160];
} wb_pair;

typedef struct wb_pairs {
    wb_pair *p;
    int n;
} wb_pairs;

/* Reads path (NULL: $WB_PAIRS, else the source tree's harness/tools/pairs.tsv). */
int wb_pairs_load(const char *path, wb_pairs *out, wb_err *e);
void wb_pairs_free(wb_pairs *ps);
/* The pair named name, or NULL. */
const wb_pair *wb_pairs_find(const wb_pairs *ps, const char *name);

/* The rows of pair p in r (the rule above): *slow and *fast; WB_ERR with the
 * reason when r has no rows of both forms, or a `where` axis is unknown. */
int wb_pair_choose(const wb_results *r, const wb_pair *p, const wb_row **slow, const wb_row **fast, wb_err *e);

#endif

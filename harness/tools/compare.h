/* compare.h - what compare.c (the command, the hardware and family tables)
 * and compare_points.c (pairing verdicts, per-point tables) share. Internal
 * to `wallbench compare`. */
#ifndef WB_COMPARE_H
#define WB_COMPARE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "harness/tools/ceilings.h"
#include "harness/tools/match.h"
#include "harness/base/mwu.h"
#include "harness/store/store_h5.h"
#include "harness/base/textable.h"
#include "harness/tools/rows.h"

typedef struct wb_cmp_side {
    const char *tag;        /* "A" or "B" */
    wb_results r;
    int open;
    wb_gpu_view v;
    int projected;          /* attribute projected = 1 */
    wb_roof roof;           /* hardware numbers of the ratios (project.h: wb_project_file_roof) */
    char roof_source[64];
} wb_cmp_side;

/* One matched point. */
typedef struct wb_cmp_pair {
    int64_t a, b;           /* rows */
    double ratio;           /* time B/A; NaN unless both measured */
    double p;               /* Mann-Whitney p; NaN when not tested */
    const char *verdict;    /* "faster", "slower", "same" (B against A; also when significant but under
                               the minimum effect), "too few samples", "no test
                               (projected)", or "A skipped" / "B failed" ... when a side was not measured */
    char status_note[24];   /* holds the "A skipped" texts */
    int few;                /* tested with fewer than WB_MWU_OPTIMAL_SAMPLES a side */
    int small;              /* significant, but |B/A - 1| under the minimum effect: counted "same" */
    const char *bound_a, *bound_b;
    int bound_changed;
} wb_cmp_pair;

typedef struct wb_cmp_family {
    char name[32];
    int matched, only_a, only_b, pairs; /* pairs: measured on both sides */
    double sum_a, sum_b;                /* time of those pairs, ms */
    double sum_log;                     /* sum of log(ratio) over nlog pairs */
    int nlog;
    int faster, slower, same, untested, bound_changed;
    int unmeasured; /* matched, but skipped or failed in A or B: no time to compare */
    int small;                          /* of same: significant but under the minimum effect */
} wb_cmp_family;

typedef struct wb_cmp {
    wb_cmp_side a, b;
    wb_match m;
    int md;
    const char *family;     /* --family, or NULL */
    double min_effect;      /* |B/A - 1| below this is "same" whatever the test says (--min-effect) */
    int points;             /* --points: the per-point tables too */
    double r_bw, r_inst;    /* hardware ratios B/A */
    wb_cmp_pair *pairs;     /* the matched points, in A's order */
    int64_t npairs;
    wb_cmp_family all;      /* every operator family (ceiling left out: it calibrates) */
} wb_cmp;

/* Opens one side (compare_side.c): the file, its GPU view and the roof its
 * ratios use; WB_ERR when it cannot be read (said on stderr, e empty), is a
 * profile, or has no measured point (e says which). */
int wb_cmp_open_side(wb_cmp_side *s, const char *path, const char *tag, const wb_gpu_table *t, wb_err *e);

/* `wallbench compare` of n >= 3 files (compare_fleet.c): per family the
 * matrix of speedups of every pair; returns the exit code. */
#define WB_CMP_FLEET_MAX 32
/* The default minimum effect: a difference under 1% is called "same". */
#define WB_CMP_MIN_EFFECT 0.01
int wb_cmp_fleet(const char *const *paths, int n, int md, const char *family);

/* Pairs c's matched points (c->pairs, verdicts included) and sums them per
 * family, in order of first appearance in A, then B; only c->family when
 * set. *fam is malloc'ed (caller frees, also on error). */
int wb_cmp_families(wb_cmp *c, wb_cmp_family **fam, int *nfam, wb_err *e);
/* `wallbench compare` of two profile files (compare_profile.c), opened by
 * compare.c through rows.h: kernels matched by name and launch shape; md 1
 * markdown, 2 JSON; the top N pairs by time. Returns the exit code. */
int wb_compare_profiles(const wb_rows *a, const wb_rows *b, int md, int top);

/* Prints the per-point table of one family and the points of it present
 * in one file only. */
int wb_cmp_points(const wb_cmp *c, const wb_cmp_family *f, wb_err *e);
/* compare_repeat.c (--repeat): the share of points with both medians >=
 * min_ms whose medians agree within `within`, per family and overall, and
 * the `top` least repeatable with their spread and in-run noise. */
int wb_cmp_repeat(const wb_cmp *c, double min_ms, double within, int top, wb_err *e);
/* "bandwidth" or "instructions": the hardware ratio B/A nearer on a log
 * scale to speedup (A time / B time); "-" when speedup is not finite or the
 * two ratios are within 10% of each other. */
const char *wb_cmp_follows(const wb_cmp *c, double speedup);

#endif

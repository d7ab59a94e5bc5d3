/* mwu.h - the Mann-Whitney U test (Wilcoxon rank-sum), two-sided, as
 * scipy.stats.mannwhitneyu(x, y, alternative="two-sided") computes it with
 * its default method "auto" (scipy 1.17): the exact null distribution when
 * one sample has at most 8 values and no value is tied, else the normal
 * approximation with tie and continuity corrections. Google Benchmark's
 * tools/compare.py calls exactly that on the two runs' repetitions, and so
 * does `wallbench compare` on the two points' timed samples. */
#ifndef WB_MWU_H
#define WB_MWU_H

/* compare.py's limits: no test below 2 values a side; below 9 it warns that
 * the verdict is unreliable. */
#define WB_MWU_MIN_SAMPLES 2
#define WB_MWU_OPTIMAL_SAMPLES 9
#define WB_MWU_ALPHA 0.05

typedef struct wb_mwu {
    double u1;    /* U of x: pairs (x_i, y_j) with x_i > y_j, ties counting one half */
    double p;     /* two-sided p-value in [0, 1] */
    int exact;    /* 1: exact distribution, 0: normal approximation */
} wb_mwu;

/* Tests x against y. Returns 0 with *out filled, or -1 (out->p NaN) when a
 * sample is empty, holds a NaN, or memory runs out. Inputs are not changed. */
int wb_mwu_test(const double *x, int nx, const double *y, int ny, wb_mwu *out);

#endif

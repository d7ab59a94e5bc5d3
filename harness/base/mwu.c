/* mwu.c - the two-sided Mann-Whitney U test (see mwu.h), step for step as
 * scipy/stats/_mannwhitneyu.py (1.17) does it, so that a verdict here and
 * one from Google Benchmark's compare.py agree on the same numbers. */
#include "harness/base/mwu.h"

#include <math.h>
#include <stdlib.h>

typedef struct tagged {
    double v;
    int from_x;
} tagged;

static int by_value(const void *a, const void *b) {
    double x = ((const tagged *)a)->v, y = ((const tagged *)b)->v;
    return (x > y) - (x < y);
}

/* scipy's _mwu_choose_method. */
static int use_exact(int nx, int ny, int ties) {
    if (nx > 8 && ny > 8) return 0;
    return !ties;
}

/* P(U >= u) under the null for samples of m and n values, no ties: the
 * number of arrangements with U = k is the coefficient of q^k in the
 * Gaussian binomial [m+n choose m]_q = prod_{j=1..m} (1 - q^(n+j)) / (1 - q^j),
 * built one factor pair at a time so that every step stays a polynomial
 * (O(m^2 n) with m the smaller size, which "auto" keeps at most 8). */
static double exact_sf(int m, int n, double u) {
    if (m > n) {
        int t = m;
        m = n;
        n = t;
    }
    const long top = (long)m * n;
    double *c = calloc((size_t)(top + m + 1), sizeof *c);
    if (!c) return NAN;
    c[0] = 1;
    long degree = 0;
    for (int j = 1; j <= m; j++) {
        const long up = n + j;
        for (long k = degree + up; k >= up; k--) c[k] -= c[k - up]; /* times (1 - q^(n+j)) */
        degree += up;
        for (long k = j; k <= degree; k++) c[k] += c[k - j];        /* over (1 - q^j) */
        /* what lies above j*n is zero but for rounding: keep it out of the next step */
        for (long k = (long)j * n + 1; k <= degree; k++) c[k] = 0;
        degree = (long)j * n;
    }
    double total = 0, tail = 0;
    for (long k = 0; k <= top; k++) {
        total += c[k];
        if ((double)k >= u) tail += c[k];
    }
    free(c);
    return tail / total;
}

int wb_mwu_test(const double *x, int nx, const double *y, int ny, wb_mwu *out) {
    out->u1 = out->p = NAN;
    out->exact = 0;
    if (nx < 1 || ny < 1) return -1;
    const int n = nx + ny;
    tagged *all = malloc((size_t)n * sizeof *all);
    if (!all) return -1;
    for (int i = 0; i < n; i++) {
        all[i].v = i < nx ? x[i] : y[i - nx];
        all[i].from_x = i < nx;
        if (isnan(all[i].v)) {
            free(all);
            return -1;
        }
    }
    qsort(all, (size_t)n, sizeof *all, by_value);
    /* Average ranks (1-based) over runs of equal values; tie_term = sum t^3 - t. */
    double r1 = 0, tie_term = 0;
    int ties = 0;
    for (int i = 0; i < n;) {
        int j = i;
        while (j + 1 < n && all[j + 1].v == all[i].v) j++;
        const double t = j - i + 1, rank = 0.5 * (i + j) + 1;
        if (t > 1) ties = 1, tie_term += t * t * t - t;
        for (int k = i; k <= j; k++)
            if (all[k].from_x) r1 += rank;
        i = j + 1;
    }
    free(all);
    const double u1 = r1 - (double)nx * (nx + 1) / 2, u2 = (double)nx * ny - u1;
    const double u = u1 > u2 ? u1 : u2; /* two-sided: the larger U, and twice its upper tail */
    double p;
    out->exact = use_exact(nx, ny, ties);
    if (out->exact) {
        p = 2 * exact_sf(nx, ny, u);
    } else {
        const double mu = (double)nx * ny / 2;
        const double var = (double)nx * ny / 12 * ((n + 1) - tie_term / ((double)n * (n - 1)));
        /* all values equal: no evidence either way (scipy divides by zero and clips to 1) */
        if (!(var > 0)) p = 1;
        else p = erfc((u - mu - 0.5) / sqrt(var) / sqrt(2.0)); /* 2 * normal sf, continuity-corrected */
    }
    if (isnan(p)) return -1;
    out->u1 = u1;
    out->p = p > 1 ? 1 : p < 0 ? 0 : p;
    return 0;
}

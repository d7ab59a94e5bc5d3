/* stats.c - sample summaries (see stats.h). The median is tested on even
 * counts too: a median that picks the wrong middle pair hides as long as every
 * caller uses an odd repetition count. */
#include "harness/base/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double wb_stats_median(const double *x, int n) {
    if (n <= 0) return NAN;
    double *s = malloc((size_t)n * sizeof *s);
    if (!s) return NAN;
    memcpy(s, x, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    double m = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    free(s);
    return m;
}

double wb_stats_min(const double *x, int n) {
    if (n <= 0) return NAN;
    double m = x[0];
    for (int i = 1; i < n; i++)
        if (x[i] < m) m = x[i];
    return m;
}

double wb_stats_max(const double *x, int n) {
    if (n <= 0) return NAN;
    double m = x[0];
    for (int i = 1; i < n; i++)
        if (x[i] > m) m = x[i];
    return m;
}

double wb_stats_mean(const double *x, int n) {
    if (n <= 0) return NAN;
    double sum = 0;
    for (int i = 0; i < n; i++) sum += x[i];
    return sum / n;
}

double wb_stats_stddev(const double *x, int n) {
    if (n < 2) return NAN;
    double mean = wb_stats_mean(x, n), ss = 0;
    for (int i = 0; i < n; i++) ss += (x[i] - mean) * (x[i] - mean);
    return sqrt(ss / (n - 1));
}

void wb_stats_summarize(const double *x, int n, wb_summary *s) {
    s->n = n > 0 ? n : 0;
    s->median = wb_stats_median(x, n);
    s->min = wb_stats_min(x, n);
    s->max = wb_stats_max(x, n);
    s->mean = wb_stats_mean(x, n);
    s->stddev = wb_stats_stddev(x, n);
}

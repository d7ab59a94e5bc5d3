/* stats.h - the one statistics policy of wallbench: summaries of the timed
 * samples of a point. Every function takes the samples in measurement order,
 * leaves them unchanged, and returns NaN for an empty input. */
#ifndef WB_STATS_H
#define WB_STATS_H

typedef struct wb_summary {
    int n;
    double median, min, max, mean, stddev;
} wb_summary;

/* Median: the middle value for odd n, the mean of the two middle values for
 * even n. NaN for n <= 0 or when the sorting copy cannot be allocated. */
double wb_stats_median(const double *x, int n);
double wb_stats_min(const double *x, int n);
double wb_stats_max(const double *x, int n);
double wb_stats_mean(const double *x, int n);
/* Sample standard deviation (divides by n - 1, two passes); NaN for n < 2,
 * where it is undefined. */
double wb_stats_stddev(const double *x, int n);
/* All of the above at once. */
void wb_stats_summarize(const double *x, int n, wb_summary *s);

#endif

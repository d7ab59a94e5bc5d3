/* wall.h - the random-access wall: the best gather rate (G requests/s)
 * measured at each table size, and the rate at any size between, read off
 * the log-log line through the two measured neighbours. The run fills it
 * from the ceiling family's gather points (the ceilings run first) and
 * gives every probe its share of it; the tools rebuild it from a file's
 * rows for the figures. Pure C, no CUDA. */
#ifndef WB_WALL_H
#define WB_WALL_H

#define WB_WALL_MAX 64

typedef struct wb_wall {
    int n;
    double bytes[WB_WALL_MAX]; /* table sizes, ascending */
    double greqs[WB_WALL_MAX]; /* best rate seen at that size */
} wb_wall;

void wb_wall_init(wb_wall *w);
/* Keeps the larger rate at that size. Returns 1 when the size's best rose
 * (the caller records it), 0 otherwise; non-finite or non-positive input,
 * or a full table, is ignored (0). */
int wb_wall_add(wb_wall *w, double bytes, double greqs);
/* The wall at a table size: the measured rate at a measured size, log-log
 * interpolation between neighbours, NaN outside [smallest, largest] (no
 * extrapolation: an L1-sized table is not judged by an L2 wall). */
double wb_wall_at(const wb_wall *w, double bytes);

#endif

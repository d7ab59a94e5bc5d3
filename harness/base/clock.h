/* clock.h - seconds on the monotonic clock, for the host-side costs the
 * harness and the profiler report (set-up, decode, flush, files). Header only:
 * the injection library links none of the harness's other objects. */
#ifndef WB_BASE_CLOCK_H
#define WB_BASE_CLOCK_H

#include <time.h>

static inline double wb_clock_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif

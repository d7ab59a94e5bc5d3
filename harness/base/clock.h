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

/* s seconds from now on CLOCK_REALTIME, the clock of pthread_cond_timedwait, pthread_mutex_timedlock,
 * pthread_timedjoin_np and sem_timedwait: a deadline for them. */
static inline struct timespec wb_deadline_after(double s) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    long long ns = t.tv_nsec + (long long)(s * 1e9);
    t.tv_sec += (time_t)(ns / 1000000000LL);
    t.tv_nsec = (long)(ns % 1000000000LL);
    return t;
}

#endif

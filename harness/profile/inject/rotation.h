/* rotation.h - --rotate's choice of counter group for a launch (header-only: the injection library
 * uses it, tests/test_rotation.c checks it without a GPU). */
#ifndef WB_ROTATION_H
#define WB_ROTATION_H

#include <stdint.h>

/* The group a launch of one kernel and launch shape is counted with, out of n (1..64). seen: the
 * groups this shape has had since its round began (bit g), updated. active: the group of the batch
 * open now, -1 for none. The shape keeps the active group while it has not had it, so launches of
 * different kernels share one batch: every change of group ends a batch and starts another, and
 * CUPTI's Start was 6.56 of the 12.1 s --rotate added on tpch_like.py (2026-12-04, GPU-d052abc0,
 * when each shape took its groups in turn, 0, 1, 2, ...). Else the lowest group the shape has not
 * had; once it has had all n, a new round. A shape launched n times still gets every group. */
static inline int wb_rotation_pick(uint64_t *seen, int active, int n) {
    const uint64_t all = n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
    if ((*seen & all) == all) *seen = 0;
    int g = 0;
    if (active >= 0 && active < n && !(*seen >> active & 1)) g = active;
    else
        while (*seen >> g & 1) g++;
    *seen |= (uint64_t)1 << g;
    return g;
}

#endif

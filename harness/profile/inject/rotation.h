/* rotation.h - --rotate's choice of counter group for a launch (header-only: the injection library
 * uses it, tests/test_rotation.c checks it without a GPU). */
#ifndef WB_ROTATION_H
#define WB_ROTATION_H

#include <stdint.h>

/* The launches a group is held at least (keep, below) unless WB_PROFILE_ROTATE_HOLD says otherwise:
 * each change of group costs a new profiler object and its first Start, ~0.4 s on GH100, and 32
 * made 9 changes on tpch_like.py and 21 on graph_steps.py (docs/profiling-measured.md). */
enum { WB_ROTATE_HOLD_DEFAULT = 32 };

/* The group a launch of one kernel and launch shape is counted with, out of n (1..64). seen: the
 * groups this shape has had since its round began (bit g), updated. active: the group the last
 * counted launch held, -1 for none. Every change of group ends a batch and starts another, and
 * CUPTI's Start was 6.56 of the 12.1 s --rotate added on tpch_like.py (2026-12-04, GPU-d052abc0,
 * when each shape took its groups in turn, 0, 1, 2, ...). So the shape keeps the active group while
 * it has not had it, or, with keep set, even when it has (a repeat: its columns are a second count
 * of ones it has; the caller sets keep to hold a group for a number of launches, fewer changes).
 * Else the next group after the active one, in cyclic order, that the shape has not had: shapes
 * that move on from one group move on to the same one (the lowest it lacked made 82 batches of the
 * tpch_like.py raw file's 314 launches where this makes 72; examples/profile-graph/rotation_batches.py).
 * Once the shape has had all n, a new round. A shape launched n times without keep gets every group. */
static inline int wb_rotation_pick(uint64_t *seen, int active, int keep, int n) {
    const uint64_t all = n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
    if ((*seen & all) == all) *seen = 0;
    const int has_active = active >= 0 && active < n;
    int g = has_active ? active : 0;
    if (!has_active || (*seen >> active & 1 && !keep))
        for (g = has_active ? (active + 1) % n : 0; *seen >> g & 1; g = (g + 1) % n) {
        }
    *seen |= (uint64_t)1 << g;
    return g;
}

#endif

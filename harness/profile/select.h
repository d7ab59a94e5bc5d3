/* select.h - which launches of a profiled program count, as Nsight Compute
 * users expect: a kernel-name filter (-k: a substring of the name as CUPTI
 * gives it, or "regex:ERE"), an NVTX range filter (the launch's range stack
 * "A/B" must start with the given path), then of the launches that pass both,
 * skip the first N (-s) and keep the next M (-c). The same rule runs inside
 * the injected program (counter pass: only selected launches are replayed)
 * and in the driver (timing pass: every launch is recorded, the driver keeps
 * the selected ones), so both passes select the same launches. Pure C. */
#ifndef WB_PROFILE_SELECT_H
#define WB_PROFILE_SELECT_H

#include <regex.h>
#include <stdint.h>

#include "harness/base/error.h"

typedef struct wb_select {
    char kernel[256];     /* "" any; "regex:..." an extended regular expression */
    char nvtx[256];       /* "" any; else a prefix of the range path, '/'-separated */
    int64_t skip, count;  /* count < 0: no limit */
    int64_t matched;      /* launches that passed the filters so far (state) */
    int has_regex;
    regex_t re;
} wb_select;

/* From the option values; kernel/nvtx may be NULL. */
int wb_select_init(wb_select *s, const char *kernel, const char *nvtx, int64_t skip, int64_t count, wb_err *e);
/* Same selection from the environment of the injected program (WB_PROFILE_KERNEL,
 * WB_PROFILE_NVTX, WB_PROFILE_SKIP, WB_PROFILE_COUNT), as wb_select_env_set wrote it. */
int wb_select_from_env(wb_select *s, wb_err *e);
/* Puts the selection into the environment of the child about to be run. */
int wb_select_env_set(const wb_select *s, wb_err *e);
/* Whether this launch (in program order) is selected; advances the state. */
int wb_select_take(wb_select *s, const char *name, const char *nvtx_path);
/* 1 once count launches were taken: nothing after can be selected. */
int wb_select_done(const wb_select *s);
void wb_select_free(wb_select *s);
/* 1 when nothing narrows the selection (no name, NVTX or count filter): graph launches,
 * which have no kernel name, are counted then. */
int wb_select_everything(const wb_select *s);

/* What one counted range is in the counter pass: a launch (auto range, the default), an
 * outermost NVTX range, N launches (--ranges). */
typedef enum { WB_RANGES_KERNEL, WB_RANGES_NVTX, WB_RANGES_EVERY } wb_ranges;
/* --batch: Range Profiler ranges between two decodes. Kernel mode gives a counted launch up to 3
 * (itself, the L2 flush before it, the kernel that empties the flushed L2): a batch holds one. */
#define WB_BATCH_MIN 4
#define WB_BATCH_MAX 4096
/* "kernel", "nvtx", "every:N" (N >= 1); 0 ok, -1 not one of those. */
int wb_ranges_parse(const char *text, wb_ranges *mode, int *every);

/* The range path prefix rule alone: "Q1" selects "Q1" and "Q1/filter", not "Q10". */
int wb_select_nvtx_match(const char *want, const char *path);

#endif

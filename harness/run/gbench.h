/* gbench.h - the C face of Google Benchmark (gbench_shim.cc, the only C++ in
 * harness/). C registers one benchmark per point; Google Benchmark selects
 * (--benchmark_filter), repeats (--benchmark_repetitions), aggregates and
 * reports (console/JSON/CSV, --benchmark_out) them. Time is manual: each
 * iteration is one timed sample whose seconds come from CUDA events, and the
 * iteration count is fixed to the sample count. Every call of a benchmark runs
 * setup, the samples and finish on the C side, so every measured point
 * reaches C whatever the reporters show. Builds against 1.7.1 and 1.8.x. */
#ifndef WB_GBENCH_H
#define WB_GBENCH_H

#include <stdint.h>
#include "harness/base/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A benchmark::State during finish, for user counters. */
typedef struct wb_gb_state wb_gb_state;

/* The three steps of one benchmark call; ctx comes back unchanged. */
typedef struct wb_gb_calls {
    /* Before the samples. repetition counts this benchmark's calls from 0.
     * WB_OK runs the samples; WB_SKIP or WB_ERR (message in e) skips them. */
    int (*setup)(void *ctx, int repetition, wb_err *e);
    /* Sample `index` (0-based): *seconds is its measured time. WB_ERR stops
     * the samples. */
    int (*sample)(void *ctx, int index, double *seconds, wb_err *e);
    /* Always called once per call, after the samples (or instead of them),
     * with the status so far (WB_OK/WB_SKIP/WB_ERR) and its message in e.
     * Returns the final status: WB_SKIP is shown as skipped (1.8) or as an
     * error "skipped: ..." (1.7, which cannot skip without an error), WB_ERR
     * as an error with e's message. */
    int (*finish)(void *ctx, int status, wb_gb_state *st, wb_err *e);
} wb_gb_calls;

/* benchmark::Initialize: removes the --benchmark_* flags it accepts from
 * argv (argv[0] is kept) and leaves the rest for the caller to check. Checks
 * first what Google Benchmark would otherwise answer with its usage text and
 * exit(0): --help, --benchmark_format / --benchmark_out_format values, an
 * empty --benchmark_color; and refuses --benchmark_min_warmup_time, whose
 * warm-up calls would measure and store points. WB_ERR with the reason. */
int wb_gb_init(int *argc, char **argv, wb_err *e);

/* 1 when --benchmark_list_tests (or BENCHMARK_LIST_TESTS) asks wb_gb_run to
 * print the selected names instead of running them. */
int wb_gb_listing(void);

/* Registers a benchmark named `name` with `iterations` samples per call,
 * manual time, reported in ms. calls must outlive the run. */
int wb_gb_register(const char *name, int iterations, const wb_gb_calls *calls, void *ctx, wb_err *e);

/* Calls the registered benchmarks will get, as Google Benchmark selects them:
 * names (with their "/iterations:N/manual_time" suffix) matched by the
 * --benchmark_filter regex (POSIX extended, search; a leading '-' negates;
 * "" and "all" match everything) times --benchmark_repetitions.
 * selected, when not NULL, gets 1 or 0 for each registered benchmark in
 * registration order (the order they run in).
 * -1 with the reason in e when the filter is no valid regex. */
int64_t wb_gb_selected(unsigned char *selected, wb_err *e);

/* RunSpecifiedBenchmarks with the suite's one-line console reporter (or
 * Google Benchmark's own for --benchmark_format=json|csv), and the file
 * reporter --benchmark_out asks for. *matched = benchmarks it matched. */
int wb_gb_run(int64_t *matched, wb_err *e);

/* Adds a user counter (shown by the reporters) to the call in progress. */
void wb_gb_counter(wb_gb_state *st, const char *name, double value);

/* The one line of a finished call (point name, median, rate, noise, ETA):
 * on stdout through the suite's console reporter when it shows (the
 * default, --benchmark_format=console), else on stderr, leaving stdout to
 * Google Benchmark's JSON or CSV. */
void wb_gb_line(const char *line);

/* benchmark::Shutdown; the registered benchmarks are cleared. */
void wb_gb_shutdown(void);

#ifdef __cplusplus
}
#endif
#endif

/* test_profile_match.c - wallbench profile's driver without a GPU: raw pass
 * files as the injection library writes them are read back (raw.h), joined
 * (K records to launches by correlation id, C lines by seq) and the two
 * passes matched (match.h): equal sequences launch by launch, reordered and
 * diverging sequences per kernel, the launch selection applied to the timing
 * pass as the injected program applies it, graph nodes timed and uncounted,
 * the counter pass's user ranges (U), flushes (F: what each launch left dirty in the L2) and mode lines read, launches left
 * uncounted inside a stream capture, --ranges parsed, a crash's cut last line
 * kept, a malformed line refused, several threads' out-of-order launches sorted. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/base/metrics.h"
#include "harness/base/profile_agg.h"
#include "harness/profile/attribute.h"
#include "harness/profile/match.h"
#include "harness/profile/rotation_yield.h"
#include "tests/check.h"

static char dir[] = "/tmp/wb-test-profile-XXXXXX";

/* Kernels by letter: name, grid x. */
static const char *kname(char k) {
    switch (k) {
    case 'A': return "_ZN3cub18DeviceReduceKernelIiEEvPi";
    case 'B': return "_Z6filterPKiPii";
    case 'C': return "_Z5scalePfi";
    case 'D': return "_Z4gatherPKiS0_Pi";
    default: return "_Z7unknownv";
    }
}

/* A timing pass file: launches of kernels seq (letters; 'G' a graph launch with two nodes),
 * each with an NVTX path, and their kernel records (start = 1000 * (i + 1), 100 ns * (i + 1) long). */
static void write_timing(const char *path, const char *seq, const char *nvtx, int pid) {
    FILE *f = fopen(path, "w");
    fprintf(f, "# wallbench-raw 1 pass=timing pid=%d ppid=1\n", pid);
    for (int i = 0; seq[i]; i++) {
        int graph = seq[i] == 'G';
        fprintf(f, "L\t%d\t%d\t%d\t0\t%d\t1\t1\t256\t1\t1\t0\t%s\t%s\n", i, 100 + i, graph ? 3 : 0, 10 + (seq[i] - 'A'),
                nvtx, graph ? "" : kname(seq[i]));
    }
    for (int i = 0; seq[i]; i++) {
        long long t0 = 1000LL * (i + 1), t1 = t0 + 100LL * (i + 1);
        if (seq[i] == 'G') {
            fprintf(f, "K\t%d\t%lld\t%lld\t0\t7\t32\t0\t0\t5\t1\t1\t128\t1\t1\t1\t%s\n", 100 + i, t0, t0 + 50, kname('D'));
            fprintf(f, "K\t%d\t%lld\t%lld\t0\t7\t32\t0\t0\t5\t1\t1\t128\t1\t1\t2\t%s\n", 100 + i, t0 + 60, t0 + 90, kname('D'));
            continue;
        }
        fprintf(f, "K\t%d\t%lld\t%lld\t0\t7\t40\t1024\t0\t%d\t1\t1\t256\t1\t1\t0\t%s\n", 100 + i, t0, t1, 10 + (seq[i] - 'A'),
                kname(seq[i]));
    }
    fprintf(f, "# end\n");
    fclose(f);
}

/* A counter pass file: every launch selected unless sel says '0'; inst = 1000 * letter + i. */
static void write_counters(const char *path, const char *seq, const char *sel, const char *tail) {
    FILE *f = fopen(path, "w");
    fprintf(f, "# wallbench-raw 1 pass=counters pid=77 ppid=1\n# metrics\tinst\tdram_sectors_read\tkernel_time_ms\n");
    fprintf(f, "# passes 6\tbatch 256\tcache all\n");
    for (int i = 0; seq[i]; i++)
        fprintf(f, "L\t%d\t%d\t0\t%c\t%d\t1\t1\t256\t1\t1\t0\tQ1\t%s\n", i, 500 + i, sel ? sel[i] : '1',
                10 + (seq[i] - 'A'), kname(seq[i]));
    for (int i = 0; seq[i]; i++)
        if (!sel || sel[i] == '1') fprintf(f, "C\t%d\t%d\t%d\t%d\n", i, 1000 * (seq[i] - 'A' + 1) + i, 10 * (i + 1), 2000 + i);
    fputs(tail ? tail : "# end\n", f);
    fclose(f);
}

/* DIR/name opened for writing a raw file by hand; path gets its full name. */
static FILE *create_raw(const char *name, char *path, size_t len) {
    snprintf(path, len, "%s/%s", dir, name);
    return fopen(path, "w");
}

static int read_raw(const char *name, wb_raw *r) {
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    wb_err e;
    int rc = wb_raw_read(path, r, &e);
    if (rc != WB_OK) fprintf(stderr, "%s\n", e.msg);
    return rc;
}

/* The timing pass tseq and the counter pass cseq (csel: which of its launches were selected)
 * written, read and matched into p; sel NULL: every launch selected. */
static int run_match(const char *tseq, const char *cseq, const char *csel, wb_select *sel, wb_profile *p, wb_match_stats *st) {
    wb_select all;
    wb_err e;
    if (!sel && wb_select_init(sel = &all, NULL, NULL, 0, -1, &e) != WB_OK) return WB_ERR;
    char path[256];
    snprintf(path, sizeof path, "%s/timing.5.tsv", dir);
    write_timing(path, tseq, "Q1", 5);
    snprintf(path, sizeof path, "%s/counters.77.tsv", dir);
    write_counters(path, cseq, csel, NULL);
    wb_raw t, c;
    memset(p, 0, sizeof *p);
    int rc = WB_ERR;
    if (read_raw("timing.5.tsv", &t) == WB_OK && read_raw("counters.77.tsv", &c) == WB_OK) {
        if ((rc = wb_match_passes(&t, 1, &c, 1, sel, p, st, &e)) != WB_OK) fprintf(stderr, "%s\n", e.msg);
        wb_raw_free(&t), wb_raw_free(&c);
    }
    if (sel == &all) wb_select_free(&all);
    return rc;
}

/* Every launch selected: the passes t and c matched into p. */
static int match_all(wb_raw *t, wb_raw *c, wb_profile *p, wb_match_stats *st) {
    wb_select sel;
    wb_err e;
    memset(p, 0, sizeof *p);
    if (wb_select_init(&sel, NULL, NULL, 0, -1, &e) != WB_OK) return WB_ERR;
    int rc = wb_match_passes(t, 1, c, c ? 1 : 0, &sel, p, st, &e);
    wb_select_free(&sel);
    return rc;
}

static void free_profile(wb_profile *p) {
    free(p->launches), free(p->kernels), free(p->ranges);
    memset(p, 0, sizeof *p);
}

static double inst_of(const wb_prof_launch *l) { return l->c.v[wb_metric_index("inst")]; }

static void test_equal(void) {
    wb_profile p;
    wb_match_stats st;
    CHECK(run_match("ABAC", "ABAC", NULL, NULL, &p, &st) == WB_OK);
    CHECK(p.nlaunches == 4);
    CHECK(p.nkernels == 3); /* A twice with one shape: one kernel */
    CHECK(p.nranges == 1 && !strcmp(p.ranges[0].path, "Q1"));
    CHECK(!st.by_kernel && st.both == 4 && st.timed == 4 && st.counted == 4);
    for (int i = 0; i < 4; i++) CHECK(p.launches[i].match == WB_MATCH_SEQUENCE);
    CHECK(inst_of(&p.launches[2]) == 1002); /* the second A got the second A's counters */
    CHECK_NEAR(p.launches[1].time_ms, 200e-6, 1e-12);
    CHECK(p.launches[0].registers == 40 && p.launches[0].smem_static == 1024 && p.launches[0].stream == 7);
    CHECK(!strcmp(p.kernels[p.launches[0].kernel].demangled, "cub::DeviceReduceKernel"));
    CHECK(strstr(st.note, "launch by launch") != NULL);
    free_profile(&p);
}

static void test_reordered(void) {
    wb_profile p;
    wb_match_stats st;
    CHECK(run_match("ABAC", "AABC", NULL, NULL, &p, &st) == WB_OK);
    CHECK(st.by_kernel == 1 && strstr(st.note, "different sequences") && strstr(st.note, "launch 1"));
    CHECK(p.nlaunches == 4 && st.both == 4);
    CHECK(inst_of(&p.launches[0]) == 1000); /* first A <- counter pass launch 0 */
    CHECK(inst_of(&p.launches[2]) == 1001); /* second A <- counter pass launch 1 */
    CHECK(inst_of(&p.launches[1]) == 2002); /* B <- counter pass launch 2 */
    CHECK(p.launches[1].match == WB_MATCH_KERNEL);
    free_profile(&p);
}

static void test_diverging(void) {
    wb_profile p;
    wb_match_stats st;
    CHECK(run_match("ABC", "ABD", NULL, NULL, &p, &st) == WB_OK);
    CHECK(st.by_kernel == 1);
    CHECK(st.unmatched_timing == 1 && st.unmatched_counters == 1);
    CHECK(p.nlaunches == 4); /* C timed only, D counted only */
    CHECK(isnan(inst_of(&p.launches[2])) && isfinite(p.launches[2].time_ms));
    CHECK(isnan(p.launches[3].time_ms) && inst_of(&p.launches[3]) == 4002);
    free_profile(&p);
}

static void test_selection(void) {
    wb_select sel;
    wb_err e;
    /* -k DeviceReduce -s 1: of A, B, A, C only the second A; the counter pass selected the same. */
    CHECK(wb_select_init(&sel, "DeviceReduce", NULL, 1, -1, &e) == WB_OK);
    wb_profile p;
    wb_match_stats st;
    CHECK(run_match("ABAC", "ABAC", "0010", &sel, &p, &st) == WB_OK);
    CHECK(p.nlaunches == 1 && st.both == 1 && !st.by_kernel);
    CHECK(p.nlaunches == 1 && p.launches[0].seq == 2 && inst_of(&p.launches[0]) == 1002);
    free_profile(&p);
    wb_select_free(&sel);
    CHECK(wb_select_init(&sel, "regex:^_Z[0-9]+(filter|scale)", "Q1/", 0, 1, &e) == WB_OK);
    CHECK(wb_select_take(&sel, kname('A'), "Q1") == 0);
    CHECK(wb_select_take(&sel, kname('B'), "Q1/x") == 1);
    CHECK(wb_select_take(&sel, kname('C'), "Q1") == 0 && wb_select_done(&sel)); /* count 1 reached */
    wb_select_free(&sel);
    CHECK(wb_select_nvtx_match("Q1", "Q1/filter") && !wb_select_nvtx_match("Q1", "Q10"));
    CHECK(wb_select_init(&sel, "regex:([", NULL, 0, -1, &e) == WB_ERR && strstr(e.msg, "not a regular expression"));
}

static void test_graph_and_crash(void) {
    char path[256];
    snprintf(path, sizeof path, "%s/timing.9.tsv", dir);
    write_timing(path, "AG", "", 9);
    snprintf(path, sizeof path, "%s/counters.78.tsv", dir);
    /* The counter pass crashed: its last line is cut and there is no "# end". */
    write_counters(path, "A", NULL, "L\t1\t501\t3\t0\t1\t1");
    wb_raw t, c;
    CHECK(read_raw("timing.9.tsv", &t) == WB_OK);
    CHECK(read_raw("counters.78.tsv", &c) == WB_OK);
    CHECK(t.ended == 1 && c.ended == 0 && c.nlaunches == 1);
    wb_err e;
    wb_profile p;
    wb_match_stats st;
    CHECK(match_all(&t, &c, &p, &st) == WB_OK);
    CHECK(st.graph_nodes == 2 && p.nlaunches == 3);
    CHECK(p.launches[1].api == WB_API_GRAPH && p.launches[1].seq == 1 && isnan(inst_of(&p.launches[1])));
    CHECK(p.launches[0].range == -1); /* no NVTX range */
    CHECK(strstr(p.launches[2].c.note, "graph's node") != NULL); /* a node's row says why it has no counts */
    free_profile(&p);
    wb_raw_free(&t), wb_raw_free(&c);
    /* the counter pass's reason for a launch it did not count (its N line) is the launch's note */
    FILE *f = fopen(path, "w"); /* both selected, the second not counted */
    fprintf(f, "# wallbench-raw 1 pass=counters pid=78 ppid=1\n# metrics\tinst\n");
    for (int i = 0; i < 2; i++) fprintf(f, "L\t%d\t%d\t0\t1\t10\t1\t1\t256\t1\t1\t0\t\t%s\n", i, 500 + i, kname('A'));
    fprintf(f, "C\t0\t1000\nN\t1\tlaunched inside a stream capture: recorded into a graph, not run now\n# end\n");
    fclose(f);
    snprintf(path, sizeof path, "%s/timing.9.tsv", dir);
    write_timing(path, "AA", "", 9);
    CHECK(read_raw("timing.9.tsv", &t) == WB_OK && read_raw("counters.78.tsv", &c) == WB_OK);
    CHECK(match_all(&t, &c, &p, &st) == WB_OK && p.nlaunches == 2);
    if (p.nlaunches == 2) CHECK(!p.launches[0].c.note[0] && strstr(p.launches[1].c.note, "stream capture") != NULL);
    free_profile(&p);
    wb_raw_free(&t), wb_raw_free(&c);
    snprintf(path, sizeof path, "%s/counters.78.tsv", dir);
    /* A malformed line before the end is refused with its line number. */
    f = fopen(path, "w");
    fprintf(f, "# wallbench-raw 1 pass=counters pid=1 ppid=1\nL\tnot-a-number\nL\t1\t2\n# end\n");
    fclose(f);
    CHECK(wb_raw_read(path, &c, &e) == WB_ERR && strstr(e.msg, ":2: malformed"));
    wb_raw_free(&c);
    f = fopen(path, "w");
    fprintf(f, "hello\n");
    fclose(f);
    CHECK(wb_raw_read(path, &c, &e) == WB_ERR);
    wb_raw_free(&c);
}

/* User ranges (U lines) and launches left uncounted inside a capture (N lines) are read as the
 * injection writes them; a U line whose value count differs from "# metrics" is refused. */
static void test_user_ranges(void) {
    char path[256];
    FILE *f = create_raw("counters.80.tsv", path, sizeof path);
    fprintf(f, "# wallbench-raw 1 pass=counters pid=80 ppid=1\n# metrics\tinst\tdram_sectors_read\tkernel_time_ms\n");
    fprintf(f, "L\t0\t1\t0\t0\t10\t1\t1\t256\t1\t1\t0\ttimed\t%s\n", kname('A'));
    fprintf(f, "L\t1\t2\t0\t0\t10\t1\t1\t256\t1\t1\t0\ttimed\t%s\n", kname('A'));
    fprintf(f, "N\t1\tlaunched inside a stream capture: recorded into a graph, not run now\n");
    fprintf(f, "U\t0\t1\t2\ttimed\t500\t6\t1500000\n# metrics\tinst\tdram_sectors_write\tkernel_time_ms\n");
    fprintf(f, "F\t0\t9\t4096\t1000\n# end\n");
    fclose(f);
    wb_raw c;
    CHECK(read_raw("counters.80.tsv", &c) == WB_OK);
    CHECK(c.nuranges == 1);
    if (c.nuranges == 1) {
        const wb_raw_urange *u = &c.uranges[0];
        CHECK(u->first_seq == 0 && u->last_seq == 1 && u->launches == 2 && !strcmp(wb_raw_str(&c, u->name), "timed"));
        CHECK(u->v[wb_metric_index("inst")] == 500 && fabs(u->v[wb_metric_index("kernel_time_ms")] - 1.5) < 1e-12);
    }
    CHECK(c.launches[1].not_counted_why >= 0 && strstr(wb_raw_str(&c, c.launches[1].not_counted_why), "capture"));
    CHECK(c.launches[0].flush_writes == 4096 && isnan(c.launches[1].flush_writes)); /* F: the flush before launch 0 */
    wb_raw_free(&c);
    f = fopen(path, "w");
    fprintf(f, "# wallbench-raw 1 pass=counters pid=80 ppid=1\n# metrics\tinst\tdram_sectors_read\nU\t0\t1\t2\tx\t5\n# end\n");
    fclose(f);
    wb_err e;
    CHECK(wb_raw_read(path, &c, &e) == WB_ERR && strstr(e.msg, ":3: malformed"));
    wb_raw_free(&c);
    /* --ranges and the selection that lets graph launches count */
    wb_ranges mode;
    int every = -1;
    CHECK(wb_ranges_parse("kernel", &mode, &every) == 0 && mode == WB_RANGES_KERNEL && every == 0);
    CHECK(wb_ranges_parse("nvtx", &mode, &every) == 0 && mode == WB_RANGES_NVTX);
    CHECK(wb_ranges_parse("every:50", &mode, &every) == 0 && mode == WB_RANGES_EVERY && every == 50);
    CHECK(wb_ranges_parse("every:0", &mode, &every) != 0 && wb_ranges_parse("every:5x", &mode, &every) != 0);
    CHECK(wb_ranges_parse("launch", &mode, &every) != 0 && wb_ranges_parse("", &mode, &every) != 0);
    wb_select sel;
    CHECK(wb_select_init(&sel, NULL, NULL, 0, -1, &e) == WB_OK && wb_select_everything(&sel));
    wb_select_free(&sel);
    CHECK(wb_select_init(&sel, "gemm", NULL, 0, -1, &e) == WB_OK && !wb_select_everything(&sel));
    wb_select_free(&sel);
    CHECK(wb_select_init(&sel, NULL, NULL, 0, 5, &e) == WB_OK && !wb_select_everything(&sel));
    wb_select_free(&sel);
}

/* --sample: PM samples (S lines of the timing pass) split among the kernels by overlap time,
 * sums for counts and overlap-weighted means for the clock; the first sample dropped, idle
 * samples kept (two in a row, with nothing lost between them, as one row), a gap counted.
 * Kernels: A over [1000, 3000), B over [2500, 3500) ns. */
static void test_sampled(void) {
    char path[256];
    FILE *f = create_raw("timing.12.tsv", path, sizeof path);
    fprintf(f, "# wallbench-raw 1 pass=timing pid=12 ppid=1\n# metrics\tinst\tdram_sectors_read\tsm_clock_hz\n");
    fprintf(f, "# sampling\tinterval_ns 1000\tchip GH100\tpasses 1\n");
    fprintf(f, "L\t0\t1\t0\t0\t10\t1\t1\t256\t1\t1\t0\tstep\t%s\n", kname('A'));
    fprintf(f, "L\t1\t2\t0\t0\t11\t1\t1\t256\t1\t1\t0\tstep\t%s\n", kname('B'));
    fprintf(f, "K\t1\t1000\t3000\t0\t7\t32\t0\t0\t10\t1\t1\t256\t1\t1\t0\t%s\n", kname('A'));
    fprintf(f, "K\t2\t2500\t3500\t0\t8\t32\t0\t0\t11\t1\t1\t256\t1\t1\t0\t%s\n", kname('B'));
    fprintf(f, "S\t0\t1000\t999\t9\t1e9\nS\t1000\t2000\t100\t10\t1e9\nS\t2000\t3000\t300\t30\t2e9\n");
    fprintf(f, "S\t3000\t4000\t50\t5\t1e9\nS\t4000\t5000\t1\t0\t1e9\nS\t5000\t6000\t2\t0\t2e9\n");
    fprintf(f, "S\t8000\t9000\t0\t0\t1e9\n# end\n");
    fclose(f);
    wb_raw t;
    CHECK(read_raw("timing.12.tsv", &t) == WB_OK);
    CHECK(t.nsamples == 7 && t.sample_ns == 1000);
    wb_select sel;
    wb_err e;
    CHECK(wb_select_init(&sel, NULL, NULL, 0, -1, &e) == WB_OK);
    wb_profile p;
    memset(&p, 0, sizeof p);
    wb_match_stats st;
    CHECK(wb_match_passes(&t, 1, NULL, 0, &sel, &p, &st, &e) == WB_OK && p.nlaunches == 2);
    wb_sample_stats ss = {0};
    CHECK(wb_attribute_samples(&p, &t, &ss, &e) == WB_OK);
    CHECK(p.nsamples == 5 && ss.samples == 6 && ss.attributed == 2);
    CHECK(ss.gaps == 1 && fabs(ss.gap_ms - 0.002) < 1e-12);
    CHECK(fabs(ss.idle_pct - 100.0 * 3500 / 6000) < 1e-9); /* busy 1000 + 1000 + 500 of 6 x 1000 ns */
    int clk = wb_metric_index("sm_clock_hz"), rd = wb_metric_index("dram_sectors_read");
    for (int i = 0; i < 2; i++) {
        const wb_prof_launch *l = &p.launches[i];
        int a = l->seq == 0;
        CHECK(fabs(inst_of(l) - (a ? 300.0 : 150.0)) < 1e-9);      /* A: 100 + 2/3 of 300; B: 1/3 of 300 + 50 */
        CHECK(fabs(l->c.v[rd] - (a ? 30.0 : 15.0)) < 1e-9);
        CHECK(fabs(l->c.v[clk] - 1.5e9) < 1.0);                        /* overlap-weighted */
        CHECK(strstr(l->c.note, "sampled") != NULL);
    }
    if (p.nsamples == 5) {
        const wb_prof_sample *x = &p.samples[1]; /* [2000, 3000): both kernels */
        CHECK(x->kernels == 2 && x->busy_ns == 1000 && x->launch >= 0 && p.launches[x->launch].seq == 0);
        CHECK(!strcmp(x->nvtx, "step") && x->c.v[wb_metric_index("inst")] == 300);
        const wb_prof_sample *idle = &p.samples[3]; /* [4000, 5000) and [5000, 6000), one row */
        CHECK(idle->kernels == 0 && idle->launch == -1 && idle->busy_ns == 0);
        CHECK(idle->start_ns == 4000 && idle->end_ns == 6000 && idle->c.v[wb_metric_index("inst")] == 3);
        CHECK(fabs(idle->c.v[clk] - 1.5e9) < 1.0 && p.samples[4].start_ns == 8000);
    }
    free(p.samples);
    free_profile(&p);
    wb_select_free(&sel);
    wb_raw_free(&t);
}

/* --sample since 2026-12-04: the profiler's own sampling file (pid 0, sampler.c) is the
 * device's: its samples split among the kernels of every process. Kernel A of process 12 and B
 * of process 13 at the times of test_sampled get the same shares as there; a sample file of
 * process 12 alone (the old form) leaves process 13's kernel unsampled. */
static void test_sampled_device(void) {
    char path[256];
    const char *samples = "S\t0\t1000\t999\t9\t1e9\nS\t1000\t2000\t100\t10\t1e9\nS\t2000\t3000\t300\t30\t2e9\n"
                          "S\t3000\t4000\t50\t5\t1e9\n# end\n";
    for (int k = 0; k < 2; k++) {
        char name[32];
        snprintf(name, sizeof name, "timing.%d.tsv", 12 + k);
        FILE *f = create_raw(name, path, sizeof path);
        fprintf(f, "# wallbench-raw 1 pass=timing pid=%d ppid=1\n", 12 + k);
        fprintf(f, "L\t0\t1\t0\t0\t%d\t1\t1\t256\t1\t1\t0\tstep\t%s\n", 10 + k, kname('A' + k));
        fprintf(f, "K\t1\t%d\t%d\t0\t7\t32\t0\t0\t%d\t1\t1\t256\t1\t1\t0\t%s\n", k ? 2500 : 1000, k ? 3500 : 3000,
                10 + k, kname('A' + k));
        fprintf(f, "# end\n");
        fclose(f);
    }
    FILE *f = create_raw("sampling.1.tsv", path, sizeof path);
    fprintf(f, "# wallbench-raw 1 pass=sampling pid=0 ppid=1\n# metrics\tinst\tdram_sectors_read\tsm_clock_hz\n");
    fprintf(f, "# sampling\tinterval_ns 1000\tchip GH100\tpasses 1\tdevice 0\n%s", samples);
    fclose(f);
    f = create_raw("timing-old.12.tsv", path, sizeof path); /* process 12's own samples, the old form */
    fprintf(f, "# wallbench-raw 1 pass=timing pid=12 ppid=1\n# metrics\tinst\tdram_sectors_read\tsm_clock_hz\n");
    fprintf(f, "# sampling\tinterval_ns 1000\tchip GH100\tpasses 1\n%s", samples);
    fclose(f);
    wb_raw t[2], s, old;
    CHECK(read_raw("timing.12.tsv", &t[0]) == WB_OK && read_raw("timing.13.tsv", &t[1]) == WB_OK);
    CHECK(read_raw("sampling.1.tsv", &s) == WB_OK && s.pid == 0 && s.nsamples == 4 && !strcmp(s.pass, "sampling"));
    CHECK(read_raw("timing-old.12.tsv", &old) == WB_OK && old.pid == 12);
    wb_select sel;
    wb_err e;
    CHECK(wb_select_init(&sel, NULL, NULL, 0, -1, &e) == WB_OK);
    for (int form = 0; form < 2; form++) {
        wb_profile p;
        memset(&p, 0, sizeof p);
        wb_match_stats st;
        CHECK(wb_match_passes(t, 2, NULL, 0, &sel, &p, &st, &e) == WB_OK && p.nlaunches == 2);
        wb_sample_stats ss = {0};
        CHECK(wb_attribute_samples(&p, form ? &old : &s, &ss, &e) == WB_OK);
        CHECK(ss.attributed == (form ? 1 : 2));
        for (int i = 0; i < p.nlaunches; i++) {
            const wb_prof_launch *l = &p.launches[i];
            int a = l->pid == 12;
            if (form && !a) CHECK(!isfinite(inst_of(l)) && strstr(l->c.note, "sampled") == NULL);
            else /* alone in its process, A gets all of [2000, 3000) in the old form */
                CHECK(fabs(inst_of(l) - (a ? (form ? 400.0 : 300.0) : 150.0)) < 1e-9 && strstr(l->c.note, "sampled") != NULL);
        }
        free(p.samples);
        free_profile(&p);
    }
    wb_select_free(&sel);
    wb_raw_free(&t[0]), wb_raw_free(&t[1]), wb_raw_free(&s), wb_raw_free(&old);
}

/* --rotate: C lines hold the whole set's columns, NaN where a launch's group had none; a kernel's
 * count of such a column is the mean over the launches that have it times its counted launches;
 * the "# rotation" line becomes the file's attributes. Kernel A launched three times: the first
 * with every column (replayed), the second without l1_sectors_ld (another group). */
static void test_rotated(void) {
    char path[256];
    FILE *f = create_raw("timing.21.tsv", path, sizeof path);
    fprintf(f, "# wallbench-raw 1 pass=timing pid=21 ppid=1\n");
    for (int i = 0; i < 3; i++) {
        fprintf(f, "L\t%d\t%d\t0\t0\t10\t1\t1\t256\t1\t1\t0\t\t%s\n", i, i + 1, kname('A'));
        fprintf(f, "K\t%d\t%d\t%d\t0\t7\t32\t0\t0\t10\t1\t1\t256\t1\t1\t0\t%s\n", i + 1, 1000 * i, 1000 * i + 500, kname('A'));
    }
    fprintf(f, "# end\n");
    fclose(f);
    f = create_raw("counters.22.tsv", path, sizeof path);
    fprintf(f, "# wallbench-raw 1 pass=counters pid=22 ppid=1\n# metrics\tinst\tl1_sectors_ld\n");
    fprintf(f, "# groups\t-2\t0\n# passes 6\tbatch 256\tcache all\n");
    for (int i = 0; i < 3; i++) fprintf(f, "L\t%d\t%d\t0\t1\t10\t1\t1\t256\t1\t1\t0\t\t%s\n", i, i + 1, kname('A'));
    fprintf(f, "C\t0\t100\t40\nC\t1\t110\tnan\nC\t2\t120\t20\n");
    fprintf(f, "# cost\tcounted 3\tlaunch_s 0.1\tbatch_s 0.01\tflush_s 0.01\n");
    fprintf(f, "# rotation\tgroups 18\treplayed 1\tone_pass 2\tshapes 1\n# end\n");
    fclose(f);
    wb_raw t, c;
    CHECK(read_raw("timing.21.tsv", &t) == WB_OK && read_raw("counters.22.tsv", &c) == WB_OK);
    CHECK(c.rotation[0] == 18 && c.rotation[1] == 1 && c.rotation[2] == 2 && c.rotation[3] == 1);
    CHECK(isnan(c.launches[1].v[wb_metric_index("l1_sectors_ld")]) && c.launches[1].v[wb_metric_index("inst")] == 110);
    wb_profile p;
    wb_match_stats st;
    wb_err e;
    CHECK(match_all(&t, &c, &p, &st) == WB_OK && p.nkernels == 1 && st.counted == 3);
    wb_roof roof = {"measured", 1000.0, 4000.0};
    CHECK(wb_profile_aggregate(&p, &roof, &e) == WB_OK);
    if (p.nkernels == 1) {
        const wb_counters *k = &p.kernels[0].c;
        CHECK(k->v[wb_metric_index("inst")] == 330);                 /* every launch has it: the sum */
        CHECK(fabs(k->v[wb_metric_index("l1_sectors_ld")] - 90) < 1e-9); /* (40 + 20) / 2 x 3 */
    }
    free_profile(&p);
    wb_raw_free(&t), wb_raw_free(&c);
    /* since 2026-12-05 the line goes on: changes of group, the hold, new profiler objects and their
     * seconds; a line cut short there, or with a word for a number, is a corrupt file */
    static const char *const tails[] = {"\tchanges 7\thold 32\tnew_objects 7\tnew_object_s 3.5", "\tchanges 7\thold 32",
                                         "\tchanges seven\thold 32\tnew_objects 7\tnew_object_s 3.5"};
    for (int k = 0; k < 3; k++) {
        f = create_raw("counters.23.tsv", path, sizeof path);
        fprintf(f, "# wallbench-raw 1 pass=counters pid=23 ppid=1\n# metrics\tinst\n");
        fprintf(f, "# rotation\tgroups 18\treplayed 0\tone_pass 3\tshapes 1%s\n# end\n", tails[k]);
        fclose(f);
        const int ok = read_raw("counters.23.tsv", &c) == WB_OK;
        CHECK(ok == (k == 0));
        if (ok) {
            CHECK(c.rotation[4] == 7 && c.rotation[5] == 32 && c.rotation[6] == 7 && c.rotation_new_object_s == 3.5);
            wb_raw_free(&c);
        }
    }
}

/* --rotate's "# groups" and "# batch" lines (since 2026-12-05): which group each C line held, and
 * so which of a group's columns came back (rotation_yield.h). inst in every group (-2),
 * l1_sectors_ld in group 0, occupancy and ipc in group 1, l2_hit_pct in none (-1): launches 0
 * and 2 held group 0 (their L1 sectors back), 1 and 3 group 1 (occupancy NaN in both, ipc in one);
 * launch 4 came before any "# batch" line is not counted as any group's. A group out of range, a
 * word for it, or "# groups" and "# metrics" of different lengths: a damaged file. */
static void test_rotation_yield(void) {
    char path[256];
    FILE *f = create_raw("counters.31.tsv", path, sizeof path);
    fprintf(f, "# wallbench-raw 1 pass=counters pid=31 ppid=1\n# groups\t-2\t0\t1\t1\t-1\n");
    fprintf(f, "# metrics\tinst\tl1_sectors_ld\toccupancy_achieved_pct\tipc\tl2_hit_pct\n");
    for (int i = 0; i < 5; i++) fprintf(f, "L\t%d\t%d\t0\t1\t10\t1\t1\t256\t1\t1\t0\t\t%s\n", i, i + 1, kname('A'));
    fprintf(f, "C\t4\t90\tnan\tnan\tnan\tnan\n");
    fprintf(f, "# batch\tgroup 0\nC\t0\t100\t40\tnan\tnan\tnan\n# batch\tgroup 1\nC\t1\t110\tnan\t-nan\t1.5\tnan\n");
    fprintf(f, "# batch\tgroup 0\nC\t2\t120\t20\tnan\tnan\tnan\n# batch\tgroup 1\nC\t3\t130\tnan\tnan\tnan\tnan\n# end\n");
    fclose(f);
    wb_raw c;
    const int read = read_raw("counters.31.tsv", &c) == WB_OK;
    CHECK(read);
    if (!read) return;
    CHECK(c.ngroup_cols == 5 && c.launches[0].group == 0 && c.launches[1].group == 1 && c.launches[3].group == 1);
    CHECK(c.launches[4].group == WB_RAW_GROUP_UNKNOWN);
    wb_rotation_yield y = {0};
    wb_rotation_yield_add(&y, &c);
    char attr[1024], line[1024];
    CHECK(wb_rotation_yield_text(&y, attr, sizeof attr, line, sizeof line) == 1 && y.launches == 4);
    CHECK(!strcmp(attr, "l1_sectors_ld 2/2, occupancy_achieved_pct 0/2, ipc 1/2"));
    CHECK(strstr(line, "of the 3 columns the groups hold beyond the core rows, 1 came back in every launch that held "
                       "their group, 1 in some, 1 in none (occupancy_achieved_pct), 0 in no launch's group") != NULL);
    if (strcmp(attr, "l1_sectors_ld 2/2, occupancy_achieved_pct 0/2, ipc 1/2")) fprintf(stderr, "yield: %s\n%s\n", attr, line);
    wb_raw_free(&c);
    /* without "# batch" lines (every file before 2026-12-05): nothing to say */
    f = create_raw("counters.32.tsv", path, sizeof path);
    fprintf(f, "# wallbench-raw 1 pass=counters pid=32 ppid=1\n# metrics\tinst\tl1_sectors_ld\n# groups\t-2\t0\n");
    fprintf(f, "L\t0\t1\t0\t1\t10\t1\t1\t256\t1\t1\t0\t\t%s\nC\t0\t100\t40\n# end\n", kname('A'));
    fclose(f);
    const int read_old = read_raw("counters.32.tsv", &c) == WB_OK;
    CHECK(read_old);
    if (read_old) {
        wb_rotation_yield none = {0};
        wb_rotation_yield_add(&none, &c);
        CHECK(wb_rotation_yield_text(&none, attr, sizeof attr, line, sizeof line) == 0);
        wb_raw_free(&c);
    }
    static const char *const bad[] = {"# batch\tgroup 64\n", "# batch\tgroup one\n", "# batch\tgroup -2\n",
                                      "# groups\t-2\n", "# groups\t-2\t-3\n"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        f = create_raw("counters.33.tsv", path, sizeof path);
        fprintf(f, "# wallbench-raw 1 pass=counters pid=33 ppid=1\n# metrics\tinst\tl1_sectors_ld\n%s# end\n", bad[k]);
        fclose(f);
        wb_err e;
        const int rc = wb_raw_read(path, &c, &e);
        CHECK(rc != WB_OK);
        if (rc == WB_OK) fprintf(stderr, "read as good: %s", bad[k]), wb_raw_free(&c);
    }
}

/* The dirty lines a launch leaves in the L2 (F lines: what the flush before the next counted launch
 * wrote back): launch 0's are the flush before 2 (1 was not counted, no flush before it), 2's the
 * flush before 3; 3, the last counted, has none (NaN), and neither has 1. Matched into the profile's
 * dram_sectors_write_after, as read without any F line (--cache-control none): NaN. */
static void test_written_after(void) {
    char path[256];
    FILE *f = create_raw("counters.83.tsv", path, sizeof path);
    fprintf(f, "# wallbench-raw 1 pass=counters pid=83 ppid=1\n# metrics\tinst\tdram_sectors_write\n");
    for (int i = 0; i < 4; i++) fprintf(f, "L\t%d\t%d\t0\t1\t10\t1\t1\t256\t1\t1\t0\t\t%s\n", i, i + 1, kname('A'));
    fprintf(f, "F\t0\t9\t700\nC\t0\t100\t5\nN\t1\tnot selected\nF\t2\t9\t5000\nC\t2\t100\t6\n");
    fprintf(f, "F\t3\t9\t800\nC\t3\t100\t7\n# end\n");
    fclose(f);
    wb_raw c;
    CHECK(read_raw("counters.83.tsv", &c) == WB_OK && c.nlaunches == 4);
    if (c.nlaunches == 4) {
        CHECK(c.launches[0].written_after == 5000 && isnan(c.launches[1].written_after));
        CHECK(c.launches[2].written_after == 800 && isnan(c.launches[3].written_after));
    }
    wb_profile p = {0};
    wb_match_stats st;
    wb_select sel;
    wb_err e;
    CHECK(wb_select_init(&sel, NULL, NULL, 0, -1, &e) == WB_OK);
    CHECK(wb_match_passes(NULL, 0, &c, 1, &sel, &p, &st, &e) == WB_OK && p.nlaunches == 4); /* the counter pass alone */
    wb_select_free(&sel);
    if (p.nlaunches == 4) {
        CHECK(p.launches[0].dram_sectors_write_after == 5000 && p.launches[2].dram_sectors_write_after == 800);
        CHECK(isnan(p.launches[1].dram_sectors_write_after) && isnan(p.launches[3].dram_sectors_write_after));
        CHECK(p.launches[0].c.v[wb_metric_index("dram_sectors_write")] == 5); /* its own range's count, unchanged */
    }
    free_profile(&p);
    wb_raw_free(&c);
    f = fopen(path, "w");
    fprintf(f, "# wallbench-raw 1 pass=counters pid=83 ppid=1\n# metrics\tinst\tdram_sectors_write\n");
    for (int i = 0; i < 2; i++) fprintf(f, "L\t%d\t%d\t0\t1\t10\t1\t1\t256\t1\t1\t0\t\t%s\nC\t%d\t1\t2\n", i, i + 1, kname('A'), i);
    fprintf(f, "# end\n");
    fclose(f);
    CHECK(read_raw("counters.83.tsv", &c) == WB_OK && c.nlaunches == 2 && isnan(c.launches[0].written_after));
    wb_raw_free(&c);
}

/* A raw file as several launching threads of an older build wrote it (L lines out of seq order)
 * reads back in seq order, its C lines on their launches; a seq twice, an empty or non-numeric
 * field are malformed; a correlation id of 2^31 or more still joins its kernel record. */
static void test_raw_strict(void) {
    char path[256];
    FILE *f = create_raw("counters.81.tsv", path, sizeof path);
    fprintf(f, "# wallbench-raw 1 pass=counters pid=81 ppid=1\n# metrics\tinst\tdram_sectors_read\n");
    fprintf(f, "L\t0\t1\t0\t1\t10\t1\t1\t256\t1\t1\t0\t\t%s\n", kname('A'));
    fprintf(f, "L\t2\t3\t0\t1\t12\t1\t1\t256\t1\t1\t0\t\t%s\n", kname('C'));
    fprintf(f, "L\t1\t2\t0\t1\t11\t1\t1\t256\t1\t1\t0\t\t%s\n", kname('B'));
    fprintf(f, "C\t1\t200\t20\nC\t2\t300\t30\nC\t0\t100\t10\n# end\n");
    fclose(f);
    wb_raw c;
    CHECK(read_raw("counters.81.tsv", &c) == WB_OK && c.nlaunches == 3);
    for (int i = 0; i < c.nlaunches; i++) {
        CHECK(c.launches[i].seq == i && c.launches[i].grid[0] == 10 + i);
        CHECK(c.launches[i].v[wb_metric_index("inst")] == 100.0 * (i + 1));
    }
    wb_raw_free(&c);
    static const char *bad[] = {
        "L\t0\t1\t0\t1\t10\t1\t1\t256\t1\t1\t0\t\tk\nL\t0\t2\t0\t1\t10\t1\t1\t256\t1\t1\t0\t\tk\nC\t0\t1\t2\n",
        "L\t0\t1\t0\t1\t10\t1\t1\t256\t1\t1\t0\t\tk\nC\t0\t\t2\n", /* an empty value */
        "L\t0\t1\t0\t1\t10x\t1\t1\t256\t1\t1\t0\t\tk\n",          /* a grid of "10x" */
        "L\t0\t1\t0\t1\t10\t1\t1\t256\t1\t1\t0\t\tk\nC\t\t1\t2\n",  /* no seq */
        "L\t0\t1\t0\t1\t10\t1\t1\t256\t1\t1\t0\t\tk\nN\t7\tno such launch\n",
        "L\t0\t1\t0\t1\t10\t1\t1\t256\t1\t1\t0\t\tk\nL\t0\t2\t0\t1\t10\t1\t1\t256\t1\t1\t0\t\tk\n", /* seq twice */
        "L\t0\t99999999999999999999\t0\t1\t10\t1\t1\t256\t1\t1\t0\t\tk\n", /* out of range */
    };
    wb_err e;
    for (size_t b = 0; b < sizeof bad / sizeof *bad; b++) {
        f = fopen(path, "w");
        fprintf(f, "# wallbench-raw 1 pass=counters pid=81 ppid=1\n# metrics\tinst\tdram_sectors_read\n%s# end\n", bad[b]);
        fclose(f);
        int rc = wb_raw_read(path, &c, &e);
        CHECK(rc == WB_ERR && strstr(e.msg, "malformed"));
        if (rc == WB_OK) fprintf(stderr, "bad raw file %zu was read\n", b);
        wb_raw_free(&c);
    }
    f = create_raw("timing.82.tsv", path, sizeof path);
    fprintf(f, "# wallbench-raw 1 pass=timing pid=82 ppid=1\n");
    fprintf(f, "L\t0\t3000000000\t0\t0\t10\t1\t1\t256\t1\t1\t0\t\t%s\n", kname('A'));
    fprintf(f, "L\t1\t3000000001\t0\t0\t11\t1\t1\t256\t1\t1\t0\t\t%s\n", kname('B'));
    fprintf(f, "K\t3000000001\t10\t20\t0\t7\t32\t0\t0\t11\t1\t1\t256\t1\t1\t0\t%s\n", kname('B'));
    fprintf(f, "K\t3000000000\t1\t5\t0\t7\t32\t0\t0\t10\t1\t1\t256\t1\t1\t0\t%s\n# end\n", kname('A'));
    fclose(f);
    CHECK(read_raw("timing.82.tsv", &c) == WB_OK && c.nkernels == 2 && c.untimed_records == 0);
    CHECK(c.launches[0].kernel_rec == 1 && c.launches[1].kernel_rec == 0);
    wb_raw_free(&c);
    /* a kernel record that ends before it starts, or has no timestamps (cut off by CUPTI), is counted, not kept */
    f = create_raw("timing.84.tsv", path, sizeof path);
    fprintf(f, "# wallbench-raw 1 pass=timing pid=84 ppid=1\n");
    fprintf(f, "L\t0\t1\t0\t0\t10\t1\t1\t256\t1\t1\t0\t\tk\nK\t1\t500\t0\t0\t7\t32\t0\t0\t10\t1\t1\t256\t1\t1\t0\tk\n");
    /* and one still running when CUPTI's buffer was forced out: no timestamps at all */
    fprintf(f, "L\t1\t2\t0\t0\t10\t1\t1\t256\t1\t1\t0\t\tk\nK\t2\t0\t0\t0\t7\t32\t0\t0\t10\t1\t1\t256\t1\t1\t0\tk\n# end\n");
    fclose(f);
    CHECK(read_raw("timing.84.tsv", &c) == WB_OK && c.nkernels == 0 && c.untimed_records == 2 && c.launches[0].kernel_rec == -1);
    wb_raw_free(&c);
    /* a graph node's kernel of a 6,000-character name (CUTLASS's pass 4 KB) keeps it whole */
    static char longname[6001];
    memset(longname, 'x', 6000);
    memcpy(longname, "_Z4", 3);
    f = create_raw("timing.83.tsv", path, sizeof path);
    fprintf(f, "# wallbench-raw 1 pass=timing pid=83 ppid=1\n");
    fprintf(f, "K\t9\t1\t5\t0\t7\t32\t0\t0\t10\t1\t1\t256\t1\t1\t4\t%s\n# end\n", longname);
    fclose(f);
    CHECK(read_raw("timing.83.tsv", &c) == WB_OK && c.nkernels == 1);
    if (c.nkernels == 1) CHECK(strlen(wb_raw_str(&c, c.kernels[0].name)) == 6000);
    wb_raw_free(&c);
}

static void test_short_names(void) {
    char out[256];
    wb_kernel_short_name("_ZN3cub18DeviceReduceKernelIiEEvPi", out, sizeof out);
    CHECK(!strcmp(out, "cub::DeviceReduceKernel"));
    wb_kernel_short_name("_Z6filterPKiPii", out, sizeof out);
    CHECK(!strcmp(out, "filter"));
    wb_kernel_short_name("my_c_kernel", out, sizeof out);
    CHECK(!strcmp(out, "my_c_kernel"));
}

int main(void) {
    if (!mkdtemp(dir)) return perror("mkdtemp"), 1;
    test_equal();
    test_reordered();
    test_diverging();
    test_selection();
    test_graph_and_crash();
    test_user_ranges();
    test_sampled();
    test_sampled_device();
    test_rotated();
    test_rotation_yield();
    test_raw_strict();
    test_written_after();
    test_short_names();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    return TEST_DONE();
}

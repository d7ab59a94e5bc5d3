/* profile_cols.c - the column lists of a profile's tables (see
 * profile_cols.h): identity and launch shape first, then every counter of
 * wb_metrics[] under its own column name, the stall groups, and the derived
 * roofline columns, in that order in all three tables. */
#include "harness/base/profile_cols.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness/base/metrics.h"

enum { FIELD = 0, C_ID, C_SHAPE, C_SMEM };

#define MAXCOLS WB_PCOLS_MAX
#define SHAPE_LEN 64

typedef struct table {
    wb_pcol col[MAXCOLS];
    int n;
} table;

static table tables[WB_PT_COUNT];
static int built;

static void add(table *t, const char *name, wb_pcol_type type, size_t size, size_t offset, int computed,
                const char *unit, const char *desc) {
    wb_pcol *c = &t->col[t->n++];
    snprintf(c->name, sizeof c->name, "%s", name);
    c->type = type;
    c->size = size;
    c->offset = offset;
    c->computed = computed;
    c->unit = unit;
    c->desc = desc;
    c->count = type == WB_PCOL_F64 && wb_unit_is_count(unit);
}

#define F(t, st, field, type, unit, desc) add(t, #field, type, sizeof(((st *)0)->field), offsetof(st, field), FIELD, unit, desc)
#define FN(t, st, name, field, type, unit, desc) add(t, name, type, sizeof(((st *)0)->field), offsetof(st, field), FIELD, unit, desc)

static void add_shape(table *t, size_t grid, size_t block) {
    static const char *const axis[3] = {"x", "y", "z"};
    static const char *const gdesc[3] = {"grid size in blocks, x", "grid size in blocks, y", "grid size in blocks, z"};
    static const char *const bdesc[3] = {"block size in threads, x", "block size in threads, y",
                                         "block size in threads, z"};
    char name[16];
    for (int i = 0; i < 3; i++) {
        snprintf(name, sizeof name, "grid_%s", axis[i]);
        add(t, name, WB_PCOL_I32, 4, grid + 4 * (size_t)i, FIELD, "block", gdesc[i]);
    }
    for (int i = 0; i < 3; i++) {
        snprintf(name, sizeof name, "block_%s", axis[i]);
        add(t, name, WB_PCOL_I32, 4, block + 4 * (size_t)i, FIELD, "thread", bdesc[i]);
    }
}

/* Counter, stall and derived columns of a wb_counters at offset base. The
 * sums and means are explained once per table in `what`. */
static void add_counters(table *t, size_t base) {
    for (int i = 0; i < wb_n_metrics; i++) {
        add(t, wb_metrics[i].column, WB_PCOL_F64, 8, base + offsetof(wb_counters, v) + 8 * (size_t)i, FIELD,
            wb_metrics[i].unit, wb_metrics[i].desc);
        t->col[t->n - 1].since = wb_metrics[i].profile_since;
    }
    for (int g = 0; g < WB_STALL_GROUPS; g++) {
        char name[48];
        snprintf(name, sizeof name, "stall_%s", wb_stall_groups[g]);
        add(t, name, WB_PCOL_F64, 8, base + offsetof(wb_counters, stall) + 8 * (size_t)g, FIELD, "warp-cycles/issue",
            "stall reasons of this group summed (seed 000 Fig 6; harness/base/counters_derive.c)");
    }
#define D(field, type, unit, desc) \
    add(t, #field, type, sizeof(((wb_counters *)0)->field), base + offsetof(wb_counters, field), FIELD, unit, desc)
    D(l1_sectors, WB_PCOL_F64, "sector", "global load + store sectors at L1");
    D(inst_per_sector, WB_PCOL_F64, "inst/sector", "inst / (dram_sectors_read + dram_sectors_write): the x of the roofline");
    D(inst_per_l1_sector, WB_PCOL_F64, "inst/sector", "inst / l1_sectors");
    D(inst_per_l2_sector, WB_PCOL_F64, "inst/sector", "inst / l2_sectors");
    D(gips, WB_PCOL_F64, "G inst/s", "warp instructions per second over the timed time (else the counted kernel_time_ms)");
    D(roof_pct, WB_PCOL_F64, "%", "gips over the measured roof's attainable rate at this inst_per_sector");
    D(bound, WB_PCOL_STR, "", "memory/compute: side of the measured ridge (\"\" without ceilings or counters)");
    D(bound_l4, WB_PCOL_STR, "", "memory/compute: side of the L4 ridge (seed 000 Table 2)");
    D(bound_gh200, WB_PCOL_STR, "", "memory/compute: side of the GH200 ridge (seed 000 Table 2)");
#undef D
    add(t, "counter_note", WB_PCOL_STR, sizeof(((wb_counters *)0)->note), base + offsetof(wb_counters, note), FIELD,
        "", "why the counters are missing, or \"\"");
}

static void build_launches(table *t) {
    typedef wb_prof_launch L;
    F(t, L, seq, WB_PCOL_I64, "", "position in the program's launch order (0-based, all threads)");
    FN(t, L, "kernel_id", kernel, WB_PCOL_I32, "", "row of /kernels");
    FN(t, L, "range_id", range, WB_PCOL_I32, "", "row of /ranges (innermost NVTX stack at launch); -1 outside any");
    F(t, L, device, WB_PCOL_I32, "", "CUDA device ordinal");
    F(t, L, pid, WB_PCOL_I32, "", "process that launched it");
    F(t, L, stream, WB_PCOL_I64, "", "CUPTI stream id; -1 unknown");
    add_shape(t, offsetof(L, grid), offsetof(L, block));
    F(t, L, registers, WB_PCOL_I32, "register", "registers per thread; -1 when not timed");
    F(t, L, smem_static, WB_PCOL_I32, "byte", "static shared memory per block; -1 unknown");
    F(t, L, smem_dynamic, WB_PCOL_I32, "byte", "dynamic shared memory per block; -1 unknown");
    F(t, L, api, WB_PCOL_I32, "", "launch API: 0 cuLaunchKernel, 1 cuLaunchKernelEx, 2 cooperative, 3 graph node");
    F(t, L, start_ns, WB_PCOL_I64, "ns", "GPU start timestamp (timing pass); -1 when not timed");
    F(t, L, end_ns, WB_PCOL_I64, "ns", "GPU end timestamp (timing pass); -1 when not timed");
    F(t, L, time_ms, WB_PCOL_F64, "ms", "end - start; NaN when not timed");
    F(t, L, match, WB_PCOL_I32, "", "how the passes were joined: 0 none, 1 same position in equal sequences, "
                                    "2 k-th launch of the same kernel");
    add_counters(t, offsetof(L, c));
    F(t, L, dram_sectors_write_after, WB_PCOL_F64, "sector",
      "DRAM sectors the L2 flush before the process's next counted launch wrote back: the dirty lines this launch "
      "left in the L2 (plus copies, memsets and uncounted launches between the two), which reach DRAM after its "
      "range ends; NaN without the flush (--cache-control none, kernel replay)");
    t->col[t->n - 1].since = 6;
}

static void build_kernels(table *t) {
    typedef wb_prof_kernel K;
    add(t, "kernel_id", WB_PCOL_I32, 4, 0, C_ID, "", "row number, the key of /launches.kernel_id");
    F(t, K, name, WB_PCOL_STR, "", "mangled name as CUPTI gives it (cut to fit: name_full_len)");
    F(t, K, demangled, WB_PCOL_STR, "", "function name without templates and arguments");
    F(t, K, name_full_len, WB_PCOL_I32, "byte", "length of the whole mangled name");
    add(t, "shape", WB_PCOL_STR, SHAPE_LEN, 0, C_SHAPE, "", "grid and block: \"GXxGYxGZ/BXxBYxBZ\"");
    add_shape(t, offsetof(K, grid), offsetof(K, block));
    F(t, K, registers, WB_PCOL_I32, "register", "registers per thread; -1 unknown");
    add(t, "smem", WB_PCOL_I32, 4, 0, C_SMEM, "byte", "static + dynamic shared memory per block; -1 unknown");
    F(t, K, smem_static, WB_PCOL_I32, "byte", "static shared memory per block; -1 unknown");
    F(t, K, smem_dynamic, WB_PCOL_I32, "byte", "dynamic shared memory per block; -1 unknown");
    F(t, K, launches, WB_PCOL_I64, "", "launches of this kernel and shape");
    F(t, K, timed, WB_PCOL_I64, "", "of those, seen by the timing pass");
    F(t, K, counted, WB_PCOL_I64, "", "of those, seen by the counter pass");
    F(t, K, total_ms, WB_PCOL_F64, "ms", "summed time of the timed launches");
    F(t, K, median_ms, WB_PCOL_F64, "ms", "median time of the timed launches");
    F(t, K, share_pct, WB_PCOL_F64, "%", "total_ms over all timed kernel time of the program");
    for (int s = 0; s < WB_SPREAD_N; s++) {
        char name[48];
        snprintf(name, sizeof name, "%s_spread_pct", wb_spread_metrics[s]);
        add(t, name, WB_PCOL_F64, sizeof(double), offsetof(K, spread_pct) + sizeof(double) * (size_t)s, FIELD, "%",
            "(largest - smallest) / mean of this count over the counted launches that have it: how far one launch "
            "stands for the others (--rotate reads some columns off some launches); NaN under two");
        t->col[t->n - 1].since = 5;
    }
    add_counters(t, offsetof(K, c));
}

static void build_ranges(table *t) {
    typedef wb_prof_range R;
    add(t, "range_id", WB_PCOL_I32, 4, 0, C_ID, "", "row number, the key of /launches.range_id");
    F(t, R, path, WB_PCOL_STR, "", "NVTX stack, outermost first, '/'-joined; rows hold launches whose innermost "
                                   "stack is exactly this path (children are rows of their own)");
    F(t, R, launches, WB_PCOL_I64, "", "launches inside exactly this stack");
    F(t, R, counted, WB_PCOL_I64, "", "of those, seen by the counter pass");
    F(t, R, total_ms, WB_PCOL_F64, "ms", "summed time of the timed launches");
    F(t, R, share_pct, WB_PCOL_F64, "%", "total_ms over all timed kernel time of the program");
    add_counters(t, offsetof(R, c));
}

static void build_spans(table *t) {
    typedef wb_prof_span S;
    F(t, S, name, WB_PCOL_STR, "", "the outermost NVTX range's name (--ranges nvtx) or \"launches from <seq>\" (every:N)");
    F(t, S, first_seq, WB_PCOL_I64, "", "first launch inside the range (seq of /launches)");
    F(t, S, last_seq, WB_PCOL_I64, "", "last launch inside the range");
    F(t, S, launches, WB_PCOL_I64, "", "launches inside the range");
    F(t, S, kernel_ms, WB_PCOL_F64, "ms", "summed timed kernel time of those launches (timing pass); NaN without one");
    add_counters(t, offsetof(S, c));
}

static void build_samples(table *t) {
    typedef wb_prof_sample S;
    F(t, S, pid, WB_PCOL_I32, "", "process whose timing pass took the sample");
    F(t, S, start_ns, WB_PCOL_I64, "ns", "sample start, on the clock of /launches.start_ns");
    F(t, S, end_ns, WB_PCOL_I64, "ns", "sample end");
    F(t, S, busy_ns, WB_PCOL_F64, "ns", "time inside the sample during which a kernel of the process ran");
    F(t, S, kernels, WB_PCOL_I32, "", "kernels that ran inside the sample");
    FN(t, S, "launch_id", launch, WB_PCOL_I32, "", "row of /launches with the most time inside the sample; -1 idle");
    F(t, S, nvtx, WB_PCOL_STR, "", "NVTX path of that launch (\"\" idle or outside any range)");
    add_counters(t, offsetof(S, c));
}

static void build(void) {
    if (built) return;
    build_launches(&tables[WB_PT_LAUNCHES]);
    build_kernels(&tables[WB_PT_KERNELS]);
    build_ranges(&tables[WB_PT_RANGES]);
    build_spans(&tables[WB_PT_SPANS]);
    build_samples(&tables[WB_PT_SAMPLES]);
    built = 1;
}

const char *wb_prof_table_name(wb_prof_table t) {
    static const char *const names[WB_PT_COUNT] = {"launches", "kernels", "ranges", "counted_ranges", "samples"};
    return (int)t >= 0 && t < WB_PT_COUNT ? names[t] : NULL;
}

int wb_prof_table_find(const char *name) {
    for (int t = 0; t < WB_PT_COUNT; t++)
        if (strcmp(wb_prof_table_name((wb_prof_table)t), name) == 0) return t;
    return -1;
}

const wb_pcol *wb_pcols(wb_prof_table t, int *count) {
    build();
    *count = tables[t].n;
    return tables[t].col;
}

const wb_pcol *wb_pcol_find(wb_prof_table t, const char *name) {
    int n;
    const wb_pcol *c = wb_pcols(t, &n);
    for (int i = 0; i < n; i++)
        if (strcmp(c[i].name, name) == 0) return &c[i];
    return NULL;
}

int64_t wb_prof_rows(const wb_profile *p, wb_prof_table t) {
    switch (t) {
    case WB_PT_LAUNCHES: return p->nlaunches;
    case WB_PT_KERNELS: return p->nkernels;
    case WB_PT_RANGES: return p->nranges;
    case WB_PT_SPANS: return p->nspans;
    case WB_PT_SAMPLES: return p->nsamples;
    default: return 0;
    }
}

void *wb_prof_row(const wb_profile *p, wb_prof_table t, int64_t i) {
    switch (t) {
    case WB_PT_LAUNCHES: return &p->launches[i];
    case WB_PT_KERNELS: return &p->kernels[i];
    case WB_PT_RANGES: return &p->ranges[i];
    case WB_PT_SPANS: return &p->spans[i];
    case WB_PT_SAMPLES: return &p->samples[i];
    default: return NULL;
    }
}

void wb_pcol_get(const wb_pcol *c, const void *row, int64_t i, void *out) {
    switch (c->computed) {
    case C_ID: {
        int32_t id = (int32_t)i;
        memcpy(out, &id, 4);
        return;
    }
    case C_SHAPE: {
        const wb_prof_kernel *k = row;
        char s[SHAPE_LEN];
        memset(s, 0, sizeof s);
        snprintf(s, sizeof s, "%dx%dx%d/%dx%dx%d", k->grid[0], k->grid[1], k->grid[2], k->block[0], k->block[1],
                 k->block[2]);
        memcpy(out, s, c->size);
        return;
    }
    case C_SMEM: {
        const wb_prof_kernel *k = row;
        int32_t v = k->smem_static < 0 && k->smem_dynamic < 0
                        ? -1
                        : (k->smem_static > 0 ? k->smem_static : 0) + (k->smem_dynamic > 0 ? k->smem_dynamic : 0);
        memcpy(out, &v, 4);
        return;
    }
    default: memcpy(out, (const char *)row + c->offset, c->size);
    }
}

void wb_pcol_set(const wb_pcol *c, void *row, const void *in) {
    if (c->computed) return;
    memcpy((char *)row + c->offset, in, c->size);
    if (c->type == WB_PCOL_STR) ((char *)row + c->offset)[c->size - 1] = '\0';
}

double wb_pcol_num(const wb_pcol *c, const void *row, int64_t i) {
    unsigned char buf[16];
    if (c->type == WB_PCOL_STR) return NAN;
    wb_pcol_get(c, row, i, buf);
    switch (c->type) {
    case WB_PCOL_I32: {
        int32_t v;
        memcpy(&v, buf, 4);
        return v;
    }
    case WB_PCOL_I64: {
        int64_t v;
        memcpy(&v, buf, 8);
        return (double)v;
    }
    default: {
        double v;
        memcpy(&v, buf, 8);
        return v;
    }
    }
}

/* profile_rows.c - what the profile tools share (see profile_tools.h): a
 * profile's kernels or ranges as results rows, their order and labels. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/cli.h"
#include "harness/base/profile_agg.h"
#include "harness/store/profile_h5.h"
#include "harness/tools/profile_tools.h"

/* A name too long for its column keeps its head and its last scope, the function's own name, with
 * "..." between ("at_cuda_detail::cub::...::DeviceRadixSortOnesweepKernel"): cutting the tail made
 * different kernels of one namespace print alike. The file keeps the whole name. */
const char *wb_profile_kernel_label(const wb_prof_kernel *k, char *buf, size_t len) {
    const char *full = k->demangled[0] ? k->demangled : k->name;
    size_t n = strlen(full);
    snprintf(buf, len, "%s", full);
    if (n < len || len < 16) {
        if (n >= len && len > 4) strcpy(buf + len - 4, "...");
        return buf;
    }
    const char *last = full;
    for (const char *p = strstr(full, "::"); p; p = strstr(p + 2, "::")) last = p + 2;
    size_t tail = strlen(last), room = len - 1;
    if (last == full || tail + 5 > room) { /* no scope, or the name alone is too long: its end */
        snprintf(buf, len, "...%s", full + n - (room - 3));
        return buf;
    }
    size_t head = room - tail - 5; /* head + "...::" + tail */
    snprintf(buf, len, "%.*s...::%s", (int)head, full, last);
    return buf;
}

const char *wb_profile_kernel_label_in(const wb_profile *p, int32_t i, char *buf, size_t len) {
    wb_profile_kernel_label(&p->kernels[i], buf, len);
    char other[512];
    for (int32_t k = 0; k < p->nkernels; k++)
        if (k != i && !strcmp(wb_profile_kernel_label(&p->kernels[k], other, len < sizeof other ? len : sizeof other), buf)) {
            char suffix[16];
            int n = snprintf(suffix, sizeof suffix, " #%d", (int)i);
            if ((size_t)n + 8 < len) {
                wb_profile_kernel_label(&p->kernels[i], buf, len - (size_t)n); /* room for the suffix */
                strncat(buf, suffix, len - strlen(buf) - 1);
            }
            break;
        }
    return buf;
}

static const wb_profile *sort_p;
static wb_prof_table sort_t;

static double total_of(int32_t i) {
    return sort_t == WB_PT_KERNELS ? sort_p->kernels[i].total_ms : sort_p->ranges[i].total_ms;
}

static int by_time(const void *a, const void *b) {
    double x = total_of(*(const int32_t *)a), y = total_of(*(const int32_t *)b);
    if (isnan(x) != isnan(y)) return isnan(x) ? 1 : -1;
    if (x != y && !isnan(x)) return x < y ? 1 : -1;
    return *(const int32_t *)a - *(const int32_t *)b;
}

int32_t *wb_profile_by_time(const wb_profile *p, wb_prof_table t) {
    int64_t n = wb_prof_rows(p, t);
    int32_t *order = malloc((size_t)(n + 1) * sizeof *order);
    if (!order) return NULL;
    for (int32_t i = 0; i < n; i++) order[i] = i;
    sort_p = p, sort_t = t;
    qsort(order, (size_t)n, sizeof *order, by_time);
    return order;
}

static int add_attr(wb_results *r, const char *name, const char *value, int is_number) {
    wb_attr *a = realloc(r->attrs, (size_t)(r->nattrs + 1) * sizeof *a);
    if (!a) return WB_ERR;
    r->attrs = a;
    wb_attr *x = memset(&a[r->nattrs++], 0, sizeof *a);
    snprintf(x->name, sizeof x->name, "%s", name);
    snprintf(x->value, sizeof x->value, "%.511s", value);
    x->is_number = is_number;
    return WB_OK;
}

int wb_profile_as_results(const wb_profile *p, wb_prof_table t, const char *path, wb_results *out, wb_err *e) {
    memset(out, 0, sizeof *out);
    snprintf(out->path, sizeof out->path, "%s", path);
    int64_t n = wb_prof_rows(p, t);
    out->rows = calloc((size_t)n + 1, sizeof *out->rows);
    if (!out->rows) return wb_fail(e, "%s: out of memory for %lld rows", path, (long long)n);
    out->nrows = n;
    for (int64_t i = 0; i < n; i++) {
        wb_row *r = &out->rows[i];
        wb_row_init(r);
        const char *label;
        double total;
        const wb_counters *c;
        if (t == WB_PT_KERNELS) {
            const wb_prof_kernel *k = &p->kernels[i];
            label = k->demangled[0] ? k->demangled : k->name, total = k->total_ms, c = &k->c;
            r->p.launch.block = k->block[0] * k->block[1] * k->block[2];
        } else {
            const wb_prof_range *g = &p->ranges[i];
            label = g->path, total = g->total_ms, c = &g->c;
        }
        snprintf(r->p.family, sizeof r->p.family, "%s", t == WB_PT_KERNELS ? "kernel" : "range");
        snprintf(r->p.variant, sizeof r->p.variant, "%.23s", label);
        snprintf(r->p.note, sizeof r->p.note, "%.95s", label);
        r->m.id = i;
        r->m.time_median_ms = total;
        snprintf(r->m.status, sizeof r->m.status, "%s", isfinite(total) && total > 0 ? "ok" : "skipped");
        r->c = *c;
    }
    for (int32_t i = 0; i < p->nattrs; i++)
        if (add_attr(out, p->attrs[i].name, p->attrs[i].value, p->attrs[i].is_number) != WB_OK)
            return wb_results_free(out), wb_fail(e, "%s: out of memory for attributes", path);
    char num[64];
    static const char *const roof_attrs[2] = {"ceiling_inst_issue_gips", "ceiling_dram_read_gbps"};
    const double roof[2] = {p->ceiling_inst_gips, p->ceiling_dram_gbps};
    for (int k = 0; k < 2; k++) {
        if (wb_results_attr(out, roof_attrs[k]) || !isfinite(roof[k])) continue;
        snprintf(num, sizeof num, "%.17g", roof[k]);
        if (add_attr(out, roof_attrs[k], num, 1) != WB_OK)
            return wb_results_free(out), wb_fail(e, "%s: out of memory for attributes", path);
    }
    return WB_OK;
}

static const char *attr_or(const wb_profile *p, const char *name, const char *fallback) {
    const char *v = wb_profile_attr(p, name);
    return v && v[0] ? v : fallback;
}

void wb_profile_describe(FILE *f, const char *path, const wb_profile *p, const char *prefix) {
    fprintf(f, "%s%s: %s, %s, revision %s; program: %s\n", prefix, path, attr_or(p, "gpu_name", "GPU unknown"),
            attr_or(p, "gpu_uuid", "uuid unknown"), attr_or(p, "git_revision", "unknown"),
            attr_or(p, "program_command", attr_or(p, "command_line", "unknown")));
}

int wb_profile_top_count(const char *cmd, const char *arg, int *top) {
    char *end;
    long n = strtol(arg, &end, 10);
    if (end == arg || *end || n < 1 || n > 1000000) {
        wb_cli_bad(cmd, "--top wants a count from 1 to 1000000, not '%s'", arg);
        return WB_ERR;
    }
    *top = (int)n;
    return WB_OK;
}

/* gpus.c - loads the reference GPU table (harness/gpus.tsv; see gpus.h).
 * Tab-separated, '#' comment lines, one header line that must name the
 * columns in the order below, "-" for unknown (NaN for reals, -1 for
 * integers). Every error names the file and the line, and the loader checks
 * each row's arithmetic (inst_gips against SMs x SMSP x clock, ridge against
 * inst_gips / (dram_gbps / 32)) so that a typo in a datasheet number cannot
 * reach a figure unnoticed. */
#include "harness/base/grow.h"
#include "harness/base/gpus.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/roof.h"

#ifndef WB_SOURCE_DIR
#define WB_SOURCE_DIR "."
#endif

enum { C_PROFILE, C_MODEL, C_MATCH, C_ARCH, C_SMS, C_SMSP, C_THREADS, C_BASE, C_BOOST, C_MEASURED,
       C_INST, C_DRAM, C_RIDGE, C_L2, C_MEM, C_SOURCE, NCOLS };

static const char *const col_names[NCOLS] = {
    "profile", "model", "match", "arch", "sms", "smsp_per_sm", "threads_per_sm", "base_clock_ghz",
    "boost_clock_ghz", "measured_clock_ghz", "inst_gips", "dram_gbps", "ridge", "l2_mib", "mem_gib", "source"};

/* Rounded table values (413, 1037, 44.0, 8.3) must agree within this share. */
#define WB_GPUS_TOLERANCE 0.01

static char *trim(char *s) {
    while (*s == ' ') s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\r' || s[n - 1] == '\n')) s[--n] = '\0';
    return s;
}

/* Splits line at tabs into at most max fields; returns the field count
 * (counting past max so that the caller can report it). */
static int split_tabs(char *line, char **fields, int max) {
    int n = 0;
    char *p = line;
    for (;;) {
        char *tab = strchr(p, '\t');
        if (tab) *tab = '\0';
        if (n < max) fields[n] = trim(p);
        n++;
        if (!tab) return n;
        p = tab + 1;
    }
}

static int parse_real(const char *path, int line, const char *col, const char *s, double *out, wb_err *e) {
    if (strcmp(s, "-") == 0) {
        *out = NAN;
        return WB_OK;
    }
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (!*s || *end || errno || !isfinite(v) || v < 0)
        return wb_fail(e, "%s:%d: column %s: '%s' is not a non-negative number or '-'", path, line, col, s);
    *out = v;
    return WB_OK;
}

static int parse_int(const char *path, int line, const char *col, const char *s, int *out, wb_err *e) {
    if (strcmp(s, "-") == 0) {
        *out = -1;
        return WB_OK;
    }
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno || v <= 0 || v > 1000000)
        return wb_fail(e, "%s:%d: column %s: '%s' is not a positive integer or '-'", path, line, col, s);
    *out = (int)v;
    return WB_OK;
}

static int copy_str(const char *path, int line, const char *col, const char *s, char *dst, size_t cap, wb_err *e) {
    if (!*s) return wb_fail(e, "%s:%d: column %s is empty (write '-' for unknown)", path, line, col);
    if (strlen(s) >= cap) return wb_fail(e, "%s:%d: column %s is longer than %zu characters", path, line, col, cap - 1);
    memcpy(dst, s, strlen(s) + 1);
    return WB_OK;
}

static int near(double a, double b) { return fabs(a - b) <= WB_GPUS_TOLERANCE * fabs(b); }

/* Fills inst_gips and ridge where "-" and derivable; rejects rows whose
 * given values contradict their own inputs. */
static int check_row(const char *path, int line, wb_gpu_ref *g, wb_err *e) {
    double clock = isfinite(g->measured_clock_ghz) ? g->measured_clock_ghz : g->boost_clock_ghz;
    double inst = wb_roof_inst_gips(g->sms, g->smsp_per_sm, clock);
    if (isnan(g->inst_gips)) g->inst_gips = inst;
    else if (isfinite(inst) && !near(g->inst_gips, inst))
        return wb_fail(e, "%s:%d: inst_gips %g disagrees with sms x smsp_per_sm x clock = %d x %d x %g = %.1f", path,
                       line, g->inst_gips, g->sms, g->smsp_per_sm, clock, inst);
    wb_roof r = {"", g->inst_gips, g->dram_gbps};
    double ridge = wb_roof_ridge(&r);
    if (isnan(g->ridge)) g->ridge = ridge;
    else if (isfinite(ridge) && !near(g->ridge, ridge))
        return wb_fail(e, "%s:%d: ridge %g disagrees with inst_gips / (dram_gbps / 32) = %.2f", path, line, g->ridge,
                       ridge);
    return WB_OK;
}

static int parse_row(const char *path, int line, char **f, wb_gpu_ref *g, wb_err *e) {
    memset(g, 0, sizeof *g);
    if (copy_str(path, line, "profile", f[C_PROFILE], g->profile, sizeof g->profile, e) ||
        copy_str(path, line, "model", f[C_MODEL], g->model, sizeof g->model, e) ||
        copy_str(path, line, "match", f[C_MATCH], g->match, sizeof g->match, e) ||
        copy_str(path, line, "source", f[C_SOURCE], g->source, sizeof g->source, e))
        return WB_ERR;
    if (parse_int(path, line, "arch", f[C_ARCH], &g->arch, e) || parse_int(path, line, "sms", f[C_SMS], &g->sms, e) ||
        parse_int(path, line, "smsp_per_sm", f[C_SMSP], &g->smsp_per_sm, e) ||
        parse_int(path, line, "threads_per_sm", f[C_THREADS], &g->threads_per_sm, e))
        return WB_ERR;
    struct { int col; double *dst; } reals[] = {
        {C_BASE, &g->base_clock_ghz}, {C_BOOST, &g->boost_clock_ghz}, {C_MEASURED, &g->measured_clock_ghz},
        {C_INST, &g->inst_gips},      {C_DRAM, &g->dram_gbps},        {C_RIDGE, &g->ridge},
        {C_L2, &g->l2_mib},           {C_MEM, &g->mem_gib},
    };
    for (size_t i = 0; i < sizeof reals / sizeof reals[0]; i++)
        if (parse_real(path, line, col_names[reals[i].col], f[reals[i].col], reals[i].dst, e)) return WB_ERR;
    return check_row(path, line, g, e);
}

static int check_header(const char *path, int line, char **f, int n, wb_err *e) {
    if (n != NCOLS) return wb_fail(e, "%s:%d: header has %d columns, expected %d (tab-separated)", path, line, n, NCOLS);
    for (int i = 0; i < NCOLS; i++)
        if (strcmp(f[i], col_names[i]) != 0)
            return wb_fail(e, "%s:%d: header column %d is '%s', expected '%s'", path, line, i + 1, f[i], col_names[i]);
    return WB_OK;
}

static int add_row(wb_gpu_table *t, int *cap, const wb_gpu_ref *g, const char *path, int line, wb_err *e) {
    for (int i = 0; i < t->n; i++)
        if (strcmp(t->rows[i].profile, g->profile) == 0)
            return wb_fail(e, "%s:%d: profile '%s' appears twice", path, line, g->profile);
    if (wb_grow(&t->rows, t->n, cap, sizeof *t->rows, 16) != 0) return wb_fail(e, "%s:%d: out of memory", path, line);
    t->rows[t->n++] = *g;
    return WB_OK;
}

static int load_stream(FILE *f, const char *path, wb_gpu_table *t, wb_err *e) {
    char *buf = NULL;
    size_t cap = 0;
    int line = 0, have_header = 0, rows_cap = 0, rc = WB_OK;
    while (rc == WB_OK && getline(&buf, &cap, f) >= 0) {
        line++;
        char *s = trim(buf);
        if (!*s || *s == '#') continue;
        char *fields[NCOLS];
        int n = split_tabs(s, fields, NCOLS);
        if (!have_header) {
            rc = check_header(path, line, fields, n, e);
            have_header = 1;
            continue;
        }
        if (n != NCOLS) {
            rc = wb_fail(e, "%s:%d: %d columns, expected %d (tab-separated)", path, line, n, NCOLS);
            break;
        }
        wb_gpu_ref g;
        rc = parse_row(path, line, fields, &g, e);
        if (rc == WB_OK) rc = add_row(t, &rows_cap, &g, path, line, e);
    }
    if (rc == WB_OK && ferror(f)) rc = wb_fail(e, "%s: read error", path);
    if (rc == WB_OK && !have_header) rc = wb_fail(e, "%s: no header line", path);
    if (rc == WB_OK && t->n == 0) rc = wb_fail(e, "%s: no GPU rows", path);
    free(buf);
    return rc;
}

int wb_gpu_table_load(const char *path, wb_gpu_table *t, wb_err *e) {
    char fallback[1024];
    t->rows = NULL;
    t->n = 0;
    if (!path) path = getenv("WB_GPUS");
    if (!path || !*path) {
        snprintf(fallback, sizeof fallback, "%s/harness/gpus.tsv", WB_SOURCE_DIR);
        path = fallback;
    }
    FILE *f = fopen(path, "r");
    if (!f) return wb_fail(e, "%s: cannot open the GPU table: %s", path, strerror(errno));
    int rc = load_stream(f, path, t, e);
    fclose(f);
    if (rc != WB_OK) wb_gpu_table_free(t);
    return rc;
}

void wb_gpu_table_free(wb_gpu_table *t) {
    free(t->rows);
    t->rows = NULL;
    t->n = 0;
}

const wb_gpu_ref *wb_gpu_table_find(const wb_gpu_table *t, const char *profile) {
    for (int i = 0; i < t->n; i++)
        if (strcmp(t->rows[i].profile, profile) == 0) return &t->rows[i];
    return NULL;
}

const wb_gpu_ref *wb_gpu_table_match(const wb_gpu_table *t, const char *device_name) {
    for (int i = 0; i < t->n; i++)
        if (t->rows[i].arch >= 0 && strstr(device_name, t->rows[i].match)) return &t->rows[i];
    return NULL;
}

const char *wb_gpu_table_profiles(const wb_gpu_table *t, char *buf, size_t len) {
    size_t at = 0;
    if (len) buf[0] = '\0';
    for (int i = 0; i < t->n && at < len; i++) {
        if (t->rows[i].arch < 0) continue;
        int w = snprintf(buf + at, len - at, "%s%s", at ? " " : "", t->rows[i].profile);
        if (w < 0) break;
        at += (size_t)w;
    }
    return buf;
}

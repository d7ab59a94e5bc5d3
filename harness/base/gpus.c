/* gpus.c - loads the reference GPU table (harness/gpus.tsv; see gpus.h).
 * Tab-separated, '#' comment lines, one header line that must name the
 * columns in the order below, "-" for unknown (NaN for reals, -1 for
 * integers). Every error names the file and the line, and the loader checks
 * each row's arithmetic (inst_gips against SMs x SMSP x clock, ridge against
 * inst_gips / (dram_gbps / 32)) so that a typo in a datasheet number cannot
 * reach a figure unnoticed. */
#include "harness/base/grow.h"
#include "harness/base/gpus.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "harness/base/roof.h"

#ifndef WB_SOURCE_DIR
#define WB_SOURCE_DIR "."
#endif

enum { C_PROFILE, C_MODEL, C_MATCH, C_ARCH, C_SMS, C_SMSP, C_THREADS, C_BASE, C_BOOST, C_MEASURED,
       C_INST, C_DRAM, C_RIDGE, C_L2, C_SMEM, C_MEM, C_SOURCE, NCOLS };

static const char *const col_names[NCOLS] = {
    "profile", "model", "match", "arch", "sms", "smsp_per_sm", "threads_per_sm", "base_clock_ghz",
    "boost_clock_ghz", "measured_clock_ghz", "inst_gips", "dram_gbps", "ridge", "l2_mib", "smem_per_sm_kib", "mem_gib",
    "source"};

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
        {C_L2, &g->l2_mib},           {C_SMEM, &g->smem_per_sm_kib}, {C_MEM, &g->mem_gib},
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

/* ---- matching device names (gpus.tsv header; harness/gpu_row.sh does the same in awk) ---- */

#define WB_NAME_WORDS 24

/* Splits s at spaces, hyphens, underscores, slashes and commas into at most
 * WB_NAME_WORDS words of buf; returns the word count. */
static int name_words(const char *s, char *buf, size_t len, char **w) {
    snprintf(buf, len, "%s", s);
    int n = 0;
    for (char *p = buf; *p && n < WB_NAME_WORDS;) {
        while (*p && strchr(" -_/,\t", *p)) *p++ = '\0';
        if (!*p) break;
        w[n++] = p;
        while (*p && !strchr(" -_/,\t", *p)) p++;
    }
    return n;
}

/* Words a device name may carry that say nothing about which GPU it is. */
static int neutral_word(const char *w) {
    static const char *const vendor[] = {"nvidia", "geforce", "tesla", "generation", "edition", "server", "workstation"};
    for (size_t i = 0; i < sizeof vendor / sizeof vendor[0]; i++)
        if (strcasecmp(w, vendor[i]) == 0) return 1;
    if (strncasecmp(w, "HBM", 3) == 0 || strncasecmp(w, "GDDR", 4) == 0 || strncasecmp(w, "SXM", 3) == 0) return 1;
    size_t d = 0;
    while (isdigit((unsigned char)w[d])) d++;
    return d > 0 && (strcasecmp(w + d, "G") == 0 || strcasecmp(w + d, "GB") == 0);
}

/* Words of the match that name the device, or 0 when it does not. */
static int match_words(const wb_gpu_ref *g, const char *device_name) {
    char dbuf[160], mbuf[96];
    char *dw[WB_NAME_WORDS], *mw[WB_NAME_WORDS];
    int nd = name_words(device_name, dbuf, sizeof dbuf, dw), nm = name_words(g->match, mbuf, sizeof mbuf, mw);
    unsigned char used[WB_NAME_WORDS] = {0};
    for (int j = 0; j < nm; j++) {
        int found = 0;
        for (int i = 0; i < nd && !found; i++)
            if (!used[i] && strcasecmp(dw[i], mw[j]) == 0) used[i] = 1, found = 1;
        if (!found) return 0;
    }
    for (int i = 0; i < nd; i++)
        if (!used[i] && !neutral_word(dw[i])) return 0;
    return nm;
}

int wb_gpu_names(const wb_gpu_ref *g, const char *device_name) { return match_words(g, device_name) > 0; }

const wb_gpu_ref *wb_gpu_table_match(const wb_gpu_table *t, const char *device_name, int cc) {
    const wb_gpu_ref *best = NULL;
    int best_words = 0;
    for (int i = 0; i < t->n; i++) {
        const wb_gpu_ref *g = &t->rows[i];
        if (cc >= 0 && g->arch != cc) continue;
        int w = match_words(g, device_name);
        if (w > best_words) best = g, best_words = w;
    }
    return best;
}

/* "NVIDIA GeForce RTX 3090 Ti" -> "rtx-3090-ti": the non-vendor words,
 * lower case, joined by hyphens, at most 40 characters (a results and build
 * folder name, not a sentence); -sm<cc> added if a row has that name. */
#define WB_GENERIC_NAME 40
static void generic_name(const wb_gpu_table *t, const char *device_name, int cc, char *out, size_t cap) {
    size_t len = cap < WB_GENERIC_NAME + 1 ? cap : WB_GENERIC_NAME + 1;
    char buf[160];
    char *w[WB_NAME_WORDS];
    int n = name_words(device_name, buf, sizeof buf, w);
    size_t at = 0;
    out[0] = '\0';
    for (int i = 0; i < n && at + 1 < len; i++) {
        if (strcasecmp(w[i], "nvidia") == 0 || strcasecmp(w[i], "geforce") == 0 || strcasecmp(w[i], "tesla") == 0)
            continue;
        if (at && at + 1 < len) out[at++] = '-';
        for (const char *c = w[i]; *c && at + 1 < len; c++)
            if (isalnum((unsigned char)*c) || *c == '.') out[at++] = (char)tolower((unsigned char)*c);
        out[at] = '\0';
    }
    if (!out[0]) snprintf(out, len, "gpu");
    if (wb_gpu_table_find(t, out)) snprintf(out + strlen(out), cap - strlen(out), "-sm%d", cc);
}

const wb_gpu_ref *wb_gpu_resolve(const wb_gpu_table *t, const char *device_name, int cc, wb_gpu_ref *out) {
    const wb_gpu_ref *g = wb_gpu_table_match(t, device_name, cc);
    if (g) {
        *out = *g;
        return g;
    }
    memset(out, 0, sizeof *out);
    generic_name(t, device_name, cc, out->profile, sizeof out->profile);
    snprintf(out->model, sizeof out->model, "%s", device_name);
    snprintf(out->match, sizeof out->match, "-");
    out->arch = cc;
    out->generic = 1;
    out->sms = out->smsp_per_sm = out->threads_per_sm = -1;
    out->base_clock_ghz = out->boost_clock_ghz = out->measured_clock_ghz = NAN;
    out->inst_gips = out->dram_gbps = out->ridge = NAN;
    out->l2_mib = out->smem_per_sm_kib = out->mem_gib = NAN;
    snprintf(out->source, sizeof out->source, "no datasheet row for %s (generic sm_%d profile: the measured ceilings are its roofline)",
             device_name, cc);
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

/* pairs.c - pairs.tsv and the row choice of each pair's forms (pairs.h). */
#include "harness/tools/pairs.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef WB_SOURCE_DIR
#define WB_SOURCE_DIR "."
#endif

/* The axes whose tuple keys a form's fastest row (pair_check.py's AXES, in its order). */
static const char *const tuple_axes[] = {"dtype",     "layout",     "selectivity", "table_entries", "groups",
                                         "expr_ops",  "vector_bytes", "columns",   "load_factor",   "match_rate",
                                         "partitions", "warm_cache", "l2_fetch_bytes"};
#define NTUPLE ((int)(sizeof tuple_axes / sizeof tuple_axes[0]))

/* The value of axis name of r as text ("%.17g" for numbers), as the record's column holds it;
 * 0 when the name is no axis. *na: not applicable (NaN, -1, ""). */
static int axis_text(const wb_row *r, const char *name, char *buf, size_t len, int *na) {
    double v = NAN;
    int found = 1;
    if (!strcmp(name, "dtype") || !strcmp(name, "layout")) {
        snprintf(buf, len, "%s", name[0] == 'd' ? r->p.dtype : r->p.layout);
        *na = buf[0] == '\0';
        return 1;
    }
#define WB_PAIR_AXIS(column, type, na_v, unit, desc, since) else if (!strcmp(name, #column)) v = (double)r->p.column;
    if (0) {
    }
    WB_POINT_AXES(WB_PAIR_AXIS)
    else if (!strcmp(name, "l2_fetch_bytes")) v = (double)r->p.launch.l2_fetch_bytes;
    else found = 0;
#undef WB_PAIR_AXIS
    snprintf(buf, len, "%.17g", v);
    *na = isnan(v) || v == -1.0;
    return found;
}

/* 1 when r holds every `where` axis of p at its value (numbers compared as numbers). */
static int where_ok(const wb_row *r, const wb_pair *p, wb_err *e, int *bad) {
    for (int k = 0; k < p->nwhere; k++) {
        char v[64];
        int na;
        if (!axis_text(r, p->where_key[k], v, sizeof v, &na)) {
            *bad = 1;
            wb_fail(e, "pair %s: no axis %s in the results file", p->pair, p->where_key[k]);
            return 0;
        }
        char *end;
        double want = strtod(p->where_val[k], &end);
        int numeric = end != p->where_val[k] && !*end && strcmp(p->where_key[k], "dtype") && strcmp(p->where_key[k], "layout");
        if (numeric ? strtod(v, NULL) != want : strcmp(v, p->where_val[k]) != 0) return 0;
    }
    return 1;
}

/* exact: every axis's text equal (a form's own rows); else an axis not applicable in either
 * matches any value (the two forms' rows), vector_bytes compared only with with_vector. */
static int same_tuple(const wb_row *x, const wb_row *y, int exact, int with_vector) {
    for (int a = 0; a < NTUPLE; a++) {
        char vx[64], vy[64];
        int nx, ny;
        if (!exact && !with_vector && !strcmp(tuple_axes[a], "vector_bytes")) continue;
        axis_text(x, tuple_axes[a], vx, sizeof vx, &nx);
        axis_text(y, tuple_axes[a], vy, sizeof vy, &ny);
        if (strcmp(vx, vy) && (exact || (!nx && !ny))) return 0;
    }
    return 1;
}

/* The form's rows: per axis tuple the first row of least median time. */
static int form_rows(const wb_results *r, const wb_pair *p, const char *variant, const wb_row **out, wb_err *e) {
    int n = 0, bad = 0;
    for (int64_t i = 0; i < r->nrows; i++) {
        const wb_row *x = &r->rows[i];
        if (strcmp(x->m.status, "ok") || x->p.n != p->n || x->p.launch.sm_limit > 0 || strcmp(x->p.family, p->family) ||
            strcmp(x->p.variant, variant))
            continue;
        if (!where_ok(x, p, e, &bad)) {
            if (bad) return -1;
            continue;
        }
        int k = 0;
        while (k < n && !same_tuple(out[k], x, 1, 1)) k++;
        if (k == n) out[n++] = x;
        else if (x->m.time_median_ms < out[k]->m.time_median_ms) out[k] = x;
    }
    return n;
}

int wb_pair_choose(const wb_results *r, const wb_pair *p, const wb_row **slow, const wb_row **fast, wb_err *e) {
    const wb_row **fa = calloc((size_t)r->nrows + 1, sizeof *fa), **fb = calloc((size_t)r->nrows + 1, sizeof *fb);
    if (!fa || !fb) return free(fa), free(fb), wb_fail(e, "out of memory for pair %s", p->pair);
    int na = form_rows(r, p, p->a, fa, e), nb = na < 0 ? -1 : form_rows(r, p, p->b, fb, e);
    int with_vector = 0;
    for (int k = 0; k < p->nwhere; k++) with_vector |= !strcmp(p->where_key[k], "vector_bytes");
    const wb_row *ra = NULL, *rb = NULL;
    double worst = -1;
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++) {
            if (!same_tuple(fa[i], fb[j], 0, with_vector)) continue;
            double t = fmax(fa[i]->m.time_median_ms, fb[j]->m.time_median_ms);
            if (t > worst) worst = t, ra = fa[i], rb = fb[j];
        }
    free(fa), free(fb);
    if (na < 0 || nb < 0) return WB_ERR;
    if (!ra)
        return wb_fail(e, "pair %s: no rows of both %s and %s at n = %lld in %s", p->pair, p->a, p->b, (long long)p->n, r->path);
    int a_slow = ra->m.time_median_ms >= rb->m.time_median_ms;
    *slow = a_slow ? ra : rb, *fast = a_slow ? rb : ra;
    return WB_OK;
}

/* Columns 7-10: form (a or b), limiter (limiter.h's name), signature (rewrites.h), shape. */
static int parse_rule(wb_pair *p, int nf, char *const *f, const char *path, int lineno, wb_err *e) {
    char why[200];
    if (nf < 10 || !f[9][0]) return wb_fail(e, "%s:%d: a rule wants form, limiter, signature and shape", path, lineno);
    if (strcmp(f[6], p->a) && strcmp(f[6], p->b))
        return wb_fail(e, "%s:%d: the rule's form '%.40s' is neither %s nor %s", path, lineno, f[6], p->a, p->b);
    snprintf(p->form, sizeof p->form, "%s", f[6]);
    for (int c = 0; c < WB_LIM_CLASSES && p->rule.limiter < 0; c++)
        if (!strcmp(f[7], wb_limit_class_name(c))) p->rule.limiter = c;
    if (p->rule.limiter < 0) return wb_fail(e, "%s:%d: no limiter '%.40s' (DRAM, L2, issue, atomics, latency)", path, lineno, f[7]);
    if (wb_rewrite_parse(f[8], &p->rule, why, sizeof why) != WB_OK) return wb_fail(e, "%s:%d: %s", path, lineno, why);
    snprintf(p->shape, sizeof p->shape, "%.159s", f[9]);
    return WB_OK;
}

static int parse_line(const char *path, int lineno, char *line, wb_pair *p, wb_err *e) {
    char *f[10] = {0};
    int nf = 0;
    for (char *s = line; nf < 10; nf++) {
        f[nf] = s;
        s = strchr(s, '\t');
        if (!s) {
            nf++;
            break;
        }
        *s++ = '\0';
    }
    char *end;
    long long n = nf >= 5 ? strtoll(f[4], &end, 10) : 0;
    if (nf < 5 || end == f[4] || *end || n <= 0)
        return wb_fail(e, "%s:%d: want pair, family, a, b, n[, where[, form, limiter, signature, shape]] separated by tabs",
                       path, lineno);
    memset(p, 0, sizeof *p);
    char *const dst[4] = {p->pair, p->family, p->a, p->b};
    const size_t room[4] = {sizeof p->pair, sizeof p->family, sizeof p->a, sizeof p->b};
    for (int k = 0; k < 4; k++) {
        if (!f[k][0] || strlen(f[k]) >= room[k])
            return wb_fail(e, "%s:%d: field %d wants 1 to %zu characters, not '%.40s'", path, lineno, k + 1, room[k] - 1, f[k]);
        memcpy(dst[k], f[k], strlen(f[k]) + 1);
    }
    p->n = n;
    p->rule.limiter = -1;
    if (nf > 6 && f[6][0] && parse_rule(p, nf, f, path, lineno, e) != WB_OK) return WB_ERR;
    char *save = NULL;
    for (char *kv = nf > 5 ? strtok_r(f[5], ",", &save) : NULL; kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq || p->nwhere == WB_PAIRS_WHERE)
            return wb_fail(e, "%s:%d: `where` wants at most %d axis=value, not '%s'", path, lineno, WB_PAIRS_WHERE, kv);
        *eq = '\0';
        if (strlen(kv) >= sizeof p->where_key[0] || strlen(eq + 1) >= sizeof p->where_val[0])
            return wb_fail(e, "%s:%d: `where` axis or value too long: '%.40s'", path, lineno, kv);
        snprintf(p->where_key[p->nwhere], sizeof p->where_key[0], "%s", kv);
        snprintf(p->where_val[p->nwhere++], sizeof p->where_val[0], "%s", eq + 1);
    }
    return WB_OK;
}

int wb_pairs_load(const char *path, wb_pairs *out, wb_err *e) {
    char fallback[1024];
    out->p = NULL, out->n = 0;
    if (!path) path = getenv("WB_PAIRS");
    if (!path || !*path) snprintf(fallback, sizeof fallback, "%s/harness/tools/pairs.tsv", WB_SOURCE_DIR), path = fallback;
    FILE *f = fopen(path, "r");
    if (!f) return wb_fail(e, "%s: cannot open the suite's pairs: %s", path, strerror(errno));
    char line[1024];
    int lineno = 0, rc = WB_OK;
    while (rc == WB_OK && fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        if (!line[strspn(line, " \t")] || line[0] == '#') continue;
        wb_pair *p = realloc(out->p, (size_t)(out->n + 1) * sizeof *p);
        if (!p) rc = wb_fail(e, "%s: out of memory", path);
        else out->p = p, rc = parse_line(path, lineno, line, &out->p[out->n], e), out->n += rc == WB_OK;
    }
    fclose(f);
    if (rc == WB_OK && out->n == 0) rc = wb_fail(e, "%s: no pairs", path);
    if (rc != WB_OK) wb_pairs_free(out);
    return rc;
}

void wb_pairs_free(wb_pairs *ps) {
    free(ps->p);
    ps->p = NULL, ps->n = 0;
}

const wb_pair *wb_pairs_find(const wb_pairs *ps, const char *name) {
    for (int i = 0; i < ps->n; i++)
        if (!strcmp(ps->p[i].pair, name)) return &ps->p[i];
    return NULL;
}

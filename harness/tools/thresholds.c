/* thresholds.c - reading the regression thresholds file and picking the
 * rule that governs a point (see thresholds.h). Family and variant names are
 * checked against the baseline's rows, so that a misspelt selector is an
 * error instead of a rule that never applies (and the results tools need no
 * family code). */
#include "harness/tools/thresholds.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/grow.h"
#include "harness/tools/match.h"

#define MAX_TOKENS 8

#ifndef WB_SOURCE_DIR
#define WB_SOURCE_DIR "."
#endif

int wb_thresholds_default(char *out, size_t len, const char **where, wb_err *e) {
    const char *env = getenv("WB_SOURCE_DIR");
    const struct { const char *dir, *what; } at[] = {
        {env && *env ? env : NULL, "WB_SOURCE_DIR"}, {WB_SOURCE_DIR, "the source tree of this build"}, {".", "the current folder"}};
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
        if (!at[i].dir) continue;
        snprintf(out, len, "%s/results/thresholds.txt", at[i].dir);
        FILE *f = fopen(out, "r");
        if (!f) continue;
        fclose(f);
        *where = at[i].what;
        return WB_OK;
    }
    return wb_fail(e, "no --thresholds given and no results/thresholds.txt in $WB_SOURCE_DIR, in %s (this build's "
                      "source tree) or in the current folder: give --thresholds FILE", WB_SOURCE_DIR);
}

int wb_thresholds_metric_ok(const wb_column *c) {
    return c && c->type != WB_COL_STR && !wb_match_is_axis(c) && strcmp(c->name, "id") != 0 &&
           strcmp(c->name, "repetition") != 0;
}

/* "+10%", "-0.5%", "3%": sets dirs and pct. */
static int parse_pct(const char *s, int *dirs, double *pct) {
    *dirs = *s == '+' ? WB_THR_UP : *s == '-' ? WB_THR_DOWN : WB_THR_UP | WB_THR_DOWN;
    if (*s == '+' || *s == '-') s++;
    if (*s < '0' || *s > '9') return -1;
    char *end;
    errno = 0;
    *pct = strtod(s, &end);
    return errno || !isfinite(*pct) || *pct < 0 || strcmp(end, "%") != 0 ? -1 : 0;
}

static int parse_real(const char *s, double *v) {
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return !*s || *end || errno || !isfinite(*v) || *v < 0 ? -1 : 0;
}

/* 1 if a row of the baseline has this family (and variant; "" = any). */
static int in_baseline(const wb_results *base, const char *family, const char *variant) {
    for (int64_t i = 0; i < base->nrows; i++) {
        const wb_point *p = &base->rows[i].p;
        if ((!*family || !strcmp(p->family, family)) && (!*variant || !strcmp(p->variant, variant))) return 1;
    }
    return 0;
}

/* key=value options after the percent. */
static int parse_option(const wb_results *base, const char *where, char *tok, wb_threshold *r, unsigned *seen,
                        wb_err *e) {
    static const char *const keys[] = {"family", "variant", "min_ms", "min"};
    char *eq = strchr(tok, '=');
    if (!eq) return wb_fail(e, "%s: '%s' is not key=value (keys: family, variant, min_ms, min)", where, tok);
    *eq = '\0';
    const char *val = eq + 1;
    int k = 0;
    while (k < 4 && strcmp(tok, keys[k]) != 0) k++;
    if (k == 4) return wb_fail(e, "%s: unknown key '%s' (keys: family, variant, min_ms, min)", where, tok);
    if (*seen & (1u << k)) return wb_fail(e, "%s: key '%s' given twice", where, tok);
    *seen |= 1u << k;
    if (!*val) return wb_fail(e, "%s: %s= has no value", where, tok);
    if (k == 0) {
        if (!in_baseline(base, val, ""))
            return wb_fail(e, "%s: unknown family '%s' (no row of the baseline %s has it)", where, val, base->path);
        snprintf(r->family, sizeof r->family, "%s", val);
    } else if (k == 1) {
        if (strlen(val) >= sizeof r->variant) return wb_fail(e, "%s: variant '%s' is too long", where, val);
        snprintf(r->variant, sizeof r->variant, "%s", val);
    } else if (parse_real(val, k == 2 ? &r->min_ms : &r->min) != 0) {
        return wb_fail(e, "%s: %s=%s is not a non-negative number", where, tok, val);
    }
    return WB_OK;
}

/* Rules with the same metric, selector and conditions may not share a direction. */
static int check_duplicate(const wb_thresholds *t, const wb_threshold *r, const char *where, wb_err *e) {
    for (int i = 0; i < t->n; i++) {
        const wb_threshold *o = &t->rules[i];
        if (o->col == r->col && (o->dirs & r->dirs) && !strcmp(o->family, r->family) &&
            !strcmp(o->variant, r->variant) && o->min_ms == r->min_ms && o->min == r->min)
            return wb_fail(e, "%s: repeats the rule of line %d for the same points and direction", where, o->line);
    }
    return WB_OK;
}

static int parse_line(wb_thresholds *t, const wb_results *base, char *text, int line, wb_threshold *r, wb_err *e) {
    char where[600];
    snprintf(where, sizeof where, "%s:%d", t->path, line);
    char *tok[MAX_TOKENS + 1];
    int n = 0;
    for (char *s = strtok(text, " \t\r\n"); s; s = strtok(NULL, " \t\r\n"))
        if (n <= MAX_TOKENS) tok[n++] = s;
    if (n > MAX_TOKENS) return wb_fail(e, "%s: too many fields", where);
    if (n < 2) return wb_fail(e, "%s: expected '<metric> <+N%%|-N%%|N%%> [key=value ...]'", where);
    memset(r, 0, sizeof *r);
    r->line = line;
    r->min_ms = r->min = -INFINITY;
    r->col = wb_schema_find(tok[0]);
    if (!wb_thresholds_metric_ok(r->col))
        return wb_fail(e, "%s: unknown metric '%s' (a numeric, non-axis /points column such as time_median_ms, "
                          "inst, dram_sectors_read; `wallbench check --metrics` lists them)", where, tok[0]);
    if (parse_pct(tok[1], &r->dirs, &r->pct) != 0)
        return wb_fail(e, "%s: bad percent '%s' (expected +N%%, -N%% or N%%, N >= 0)", where, tok[1]);
    unsigned seen = 0;
    for (int i = 2; i < n; i++)
        if (parse_option(base, where, tok[i], r, &seen, e) != WB_OK) return WB_ERR;
    if (r->variant[0] && !in_baseline(base, r->family, r->variant))
        return wb_fail(e, "%s: unknown variant '%s'%s%s (no row of the baseline %s has it)", where, r->variant,
                       r->family[0] ? " of family " : "", r->family, base->path);
    return check_duplicate(t, r, where, e);
}

int wb_thresholds_load(const char *path, const wb_results *base, wb_thresholds *t, wb_err *e) {
    memset(t, 0, sizeof *t);
    if (strlen(path) >= sizeof t->path) return wb_fail(e, "%s: path too long", path);
    strcpy(t->path, path);
    FILE *f = fopen(path, "r");
    if (!f) return wb_fail(e, "%s: cannot open the thresholds file: %s", path, strerror(errno));
    char *buf = NULL;
    size_t cap = 0;
    int line = 0, rc = WB_OK, room = 0;
    while (rc == WB_OK && getline(&buf, &cap, f) >= 0) {
        line++;
        buf[strcspn(buf, "#")] = '\0';
        if (strspn(buf, " \t\r\n") == strlen(buf)) continue;
        if (wb_grow(&t->rules, t->n, &room, sizeof *t->rules, 16) != 0) {
            rc = wb_fail(e, "%s:%d: out of memory", path, line);
            break;
        }
        if ((rc = parse_line(t, base, buf, line, &t->rules[t->n], e)) == WB_OK) t->n++;
    }
    if (rc == WB_OK && ferror(f)) rc = wb_fail(e, "%s: read error", path);
    if (rc == WB_OK && !t->n) rc = wb_fail(e, "%s: no rules (one a line: <metric> <+N%%|-N%%|N%%> [key=value ...])", path);
    free(buf);
    fclose(f);
    if (rc != WB_OK) wb_thresholds_free(t);
    return rc;
}

void wb_thresholds_free(wb_thresholds *t) {
    free(t->rules);
    t->rules = NULL;
    t->n = 0;
}

static int specificity(const wb_threshold *r) { return (r->family[0] ? 1 : 0) + (r->variant[0] ? 2 : 0); }

/* 1 if a is more specific than b. */
static int beats(const wb_threshold *a, const wb_threshold *b) {
    if (specificity(a) != specificity(b)) return specificity(a) > specificity(b);
    if (a->min_ms != b->min_ms) return a->min_ms > b->min_ms;
    return a->min > b->min;
}

const wb_threshold *wb_thresholds_find(const wb_thresholds *t, const wb_column *col, int dir, const wb_row *base) {
    const wb_threshold *best = NULL;
    const double v = wb_row_get(base, col);
    for (int i = 0; i < t->n; i++) {
        const wb_threshold *r = &t->rules[i];
        if (r->col != col || !(r->dirs & dir)) continue;
        if ((r->family[0] && strcmp(r->family, base->p.family)) || (r->variant[0] && strcmp(r->variant, base->p.variant)))
            continue;
        /* an unknown baseline value (NaN) meets any condition: the NaN is then reported, not skipped */
        if (base->m.time_median_ms < r->min_ms || v < r->min) continue;
        if (!best || beats(r, best)) best = r;
    }
    return best;
}

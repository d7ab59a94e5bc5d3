/* rotation_yield.c - see rotation_yield.h. */
#include "harness/profile/rotation_yield.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

void wb_rotation_yield_add(wb_rotation_yield *y, const wb_raw *r) {
    if (!r->ngroup_cols || r->ngroup_cols != r->nmetrics) return; /* the reader refuses the second */
    for (int k = 0; k < r->nmetrics; k++)
        if (r->col_group[k] >= 0) y->grouped[r->metric_col[k]] = 1;
    for (int i = 0; i < r->nlaunches; i++) {
        const wb_raw_launch *l = &r->launches[i];
        if (!l->counted || l->group < 0) continue; /* unknown, or the whole set (no group) */
        y->launches++;
        for (int k = 0; k < r->nmetrics; k++) {
            if (r->col_group[k] != l->group) continue;
            const int m = r->metric_col[k];
            y->held[m]++;
            y->valued[m] += !isnan(l->v[m]);
        }
    }
}

/* printf at *at of buf (len), *at kept at the end of what fits */
static void add(char *buf, size_t len, size_t *at, const char *fmt, ...) {
    if (*at >= len) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *at, len - *at, fmt, ap);
    va_end(ap);
    if (n > 0) *at = *at + (size_t)n < len ? *at + (size_t)n : len - 1;
}

int wb_rotation_yield_text(const wb_rotation_yield *y, char *attr, size_t alen, char *line, size_t llen) {
    if (y->launches == 0) return 0;
    enum { EVERY, SOME, NONE, UNHELD };
    int count[4] = {0}, columns = 0;
    char none[400] = "";
    size_t at = 0, nat = 0;
    attr[0] = '\0';
    for (int i = 0; i < wb_n_metrics; i++) {
        if (!y->grouped[i]) continue;
        columns++;
        add(attr, alen, &at, "%s%s %lld/%lld", at ? ", " : "", wb_metrics[i].column, y->valued[i], y->held[i]);
        const int kind = !y->held[i] ? UNHELD : y->valued[i] == y->held[i] ? EVERY : y->valued[i] ? SOME : NONE;
        count[kind]++;
        if (kind == NONE && count[NONE] <= 6) add(none, sizeof none, &nat, "%s%s", nat ? ", " : "", wb_metrics[i].column);
        if (kind == NONE && count[NONE] == 7) add(none, sizeof none, &nat, ", ...");
    }
    snprintf(line, llen,
             "--rotate: of the %d columns the groups hold beyond the core rows, %d came back in every launch that held "
             "their group, %d in some, %d in none%s%s%s, %d in no launch's group (a kernel shape launched fewer times "
             "than there are groups); per column: the file's counter_rotation_columns",
             columns, count[EVERY], count[SOME], count[NONE], count[NONE] ? " (" : "", none, count[NONE] ? ")" : "",
             count[UNHELD]);
    return 1;
}

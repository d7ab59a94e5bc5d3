/* match.c - pairing the rows of two results files (see match.h). Each row
 * gets a key: its axis values as text (%.17g, so NaN reads "nan" on both
 * sides and equal doubles print equally) and its repetition; both files'
 * rows are sorted by key and merged, O(n log n) for files of thousands of
 * points. */
#include "harness/tools/match.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KEY_LEN 1024
#define AXES_MAX 64

int wb_match_is_axis(const wb_column *c) {
    const size_t p0 = offsetof(wb_row, p), p1 = p0 + sizeof(wb_point);
    /* launch.h: block, ilp, occupancy_target, sm_limit are chosen by the
     * sweep; grid and everything after it are filled by the plan. */
    const size_t plan0 = offsetof(wb_row, p.launch.grid), plan1 = offsetof(wb_row, p.launch) + sizeof(wb_launch);
    if (c->offset < p0 || c->offset >= p1) return 0; /* measured or counted */
    if (c->offset >= plan0 && c->offset < plan1) return 0;
    /* family.h: the plan completes bytes_model, items, table_bytes, the facts, note and places as well */
    return c->offset != offsetof(wb_row, p.bytes_model) && c->offset != offsetof(wb_row, p.items) &&
           c->offset != offsetof(wb_row, p.table_bytes) && c->offset != offsetof(wb_row, p.lookups) &&
           c->offset != offsetof(wb_row, p.fallback) && c->offset != offsetof(wb_row, p.note) &&
           c->offset != offsetof(wb_row, p.places);
}

int wb_match_axes(const wb_column **out, int max) {
    int n, k = 0;
    const wb_column *c = wb_schema_columns(&n);
    for (int i = 0; i < n; i++)
        if (wb_match_is_axis(&c[i]) && k < max) out[k++] = &c[i];
    return k;
}

/* Appends the key text of column c of r to buf at *at. */
static void key_part(const wb_row *r, const wb_column *c, char *buf, size_t len, size_t *at) {
    if (*at >= len) return;
    const char *s = wb_row_str(r, c);
    int w = s ? snprintf(buf + *at, len - *at, "%s\x1f", s) : snprintf(buf + *at, len - *at, "%.17g\x1f", wb_row_get(r, c));
    if (w > 0) *at += (size_t)w;
}

static void make_key(const wb_row *r, const char *ignore, char *buf, size_t len) {
    const wb_column *axes[AXES_MAX];
    int n = wb_match_axes(axes, AXES_MAX);
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < n; i++)
        if (!ignore || strcmp(axes[i]->name, ignore) != 0) key_part(r, axes[i], buf, len, &at);
    if (at < len) snprintf(buf + at, len - at, "#%d", r->m.repetition);
}

int wb_match_same(const wb_row *a, const wb_row *b, const char *ignore) {
    char ka[KEY_LEN], kb[KEY_LEN];
    make_key(a, ignore, ka, sizeof ka);
    make_key(b, ignore, kb, sizeof kb);
    return strcmp(ka, kb) == 0;
}

typedef struct keyed {
    const char *key;
    int64_t row;
} keyed;

static int by_key(const void *x, const void *y) {
    const keyed *a = x, *b = y;
    int c = strcmp(a->key, b->key);
    return c ? c : (a->row > b->row) - (a->row < b->row); /* file order within one key */
}

/* Keys of every row of r, sorted; NULL when out of memory. *text holds them. */
static keyed *sorted_keys(const wb_results *r, char **text) {
    size_t n = (size_t)r->nrows;
    *text = malloc((n ? n : 1) * KEY_LEN);
    keyed *k = malloc((n ? n : 1) * sizeof *k);
    if (!*text || !k) {
        free(*text);
        free(k);
        *text = NULL;
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        k[i].key = *text + i * KEY_LEN;
        k[i].row = (int64_t)i;
        make_key(&r->rows[i], NULL, *text + i * KEY_LEN, KEY_LEN);
    }
    qsort(k, n, sizeof *k, by_key);
    return k;
}

int wb_match_files(const wb_results *a, const wb_results *b, wb_match *m, wb_err *e) {
    memset(m, 0, sizeof *m);
    char *ta = NULL, *tb = NULL;
    keyed *ka = sorted_keys(a, &ta), *kb = sorted_keys(b, &tb);
    m->a_to_b = malloc((size_t)(a->nrows + 1) * sizeof *m->a_to_b);
    m->b_to_a = malloc((size_t)(b->nrows + 1) * sizeof *m->b_to_a);
    int rc = WB_OK;
    if (!ka || !kb || !m->a_to_b || !m->b_to_a) {
        rc = wb_fail(e, "out of memory matching %lld and %lld points", (long long)a->nrows, (long long)b->nrows);
        wb_match_free(m);
    } else {
        for (int64_t i = 0; i < a->nrows; i++) m->a_to_b[i] = -1;
        for (int64_t j = 0; j < b->nrows; j++) m->b_to_a[j] = -1;
        int64_t i = 0, j = 0;
        while (i < a->nrows && j < b->nrows) {
            int c = strcmp(ka[i].key, kb[j].key);
            if (c < 0) i++;
            else if (c > 0) j++;
            else {
                m->a_to_b[ka[i].row] = kb[j].row;
                m->b_to_a[kb[j].row] = ka[i].row;
                m->matched++;
                i++, j++;
            }
        }
        m->only_a = a->nrows - m->matched;
        m->only_b = b->nrows - m->matched;
    }
    free(ka);
    free(kb);
    free(ta);
    free(tb);
    return rc;
}

void wb_match_free(wb_match *m) {
    free(m->a_to_b);
    free(m->b_to_a);
    memset(m, 0, sizeof *m);
}

int wb_match_varying(const wb_row *const *rows, int n, const char *ignore, const wb_column **out, int max) {
    const wb_column *axes[AXES_MAX];
    int na = wb_match_axes(axes, AXES_MAX), k = 0;
    for (int a = 0; a < na && k < max; a++) {
        const char *name = axes[a]->name;
        if (!strcmp(name, "family") || !strcmp(name, "variant") || (ignore && !strcmp(name, ignore))) continue;
        char first[64], other[64];
        int differs = 0;
        for (int i = 1; i < n && !differs; i++)
            differs = strcmp(wb_match_value(rows[0], axes[a], first, sizeof first),
                             wb_match_value(rows[i], axes[a], other, sizeof other)) != 0;
        if (differs) out[k++] = axes[a];
    }
    return k;
}

const char *wb_match_label(const wb_row *r, char *buf, size_t len) {
    wb_point_name(&r->p, buf, len);
    size_t at = strlen(buf);
    if (r->m.repetition != 0 && at < len) snprintf(buf + at, len - at, "#%d", r->m.repetition);
    return buf;
}

const char *wb_match_value(const wb_row *r, const wb_column *c, char *buf, size_t len) {
    const char *s = wb_row_str(r, c);
    double v = wb_row_get(r, c);
    if (s) snprintf(buf, len, "%s", *s ? s : "-");
    else if (isnan(v) || (c->type != WB_COL_F64 && v == -1)) snprintf(buf, len, "-");
    else if (c->type != WB_COL_F64) snprintf(buf, len, "%lld", (long long)v);
    else snprintf(buf, len, "%g", v);
    return buf;
}

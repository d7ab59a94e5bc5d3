/* shape.c - the launch-shape rule (see shape.h). */
#include "harness/tools/shape.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const wb_shape wb_shape_fastest = {1, -1, NAN, -1, -1};

int wb_shape_parse(const char *s, wb_shape *out, wb_err *e) {
    *out = (wb_shape){0, -1, NAN, -1, -1};
    if (strcmp(s, "fastest") == 0) {
        out->fastest = 1;
        return WB_OK;
    }
    char buf[128];
    snprintf(buf, sizeof buf, "%s", s);
    int parts = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save), parts++) {
        char *eq = strchr(tok, '='), *end = NULL;
        if (!eq) return wb_fail(e, "launch shape '%s': '%s' is not name=value (ilp, occ, block, sms)", s, tok);
        *eq = '\0';
        double v = strtod(eq + 1, &end);
        if (end == eq + 1 || *end || !(v >= 0))
            return wb_fail(e, "launch shape '%s': %s needs a number >= 0, not '%s'", s, tok, eq + 1);
        if (strcmp(tok, "ilp") == 0 && v >= 1 && v == floor(v)) out->ilp = (int)v;
        else if (strcmp(tok, "occ") == 0 && v > 0 && v <= 1) out->occ = v;
        else if (strcmp(tok, "block") == 0 && v >= 1 && v == floor(v)) out->block = (int)v;
        else if (strcmp(tok, "sms") == 0 && v == floor(v)) out->sms = (int)v;
        else
            return wb_fail(e, "launch shape '%s': bad %s=%s (ilp and block: integers >= 1, occ in (0, 1], sms an integer "
                              ">= 0)", s, tok, eq + 1);
    }
    if (!parts) return wb_fail(e, "launch shape '%s': expected fastest or ilp=I[,occ=O][,block=B][,sms=S]", s);
    return WB_OK;
}

int wb_shape_match(const wb_shape *sh, const wb_row *r) {
    const wb_launch *l = &r->p.launch;
    if (sh->fastest || (l->ilp < 0 && l->block < 0)) return 1;
    return (sh->ilp < 0 || l->ilp == sh->ilp) && (isnan(sh->occ) || fabs(l->occupancy_target - sh->occ) < 1e-9) &&
           (sh->block < 0 || l->block == sh->block) && (sh->sms < 0 || l->sm_limit == sh->sms);
}

const char *wb_shape_text(const wb_shape *sh, char *buf, size_t len) {
    if (sh->fastest) {
        snprintf(buf, len, "fastest launch shape per point");
        return buf;
    }
    int at = snprintf(buf, len, "launch shape");
    const char *sep = " ";
#define PART(cond, ...)                                                                   \
    if ((cond) && at >= 0 && (size_t)at < len) {                                          \
        at += snprintf(buf + at, len - (size_t)at, "%s", sep);                            \
        if (at >= 0 && (size_t)at < len) at += snprintf(buf + at, len - (size_t)at, __VA_ARGS__); \
        sep = ", ";                                                                       \
    }
    PART(sh->ilp >= 0, "ILP %d", sh->ilp)
    PART(!isnan(sh->occ), "occupancy %g", sh->occ)
    PART(sh->block >= 0, "block %d", sh->block)
    PART(sh->sms > 0, "%d SMs", sh->sms)
    PART(sh->sms == 0, "all SMs")
#undef PART
    return buf;
}

/* The point without its launch shape: rows that differ only in shape share it. */
static void unshaped_name(const wb_row *r, char *buf, size_t len) {
    wb_point p = r->p;
    p.launch.ilp = p.launch.block = p.launch.sm_limit = 0;
    p.launch.occupancy_target = 0;
    p.vector_bytes = 0;
    wb_point_name(&p, buf, len);
}

int64_t wb_shape_filter(wb_results *r, const wb_shape *sh) {
    const int64_t n = r->nrows;
    unsigned char *keep = malloc((size_t)(n ? n : 1));
    char (*names)[256] = sh->fastest ? malloc((size_t)(n ? n : 1) * sizeof *names) : NULL;
    if (!keep || (sh->fastest && !names)) {
        free(keep);
        free(names);
        return -1;
    }
    for (int64_t i = 0; i < n; i++) {
        const wb_row *w = &r->rows[i];
        keep[i] = strcmp(w->m.status, "ok") != 0 || wb_shape_match(sh, w);
        if (names) unshaped_name(w, names[i], sizeof names[i]);
    }
    for (int64_t i = 0; names && i < n; i++) {
        const wb_row *a = &r->rows[i];
        if (strcmp(a->m.status, "ok") != 0) continue;
        for (int64_t j = 0; j < n && keep[i]; j++) {
            const wb_row *b = &r->rows[j];
            if (j == i || strcmp(b->m.status, "ok") != 0 || strcmp(names[i], names[j]) != 0) continue;
            /* a faster row of the same point wins; ties go to the earlier row */
            if (b->m.time_median_ms < a->m.time_median_ms || (b->m.time_median_ms == a->m.time_median_ms && j < i))
                keep[i] = 0;
        }
    }
    int64_t k = 0;
    for (int64_t i = 0; i < n; i++) {
        if (!keep[i]) continue;
        r->rows[k] = r->rows[i];
        if (r->sample_start) r->sample_start[k] = r->sample_start[i], r->sample_count[k] = r->sample_count[i];
        k++;
    }
    r->nrows = k;
    free(keep);
    free(names);
    return k;
}

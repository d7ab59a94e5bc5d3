/* shape.c - the launch-shape rule (see shape.h). */
#include "harness/tools/shape.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/parse_int.h"

const wb_shape wb_shape_fastest = {1, -1, NAN, -1, -1};

/* An integer key's value: decimal digits only (no sign, exponent, fraction or
 * blanks), lo..hi; -1 when it is not. */
static long parse_count(const char *v, long lo, long hi) {
    long long n;
    return *v != '-' && wb_parse_ll(v, lo, hi, &n) == 0 ? (long)n : -1;
}

int wb_shape_parse(const char *s, wb_shape *out, wb_err *e) {
    *out = (wb_shape){0, -1, NAN, -1, -1};
    if (strcmp(s, "fastest") == 0) {
        out->fastest = 1;
        return WB_OK;
    }
    char buf[128];
    if (snprintf(buf, sizeof buf, "%s", s) >= (int)sizeof buf)
        return wb_fail(e, "launch shape '%.40s...': longer than %zu characters", s, sizeof buf - 1);
    int parts = 0, seen_occ = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save), parts++) {
        char *eq = strchr(tok, '='), *end = NULL;
        if (!eq) return wb_fail(e, "launch shape '%s': '%s' is not name=value (ilp, occ, block, sms)", s, tok);
        *eq = '\0';
        const char *val = eq + 1;
        /* ilp and block: 1..2^20 (no kernel runs more); sms: 0 (all) .. 2^20 */
        struct { const char *key; int *dst; long lo; } ints[] = {
            {"ilp", &out->ilp, 1}, {"block", &out->block, 1}, {"sms", &out->sms, 0}};
        int done = 0;
        for (size_t k = 0; k < sizeof ints / sizeof ints[0]; k++) {
            if (strcmp(tok, ints[k].key) != 0) continue;
            if (*ints[k].dst >= 0) return wb_fail(e, "launch shape '%s': %s given twice", s, tok);
            long n = parse_count(val, ints[k].lo, 1L << 20);
            if (n < 0)
                return wb_fail(e, "launch shape '%s': bad %s=%s (%s: an integer from %ld to %ld)", s, tok, val, tok,
                               ints[k].lo, 1L << 20);
            *ints[k].dst = (int)n;
            done = 1;
        }
        if (done) continue;
        if (strcmp(tok, "occ") != 0)
            return wb_fail(e, "launch shape '%s': unknown key '%s' (ilp, occ, block, sms)", s, tok);
        if (seen_occ++) return wb_fail(e, "launch shape '%s': occ given twice", s);
        double v = strtod(val, &end);
        if (end == val || *end || isspace((unsigned char)*val) || !(v > 0 && v <= 1))
            return wb_fail(e, "launch shape '%s': bad occ=%s (occ: a number in (0, 1])", s, val);
        out->occ = v;
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

/* ceiling_names.c - a ceiling under both of its names (store_h5.h): the
 * /ceilings row of schema 6 and the root attribute of schema 1-5
 * (ceiling_<name>_gbps, _gips, _<bytes>B_greqs), so that every reader of
 * ceilings asks one question whatever the file's age. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/store/store_h5.h"

/* Attribute suffix <-> unit. */
static const struct {
    const char *suffix, *unit;
} units[] = {{"gbps", "GB/s"}, {"gips", "G inst/s"}, {"greqs", "G req/s"}};

const char *wb_ceiling_attr_name(const wb_ceiling_entry *c, char *buf, size_t len) {
    const char *suffix = "value";
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(c->unit, units[i].unit) == 0) suffix = units[i].suffix;
    if (isfinite(c->size_bytes)) snprintf(buf, len, "ceiling_%s_%.0fB_%s", c->name, c->size_bytes, suffix);
    else snprintf(buf, len, "ceiling_%s_%s", c->name, suffix);
    return buf;
}

int wb_ceiling_from_attr(const char *attr, wb_ceiling_entry *c) {
    static const char prefix[] = "ceiling_";
    if (strncmp(attr, prefix, sizeof prefix - 1) != 0) return 0;
    const char *body = attr + sizeof prefix - 1, *last = strrchr(body, '_');
    if (!last || last == body) return 0;
    const char *unit = NULL;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(last + 1, units[i].suffix) == 0) unit = units[i].unit;
    if (!unit) return 0;
    size_t n = (size_t)(last - body);
    double size = NAN;
    /* "<name>_<digits>B" before the suffix: a sized (gather) ceiling. */
    const char *under = NULL;
    for (const char *q = body; q < last; q++)
        if (*q == '_') under = q;
    if (under && last - under > 2 && last[-1] == 'B') {
        char *end;
        double v = strtod(under + 1, &end);
        if (end == last - 1) size = v, n = (size_t)(under - body);
    }
    if (n == 0 || n >= sizeof c->name) return 0;
    snprintf(c->name, sizeof c->name, "%.*s", (int)n, body);
    snprintf(c->unit, sizeof c->unit, "%s", unit);
    c->size_bytes = size;
    return 1;
}

static int same_size(double a, double b) { return (isnan(a) && isnan(b)) || a == b; }

double wb_results_ceiling(const wb_results *r, const char *name, const char *unit, double size_bytes) {
    for (int i = 0; r && i < r->nceilings; i++) {
        const wb_ceiling_entry *c = &r->ceilings[i];
        if (strcmp(c->name, name) == 0 && strcmp(c->unit, unit) == 0 && same_size(c->size_bytes, size_bytes))
            return c->value;
    }
    return NAN;
}

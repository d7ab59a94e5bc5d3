/* registry.c - the families, in run order: ceiling first, since the others
 * are judged against its measured ceilings, then plugin families in the
 * order they were loaded. Run by name or as "all". */
#include <stdio.h>
#include <string.h>

#include "harness/base/point.h"

#include "harness/run/family.h"

extern const wb_family wb_family_ceiling, wb_family_transform, wb_family_select, wb_family_scan,
    wb_family_probe, wb_family_groupby, wb_family_expr, wb_family_ssb;

const wb_family *wb_families[WB_FAMILIES_MAX + 1] = {
    &wb_family_ceiling, &wb_family_transform, &wb_family_select, &wb_family_scan,
    &wb_family_probe,   &wb_family_groupby,   &wb_family_expr,   &wb_family_ssb, NULL,
};

/* The entries before the first wb_registry_add. */
static int n_builtin = -1;

static int registered(void) {
    int n = 0;
    while (wb_families[n]) n++;
    return n;
}

int wb_family_builtin(const wb_family *f) {
    int n = n_builtin < 0 ? registered() : n_builtin;
    for (int i = 0; i < n; i++)
        if (wb_families[i] == f) return 1;
    return 0;
}

int wb_registry_add(const wb_family *f, wb_err *e) {
    if (!f || !f->name || !*f->name) return wb_fail(e, "a family without a name");
    if (strlen(f->name) >= sizeof ((wb_point *)0)->family)
        return wb_fail(e, "family name '%s' is longer than %d characters", f->name,
                       (int)sizeof ((wb_point *)0)->family - 1);
    if (!f->variants || !f->variants[0] || !f->sweep || !f->device_bytes || !f->same_data || !f->data_create ||
        !f->data_destroy || !f->plan || !f->reset || !f->launch || !f->verify)
        return wb_fail(e, "family '%s' lacks its variant names or one of its callbacks (all of wb_family's are required)",
                       f->name);
    const wb_family *old = wb_family_find(f->name);
    if (old)
        return wb_fail(e, "family '%s' collides with the %s family of that name: rename it", f->name,
                       wb_family_builtin(old) ? "built-in" : "already loaded");
    int n = registered();
    if (n_builtin < 0) n_builtin = n;
    if (n == WB_FAMILIES_MAX) return wb_fail(e, "family '%s': the registry is full (%d families)", f->name, n);
    wb_families[n] = f;
    wb_families[n + 1] = NULL;
    return WB_OK;
}

const wb_family *wb_family_find(const char *name) {
    for (int i = 0; wb_families[i]; i++)
        if (strcmp(wb_families[i]->name, name) == 0) return wb_families[i];
    return NULL;
}

int wb_family_variant(const wb_family *f, const char *variant) {
    for (int i = 0; f->variants[i]; i++)
        if (strcmp(f->variants[i], variant) == 0) return i;
    return -1;
}

int wb_sweep_of_kind(wb_sweep_kind kind, wb_sweep_fn test, wb_sweep_fn quick, wb_sweep_fn full, wb_point_add add,
                     void *ctx) {
    switch (kind) {
    case WB_SWEEP_TEST: return test(add, ctx);
    case WB_SWEEP_QUICK: return quick(add, ctx);
    case WB_SWEEP_FULL: return full(add, ctx);
    }
    return WB_ERR;
}

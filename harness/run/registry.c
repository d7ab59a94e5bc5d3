/* registry.c - the families, in run order: ceiling first, since the others
 * are judged against its measured ceilings. Run by name or as "all". */
#include <string.h>

#include "harness/run/family.h"

extern const wb_family wb_family_ceiling, wb_family_transform, wb_family_select, wb_family_scan,
    wb_family_probe, wb_family_groupby, wb_family_expr, wb_family_ssb;

const wb_family *const wb_families[] = {
    &wb_family_ceiling, &wb_family_transform, &wb_family_select, &wb_family_scan,
    &wb_family_probe,   &wb_family_groupby,   &wb_family_expr,   &wb_family_ssb, NULL,
};

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

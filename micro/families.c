/* families.c - the built-in families, from the one list micro/families.def. */
#include "micro/families.h"

#include "harness/run/family.h"

#define WB_FAMILY(name, figure) extern const wb_family wb_family_##name;
#include "micro/families.def"
#undef WB_FAMILY

int wb_micro_families_add(wb_err *e) {
#define WB_FAMILY(name, figure) \
    if (wb_registry_add(&wb_family_##name, e) != WB_OK) return WB_ERR;
#include "micro/families.def"
#undef WB_FAMILY
    wb_registry_mark_builtin();
    return WB_OK;
}

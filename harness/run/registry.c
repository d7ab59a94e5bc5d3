/* registry.c - the families a run can choose from, in the order they were
 * added (see family.h): the built-in ones of micro/families.def (ceiling
 * first: the others are judged against its measured ceilings), then plugin
 * families in the order they were loaded. The harness owns the list;
 * micro/families.c and plugin.c hand their families in. */
#include <stdio.h>
#include <string.h>

#include "harness/run/family.h"

static const wb_family *families[WB_REGISTRY_MAX];
static int nfamilies, nbuiltin;

int wb_registry_add(const wb_family *f, wb_err *e) {
    if (!f || !f->name || !f->name[0]) return wb_fail(e, "family without a name");
    if (strlen(f->name) >= sizeof ((wb_point *)0)->family)
        return wb_fail(e, "family name '%s' is longer than %d characters", f->name,
                       (int)sizeof ((wb_point *)0)->family - 1);
    const wb_family *old = wb_family_find(f->name);
    if (old)
        return wb_fail(e, "family '%s' collides with the %s family of that name: rename it", f->name,
                       wb_family_builtin(old) ? "built-in" : "already loaded");
    if (!f->variants || f->nvariants <= 0 || !f->sweep[WB_SWEEP_TEST] || !f->sweep[WB_SWEEP_QUICK] ||
        !f->sweep[WB_SWEEP_FULL] || !f->device_bytes || !f->same_data || !f->data_create || !f->data_destroy ||
        !f->plan || !f->reset || !f->launch || !f->verify)
        return wb_fail(e, "family '%s' lacks its variant names or one of its callbacks (all of wb_family's are "
                          "required, and a sweep of each kind)", f->name);
    for (int v = 0; v < f->nvariants; v++) {
        const char *name = f->variants[v].name;
        if (!name || !name[0] || strlen(name) >= sizeof ((wb_point *)0)->variant)
            return wb_fail(e, "family '%s': variant %d has no name or one longer than %d characters", f->name, v,
                           (int)sizeof ((wb_point *)0)->variant - 1);
        if (wb_family_variant(f, name) != v) return wb_fail(e, "family '%s' lists variant '%s' twice", f->name, name);
        static const char *const role_name[WB_ROLES] = WB_ROOF_ROLE_VARIANTS;
        const wb_roof_role role = f->variants[v].role;
        if (role == WB_ROLE_NONE) continue;
        if ((int)role < 0 || role >= WB_ROLES || !f->ceilings || strcmp(name, role_name[role]) != 0)
            return wb_fail(e, "family '%s': variant '%s' plays roof role %d, which only a family of ceilings may give, "
                              "to the variant the roof contract names (harness/base/roof_contract.h)", f->name, name,
                           (int)role);
    }
    if (nfamilies == WB_REGISTRY_MAX)
        return wb_fail(e, "cannot add family '%s': the registry holds at most %d families", f->name, WB_REGISTRY_MAX);
    families[nfamilies++] = f;
    return WB_OK;
}

void wb_registry_mark_builtin(void) { nbuiltin = nfamilies; }

int wb_family_builtin(const wb_family *f) {
    for (int i = 0; i < nbuiltin; i++)
        if (families[i] == f) return 1;
    return 0;
}

int wb_registry_count(void) { return nfamilies; }

const wb_family *wb_registry_at(int i) { return i >= 0 && i < nfamilies ? families[i] : NULL; }

const wb_family *wb_family_find(const char *name) {
    for (int i = 0; i < nfamilies; i++)
        if (strcmp(families[i]->name, name) == 0) return families[i];
    return NULL;
}

void wb_registry_clear(void) { nfamilies = nbuiltin = 0; }

int wb_family_variant(const wb_family *f, const char *variant) {
    for (int i = 0; i < f->nvariants; i++)
        if (strcmp(f->variants[i].name, variant) == 0) return i;
    return -1;
}

int wb_sink_add(const wb_sink *s, wb_point *p) {
    const wb_family *f = s->family;
    if (p->variant_id < 0 || p->variant_id >= f->nvariants) {
        fprintf(stderr, "error: family %s: a sweep point has variant_id %d; the family has %d variants\n", f->name,
                p->variant_id, f->nvariants);
        return WB_ERR;
    }
    snprintf(p->family, sizeof p->family, "%s", f->name);
    snprintf(p->variant, sizeof p->variant, "%s", f->variants[p->variant_id].name);
    return s->add(s->ctx, p);
}

/* plugin.c - families from a shared library (wallbench run|list --plugin):
 * dlopen, the entry point, the interface check, registration. The library
 * stays loaded for the life of the process: its family tables and
 * callbacks are used until exit. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "harness/run/family.h"

int wb_plugin_load(const char *path, wb_err *e) {
    /* RTLD_NOW: a symbol the plugin needs but wallbench lacks fails here,
     * with its name, rather than at the first call in the middle of a run.
     * A bare name would search the library path: "./" makes it the file. */
    char file[1024];
    snprintf(file, sizeof file, "%s%s", strchr(path, '/') ? "" : "./", path);
    void *h = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (!h) return wb_fail(e, "cannot load plugin %s: %s", path, dlerror());
    dlerror();
    wb_plugin_entry_fn entry = (wb_plugin_entry_fn)dlsym(h, WB_PLUGIN_ENTRY);
    if (!entry || dlerror()) {
        dlclose(h);
        return wb_fail(e, "%s is not a wallbench plugin: it does not define %s() (end the family file with "
                          "WB_PLUGIN(&your_family), harness/run/family.h)", path, WB_PLUGIN_ENTRY);
    }
    /* Every message is formatted before dlclose: the names live in the library. */
    const wb_plugin *pl = entry();
    int rc = WB_OK;
    if (!pl || pl->interface_version != WB_FAMILY_INTERFACE_VERSION)
        rc = wb_fail(e, "plugin %s was built against family interface version %d but this wallbench has version %d: "
                        "rebuild it against this checkout's harness/run/family.h", path, pl ? pl->interface_version : -1,
                     WB_FAMILY_INTERFACE_VERSION);
    else if (pl->family_size != sizeof(wb_family) || pl->point_size != sizeof(wb_point))
        rc = wb_fail(e, "plugin %s was built against a different harness/run/family.h (wb_family %zu bytes, wb_point "
                        "%zu bytes there, %zu and %zu here): rebuild it against this checkout", path, pl->family_size,
                     pl->point_size, sizeof(wb_family), sizeof(wb_point));
    else if (!pl->families || !pl->families[0])
        rc = wb_fail(e, "plugin %s defines no family (WB_PLUGIN(&your_family))", path);
    /* All or none: every name is checked before any family registers. */
    for (int i = 0; rc == WB_OK && pl->families[i]; i++) {
        const wb_family *f = pl->families[i], *old = f->name ? wb_family_find(f->name) : NULL;
        if (old)
            rc = wb_fail(e, "plugin %s: family '%s' collides with the %s family of that name: rename the plugin's "
                            "family", path, f->name, wb_family_builtin(old) ? "built-in" : "already loaded");
    }
    if (rc != WB_OK) {
        dlclose(h);
        return rc;
    }
    for (int i = 0; pl->families[i]; i++) {
        wb_err why;
        if (wb_registry_add(pl->families[i], &why) != WB_OK) /* the library stays loaded: earlier ones are in */
            return wb_fail(e, "plugin %s: %s", path, why.msg);
    }
    return WB_OK;
}

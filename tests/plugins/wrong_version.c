/* wrong_version.c - a broken plugin for tests/plugin_errors.sh: built
 * against another family interface version (the entry point by hand, as an
 * older header would have written it). */
#include "harness/run/family.h"

static const wb_family *const families[] = {NULL};
static const wb_plugin info = {WB_FAMILY_INTERFACE_VERSION + 41, sizeof(wb_family), sizeof(wb_point), families};

__attribute__((visibility("default"))) const wb_plugin *wb_plugin_entry(void) { return &info; }

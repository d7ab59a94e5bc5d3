/* no_entry.c - a broken plugin for tests/plugin_errors.sh: a shared
 * library that forgot WB_PLUGIN, so it has no wb_plugin_entry. */
#include "harness/run/family.h"

__attribute__((visibility("default"))) int not_a_plugin_entry(void) { return WB_FAMILY_INTERFACE_VERSION; }

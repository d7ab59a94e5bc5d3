/* duplicate.c - a broken plugin for tests/plugin_errors.sh: its family is
 * named like a built-in one. The names are checked before anything else,
 * so the table needs nothing but the name. */
#include "harness/run/family.h"

static const wb_variant variants[] = {{"mine", "a variant of the test"}};
static const wb_family select_again = {
    .name = "select", .summary = "a second select", .variants = variants, .nvariants = 1};

WB_PLUGIN(&select_again)

/* incomplete.c - a broken plugin for tests/plugin_errors.sh: a family
 * table with a fresh name but without its callbacks. */
#include "harness/run/family.h"

static const wb_variant variants[] = {{"mine", "a variant of the test"}};
static const wb_family incomplete = {
    .name = "incomplete", .summary = "no callbacks", .variants = variants, .nvariants = 1};

WB_PLUGIN(&incomplete)

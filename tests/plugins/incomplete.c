/* incomplete.c - a broken plugin for tests/plugin_errors.sh: a family
 * table with a fresh name but without its callbacks. */
#include "harness/run/family.h"

static const char *const variants[] = {"mine", NULL};
static const wb_family incomplete = {.name = "incomplete", .summary = "no callbacks", .variants = variants};

WB_PLUGIN(&incomplete)

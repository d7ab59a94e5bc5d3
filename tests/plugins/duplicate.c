/* duplicate.c - a broken plugin for tests/plugin_errors.sh: its family is
 * named like a built-in one. The names are checked before anything else,
 * so the table needs nothing but the name. */
#include "harness/run/family.h"

static const char *const variants[] = {"mine", NULL};
static const wb_family select_again = {.name = "select", .summary = "a second select", .variants = variants};

WB_PLUGIN(&select_again)

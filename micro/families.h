/* families.h - the built-in families of micro/families.def. */
#ifndef WB_MICRO_FAMILIES_H
#define WB_MICRO_FAMILIES_H

#include "harness/base/error.h"

/* Hands every family of micro/families.def to the registry, in file order. */
int wb_micro_families_add(wb_err *e);

#endif

/* family_figures.h - the figures of the built-in families of
 * micro/families.def (each family's micro/<f>_figure.c), for `wallbench
 * export`. Results only: the library wb_figures links no CUDA code. */
#ifndef WB_MICRO_FAMILY_FIGURES_H
#define WB_MICRO_FAMILY_FIGURES_H

#include "harness/base/error.h"

/* Adds every family figure to the export's list (wb_export_add), in file
 * order; calling it again changes nothing. */
int wb_micro_figures_add(wb_err *e);

#endif

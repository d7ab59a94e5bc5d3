/* family_figures.c - the family figures, from the one list micro/families.def:
 * a line WB_FAMILY(name, FIGURE) has `const wb_figure wb_figure_<name>` in
 * micro/<name>_figure.c; WB_FAMILY(name, NO_FIGURE) has none. */
#include "micro/family_figures.h"

#include "harness/tools/export.h"

#define FIGURE(name) extern const wb_figure wb_figure_##name;
#define NO_FIGURE(name)
#define WB_FAMILY(name, figure) figure(name)
#include "micro/families.def"
#undef FIGURE

int wb_micro_figures_add(wb_err *e) {
#define FIGURE(name) \
    if (wb_export_add(&wb_figure_##name, e) != WB_OK) return WB_ERR;
#include "micro/families.def"
#undef FIGURE
#undef NO_FIGURE
#undef WB_FAMILY
    return WB_OK;
}

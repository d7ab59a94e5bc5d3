/* project_model.c - the projection model and the roof a file ran under
 * (see project.h); shared by project, project --validate and compare. */
#include "harness/tools/project.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness/tools/ceilings.h"
#include "harness/base/metrics.h"

#define SECTOR_BYTES 32.0

static int roof_ok(const wb_roof *r) {
    return isfinite(r->inst_gips) && isfinite(r->dram_gbps) && r->inst_gips > 0 && r->dram_gbps > 0;
}

int wb_project_file_roof(const wb_results *r, const wb_gpu_table *t, wb_roof *roof, char *source, size_t len) {
    wb_gpu_view v;
    wb_gpu_view_init(r, t, &v);
    snprintf(roof->name, sizeof roof->name, "%s %s", v.label, v.kind);
    if (strcmp(v.kind, "projected") == 0) {
        const char *to = wb_results_attr(r, "projected_to");
        roof->inst_gips = wb_results_attr_f64(r, "projected_inst_gips");
        roof->dram_gbps = wb_results_attr_f64(r, "projected_dram_gbps");
        const wb_gpu_ref *g = t && to ? wb_gpu_table_find(t, to) : NULL;
        if (!roof_ok(roof) && g) roof->inst_gips = g->inst_gips, roof->dram_gbps = g->dram_gbps;
        snprintf(source, len, "reference table (%s)", to ? to : "?");
    } else {
        roof->inst_gips = v.inst_gips;
        roof->dram_gbps = v.dram_read_gbps;
        snprintf(source, len, "measured ceilings");
        if (!roof_ok(roof) && v.ref) {
            roof->inst_gips = v.ref->inst_gips;
            roof->dram_gbps = v.ref->dram_gbps;
            snprintf(source, len, "datasheet (%s)", v.ref->profile);
        }
    }
    if (roof_ok(roof)) return 0;
    roof->inst_gips = roof->dram_gbps = NAN;
    snprintf(source, len, "unknown");
    return -1;
}

static double metric(const wb_row *r, const char *column) {
    int i = wb_metric_index(column);
    return i < 0 ? NAN : r->c.v[i];
}

static double fail(const char **why, const char *reason) {
    *why = reason;
    return NAN;
}

double wb_project_work_ms(const wb_row *r, const wb_roof *roof, const char **why) {
    const double inst = metric(r, "inst");
    const double sectors = metric(r, "dram_sectors_read") + metric(r, "dram_sectors_write");
    if (!roof_ok(roof)) return fail(why, "no roof (ceilings or reference numbers) to project with");
    if (!isfinite(inst) || inst < 0) return fail(why, "no instruction count (counters off or failed)");
    if (!isfinite(sectors) || sectors < 0) return fail(why, "no DRAM sector count (counters off or failed)");
    /* G inst/s = inst per ns and GB/s = bytes per ns; / 1e6 turns ns into ms */
    const double t_inst = inst / roof->inst_gips / 1e6, t_mem = sectors * SECTOR_BYTES / roof->dram_gbps / 1e6;
    const double t = t_inst > t_mem ? t_inst : t_mem;
    if (!(t > 0)) return fail(why, "no instruction and no DRAM sector counted");
    return t;
}

double wb_project_time_ms(const wb_row *r, const wb_roof *src, const wb_roof *dst, const char **why) {
    if (strcmp(r->m.status, "ok") != 0) return fail(why, "not measured (status not ok)");
    const double t = r->m.time_median_ms;
    if (!isfinite(t) || t <= 0) return fail(why, "no measured time");
    const double w_src = wb_project_work_ms(r, src, why);
    const double w_dst = isfinite(w_src) ? wb_project_work_ms(r, dst, why) : NAN;
    if (!isfinite(w_dst)) return NAN;
    /* efficiency w_src / t is kept: t_dst = w_dst / (w_src / t) */
    return t * w_dst / w_src;
}

/* probe_figure.c - the probe family's figure (plots/fig-probe.gp): probes
 * per second over the table's bytes, per variant and load factor, with the
 * cache borders (-levels) and the file's random-access wall (-gather). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/roof_contract.h"
#include "harness/tools/agg.h"
#include "harness/tools/export_slice.h"

#define FAMILY "probe"

/* Bytes a probe variant's table holds per dimension row: direct 4, packed
 * 1, hash 8 / load factor (16 at 0.5); for files without table_bytes. */
static double probe_entry_bytes(const wb_row *r) {
    if (strcmp(r->p.variant, "packed") == 0) return 1;
    if (strcmp(r->p.variant, "hash") == 0) return r->p.load_factor > 0 ? 8 / r->p.load_factor : NAN;
    return 4;
}
/* x: the table's bytes, so that variants of 1-, 4- and 16-byte entries meet
 * the same cache borders and the same gather ceiling. The build variants
 * time the table build, and "partition" the partitioned probe's partition
 * alone, not a probe: not on the figure. */
static double x_table_bytes(const wb_row *r) {
    if (!(r->p.table_entries > 0) || strncmp(r->p.variant, "build_", 6) == 0 || strcmp(r->p.variant, "partition") == 0)
        return NAN;
    return isfinite(r->p.table_bytes) ? r->p.table_bytes : (double)r->p.table_entries * probe_entry_bytes(r);
}
/* only hash tables have a load factor (direct-mapped ones have NaN): it names
 * the series instead of splitting the slice; the bytes a row takes follow */
static void series_probe(const wb_row *r, char *buf, size_t len) {
    const double eb = probe_entry_bytes(r);
    if (isfinite(r->p.load_factor)) snprintf(buf, len, "%s/lf%g (%.3g B/row)", r->p.variant, r->p.load_factor, eb);
    else snprintf(buf, len, "%s (%.3g B/row)", r->p.variant, eb);
}

/* Where a table stops fitting shared memory and L2 (bytes; the label gives
 * the shared memory in 4-byte words too): the regime borders. */
static int probe_levels(wb_export *x, wb_err *e) {
    FILE *f = wb_export_open(x, "-levels", "level bytes", e);
    if (!f) return WB_ERR;
    double smem = wb_results_attr_f64(x->r, "smem_per_sm");
    if (smem > 0) {
        char label[64];
        snprintf(label, sizeof label, "shared memory per SM (%.0fK words)", smem / 4 / 1024);
        wb_export_str(f, label);
        fprintf(f, " %.6g\n", smem);
    }
    if (x->v.l2_mib > 0) fprintf(f, "L2 %.6g\n", x->v.l2_mib * 1024.0 * 1024.0);
    return wb_export_close(f, x, "-levels", e);
}

/* The gather ceilings of the same file by table size: the wall the probes
 * meet once the table leaves L2. */
static int probe_wall(wb_export *x, wb_err *e) {
    FILE *f = wb_export_open(x, "-gather", "table_bytes gather_word_greqs gather_sector_greqs", e);
    if (!f) return WB_ERR;
    wb_wall w[2];
    wb_gather_wall(x->r, WB_ROOF_GATHER_WORD_VARIANT, &w[0]);
    wb_gather_wall(x->r, WB_ROOF_GATHER_SECTOR_VARIANT, &w[1]);
    for (int i = 0; i < w[0].n; i++) {
        wb_export_num(f, w[0].bytes[i]);
        wb_export_num(f, w[0].greqs[i]);
        wb_export_num(f, wb_wall_at(&w[1], w[0].bytes[i]));
        fputc('\n', f);
    }
    if (!w[0].n) fprintf(f, "# no gather_word ceiling in this file\n");
    return wb_export_close(f, x, "-gather", e);
}

static int probe_row(const void *ctx, const pick *pk, double *v) {
    (void)ctx;
    const double ns = wb_row_ns_per_item(pk->row);
    v[0] = pk->x, v[1] = ns > 0 ? 1 / ns : NAN, v[2] = pk->row->m.time_median_ms;
    v[3] = wb_agg_metric(pk->row, "l2_hit_pct");
    v[4] = pk->row->m.gather_pct;
    return 5;
}

static int export_probe(wb_export *x, wb_err *e) {
    table t = {{FAMILY, x_table_bytes, series_probe, AX(table_entries) | AX(load_factor) | AX(partitions)},
               "series table_bytes gprobes_per_s time_ms l2_hit_pct gather_pct", probe_row, NULL, NULL};
    int rc = wb_export_table(x, &t, NULL, e);
    if (rc == WB_OK) rc = probe_levels(x, e);
    return rc == WB_OK ? probe_wall(x, e) : rc;
}

const wb_figure wb_figure_probe = {"fig-probe", export_probe, 1};

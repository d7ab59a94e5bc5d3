/* export_hier.c - the hierarchical instruction roofline (Ding & Williams,
 * PMBS 2019; plots/fig-hierarchical.gp): every operator point with counters
 * at three instruction intensities, warp instructions over its L1, L2 and
 * DRAM sectors, against the same run's measured l1_read, l2_read and
 * dram_read ceilings (in G sectors/s) and its inst_issue and int_alu
 * ceilings. The memory walls (unit-stride 4-byte words: 4 sectors per warp
 * request; random: 32) are fixed by the sector size and go in the script.
 * Intensities come from the raw counters, so files written before the
 * inst_per_l1_sector / inst_per_l2_sector columns draw too. A fourth, where
 * a point counted the L2's atomic requests (schema 10 on): warp instructions
 * per ATOM + RED request, against the atom_global ceiling at its fastest
 * table in the same counted requests (G requests/s: the same kind of roof, x times the rate). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/tools/agg.h"
#include "harness/tools/ceilings.h"
#include "harness/tools/export.h"
#include "harness/base/roof_contract.h"

#define FAMILIES_MAX 16

static double per(double inst, double sectors) { return inst > 0 && sectors > 0 ? inst / sectors : NAN; }

/* The ceilings as roofs: memory levels in G sectors/s, issue limits in G inst/s. */
static int hier_roofs(wb_export *x, wb_err *e) {
    FILE *f = wb_export_open(x, "-roofs", "name kind value", e);
    if (!f) return WB_ERR;
    static const char *const mem[] = {WB_ROOF_L1_VARIANT, WB_ROOF_L2_VARIANT, WB_ROOF_DRAM_VARIANT},
                             *const inst[] = {WB_ROOF_INST_VARIANT, WB_ROOF_INT_ALU_VARIANT};
    for (int i = 0; i < 3; i++) {
        double gbps = wb_ceiling_value(x->r, mem[i], "gbps");
        if (isfinite(gbps)) fprintf(f, "%s memory %.6g\n", mem[i], gbps / 32);
    }
    for (int i = 0; i < 2; i++) {
        double gips = wb_ceiling_value(x->r, inst[i], "gips");
        if (isfinite(gips)) fprintf(f, "%s compute %.6g\n", inst[i], gips);
    }
    const double atom = wb_ceiling_atomics(x->r, NULL); /* counted requests, as the points' intensity */
    if (isfinite(atom) && atom > 0) fprintf(f, "%s atomic %.6g\n", WB_ROOF_ATOMIC_VARIANT, atom);
    return wb_export_close(f, x, "-roofs", e);
}

int wb_export_hierarchical(wb_export *x, wb_err *e) {
    const char *fams[FAMILIES_MAX];
    int nf = 0;
    for (int64_t i = 0; i < x->r->nrows; i++) { /* families with counters, in run order */
        const wb_row *r = &x->r->rows[i];
        if (!wb_agg_is_op_point(r) || !(r->c.gips > 0)) continue;
        int k = 0;
        while (k < nf && strcmp(fams[k], r->p.family) != 0) k++;
        if (k == nf && nf < FAMILIES_MAX) fams[nf++] = r->p.family;
    }
    if (!nf) return wb_skip(e, "no operator point has counters (inst, sectors); run where CUPTI works");
    FILE *f = wb_export_open(x, "", "family variant inst_per_l1_sector inst_per_l2_sector inst_per_dram_sector gips inst_per_atomic", e);
    if (!f) return WB_ERR;
    for (int k = 0; k < nf; k++) {
        if (k) wb_export_block_end(f);
        for (int64_t i = 0; i < x->r->nrows; i++) {
            const wb_row *r = &x->r->rows[i];
            if (!wb_agg_is_op_point(r) || !(r->c.gips > 0) || strcmp(r->p.family, fams[k]) != 0) continue;
            const double inst = wb_agg_metric(r, "inst");
            const double l1 = wb_agg_metric(r, "l1_sectors_ld") + wb_agg_metric(r, "l1_sectors_st");
            const double dram = wb_agg_metric(r, "dram_sectors_read") + wb_agg_metric(r, "dram_sectors_write");
            wb_export_str(f, r->p.family);
            fputc(' ', f);
            wb_export_str(f, r->p.variant);
            wb_export_num(f, per(inst, l1));
            wb_export_num(f, per(inst, wb_agg_metric(r, "l2_sectors")));
            wb_export_num(f, per(inst, dram));
            wb_export_num(f, r->c.gips);
            wb_export_num(f, per(inst, wb_agg_metric(r, "l2_atom_requests") + wb_agg_metric(r, "l2_red_requests")));
            fputc('\n', f);
            x->rows++;
        }
    }
    if (wb_export_close(f, x, "", e) != WB_OK) return WB_ERR;
    return hier_roofs(x, e);
}

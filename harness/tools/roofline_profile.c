/* roofline_profile.c - what `wallbench roofline PROFILE.h5` adds after
 * Table 2 (roofline.c, as for a results file): each kernel on the measured,
 * L4 and GH200 roofs: its intensity, its rate, the attainable rate there and
 * the side of each ridge. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/textable.h"
#include "harness/tools/ceilings.h"
#include "harness/tools/profile_tools.h"
#include "harness/tools/roofline.h"

/* ridges: L4's and GH200's as the paper prints them (gpus.tsv) */
static int kernels_table(const wb_profile *p, const wb_roof *roofs, const double *ridges, int md, int top) {
    int32_t *order = wb_profile_by_time(p, WB_PT_KERNELS);
    if (!order) return fprintf(stderr, "wallbench roofline: out of memory\n"), 2;
    static const char *const heads[] = {"#", "Kernel", "Share", "Inst/sector", "G inst/s", "Roof %",
                                        "measured", "L4", "GH200"};
    wb_textable t;
    wb_textable_init(&t, 9);
    int h = wb_textable_add(&t);
    for (int c = 0; c < 9; c++) wb_textable_set(&t, h, c, "%s", heads[c]);
    int shown = 0, uncounted = 0;
    for (int32_t j = 0; j < p->nkernels; j++) {
        const wb_prof_kernel *k = &p->kernels[order[j]];
        if (!isfinite(k->c.inst_per_sector)) {
            uncounted++;
            continue;
        }
        if (shown++ >= top) continue;
        char label[48];
        int row = wb_textable_add(&t);
        wb_textable_set(&t, row, 0, "%d", order[j]);
        wb_textable_set(&t, row, 1, "%s", wb_profile_kernel_label_in(p, order[j], label, sizeof label));
        if (isfinite(k->share_pct)) wb_textable_set(&t, row, 2, "%.1f%%", k->share_pct);
        else wb_textable_set(&t, row, 2, "-");
        if (isinf(k->c.inst_per_sector)) wb_textable_set(&t, row, 3, "inf");
        else wb_textable_set_num(&t, row, 3, k->c.inst_per_sector, 2);
        wb_textable_set_num(&t, row, 4, k->c.gips, 1);
        wb_textable_set_num(&t, row, 5, k->c.roof_pct, 1);
        for (int r = 0; r < 3; r++) {
            const char *b = wb_roof_bound(&roofs[r], k->c.inst_per_sector);
            if (isinf(k->c.inst_per_sector)) b = isfinite(wb_roof_ridge(&roofs[r])) ? "compute" : "";
            wb_textable_set(&t, row, 6 + r, "%s", b[0] ? b : "-");
        }
    }
    wb_textable_print(stdout, &t, md);
    wb_textable_free(&t);
    const char *nl = md ? "\n\n" : "\n";
    printf("%sKernels (name + launch shape) by time: inst/sector = warp instructions per 32-byte DRAM sector over "
           "the counted launches, G inst/s over their timed time, Roof %% = share of the measured roof's attainable "
           "rate at that intensity%s;",
           md ? "\n" : "", isfinite(roofs[0].inst_gips) ? "" : " (no measured roof in this profile: -)");
    char r0[32], r1[32], r2[32];
    printf(" measured / L4 / GH200 = side of each ridge (%s, %s, %s inst/sector).%s",
           wb_textable_num(r0, sizeof r0, wb_roof_ridge(&roofs[0]), 1), wb_textable_num(r1, sizeof r1, ridges[0], 1),
           wb_textable_num(r2, sizeof r2, ridges[1], 1), nl);
    if (shown > top) printf("%d more counted kernels not shown (--top).%s", shown - top, nl);
    if (uncounted) printf("%d kernels without counters (not counted, or no instruction and no sector) are not on the roofline.%s", uncounted, nl);
    free(order);
    return 0;
}

int wb_roofline_profile(const wb_rows *rows, const wb_gpu_table *gt, int md, int top) {
    wb_gpu_view v;
    wb_gpu_view_init(&rows->r, gt, &v);
    const wb_gpu_ref *l4 = wb_gpu_ref_l4(gt), *gh200 = wb_gpu_ref_gh200(gt);
    wb_roof roofs[3] = {v.roof, wb_gpu_ref_roof(l4), wb_gpu_ref_roof(gh200)};
    double ridges[2] = {l4 ? l4->ridge : NAN, gh200 ? gh200->ridge : NAN};
    printf("\n");
    wb_profile_describe(stdout, rows->path, &rows->p, md ? "*Profile* " : "profile ");
    printf("\n");
    return kernels_table(&rows->p, roofs, ridges, md, top);
}

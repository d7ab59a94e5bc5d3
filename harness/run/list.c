/* list.c - `wallbench list`: the families, their variants, how many points
 * each sweep gives, and with --points the point names that
 * --benchmark_filter matches. Works without a GPU: the sweeps are then
 * listed for a stand-in device made from the profile's row of gpus.tsv. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/commands.h"
#include "harness/run/run_opts.h"
#include "harness/run/sweep.h"

static void list_usage(FILE *f) {
    fprintf(f,
            "usage: wallbench list [--family NAME[,NAME]] [--variant NAME[,NAME]] [--sweep test|quick|full]\n"
            "                      [--n N[,N]] [--points | --names] [--profile NAME] [--device D] [--plugin LIB.so]\n"
            "  Families in run order, their variants and the number of points of each sweep.\n"
            "  --points   also print the points of --sweep (default quick): the names that\n"
            "             wallbench run --benchmark_filter=REGEX matches\n"
            "  --names    only those names, one a line, nothing else (for scripts: wc -l counts points)\n"
            "  --profile  without a GPU, list the sweeps for this profile (default: the build's)\n"
            "  --plugin   also list the families of this plugin (repeatable); its load errors exit 2\n"
            "exit codes: 0 ok, 2 bad input\n");
}

/* The device the sweeps are listed for: the GPU if there is one, else the
 * profile's stand-in. 0 on success, 2 on a bad profile name. */
static int list_device(const wb_run_opts *o, wb_device *d, char *note, size_t len) {
    wb_err e;
    note[0] = '\0';
    if (wb_device_present() && wb_device_open(o->device, d, &e) == WB_OK) return 0;
    wb_gpu_table t;
    if (wb_gpu_table_load(NULL, &t, &e) != WB_OK) {
        fprintf(stderr, "wallbench list: %s\n", e.msg);
        return 2;
    }
    const char *want = o->profile && strcmp(o->profile, "auto") != 0 ? o->profile : WB_PROFILE;
    const wb_gpu_ref *g = wb_gpu_table_find(&t, want);
    if (!g || g->arch < 0) {
        char names[256];
        fprintf(stderr, "wallbench list: unknown GPU profile '%s'; valid: %s\n", want,
                wb_gpu_table_profiles(&t, names, sizeof names));
        wb_gpu_table_free(&t);
        return 2;
    }
    wb_sweep_nominal_device(g, d);
    snprintf(note, len, "(no GPU here: sweeps as they would be on the %s profile)", g->profile);
    wb_gpu_table_free(&t);
    return 0;
}

/* One family: summary, variants, points per sweep kind, and the names of
 * the points of o->sweep when --points asks. */
static void list_family(const wb_family *f, const wb_selection *sel, const wb_run_opts *o, const wb_device *dev) {
    wb_selection one = *sel;
    wb_err e;
    one.families[0] = f;
    one.nfamilies = 1;
    if (o->points == 2) { /* --names: the names alone */
        wb_run_point *pts = NULL;
        int n = 0;
        if (wb_sweep_points(&one, o->sweep, dev, &pts, &n, &e) != WB_OK) n = 0;
        for (int i = 0; i < n; i++) printf("%s\n", pts[i].name);
        free(pts);
        return;
    }
    printf("%s: %s\n  variants:\n", f->name, f->summary);
    for (int v = 0; v < f->nvariants; v++) printf("    %-18s %s\n", f->variants[v].name, f->variants[v].summary);
    printf("  points:");
    wb_run_point *shown = NULL;
    int nshown = 0;
    for (int k = WB_SWEEP_TEST; k <= WB_SWEEP_FULL; k++) {
        wb_run_point *pts = NULL;
        int n = 0;
        if (wb_sweep_points(&one, (wb_sweep_kind)k, dev, &pts, &n, &e) != WB_OK) n = 0;
        printf(" %s %d%s", wb_sweep_kind_name((wb_sweep_kind)k), n, k < WB_SWEEP_FULL ? "," : "\n");
        if (o->points && k == (int)o->sweep) {
            shown = pts;
            nshown = n;
        } else {
            free(pts);
        }
    }
    for (int i = 0; i < nshown; i++) printf("    %s\n", shown[i].name);
    free(shown);
}

int wb_cmd_list(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            list_usage(stdout);
            return 0;
        }
    wb_run_opts o;
    wb_selection sel;
    wb_device dev;
    wb_err e;
    char note[160];
    int prc = wb_run_opts_parse("list", argc, argv, 0, &o);
    if (prc == 1) return list_usage(stdout), 0;
    if (prc || wb_run_opts_plugins("list", &o)) return 2;
    if (wb_selection_parse(o.family, o.variant, o.sizes, &sel, &e) != WB_OK) {
        fprintf(stderr, "wallbench list: %s\n", e.msg);
        return 2;
    }
    int rc = list_device(&o, &dev, note, sizeof note);
    if (rc) return rc;
    if (o.points != 2) printf("device: %s%s%s\n", dev.name, note[0] ? " " : "", note);
    for (int fi = 0; fi < sel.nfamilies; fi++) list_family(sel.families[fi], &sel, &o, &dev);
    return 0;
}

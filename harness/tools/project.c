/* project.c - `wallbench project A.h5 --to <profile> [-o FILE | --out DIR]`: a
 * results file predicting every point of A on another GPU of the reference
 * table (project.h gives the model), marked projected so that compare,
 * report and the plots never take it for a measurement. Row i of the output
 * is row i of A: points that cannot be projected stay, as status "skipped"
 * with the reason, and are listed on stdout.
 * `wallbench project --validate A.h5` is project_validate.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/base/dirs.h"
#include "harness/tools/ceilings.h"
#include "harness/base/cli.h"
#include "harness/commands.h"
#include "harness/base/counters_derive.h"
#include "harness/base/metrics.h"
#include "harness/tools/project.h"
#include "harness/tools/rows.h"
#include "harness/base/roof_contract.h"

/* Points whose bottleneck the model does not have: the host link. */
static const struct {
    const char *family, *variant, *why;
} not_modelled[] = {
    {WB_CEILING_FAMILY, WB_ROOF_H2D_VARIANT, "host-to-device copy: bound by the host link, which the model does not have"},
    {WB_CEILING_FAMILY, WB_ROOF_D2H_VARIANT, "device-to-host copy: bound by the host link, which the model does not have"},
};

/* Attributes that describe the source GPU: not copied (the target's are written instead). */
static int source_gpu_attr(const char *name) {
    static const char *const names[] = {"schema_version", "gpu_name",      "sm_count",         "max_threads_per_sm",
                                        "l2_bytes",       "mem_total_bytes", "sm_clock_max_mhz", "mem_clock_mhz",
                                        "mem_bus_bits",   "compute_capability", "profile",       "profile_model",
                                        "gpu_uuid",       "projected",       "smem_per_sm"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0) return 1;
    return strncmp(name, "ceiling_", 8) == 0 || strncmp(name, "projected_", 10) == 0;
}

typedef struct proj {
    const wb_results *src;
    const wb_gpu_ref *g;
    wb_roof from, to, l4, gh200;
    char from_source[64];
    double clock_ghz; /* the target clock its inst_gips assumes */
    wb_store *out;
    wb_err e;
} proj;

static int attrs(proj *p) {
    wb_store *s = p->out;
    wb_err *e = &p->e;
    const wb_gpu_ref *g = p->g;
    for (int i = 0; i < p->src->nattrs; i++) {
        const wb_attr *a = &p->src->attrs[i];
        if (source_gpu_attr(a->name)) continue;
        int rc = a->is_number ? wb_store_attr_f64(s, a->name, strtod(a->value, NULL), e)
                              : wb_store_attr_str(s, a->name, a->value, e);
        if (rc != WB_OK) return WB_ERR;
    }
    const char *src_gpu = wb_results_attr(p->src, "gpu_name");
    char name[96], cc[16] = "";
    snprintf(name, sizeof name, "%.80s (projected)", g->model);
    if (g->arch > 0) snprintf(cc, sizeof cc, "%d.%d", g->arch / 10, g->arch % 10);
    const struct { const char *name, *value; } strs[] = {
        {"gpu_name", name}, {"profile", g->profile}, {"profile_model", g->model}, {"compute_capability", cc},
        {"projected_from", p->src->path}, {"projected_to", g->profile}, {"projected_reference", g->source},
        {"projected_source_gpu", src_gpu ? src_gpu : ""}, {"projected_source_roof", p->from_source},
        {"projected_model",
         "time = measured time x W(target) / W(source), W = max(inst / inst_gips, (dram_sectors_read + "
         "dram_sectors_write) x 32 / dram_gbps): the efficiency reached on the source is kept. Counts, occupancy, "
         "stalls and hit rates are the source's; l1/l2_throughput_pct are not modelled (NaN); a working set that "
         "fits one GPU's L2 and not the other's is not modelled"},
    };
    const struct { const char *name; double value; } nums[] = {
        {"projected", 1},
        {"projected_inst_gips", g->inst_gips},
        {"projected_dram_gbps", g->dram_gbps},
        {"projected_ridge", g->ridge},
        {"projected_clock_ghz", p->clock_ghz},
        {"projected_source_inst_gips", p->from.inst_gips},
        {"projected_source_dram_gbps", p->from.dram_gbps},
        {"sm_count", g->sms},
        {"max_threads_per_sm", g->threads_per_sm},
        {"sm_clock_max_mhz", g->boost_clock_ghz * 1e3},
        {"l2_bytes", g->l2_mib * 1024 * 1024},
        {"smem_per_sm", g->smem_per_sm_kib * 1024},
        {"mem_total_bytes", g->mem_gib * 1024 * 1024 * 1024},
    };
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
        if (wb_store_attr_str(s, strs[i].name, strs[i].value, e) != WB_OK) return WB_ERR;
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
        double v = nums[i].value;
        if (v < 0) v = NAN; /* "-" in gpus.tsv: -1 integers */
        if (wb_store_attr_f64(s, nums[i].name, v, e) != WB_OK) return WB_ERR;
    }
    return WB_OK;
}

static void set_metric(wb_row *r, const char *column, double v) {
    int i = wb_metric_index(column);
    if (i >= 0) r->c.v[i] = v;
}

static double get_metric(const wb_row *r, const char *column) {
    int i = wb_metric_index(column);
    return i < 0 ? NAN : r->c.v[i];
}

/* Scales the measured times by s and re-derives what depends on the target. */
static void scale_row(proj *p, wb_row *r, double s) {
    wb_timed *m = &r->m;
    m->time_median_ms *= s;
    m->time_min_ms *= s;
    m->time_max_ms *= s;
    m->time_stddev_ms *= s;
    m->gbps_model = r->p.bytes_model / (m->time_median_ms * 1e6);
    m->sm_clock_mhz = p->clock_ghz * 1e3;
    m->clock_low = 0;
    const double kms = get_metric(r, "kernel_time_ms") * s, inst = get_metric(r, "inst");
    const double bytes = (get_metric(r, "dram_sectors_read") + get_metric(r, "dram_sectors_write")) * 32;
    set_metric(r, "kernel_time_ms", kms);
    set_metric(r, "sm_clock_hz", p->clock_ghz * 1e9);
    set_metric(r, "sm_throughput_pct", 100 * inst / (kms * 1e6) / p->to.inst_gips);
    set_metric(r, "dram_throughput_pct", 100 * bytes / (kms * 1e6) / p->to.dram_gbps);
    /* over elapsed, not active, cycles: the model has no idle SMs */
    set_metric(r, "ipc", inst / (p->g->sms * p->clock_ghz * 1e9 * kms * 1e-3));
    set_metric(r, "l1_throughput_pct", NAN);
    set_metric(r, "l2_throughput_pct", NAN);
    wb_counters_derive(&r->c, r->m.time_median_ms, &p->to, &p->l4, &p->gh200);
}

static const char *why_not(const wb_row *r, proj *p, double *t) {
    const char *why = NULL;
    for (size_t i = 0; i < sizeof not_modelled / sizeof not_modelled[0]; i++)
        if (!strcmp(r->p.family, not_modelled[i].family) && !strcmp(r->p.variant, not_modelled[i].variant))
            return not_modelled[i].why;
    *t = wb_project_time_ms(r, &p->from, &p->to, &why);
    return isfinite(*t) ? NULL : why;
}

/* Distinct reasons with counts, and up to 5 labels each. */
static void list_skipped(const proj *p, const char **why) {
    for (int64_t i = 0; i < p->src->nrows; i++) {
        if (!why[i]) continue;
        int64_t first = 0, count = 0;
        while (first < i && (!why[first] || strcmp(why[first], why[i]) != 0)) first++;
        if (first < i) continue;
        for (int64_t j = i; j < p->src->nrows; j++) count += why[j] && !strcmp(why[j], why[i]);
        printf("  skipped %lld point(s): %s\n", (long long)count, why[i]);
        int shown = 0;
        for (int64_t j = i; j < p->src->nrows && shown < 5; j++) {
            if (!why[j] || strcmp(why[j], why[i]) != 0) continue;
            char label[256];
            printf("    %s\n", wb_point_name(&p->src->rows[j].p, label, sizeof label));
            shown++;
        }
        if (count > shown) printf("    ... and %lld more\n", (long long)(count - shown));
    }
    /* and the source's own skipped or failed points, kept as they are (projected counts only ok ones) */
    int64_t kept = 0;
    for (int64_t i = 0; i < p->src->nrows; i++) kept += strcmp(p->src->rows[i].m.status, "ok") != 0;
    if (!kept) return;
    printf("  not ok in the source, kept as they are: %lld point(s)\n", (long long)kept);
    int shown = 0;
    for (int64_t i = 0; i < p->src->nrows && shown < 5; i++) {
        const wb_row *r = &p->src->rows[i];
        if (!strcmp(r->m.status, "ok")) continue;
        char label[256];
        printf("    %s (%s%s%s)\n", wb_point_name(&r->p, label, sizeof label), r->m.status, r->m.reason[0] ? ": " : "", r->m.reason);
        shown++;
    }
    if (kept > shown) printf("    ... and %lld more\n", (long long)(kept - shown));
}

static int write_rows(proj *p, const char **why, int64_t *projected) {
    const wb_results *src = p->src;
    for (int64_t i = 0; i < src->nrows; i++) {
        wb_row r = src->rows[i];
        double t = NAN;
        const double *samples = src->sample_ms + src->sample_start[i];
        int n = src->sample_count[i];
        double *scaled = NULL;
        why[i] = strcmp(r.m.status, "ok") == 0 ? why_not(&r, p, &t) : NULL;
        if (why[i]) {
            snprintf(r.m.status, sizeof r.m.status, "skipped");
            snprintf(r.m.reason, sizeof r.m.reason, "not projected: %s", why[i]);
            r.m.time_median_ms = r.m.time_min_ms = r.m.time_max_ms = r.m.time_stddev_ms = r.m.gbps_model = NAN;
            n = 0;
        } else if (isfinite(t)) {
            const double s = t / r.m.time_median_ms;
            scale_row(p, &r, s);
            if (n > 0 && !(scaled = malloc((size_t)n * sizeof *scaled))) return wb_fail(&p->e, "out of memory");
            for (int k = 0; k < n; k++) scaled[k] = samples[k] * s;
            samples = scaled;
            (*projected)++;
        } else {
            n = 0; /* a point the source did not measure: kept as it is */
        }
        int rc = wb_store_append(p->out, &r, samples, n, &p->e);
        free(scaled);
        if (rc != WB_OK) return WB_ERR;
    }
    return WB_OK;
}

static void default_out(const char *src, const char *profile, char *buf, size_t len) {
    char copy[512];
    snprintf(copy, sizeof copy, "%s", src);
    size_t n = strlen(copy);
    if (n > 3 && strcmp(copy + n - 3, ".h5") == 0) copy[n - 3] = '\0';
    snprintf(buf, len, "%s-projected-%s.h5", copy, profile);
}

static int usage(FILE *f) {
    fprintf(f, "usage: wallbench project RESULTS.h5 --to GPU [-o FILE | --out DIR]\n"
               "       wallbench project --validate RESULTS.h5 [--markdown]\n"
               "       wallbench project PROFILE.h5 --to GPU [-o FILE | --out DIR] [--markdown]\n"
               "  GPU: a row of harness/gpus.tsv (l4, a100, ...)\n"
               "  --to: predicts every point on another GPU of harness/gpus.tsv from its counters: time x\n"
               "    max(inst / inst_gips, sectors x 32 / dram_gbps) on the target over the same on the source\n"
               "    (its measured ceilings); writes a results file marked projected, by default\n"
               "    <source stem>-projected-<profile>.h5 next to the source (--out DIR: in DIR; -o FILE: that\n"
               "    file). Points without counters stay as\n"
               "    skipped, with the reason, and are listed.\n"
               "  --validate: the model against the rows of the file measured on k SMs (sm_limit > 0).\n"
               "  A profile (wallbench profile -- CMD): each kernel's and the program's kernel time on GPU, the\n"
               "    same model; with -o FILE (or --out DIR: the default name there) also a projected profile file.\n"
               "exit codes: 0 ok, 2 bad input (unreadable or foreign file, unknown profile, existing output)\n");
    return f == stdout ? 0 : 2;
}

/* out_path: the file to write (output_path); src opened and g found by wb_cmd_project. */
static int project(const wb_results *src, const wb_gpu_ref *g, const char *out_path, wb_gpu_table *t) {
    proj p = {0};
    const char *path = src->path;
    p.src = src;
    p.g = g;
    int rc = 2;
    const char **why = calloc((size_t)src->nrows + 1, sizeof *why);
    int64_t projected = 0;
    if (!why) {
        wb_fail(&p.e, "out of memory");
        goto done;
    }
    p.to = wb_gpu_ref_roof(p.g);
    p.l4 = wb_gpu_ref_roof(wb_gpu_ref_l4(t));
    p.gh200 = wb_gpu_ref_roof(wb_gpu_ref_gh200(t));
    p.clock_ghz = isfinite(p.g->measured_clock_ghz) ? p.g->measured_clock_ghz : p.g->boost_clock_ghz;
    if (wb_project_file_roof(src, t, &p.from, p.from_source, sizeof p.from_source) != 0) {
        wb_fail(&p.e, "%s: no measured ceilings (run the ceiling family) and the GPU is not in gpus.tsv", path);
        goto done;
    }
    for (int64_t i = 0; i < src->nrows; i++) {
        double tt;
        if (!strcmp(src->rows[i].m.status, "ok") && !why_not(&src->rows[i], &p, &tt)) projected++;
    }
    if (!projected) {
        wb_fail(&p.e, "%s: no point can be projected (none is ok with instruction and DRAM sector counts)", path);
        goto done;
    }
    projected = 0;
    if (wb_store_create(out_path, &p.out, &p.e) != WB_OK) goto done;
    rc = attrs(&p) == WB_OK && write_rows(&p, why, &projected) == WB_OK ? 0 : 2;
    wb_err ignored;
    if (wb_store_close(p.out, rc == 0 ? &p.e : &ignored) != WB_OK) rc = 2;
    if (rc != 0) {
        unlink(out_path); /* half a projection must not pass for one */
        goto done;
    }
    printf("projected %lld of %lld points of %s\n  from %s (%s: %.1f G inst/s, %.0f GB/s)\n"
           "  to   %s (%s: %.1f G inst/s, %.0f GB/s, ridge %.1f inst/sector)\n  -> %s\n",
           (long long)projected, (long long)src->nrows, path, p.from.name, p.from_source, p.from.inst_gips,
           p.from.dram_gbps, p.g->model, p.g->profile, p.to.inst_gips, p.to.dram_gbps, p.g->ridge, out_path);
    list_skipped(&p, why);
    p.e.msg[0] = '\0';
done:
    if (p.e.msg[0]) fprintf(stderr, "wallbench project: %s\n", p.e.msg);
    free(why);
    return rc;
}

/* Row `to` of t with both roof numbers, else NULL after the sentence naming the rows that have them. */
static const wb_gpu_ref *target(const wb_gpu_table *t, const char *to) {
    const wb_gpu_ref *g = wb_gpu_table_find(t, to);
    if (g && g->inst_gips > 0 && g->dram_gbps > 0) return g;
    char list[512] = "";
    for (int i = 0; i < t->n; i++)
        if (t->rows[i].inst_gips > 0 && t->rows[i].dram_gbps > 0)
            snprintf(list + strlen(list), sizeof list - strlen(list), " %s", t->rows[i].profile);
    fprintf(stderr, "wallbench project: unknown GPU profile '%s' (or no inst_gips / dram_gbps in gpus.tsv); valid:%s\n",
            to, list);
    return NULL;
}

/* The file a projection goes to: -o FILE as given; else <source stem>-projected-<row>.h5 next to
 * the source, or in --out DIR (made, as run and export make theirs). "" after the sentence when DIR
 * cannot be made or the path is too long. */
static const char *output_path(const char *path, const char *row, const char *out, const char *dir, char *buf, size_t len) {
    if (out) return out;
    char name[1024];
    default_out(path, row, name, sizeof name);
    if (!dir) return snprintf(buf, len, "%s", name), buf;
    wb_err e = {""};
    if (wb_make_dirs(dir, &e) != WB_OK) return fprintf(stderr, "wallbench project: %s\n", e.msg), "";
    const char *slash = strrchr(name, '/');
    if ((size_t)snprintf(buf, len, "%s/%s", dir, slash ? slash + 1 : name) >= len)
        return fprintf(stderr, "wallbench project: --out %s: the path is too long\n", dir), "";
    return buf;
}

int wb_cmd_project(int argc, char **argv) {
    const char *path = NULL, *to = NULL, *out = NULL, *dir = NULL;
    int validate = 0, markdown = 0, k, first = argc;
    static const struct option longs[] = {{"validate", no_argument, NULL, 'v'}, {"markdown", no_argument, NULL, 'm'},
                                          {"to", required_argument, NULL, 't'}, {"output", required_argument, NULL, 'o'},
                                          {"out", required_argument, NULL, 'd'}, {0, 0, 0, 0}};
    wb_cli cli = {"project", longs, 0};
    const char *v;
    while ((k = wb_cli_next(&cli, argc, argv, &v, &first)) != WB_CLI_END) {
        if (k == WB_CLI_HELP) return usage(stdout);
        if (k == WB_CLI_BAD) return usage(stderr);
        if (k == 'v') validate = 1;
        else if (k == 'm') markdown = 1;
        else if (k == 'd') dir = v;
        else *(k == 't' ? &to : &out) = v;
    }
    if (first < argc) path = argv[first++];
    if (first < argc) return fprintf(stderr, "wallbench project: unexpected argument '%s'\n", argv[first]), usage(stderr);
    if (!path) return fprintf(stderr, "wallbench project: give a results file\n"), usage(stderr);
    /* the options are checked for the file's kind before it is read; then it is read once, either kind (rows.h) */
    const int profile = wb_rows_kind_of(path) == WB_ROWS_PROFILE;
    if (profile) { /* the same options, a profile's kernels */
        if (validate) return wb_cli_bad("project", "--validate needs a results file with SM-limited points, not a profile");
        if (out && dir)
            return wb_cli_bad("project", "give -o FILE (the file) or --out DIR (a folder for the default name), not both");
        if (!to) return wb_cli_bad("project", "give --to GPU (a row of harness/gpus.tsv)");
    } else {
        if (validate == !!to) return fprintf(stderr, "wallbench project: give exactly one of --to PROFILE or --validate\n"), usage(stderr);
        if (validate && (out || dir)) return fprintf(stderr, "wallbench project: -o and --out go with --to\n"), usage(stderr);
        if (out && dir)
            return fprintf(stderr, "wallbench project: give -o FILE (the file) or --out DIR (a folder for the default "
                                   "name), not both\n"), usage(stderr);
        if (!validate && markdown) return fprintf(stderr, "wallbench project: --markdown goes with --validate\n"), usage(stderr);
    }
    wb_gpu_table t;
    wb_err e = {""};
    if (wb_gpu_table_load(NULL, &t, &e) != WB_OK) return fprintf(stderr, "wallbench project: %s\n", e.msg), 2;
    const wb_gpu_ref *g = to ? target(&t, to) : NULL;
    char buf[1024];
    /* the output file; a profile's projection is a table on stdout and a file only with -o or --out */
    const char *file = g && (!profile || out || dir) ? output_path(path, g->profile, out, dir, buf, sizeof buf) : NULL;
    wb_rows in;
    int rc = 2;
    /* a profile's launch rows only for a projected profile file */
    if ((to && !g) || (file && !*file) ||
        (profile ? wb_rows_open_launches("project", path, &in) : wb_rows_open("project", path, &in)))
        return wb_gpu_table_free(&t), 2;
    if (!validate && wb_results_attr_f64(&in.r, "projected") == 1) {
        const char *from = wb_results_attr(&in.r, "projected_from");
        fprintf(stderr, "wallbench project: %s is itself a projection; project the measured %s it came from (%s)\n", path,
                profile ? "profile" : "file", from ? from : "?");
    } else if (profile) rc = wb_project_profile(&in, &t, g, markdown, file);
    else rc = validate ? wb_project_validate(&in.r, markdown, &t) : project(&in.r, g, file, &t);
    wb_rows_free(&in);
    wb_gpu_table_free(&t);
    return rc;
}

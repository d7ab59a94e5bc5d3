/* export_profile.c - what `wallbench export` (export.c, which parses the
 * options once for both file kinds) writes from a profile file:
 *   --fig fig4 (or fig4-profile) [--out DIR]: the tables plots/fig4-profile.gp
 *     reads: DIR/fig4-profile.dat (one row per kernel on the roofline),
 *     -roofs.dat (measured, L4, GH200; export.c's writer), -shares.dat (time
 *     share memory/compute-bound per ridge) and -info.dat (GPU, program,
 *     revision for the title);
 *   --fig fig-timeline [--out DIR]: the sampled timeline (--sample) for
 *     plots/fig-timeline.gp: DIR/fig-timeline.dat (one row per PM sample),
 *     -ranges.dat (the outermost NVTX ranges as spans of time), -roofs.dat, -info.dat;
 *   --table launches|kernels|ranges|counted_ranges|samples --format csv|json [-o FILE]: a table
 *     with every column (CSV header: the column names, as for results files;
 *     their units in the file's /columns and the JSON form; NaN for a missing real, -1 for
 *     an integer that does not apply; JSON with the provenance, the columns'
 *     units and descriptions, and null for NaN or infinity). */
#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/cli.h"
#include "harness/base/csv.h"
#include "harness/base/dirs.h"
#include "harness/base/json.h"
#include "harness/tools/export.h"
#include "harness/tools/export_profile.h"
#include "harness/tools/profile_tools.h"

#define FIG "fig4-profile"
#define TIMELINE "fig-timeline"
#define EXPORT_ABSENT 3 /* export.c's exit code: the file lacks the figure's data (render.sh skips it) */

static void cell(FILE *f, int json, const wb_pcol *c, const void *row, int64_t i) {
    if (c->type == WB_PCOL_STR) {
        char buf[1024];
        memset(buf, 0, sizeof buf);
        wb_pcol_get(c, row, i, buf);
        json ? wb_json_str(f, buf) : wb_csv_str(f, buf);
    } else if (c->type == WB_PCOL_F64) {
        double v = wb_pcol_num(c, row, i);
        json ? wb_json_num(f, v) : wb_csv_num(f, v);
    } else {
        fprintf(f, "%.0f", wb_pcol_num(c, row, i));
    }
}

static void table_csv(const wb_profile *p, wb_prof_table t, FILE *f) {
    int n;
    const wb_pcol *c = wb_pcols(t, &n);
    for (int k = 0; k < n; k++) {
        if (k) fputc(',', f);
        fputs(c[k].name, f);
    }
    fputc('\n', f);
    for (int64_t i = 0; i < wb_prof_rows(p, t); i++) {
        const void *row = wb_prof_row(p, t, i);
        for (int k = 0; k < n; k++) {
            if (k) fputc(',', f);
            cell(f, 0, &c[k], row, i);
        }
        fputc('\n', f);
    }
}

static void table_json(const char *path, const wb_profile *p, wb_prof_table t, FILE *f) {
    int n;
    const wb_pcol *c = wb_pcols(t, &n);
    static const char *const types[] = {"int32", "int64", "float64", "string"};
    fputc('{', f);
    wb_json_key(f, "format", 1);
    wb_json_str(f, "wallbench-profile-table");
    wb_json_key(f, "profile_schema_version", 0);
    fprintf(f, "%d", WB_PROFILE_SCHEMA_VERSION);
    wb_json_key(f, "profile_file", 0);
    wb_json_str(f, path);
    wb_json_key(f, "table", 0);
    wb_json_str(f, wb_prof_table_name(t));
    wb_json_key(f, "provenance", 0);
    fputc('{', f);
    for (int32_t i = 0; i < p->nattrs; i++) {
        wb_json_key(f, p->attrs[i].name, i == 0);
        if (p->attrs[i].is_number) wb_json_num(f, strtod(p->attrs[i].value, NULL));
        else wb_json_str(f, p->attrs[i].value);
    }
    fputs("},\n", f);
    wb_json_key(f, "columns", 1);
    fputc('[', f);
    for (int k = 0; k < n; k++) {
        fputs(k ? ",\n{" : "{", f);
        wb_json_key(f, "name", 1);
        wb_json_str(f, c[k].name);
        wb_json_key(f, "unit", 0);
        wb_json_str(f, c[k].unit);
        wb_json_key(f, "type", 0);
        wb_json_str(f, types[c[k].type]);
        wb_json_key(f, "description", 0);
        wb_json_str(f, c[k].desc);
        fputc('}', f);
    }
    fputs("],\n", f);
    wb_json_key(f, "rows", 1);
    fputc('[', f);
    for (int64_t i = 0; i < wb_prof_rows(p, t); i++) {
        const void *row = wb_prof_row(p, t, i);
        fputs(i ? ",\n{" : "\n{", f);
        for (int k = 0; k < n; k++) {
            wb_json_key(f, c[k].name, k == 0);
            cell(f, 1, &c[k], row, i);
        }
        fputc('}', f);
    }
    fputs("]}\n", f);
}

static int export_table(const char *path, const wb_profile *p, const char *table, const char *format, const char *out) {
    wb_prof_table t = (wb_prof_table)wb_prof_table_find(table); /* checked by wb_export_profile_check */
    FILE *f = out && strcmp(out, "-") ? fopen(out, "w") : stdout;
    if (!f) return fprintf(stderr, "wallbench export: %s: cannot write: %s\n", out, strerror(errno)), 2;
    if (!strcmp(format, "csv")) table_csv(p, t, f);
    else table_json(path, p, t, f);
    int bad = fflush(f) != 0 || ferror(f);
    if (f != stdout && fclose(f) != 0) bad = 1;
    if (bad) return fprintf(stderr, "wallbench export: %s: write error\n", out ? out : "stdout"), 2;
    return 0;
}

/* DIR/fig4-profile-info.dat: lib-common.gp's columns (gpu kind file shape
 * board revision: the board is the GPU's uuid), then the program the title
 * names (before 2026-12-04 the program sat in the board's column, and the
 * footers said "board python3 ..."). */
static int write_info(wb_export *x, const char *path, const wb_profile *p, wb_err *e) {
    FILE *f = wb_export_open(x, "-info", "gpu kind profile shape board revision program", e);
    if (!f) return WB_ERR;
    char copy[512], stem[512];
    snprintf(copy, sizeof copy, "%s", path);
    snprintf(stem, sizeof stem, "%s", basename(copy));
    char *dot = strstr(stem, ".h5");
    if (dot) *dot = '\0';
    const char *prog = wb_profile_attr(p, "program_command"), *rev = wb_profile_attr(p, "git_revision");
    const char *uuid = wb_profile_attr(p, "gpu_uuid");
    char shape[64] = "every_kernel_at_its_own_launch_shape";
    const char *cells[7] = {x->v.label, x->v.kind, stem, shape, uuid && uuid[0] ? uuid : "-",
                            rev && rev[0] ? rev : "unknown", prog && prog[0] ? prog : "unknown program"};
    for (int i = 0; i < 7; i++) {
        if (i) fputc(' ', f);
        wb_export_str(f, cells[i]);
    }
    fputc('\n', f);
    return wb_export_close(f, x, "-info", e);
}

/* The kernels on the roofline and the time share per side of each ridge. */
static int write_fig4(wb_export *x, const char *path, const wb_profile *p, int *rows, int *off_scale, wb_err *e) {
    FILE *f = wb_export_open(x, "", "kernel_id name inst_per_sector gips total_ms share_pct bound", e);
    if (!f) return WB_ERR;
    int32_t *order = wb_profile_by_time(p, WB_PT_KERNELS);
    if (!order) return fclose(f), wb_fail(e, "out of memory");
    const wb_gpu_ref *refs[2] = {wb_gpu_ref_l4(x->gpus), wb_gpu_ref_gh200(x->gpus)};
    wb_roof roofs[3] = {x->v.roof, wb_gpu_ref_roof(refs[0]), wb_gpu_ref_roof(refs[1])};
    double mem[3] = {0}, all[3] = {0};
    *rows = *off_scale = 0;
    for (int32_t j = 0; j < p->nkernels; j++) {
        const wb_prof_kernel *k = &p->kernels[order[j]];
        double xi = k->c.inst_per_sector;
        if (!isfinite(k->total_ms) || isnan(xi)) continue;
        for (int r = 0; r < 3; r++) {
            const char *b = isinf(xi) ? (isfinite(wb_roof_ridge(&roofs[r])) ? "compute" : "") : wb_roof_bound(&roofs[r], xi);
            if (!b[0]) continue;
            all[r] += k->total_ms;
            if (!strcmp(b, "memory")) mem[r] += k->total_ms;
        }
        /* a kernel without DRAM traffic (inf) or rate has no place on log axes: counted in the shares only */
        if (!isfinite(xi) || xi <= 0 || !(k->c.gips > 0)) {
            (*off_scale)++;
            continue;
        }
        char label[48];
        fprintf(f, "%d ", order[j]);
        wb_export_str(f, wb_profile_kernel_label_in(p, order[j], label, sizeof label));
        wb_export_num(f, xi);
        wb_export_num(f, k->c.gips);
        wb_export_num(f, k->total_ms);
        wb_export_num(f, k->share_pct);
        fputc(' ', f);
        wb_export_str(f, k->c.bound);
        fputc('\n', f);
        (*rows)++;
    }
    free(order);
    if (wb_export_close(f, x, "", e) != WB_OK) return WB_ERR;
    f = wb_export_open(x, "-shares", "ridge_name ridge memory_pct compute_pct", e);
    if (!f) return WB_ERR;
    for (int r = 0; r < 3; r++) {
        if (!(all[r] > 0)) continue;
        wb_export_str(f, r == 0 ? x->v.label : roofs[r].name);
        wb_export_num(f, r == 0 ? wb_roof_ridge(&roofs[0]) : refs[r - 1] ? refs[r - 1]->ridge : NAN); /* the paper's printed ridge */
        wb_export_num(f, 100.0 * mem[r] / all[r]);
        wb_export_num(f, 100.0 * (all[r] - mem[r]) / all[r]);
        fputc('\n', f);
    }
    if (wb_export_close(f, x, "-shares", e) != WB_OK) return WB_ERR;
    if (wb_export_roofs(x, "-roofs", e) < 0) return WB_ERR;
    return write_info(x, path, p, e);
}

/* The outermost name of an NVTX path ("step_3" of "step_3/eager"), into buf. */
static const char *outermost(const char *path, char *buf, size_t len) {
    snprintf(buf, len, "%.*s", (int)strcspn(path, "/"), path);
    return buf;
}

/* The sampled timeline: per sample its middle (ms from the first sample's start), G warp inst/s
 * and DRAM GB/s (read + write sectors x 32 B over its length), the share of it some kernel ran;
 * -ranges.dat: consecutive samples under one outermost NVTX range as one span. */
static int write_timeline(wb_export *x, const char *path, const wb_profile *p, int *rows, wb_err *e) {
    *rows = 0;
    if (p->nsamples == 0) return WB_OK;
    FILE *f = wb_export_open(x, "", "t_ms gips dram_gbps busy_pct nvtx", e);
    if (!f) return WB_ERR;
    const int64_t t0 = p->samples[0].start_ns;
    const double interval = wb_profile_attr_f64(p, "sample_interval_ns");
    int rd = wb_metric_index("dram_sectors_read"), wr = wb_metric_index("dram_sectors_write");
    for (int64_t i = 0; i < p->nsamples; i++) {
        const wb_prof_sample *s = &p->samples[i];
        double ns = (double)(s->end_ns - s->start_ns);
        if (!(ns > 0)) continue;
        char top[128];
        /* a sample at its middle; a row of merged idle samples (attribute.c) at both its ends, so
         * that the lines stay flat across it */
        int merged = s->kernels == 0 && interval > 0 && ns > 1.5 * interval;
        for (int end = 0; end <= merged; end++) {
            double t = merged ? (double)(end ? s->end_ns : s->start_ns) : 0.5 * (double)(s->start_ns + s->end_ns);
            wb_export_num(f, 1e-6 * (t - (double)t0));
            wb_export_num(f, s->c.v[wb_metric_index("inst")] / ns); /* warp inst per ns = G inst/s */
            wb_export_num(f, 32.0 * (s->c.v[rd] + s->c.v[wr]) / ns); /* bytes per ns = GB/s */
            wb_export_num(f, 100.0 * s->busy_ns / ns);
            fputc(' ', f);
            wb_export_str(f, outermost(s->nvtx, top, sizeof top));
            fputc('\n', f);
            (*rows)++;
        }
    }
    if (wb_export_close(f, x, "", e) != WB_OK) return WB_ERR;
    if (!(f = wb_export_open(x, "-ranges", "start_ms end_ms name", e))) return WB_ERR;
    char cur[128] = "", name[128];
    double from = 0, to = 0;
    for (int64_t i = 0; i <= p->nsamples; i++) {
        const wb_prof_sample *s = i < p->nsamples ? &p->samples[i] : NULL;
        outermost(s ? s->nvtx : "", name, sizeof name);
        if (s && !name[0]) continue; /* idle or outside a range: the span goes on */
        if (!s || strcmp(name, cur)) {
            if (cur[0]) {
                wb_export_num(f, from), wb_export_num(f, to), fputc(' ', f), wb_export_str(f, cur), fputc('\n', f);
            }
            if (!s) break;
            snprintf(cur, sizeof cur, "%s", name);
            from = 1e-6 * (double)(s->start_ns - t0);
        }
        to = 1e-6 * (double)(s->end_ns - t0);
    }
    if (wb_export_close(f, x, "-ranges", e) != WB_OK) return WB_ERR;
    if (wb_export_roofs(x, "-roofs", e) < 0) return WB_ERR;
    return write_info(x, path, p, e);
}

/* The figure from the rows export.c opened: the profile's kernels as results rows (rows->r: the GPU
 * view, the roofs) and the profile itself (rows->p: the order by time, the samples, the title). */
static int export_fig(const wb_rows *rows, const wb_gpu_table *t, const char *dir, const char *fig) {
    wb_err e = {""};
    const char *path = rows->path;
    const wb_profile *p = &rows->p;
    int rc = 2, rows_written = 0, off = 0;
    int timeline = !strcmp(fig, TIMELINE);
    if (wb_make_dirs(dir, &e) == WB_OK) {
        wb_export x = {timeline ? TIMELINE : FIG, dir, &rows->r, NULL, t, {{0}}, 0, wb_shape_fastest};
        wb_gpu_view_init(&rows->r, t, &x.v);
        if ((timeline ? write_timeline(&x, path, p, &rows_written, &e) : write_fig4(&x, path, p, &rows_written, &off, &e)) == WB_OK) rc = 0;
    }
    fig = timeline ? TIMELINE : FIG;
    if (rc == 0 && rows_written == 0) {
        printf("%s: skipped: %s has no %s\n", fig, path,
               timeline ? "sampled timeline (wallbench profile --sample makes one)"
                        : "kernel with counters and a time to place on the roofline");
        rc = EXPORT_ABSENT;
    } else if (rc == 0) {
        printf("%s: %d rows -> %s/%s.dat%s", fig, rows_written, dir, fig, off ? "" : "\n");
        if (off) printf(" (%d kernels without DRAM sectors or rate: in the shares, not on the log axes)\n", off);
    } else {
        fprintf(stderr, "wallbench export: %s: %s\n", fig, e.msg);
    }
    return rc;
}

int wb_export_profile_check(const wb_export_profile_args *a) {
    const char *fig = a->fig, *table = a->table, *format = a->format;
    if (a->with && a->with[0]) return wb_cli_bad("export", "--with is for fig-compare of results files; compare two profiles with wallbench compare A.h5 B.h5");
    if (a->all && (fig || table)) return wb_cli_bad("export", "--all exports both of a profile's figures: give it without --fig and --table");
    if (!a->all && !!fig == !!table) return wb_cli_bad("export", "give one of --fig fig4|fig-timeline, --all or --table NAME for a profile file");
    if (fig && strcmp(fig, "fig4") != 0 && strcmp(fig, FIG) != 0 && strcmp(fig, TIMELINE) != 0)
        return wb_cli_bad("export", "a profile file has two figures, fig4 (fig4-profile) and fig-timeline, not '%s'", fig);
    if ((fig || a->all) && format) return wb_cli_bad("export", "--format goes with --table");
    if (table && a->dir) return wb_cli_bad("export", "--out is a folder (for --fig); a table goes to a file: -o/--output FILE, or stdout without it");
    if ((fig || a->all) && a->file) return wb_cli_bad("export", "-o/--output is a file (for --table); a figure's table goes to a folder: --out DIR");
    if (table && wb_prof_table_find(table) < 0)
        return wb_cli_bad("export", "--table launches, kernels, ranges, counted_ranges or samples, not '%s'", table);
    if (table && (!format || (strcmp(format, "csv") && strcmp(format, "json"))))
        return wb_cli_bad("export", "--table needs --format csv or --format json");
    return 0;
}

int wb_export_profile(const wb_rows *rows, const wb_gpu_table *t, const wb_export_profile_args *a) {
    if (a->table) return export_table(rows->path, &rows->p, a->table, a->format, a->file);
    if (!a->all) return export_fig(rows, t, a->dir, a->fig);
    /* --all: both figures, each written or said skipped; 2 if one failed, 3 if neither had data */
    const int fig4 = export_fig(rows, t, a->dir, FIG), timeline = export_fig(rows, t, a->dir, TIMELINE);
    return fig4 == 2 || timeline == 2 ? 2 : fig4 == 0 || timeline == 0 ? 0 : EXPORT_ABSENT;
}

/* export.c - `wallbench export <results.h5> --fig <name> [--out DIR]
 * [--with OTHER.h5] | --all`: the figure registry, the table writers every
 * figure function shares, and the command. Exit codes: 0 written, 3 the
 * figure's data is absent from the file (one-line reason; plots/render.sh
 * skips it), 2 bad input or an error. */
#include "harness/tools/export.h"

#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <string.h>

#include "harness/base/cli.h"
#include "harness/base/dirs.h"
#include "harness/commands.h"
#include "harness/tools/export_rows.h"
#include "harness/tools/export_profile.h"
#include "harness/tools/rows.h"

#define WB_EXPORT_ABSENT 3

/* The harness's own figures, family-blind; a family's figure is added
 * (wb_export_add) and follows them. */
static const wb_figure own[] = {
    {"fig1-gpu-trends", wb_export_fig1, 0},          {"fig2-roofline", wb_export_fig2, 0},
    {"fig4-roofline-points", wb_export_fig4, 1},     {"fig5-undersaturation", wb_export_fig5, 1},
    {"fig6-stalls", wb_export_fig6, 1},              {"fig7-occupancy", wb_export_fig7, 1},
    {"fig8-saturation", wb_export_fig8, 1},          {"fig9-hit-ratio", wb_export_fig9, 1},
    {"fig-ilp-occupancy", wb_export_ilp_occupancy, 1}, {"fig-compare", wb_export_compare, 1},
    {"fig-hierarchical", wb_export_hierarchical, 1},
};
#define NOWN ((int)(sizeof own / sizeof own[0]))
static const wb_figure *added[WB_FIGURES_ADDED_MAX];
static int nadded;
#define NFIG (NOWN + nadded)

/* The i-th figure, i < NFIG. */
static const wb_figure *figure(int i) { return i < NOWN ? &own[i] : added[i - NOWN]; }

/* The figure of that exact name, or NULL. */
static const wb_figure *figure_named(const char *name) {
    for (int i = 0; i < NFIG; i++)
        if (strcmp(figure(i)->name, name) == 0) return figure(i);
    return NULL;
}

int wb_export_add(const wb_figure *f, wb_err *e) {
    for (int i = 0; i < NFIG; i++) {
        if (figure(i) == f) return WB_OK;
        if (strcmp(figure(i)->name, f->name) == 0) return wb_fail(e, "figure '%s' is added twice", f->name);
    }
    if (nadded == WB_FIGURES_ADDED_MAX) return wb_fail(e, "figure '%s': more than %d figures added", f->name, nadded);
    added[nadded++] = f;
    return WB_OK;
}

/* 1 if name is a prefix of s ending at a word boundary ("fig4" of
 * "fig4-roofline-points", not "fig" of it). */
static int word_prefix(const char *s, const char *name) {
    size_t n = strlen(name);
    return n && strlen(s) >= n && strncmp(s, name, n) == 0 && (s[n] == '\0' || s[n] == '-');
}

const char *wb_export_resolve(const char *name) {
    const char *hit = NULL;
    for (int i = 0; i < NFIG; i++) {
        const char *f = figure(i)->name;
        if (strcmp(f, name) == 0) return f;
        /* "fig4" or a family's word: a prefix of the name or of the part after "fig-" */
        const char *tail = strncmp(f, "fig-", 4) == 0 ? f + 4 : f;
        if (word_prefix(f, name) || word_prefix(tail, name)) {
            if (hit) return NULL;
            hit = f;
        }
    }
    return hit;
}

/* DIR/<name>-info.dat: the title line every script prints, and its footer:
 * the board (GPU UUID up to its first dash after "GPU-") and the revision
 * that measured the file ("-" when the file does not say). */
static int write_info(wb_export *x, wb_err *e) {
    FILE *f = wb_export_open(x, "-info", "gpu kind results shape board revision", e);
    if (!f) return WB_ERR;
    char stem[512] = "-";
    if (x->r) {
        char copy[512];
        snprintf(copy, sizeof copy, "%s", x->r->path);
        snprintf(stem, sizeof stem, "%s", basename(copy));
        char *dot = strstr(stem, ".h5");
        if (dot) *dot = '\0';
    }
    wb_export_str(f, x->r ? x->v.label : "-");
    fputc(' ', f);
    wb_export_str(f, x->r ? x->v.kind : "reference");
    fputc(' ', f);
    wb_export_str(f, stem);
    fputc(' ', f);
    char shape[96];
    wb_export_str(f, wb_shape_text(&x->shape, shape, sizeof shape));
    const char *rev = x->r ? wb_results_attr(x->r, "git_revision") : NULL;
    char board[32] = "-", revision[16] = "-";
    if (x->r) wb_export_board(x->r, board, sizeof board);
    if (rev && *rev) snprintf(revision, sizeof revision, "%.7s", rev);
    fputc(' ', f);
    wb_export_str(f, board);
    fputc(' ', f);
    wb_export_str(f, revision);
    fputc('\n', f);
    return wb_export_close(f, x, "-info", e);
}

int wb_export_figure(const char *name, const wb_results *r, const wb_results *other, const wb_gpu_table *t,
                     const char *dir, int *rows, wb_err *e) {
    return wb_export_figure_shaped(name, r, other, t, &wb_shape_fastest, dir, rows, e);
}

int wb_export_figure_shaped(const char *name, const wb_results *r, const wb_results *other, const wb_gpu_table *t,
                            const wb_shape *shape, const char *dir, int *rows, wb_err *e) {
    const char *fig = wb_export_resolve(name);
    if (!fig) return wb_fail(e, "unknown or ambiguous figure '%s'", name);
    const wb_figure *f = figure_named(fig);
    if (f->needs_file && !r) return wb_fail(e, "%s needs a results file", fig);
    wb_export x = {fig, dir, r, other, t, {{0}}, 0, *shape};
    wb_gpu_view_init(r, t, &x.v);
    int rc = f->fn(&x, e);
    if (rc == WB_OK) rc = write_info(&x, e);
    if (rows) *rows = x.rows;
    return rc;
}

/* The file fig-compare compares with: --with, else attribute compare_with
 * (relative to the results file's folder). 0: none named. */
static int open_other(const wb_results *r, const char *with, wb_results *other, wb_err *e) {
    char path[1024];
    const char *name = with ? with : wb_results_attr(r, "compare_with");
    if (!name || !*name) return 0;
    if (with || name[0] == '/') snprintf(path, sizeof path, "%s", name);
    else {
        char copy[512];
        snprintf(copy, sizeof copy, "%s", r->path);
        snprintf(path, sizeof path, "%s/%s", dirname(copy), name);
    }
    return wb_results_open(path, other, e) == WB_OK ? 1 : -1;
}

static int usage(FILE *f) {
    fprintf(f, "usage: wallbench export RESULTS.h5 --fig <name> [--out DIR] [--with OTHER.h5] [--shape RULE]\n"
               "       wallbench export RESULTS.h5 --all [--out DIR] [--shape RULE]\n"
               "       wallbench export RESULTS.h5 --points|--samples --format csv|json [-o FILE]\n"
               "       wallbench export PROFILE.h5 --fig fig4|fig-timeline|--all [--out DIR]\n"
               "       wallbench export PROFILE.h5 --table launches|kernels|ranges|counted_ranges|samples\n"
               "                                   --format csv|json [-o FILE]\n"
               "  --out DIR is a folder (default: <file stem>-tables, made), -o/--output FILE a file (default:\n"
               "  stdout)\n"
               "  --points/--samples: the rows of /points (one per point, \"name\" first) or /samples (one\n"
               "  per timed sample) to FILE or stdout; CSV header: the column names, their units in\n"
               "  FILE.columns.json; NaN for a missing real, -1 for an integer that does not apply, shares\n"
               "  in percent (*_pct); JSON with the provenance, ceilings, the columns' units and null for\n"
               "  NaN. pandas: pd.read_csv(FILE). docs/results-format.md has the conventions.\n"
               "  --shape fastest (default) | ilp=I[,occ=O][,block=B][,sms=S]: the launch shape a family figure\n"
               "  draws where a point was measured at several (fastest: best-of per point); stated in its key\n"
               "  writes DIR/<name>.dat (and <name>-*.dat) for plots/<name>.gp; exit 3 when the file lacks the\n"
               "  figure's data. fig1-gpu-trends and fig2-roofline also run without a results file.\n"
               "  A profile file (wallbench profile -- CMD) has two figures, fig4 (fig4-profile: its kernels on\n"
               "  the roofline) and fig-timeline (its sampled timeline, --sample; render both: plots/render.sh\n"
               "  PROFILE.h5), and --table: every column of its launches, kernels, ranges, counted ranges\n"
               "  (--ranges nvtx, every:N) or samples (CSV header: the column names, units in the JSON form and\n"
               "  the file's /columns)\n"
               "exit codes: 0 ok, 2 bad input, 3 the file lacks the figure's data. Figures:");
    for (int i = 0; i < NFIG; i++) fprintf(f, " %s", figure(i)->name);
    fputc('\n', f);
    return 2;
}

static int export_one(const char *fig, const wb_results *r, const wb_results *other, const wb_gpu_table *t,
                      const wb_shape *shape, const char *dir) {
    wb_err e = {""};
    int rows = 0, rc = wb_export_figure_shaped(fig, r, other, t, shape, dir, &rows, &e);
    if (rc == WB_OK) printf("%s: %d rows -> %s/%s.dat\n", fig, rows, dir, fig);
    else if (rc == WB_SKIP) printf("%s: skipped: %s\n", fig, e.msg);
    else fprintf(stderr, "wallbench export: %s: %s\n", fig, e.msg);
    return rc == WB_OK ? 0 : rc == WB_SKIP ? WB_EXPORT_ABSENT : 2;
}

/* The CSV's units and descriptions next to it: FILE.columns.json. */
static int export_sidecar(const char *out, wb_table_kind kind) {
    char path[1024];
    wb_err e = {""};
    snprintf(path, sizeof path, "%s.columns.json", out);
    FILE *f = fopen(path, "w");
    if (!f) return fprintf(stderr, "wallbench export: %s: cannot write: %s\n", path, strerror(errno)), 2;
    int rc = wb_export_columns(kind, f, &e) == WB_OK ? 0 : 2;
    if (fclose(f) != 0) rc = 2;
    if (rc) fprintf(stderr, "wallbench export: %s: write error\n", path);
    return rc;
}

/* --points / --samples: the table of r to FILE (or stdout; CSV: its sidecar FILE.columns.json). */
static int export_rows(const wb_results *r, wb_table_kind kind, wb_table_format fmt, const char *out) {
    wb_err e = {""};
    FILE *f = out && strcmp(out, "-") ? fopen(out, "w") : stdout;
    int rc = 2;
    if (!f) fprintf(stderr, "wallbench export: %s: cannot write: %s\n", out, strerror(errno));
    else if (wb_export_rows(r, kind, fmt, f, &e) != WB_OK)
        fprintf(stderr, "wallbench export: %s: %s\n", out ? out : "stdout", e.msg);
    else rc = 0;
    if (f && f != stdout && fclose(f) != 0 && rc == 0) {
        fprintf(stderr, "wallbench export: %s: write error\n", out);
        rc = 2;
    }
    if (rc == 0 && fmt == WB_TABLE_CSV && f != stdout) rc = export_sidecar(out, kind);
    return rc;
}

/* The options a results file does not take, refused before it is read: 0, or the exit code after the
 * sentence. rows: the table of --points/--samples, -1 none, -2 both. */
static int check_results_args(const char *path, int rows, int all, const char *fig, const char *with, const char *dir,
                              const char *file, const char *format, const char *table) {
    if (table) return wb_cli_bad("export", "--table is for a profile file; a results file's tables: --points or --samples");
    if (rows == -2) return wb_cli_bad("export", "give one of --points or --samples");
    if (rows >= 0) {
        if (all || fig || with) return wb_cli_bad("export", "--points/--samples do not take --fig, --all or --with");
        if (dir)
            return wb_cli_bad("export", "--out is a folder (for --fig and --all); the rows go to a file: -o/--output "
                                        "FILE, or stdout without it");
        if (!format || (strcmp(format, "csv") && strcmp(format, "json")))
            return wb_cli_bad("export", "--points and --samples need --format csv or --format json%s%s%s",
                              format ? " (not '" : "", format ? format : "", format ? "')" : "");
        return path ? 0 : wb_cli_bad("export", "give a results file");
    }
    if (file)
        return wb_cli_bad("export", "-o/--output is a file (for --points and --samples); a figure's tables go to a "
                                    "folder: --out DIR");
    if (format) return wb_cli_bad("export", "--format goes with --points or --samples");
    if (all == !!fig) return fprintf(stderr, "wallbench export: give exactly one of --fig NAME, --all, --points or --samples\n"), usage(stderr);
    if (fig && !wb_export_resolve(fig))
        return fprintf(stderr, "wallbench export: unknown or ambiguous figure '%s'%s\n", fig,
                       !strcmp(fig, "fig4-profile") || !strcmp(fig, "fig4") || !strcmp(fig, "fig-timeline")
                           ? ": a profile file's figure (wallbench profile), and this is a results file"
                           : ""),
               usage(stderr);
    if (with && fig && strcmp(wb_export_resolve(fig), "fig-compare") != 0) /* it would be ignored */
        return wb_cli_bad("export", "--with names fig-compare's other file; %s compares with none", wb_export_resolve(fig));
    if (!path && (all || figure_named(wb_export_resolve(fig))->needs_file))
        return fprintf(stderr, "wallbench export: give a results file\n"), usage(stderr);
    return 0;
}

/* A figure's folder without --out: one of its own, never the current one: <file stem>-tables, or
 * reference-tables without a file. */
static const char *default_dir(const char *path, char *buf, size_t len) {
    char copy[512];
    snprintf(copy, sizeof copy, "%s", path ? path : "reference.h5");
    char *stem = basename(copy), *dot = strstr(stem, ".h5");
    if (dot) *dot = '\0';
    snprintf(buf, len, "%s-tables", stem);
    return buf;
}

int wb_cmd_export(int argc, char **argv) {
    const char *path = NULL, *fig = NULL, *dir = NULL, *with = NULL, *format = NULL, *table = NULL;
    int all = 0, rows = -1;
    wb_shape shape = wb_shape_fastest;
    int shape_given = 0;
    wb_err se;
    const char *file = NULL;
    enum { O_ALL = 256, O_FIG, O_OUT, O_WITH, O_POINTS, O_SAMPLES, O_FORMAT, O_SHAPE, O_TABLE };
    static const struct option longs[] = {
        {"all", no_argument, NULL, O_ALL},         {"fig", required_argument, NULL, O_FIG},
        {"out", required_argument, NULL, O_OUT},   {"with", required_argument, NULL, O_WITH},
        {"points", no_argument, NULL, O_POINTS},   {"samples", no_argument, NULL, O_SAMPLES},
        {"format", required_argument, NULL, O_FORMAT}, {"shape", required_argument, NULL, O_SHAPE},
        {"output", required_argument, NULL, 'o'},  {"table", required_argument, NULL, O_TABLE}, {0, 0, 0, 0}};
    wb_cli c = {"export", longs, 0};
    const char *v;
    int k, first = argc;
    while ((k = wb_cli_next(&c, argc, argv, &v, &first)) != WB_CLI_END) {
        switch (k) {
        case WB_CLI_BAD: return usage(stderr);
        case WB_CLI_HELP: return usage(stdout), 0;
        case O_ALL: all = 1; break;
        case O_FIG: fig = v; break;
        case O_OUT: dir = v; break;
        case 'o': file = v; break;
        case O_WITH: with = v; break;
        case O_POINTS: rows = rows == -1 ? WB_TABLE_POINTS : -2; break;
        case O_SAMPLES: rows = rows == -1 ? WB_TABLE_SAMPLES : -2; break;
        case O_FORMAT: format = v; break;
        case O_TABLE: table = v; break;
        case O_SHAPE:
            if (wb_shape_parse(v, &shape, &se) != WB_OK)
                return fprintf(stderr, "wallbench export: %s\n", se.msg), usage(stderr);
            shape_given = 1;
            break;
        }
    }
    if (first < argc) path = argv[first];
    if (first + 1 < argc) return fprintf(stderr, "wallbench export: unexpected argument '%s'\n", argv[first + 1]), usage(stderr);
    /* the options are checked for the file's kind before it is read; then it is read once, either kind (rows.h) */
    const int profile = path && wb_rows_kind_of(path) == WB_ROWS_PROFILE;
    wb_export_profile_args pa = {all, fig, table, format, file, dir, with};
    int bad = profile ? rows != -1 ? wb_cli_bad("export", "--points/--samples are a results file's tables; a profile's: "
                                                          "--table launches|kernels|ranges")
                        : shape_given ? wb_cli_bad("export", "--shape is for a results file's family figures; %s is a "
                                                             "profile (each kernel at its own launch shape)", path)
                                      : wb_export_profile_check(&pa)
              : rows >= 0 && shape_given ? wb_cli_bad("export", "--shape picks a figure's launch shape; --points and "
                                                                "--samples export every row, every shape")
                                         : check_results_args(path, rows, all, fig, with, dir, file, format, table);
    if (bad) return bad;
    char dir_buf[600];
    if (!dir && !table && rows < 0) pa.dir = dir = default_dir(path, dir_buf, sizeof dir_buf);

    wb_err e = {""};
    wb_gpu_table t = {NULL, 0};
    wb_rows in;
    wb_results other;
    int have_r = 0, have_other = 0, rc = 2;
    if (path) {
        /* a profile's launch rows only for --table launches */
        int open = profile && table && !strcmp(table, "launches") ? wb_rows_open_launches("export", path, &in)
                                                                  : wb_rows_open("export", path, &in);
        if (open != 0) return 2;
        have_r = 1;
    }
    if (rows >= 0) {
        rc = export_rows(&in.r, (wb_table_kind)rows, strcmp(format, "json") ? WB_TABLE_CSV : WB_TABLE_JSON, file);
        goto out;
    }
    if (!table && wb_gpu_table_load(NULL, &t, &e) != WB_OK) goto out;
    if (profile) {
        rc = wb_export_profile(&in, &t, &pa);
        goto out;
    }
    if (have_r && (all || strcmp(wb_export_resolve(fig), "fig-compare") == 0)) {
        have_other = open_other(&in.r, with, &other, &e);
        if (have_other < 0) goto out;
    }
    if (wb_make_dirs(dir, &e) != WB_OK) goto out;
    const wb_results *r = have_r ? &in.r : NULL;
    if (fig) rc = export_one(wb_export_resolve(fig), r, have_other > 0 ? &other : NULL, &t, &shape, dir);
    else {
        rc = 0;
        for (int i = 0; i < NFIG; i++) {
            int one = export_one(figure(i)->name, r, have_other > 0 ? &other : NULL, &t, &shape, dir);
            if (one == 2) rc = 2;
        }
    }
    e.msg[0] = '\0';
out:
    if (e.msg[0]) fprintf(stderr, "wallbench export: %s\n", e.msg);
    if (have_other > 0) wb_results_free(&other);
    if (have_r) wb_rows_free(&in);
    if (t.rows) wb_gpu_table_free(&t);
    return rc;
}

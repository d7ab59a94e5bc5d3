/* test_export_rows.c - `wallbench export FILE --points|--samples --format
 * csv|json`: a synthetic results file (counters on one point, NaN and -1
 * axes, strings with commas, quotes and a newline, a failed point without
 * samples) exported through the command and read back: every CSV cell
 * equals the HDF5 row's value (reals exactly, NaN as NaN), the header is
 * the column names and the sidecar FILE.columns.json their units, the
 * samples table holds every sample in
 * order; the JSON is checked by tests/export_json.py when python3 is there;
 * fig4, report and compare show the point of a family that is not built in
 * (a plugin's).
 * Also the command's input errors (exit 2). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/check.h"
#include "tests/synth_results.h"
#include "harness/commands.h"
#include "harness/store/schema.h"

/* One RFC 4180 record from f into cells (malloc'ed strings); returns the
 * count, -1 at end of file. Quoted cells may hold commas, quotes, newlines. */
static int csv_record(FILE *f, char **cells, int max) {
    int n = 0, c = fgetc(f);
    if (c == EOF) return -1;
    for (;;) {
        size_t cap = 64, len = 0;
        char *s = malloc(cap);
        int quoted = c == '"';
        if (quoted) c = fgetc(f);
        for (;; c = fgetc(f)) {
            if (c == EOF) break;
            if (quoted && c == '"') {
                c = fgetc(f);
                if (c != '"') {
                    quoted = 0;
                    if (c == ',' || c == '\n' || c == EOF) break;
                }
            } else if (!quoted && (c == ',' || c == '\n')) {
                break;
            }
            if (len + 2 > cap) s = realloc(s, cap *= 2);
            s[len++] = (char)c;
        }
        s[len] = '\0';
        if (n < max) cells[n++] = s;
        else free(s);
        if (c != ',') return n;
        c = fgetc(f);
    }
}

static void free_cells(char **cells, int n) {
    for (int i = 0; i < n; i++) free(cells[i]);
}

static void write_file(const char *path) {
    synth z;
    synth_open(&z, path, "NVIDIA H200");
    synth_attr_str(&z, "git_rev", "abc1234");
    synth_attr_f64(&z, "ceiling_dram_read_gbps", 4500.5); /* an older writer's spelling: lands in /ceilings */
    wb_row a = synth_row("select", "if_tile", 1000003, 0.125);
    a.p.selectivity = 0.5;
    synth_counters(&a, 1e9 / 3, 12345.0, 678.0);
    snprintf(a.p.note, sizeof a.p.note, "a note, with \"quotes\"\nand a newline");
    synth_put(&z, &a, NULL, 0);
    wb_row b = synth_row("hashprobe", "ilp4", 7, 1.0 / 7);
    b.p.table_entries = 1000;
    b.p.load_factor = 1000.0 / 2048;
    synth_counters(&b, 5e6, 40000.0, 1000.0); /* a plugin family's point with counters: fig4 draws it */
    double five[5] = {0.1, 0.2, 1.0 / 3, 0.4, 0.5};
    synth_put(&z, &b, five, 5);
    wb_row c = synth_row("scan", "cub", 1, NAN);
    snprintf(c.m.status, sizeof c.m.status, "failed");
    snprintf(c.m.reason, sizeof c.m.reason, "verify: 1 of 1 mismatched");
    c.m.verified = 0;
    synth_put(&z, &c, NULL, 0);
    CHECK(synth_close(&z) == WB_OK);
}

static int export_to(const char *h5, const char *what, const char *format, const char *out) {
    char a1[512], a2[32], a3[64], a4[512];
    snprintf(a1, sizeof a1, "%s", h5);
    snprintf(a2, sizeof a2, "%s", what);
    snprintf(a3, sizeof a3, "--format=%s", format);
    snprintf(a4, sizeof a4, "%s", out);
    char *argv[] = {"export", a1, a2, a3, "-o", a4, NULL}; /* -o/--output: a file, in every command */
    char log[2048];
    int rc = synth_run(wb_cmd_export, 6, argv, log, sizeof log);
    if (rc) fprintf(stderr, "export %s %s: %s\n", what, format, log);
    return rc;
}

/* Every cell of points.csv against the rows of the file. */
static void check_points_csv(const char *csv, const wb_results *r) {
    FILE *f = fopen(csv, "r");
    CHECK(f != NULL);
    if (!f) return;
    int ncol;
    const wb_column *cols = wb_schema_columns(&ncol);
    char *cells[256];
    int n = csv_record(f, cells, 256);
    CHECK(n == ncol);
    /* The header is the column names alone, "name" first: df["n"] works. */
    for (int k = 0; k < ncol && k < n; k++) {
        if (strcmp(cells[k], cols[k].name)) fprintf(stderr, "header %d: '%s', expected '%s'\n", k, cells[k], cols[k].name);
        CHECK(!strcmp(cells[k], cols[k].name));
    }
    CHECK(n > 6 && !strcmp(cells[0], "name") && !strcmp(cells[6], "n") && !strchr(cells[6], '['));
    free_cells(cells, n);
    int64_t i = 0;
    for (; (n = csv_record(f, cells, 256)) > 0; i++) {
        CHECK(i < r->nrows && n == ncol);
        if (i >= r->nrows || n != ncol) break;
        const wb_row *w = &r->rows[i];
        char name[256];
        CHECK(!strcmp(cells[0], wb_point_name(&w->p, name, sizeof name)));
        for (int k = 0; k < ncol; k++) {
            const char *s = wb_row_str(w, &cols[k]), *got = cells[k];
            int ok;
            if (s) ok = !strcmp(got, s);
            else if (isnan(wb_row_get(w, &cols[k]))) ok = !strcmp(got, "NaN");
            else ok = strtod(got, NULL) == wb_row_get(w, &cols[k]); /* %.17g: exact */
            if (!ok) fprintf(stderr, "row %lld column %s: '%s'\n", (long long)i, cols[k].name, got);
            CHECK(ok);
        }
        free_cells(cells, n);
    }
    CHECK(i == r->nrows);
    fclose(f);
    /* The units: in the sidecar, one entry per column, in order. */
    char side[600], *text = NULL;
    snprintf(side, sizeof side, "%s.columns.json", csv);
    FILE *sf = fopen(side, "r");
    CHECK(sf != NULL);
    if (!sf) return;
    size_t len = 0;
    text = calloc(1, 1 << 20);
    if (text) len = fread(text, 1, (1 << 20) - 1, sf);
    fclose(sf);
    CHECK(len > 0 && strstr(text, "\"format\":\"wallbench-columns\"") != NULL);
    CHECK(strstr(text, "{\"name\":\"n\",\"unit\":\"elements\"") != NULL);
    CHECK(strstr(text, "{\"name\":\"noise_pct\",\"unit\":\"%\"") != NULL);
    free(text);
}

static void check_samples_csv(const char *csv, const wb_results *r) {
    FILE *f = fopen(csv, "r");
    CHECK(f != NULL);
    if (!f) return;
    char *cells[8];
    int n = csv_record(f, cells, 8);
    CHECK(n == 4 && !strcmp(cells[0], "name") && !strcmp(cells[3], "time_ms") && !strcmp(cells[1], "point_id") &&
          !strcmp(cells[2], "rep")); /* the HDF5 /samples names */
    free_cells(cells, n);
    int64_t total = 0;
    for (int64_t i = 0; i < r->nrows; i++)
        for (int s = 0; s < r->sample_count[i]; s++, total++) {
            n = csv_record(f, cells, 8);
            CHECK(n == 4);
            if (n != 4) return (void)fclose(f);
            CHECK(strtoll(cells[1], NULL, 10) == r->rows[i].m.id && atoi(cells[2]) == s);
            double want = r->sample_ms[r->sample_start[i] + s];
            CHECK(isnan(want) ? !strcmp(cells[3], "NaN") : strtod(cells[3], NULL) == want);
            free_cells(cells, n);
        }
    CHECK(total == 3 + 5 + 3);
    CHECK(csv_record(f, cells, 8) == -1);
    fclose(f);
}

static void check_errors(const char *h5) {
    char out[2048], a1[512];
    snprintf(a1, sizeof a1, "%s", h5);
    char *fmt_missing[] = {"export", a1, "--points", NULL};
    CHECK(synth_run(wb_cmd_export, 3, fmt_missing, out, sizeof out) == 2);
    CHECK(strstr(out, "need --format csv or --format json") != NULL);
    char *fmt_bad[] = {"export", a1, "--samples", "--format", "xml", NULL};
    CHECK(synth_run(wb_cmd_export, 5, fmt_bad, out, sizeof out) == 2);
    CHECK(strstr(out, "(not 'xml')") != NULL);
    char *both[] = {"export", a1, "--points", "--samples", "--format=csv", NULL};
    CHECK(synth_run(wb_cmd_export, 5, both, out, sizeof out) == 2);
    CHECK(strstr(out, "one of --points or --samples") != NULL);
    char *with_fig[] = {"export", a1, "--points", "--format=csv", "--fig=fig4", NULL};
    CHECK(synth_run(wb_cmd_export, 5, with_fig, out, sizeof out) == 2);
    char *no_file[] = {"export", "--points", "--format", "json", NULL};
    CHECK(synth_run(wb_cmd_export, 4, no_file, out, sizeof out) == 2);
    CHECK(strstr(out, "give a results file") != NULL);
    char *missing[] = {"export", "/nonexistent/x.h5", "--points", "--format", "csv", NULL};
    CHECK(synth_run(wb_cmd_export, 5, missing, out, sizeof out) == 2);
}

int main(void) {
    char dir[] = "/tmp/wb_export_rows_XXXXXX";
    if (!mkdtemp(dir)) return 1;
    const char *h5 = synth_path(dir, "r.h5");
    write_file(h5);
    wb_results r;
    wb_err e;
    CHECK(wb_results_open(h5, &r, &e) == WB_OK);
    if (wb_test_failures) return TEST_DONE();
    CHECK(r.nrows == 3);
    CHECK(export_to(h5, "--points", "csv", synth_path(dir, "points.csv")) == 0);
    CHECK(export_to(h5, "--samples", "csv", synth_path(dir, "samples.csv")) == 0);
    CHECK(export_to(h5, "--points", "json", synth_path(dir, "points.json")) == 0);
    CHECK(export_to(h5, "--samples", "json", synth_path(dir, "samples.json")) == 0);
    { /* --out is a folder in every command: the rows' file is -o/--output, and a figure's folder is not -o */
        char log[2048], a1[512], a4[512];
        snprintf(a1, sizeof a1, "%s", h5);
        snprintf(a4, sizeof a4, "%s", synth_path(dir, "x.csv"));
        char *wrong[] = {"export", a1, "--points", "--format=csv", "--out", a4, NULL};
        CHECK(synth_run(wb_cmd_export, 6, wrong, log, sizeof log) == 2 && strstr(log, "--out is a folder"));
        char *wrong2[] = {"export", a1, "--fig=fig4", "--output", a4, NULL};
        CHECK(synth_run(wb_cmd_export, 5, wrong2, log, sizeof log) == 2 && strstr(log, "-o/--output is a file"));
    }
    check_points_csv(synth_path(dir, "points.csv"), &r);
    check_samples_csv(synth_path(dir, "samples.csv"), &r);
    check_errors(h5);
    /* fig4 places the plugin family's point like a built-in one. */
    char a1[512], a2[512], log[2048];
    static char big[65536];
    snprintf(a1, sizeof a1, "%s", h5);
    snprintf(a2, sizeof a2, "%s", dir);
    char *fig4[] = {"export", a1, "--fig=fig4", "--out", a2, NULL};
    CHECK(synth_run(wb_cmd_export, 5, fig4, log, sizeof log) == 0);
    FILE *f4 = fopen(synth_path(dir, "fig4-roofline-points.dat"), "r");
    char line[512];
    int hashprobe = 0;
    while (f4 && fgets(line, sizeof line, f4)) hashprobe += !strncmp(line, "hashprobe/ilp4 hashprobe ilp4", 29);
    if (f4) fclose(f4);
    CHECK(hashprobe == 1);
    /* report and compare list it by its family name too. */
    char *report[] = {"report", a1, NULL};
    CHECK(synth_run(wb_cmd_report, 2, report, big, sizeof big) == 0);
    CHECK(strstr(big, "hashprobe") != NULL);
    char *compare[] = {"compare", a1, a1, "--family=hashprobe", NULL};
    CHECK(synth_run(wb_cmd_compare, 4, compare, big, sizeof big) == 0);
    CHECK(strstr(big, "hashprobe") != NULL);
    if (wb_test_failures) fprintf(stderr, "%s\n", big);
    /* The JSON against the CSV (itself checked above): python3's json module. */
    const char *src = getenv("WB_SOURCE_DIR");
    if (src && system("command -v python3 >/dev/null 2>&1") == 0) {
        char cmd[2048];
        snprintf(cmd, sizeof cmd, "python3 '%s/tests/export_json.py' '%s' '%s' '%s' '%s'", src,
                 synth_path(dir, "points.csv"), synth_path(dir, "points.json"), synth_path(dir, "samples.csv"),
                 synth_path(dir, "samples.json"));
        CHECK(system(cmd) == 0);
    } else {
        fprintf(stderr, "note: python3 or WB_SOURCE_DIR missing: JSON not parsed back\n");
    }
    wb_results_free(&r);
    synth_remove_dir(dir);
    return TEST_DONE();
}

/* test_store_h5.c - the results file: round trip of every column type, of
 * attributes overwritten mid-run and of samples, in-place update, the
 * self-describing /columns table, and every refusal of the writer and the
 * reader (files written here with the raw HDF5 API where wallbench would
 * never write them). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hdf5_hl.h>

#include "tests/check.h"
#include "harness/base/metrics.h"
#include "harness/store/h5util.h"
#include "harness/store/schema.h"
#include "harness/store/store_h5.h"
#include "tests/row_fixture.h"

#define NROWS 150 /* more than two 64-row chunks */

static char dir[] = "/tmp/wb_test_store_h5_XXXXXX";

static const char *in_dir(char *buf, const char *name) {
    snprintf(buf, 512, "%s/%s", dir, name);
    return buf;
}

/* Writes rows 0..NROWS-1 with attributes changed along the way. */
static void write_file(const char *path) {
    wb_store *s;
    wb_err e = {""};
    CHECK(wb_store_create(path, &s, &e) == WB_OK);
    if (!s) {
        fprintf(stderr, "%s\n", e.msg);
        return;
    }
    CHECK(wb_store_attr_str(s, "git_rev", "aaaa", &e) == WB_OK);
    CHECK(wb_store_attr_f64(s, "l2_bytes", 1.5, &e) == WB_OK);
    CHECK(wb_store_attr_str(s, "clock_mhz", "pending", &e) == WB_OK);
    CHECK(wb_store_attr_str(s, "empty", "", &e) == WB_OK);
    for (int64_t k = 0; k < NROWS; k++) {
        wb_row r;
        double ms[3];
        fixture_row(&r, k);
        for (int j = 0; j < fixture_nsamples(k); j++) ms[j] = fixture_sample(k, j);
        CHECK(wb_store_append(s, &r, ms, fixture_nsamples(k), &e) == WB_OK);
        CHECK(r.m.id == k);
        if (k == 70) { /* ceilings and clocks become known mid-run; types may change */
            CHECK(wb_store_attr_str(s, "git_rev", "bbbbbbbbbbbb", &e) == WB_OK);
            CHECK(wb_store_attr_f64(s, "clock_mhz", 1980.0, &e) == WB_OK);
            CHECK(wb_store_attr_str(s, "l2_bytes", "52428800", &e) == WB_OK);
        }
    }
    char longv[700];
    memset(longv, 'x', sizeof longv - 1);
    longv[sizeof longv - 1] = '\0';
    CHECK(wb_store_attr_str(s, "command_line", longv, &e) == WB_OK);
    /* Refused calls leave the store usable. */
    CHECK(wb_store_attr_f64(s, "schema_version", 7, &e) == WB_ERR);
    CHECK(wb_store_attr_str(s, "a_name_far_too_long_for_the_reader_to_hold_in_its_64_byte_buffer", "v", &e) == WB_ERR);
    wb_row r;
    fixture_row(&r, 1002);
    CHECK(wb_store_append(s, &r, NULL, -1, &e) == WB_ERR);
    r.m.id = NROWS;
    CHECK(wb_store_update(s, &r, &e) == WB_ERR);
    CHECK(strstr(e.msg, "does not exist") != NULL);
    r.m.id = 2;
    CHECK(wb_store_update(s, &r, &e) == WB_OK);
    CHECK(wb_store_close(s, &e) == WB_OK);
}

static void check_file(const char *path) {
    wb_results res;
    wb_err e = {""};
    CHECK(wb_results_open(path, &res, &e) == WB_OK);
    if (e.msg[0]) fprintf(stderr, "%s\n", e.msg);
    CHECK(res.nrows == NROWS);
    for (int64_t k = 0; k < res.nrows && k < NROWS; k++) {
        wb_row want;
        char label[64];
        fixture_expect(&want, k == 2 ? 1002 : k);
        want.m.id = k;
        snprintf(label, sizeof label, "row %lld", (long long)k);
        CHECK(fixture_diff(&res.rows[k], &want, label) == 0);
        CHECK(res.sample_count[k] == fixture_nsamples(k));
        for (int j = 0; j < res.sample_count[k]; j++)
            CHECK(res.sample_ms[res.sample_start[k] + j] == fixture_sample(k, j));
    }
    CHECK_NEAR(wb_results_attr_f64(&res, "schema_version"), WB_SCHEMA_VERSION, 0);
    CHECK(wb_results_attr(&res, "git_rev") && strcmp(wb_results_attr(&res, "git_rev"), "bbbbbbbbbbbb") == 0);
    CHECK_NEAR(wb_results_attr_f64(&res, "clock_mhz"), 1980.0, 0);
    CHECK_NEAR(wb_results_attr_f64(&res, "l2_bytes"), 52428800.0, 0);
    CHECK(wb_results_attr(&res, "empty") && wb_results_attr(&res, "empty")[0] == '\0');
    CHECK(wb_results_attr(&res, "missing") == NULL && isnan(wb_results_attr_f64(&res, "missing")));
    const char *cl = wb_results_attr(&res, "command_line");
    CHECK(cl && strlen(cl) == sizeof(((wb_attr *)0)->value) - 1 && strcmp(cl + strlen(cl) - 3, "...") == 0);
    int nattr_number = 0;
    for (int i = 0; i < res.nattrs; i++) nattr_number += res.attrs[i].is_number;
    CHECK(res.nattrs == 6 && nattr_number == 2); /* schema_version, clock_mhz */
    wb_results_free(&res);
    CHECK(res.rows == NULL && res.nrows == 0);
}

/* /columns names every /points column in order, with its unit. */
static void check_columns_table(const char *path) {
    typedef struct { char name[48], unit[32]; } entry;
    int n;
    const wb_column *c = wb_schema_columns(&n);
    entry *got = calloc((size_t)n, sizeof *got);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT), d = H5Dopen2(f, "columns", H5P_DEFAULT);
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(entry)), s48 = H5Tcopy(H5T_C_S1), s32 = H5Tcopy(H5T_C_S1);
    CHECK(f >= 0 && d >= 0 && t >= 0 && got);
    CHECK(H5Tset_size(s48, 48) >= 0 && H5Tset_size(s32, 32) >= 0);
    CHECK(H5Tinsert(t, "name", offsetof(entry, name), s48) >= 0);
    CHECK(H5Tinsert(t, "unit", offsetof(entry, unit), s32) >= 0);
    hid_t space = H5Dget_space(d);
    CHECK(H5Sget_simple_extent_npoints(space) == n);
    CHECK(H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, got) >= 0);
    for (int i = 0; i < n; i++) {
        CHECK(c[i].unit && c[i].desc && c[i].desc[0]); /* a launch axis takes both from axes.h */
        CHECK(strcmp(got[i].name, c[i].name) == 0);
        CHECK(c[i].unit && strcmp(got[i].unit, c[i].unit) == 0);
    }
    const wb_column *ilp = wb_schema_find("ilp"), *occ = wb_schema_find("occupancy_target");
    CHECK(ilp && occ && strcmp(ilp->unit, "items/thread") == 0 && strcmp(occ->unit, "fraction") == 0);
    CHECK(H5Sclose(space) >= 0 && H5Tclose(s48) >= 0 && H5Tclose(s32) >= 0 && H5Tclose(t) >= 0);
    CHECK(H5Dclose(d) >= 0 && H5Fclose(f) >= 0);
    free(got);
}

/* A counter column's /columns source is what the run's chip counted it with,
 * or why it is NaN (wb_schema_metric_source, set by `wallbench run`). */
static void check_metric_source(void) {
    typedef struct { char name[48], source[256]; } entry;
    const char *why = "dram__sectors_read.sum (NaN: GX100 has no dram__sectors_read.sum nor its fallbacks)";
    char path[512];
    in_dir(path, "source.h5");
    int m = wb_metric_index("dram_sectors_read"), n, col = -1;
    const wb_column *c = wb_schema_columns(&n);
    for (int i = 0; i < n; i++)
        if (strcmp(c[i].name, "dram_sectors_read") == 0) col = i;
    CHECK(m >= 0 && col >= 0);
    if (m < 0 || col < 0) return;
    wb_schema_metric_source(m, why);
    wb_store *st = NULL;
    wb_err e = {""};
    CHECK(wb_store_create(path, &st, &e) == WB_OK && wb_store_close(st, &e) == WB_OK);
    wb_schema_metric_source(m, NULL);
    CHECK(strcmp(wb_schema_columns(NULL)[col].source, wb_metrics[m].ncu) == 0);
    entry *got = calloc((size_t)n, sizeof *got);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT), d = H5Dopen2(f, "columns", H5P_DEFAULT);
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(entry)), s48 = H5Tcopy(H5T_C_S1), s256 = H5Tcopy(H5T_C_S1);
    CHECK(got && f >= 0 && d >= 0 && H5Tset_size(s48, 48) >= 0 && H5Tset_size(s256, 256) >= 0);
    CHECK(H5Tinsert(t, "name", offsetof(entry, name), s48) >= 0);
    CHECK(H5Tinsert(t, "source", offsetof(entry, source), s256) >= 0);
    CHECK(H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, got) >= 0);
    CHECK(got && strcmp(got[col].source, why) == 0);
    CHECK(H5Tclose(s48) >= 0 && H5Tclose(s256) >= 0 && H5Tclose(t) >= 0 && H5Dclose(d) >= 0 && H5Fclose(f) >= 0);
    free(got);
}

/* In the file itself (not only after wb_results_open), a string that filled
 * its buffer ends in NUL: row 0's family (16 bytes) is such a string. */
static void check_stored_string(const char *path) {
    typedef struct { char family[sizeof(((wb_point *)0)->family)]; } entry;
    entry got[2];
    wb_row want;
    fixture_expect(&want, 0);
    CHECK(strlen(want.p.family) == sizeof want.p.family - 1);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT), d = H5Dopen2(f, "points", H5P_DEFAULT);
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(entry)), st = H5Tcopy(H5T_C_S1);
    CHECK(H5Tset_size(st, sizeof got[0].family) >= 0 && H5Tinsert(t, "family", 0, st) >= 0);
    hsize_t at = 0, count = 2;
    hid_t fs = H5Dget_space(d), ms = H5Screate_simple(1, &count, NULL);
    CHECK(H5Sselect_hyperslab(fs, H5S_SELECT_SET, &at, NULL, &count, NULL) >= 0);
    CHECK(H5Dread(d, t, ms, fs, H5P_DEFAULT, got) >= 0);
    CHECK(got[0].family[sizeof got[0].family - 1] == '\0');
    CHECK(memcmp(got[0].family, want.p.family, sizeof want.p.family) == 0);
    CHECK(H5Sclose(fs) >= 0 && H5Sclose(ms) >= 0 && H5Tclose(st) >= 0 && H5Tclose(t) >= 0);
    CHECK(H5Dclose(d) >= 0 && H5Fclose(f) >= 0);
}

/* Counts (schema 8) in the file itself, as h5py or pandas see them: every count column an integer,
 * a NaN (not counted) stored as -1, a whole count as itself; a real column (inst_per_sector) stays
 * a float. check_file reads the same rows back as NaN and the counts. */
static void check_stored_counts(const char *path) {
    int n, counts = 0;
    const wb_column *c = wb_schema_columns(&n);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT), d = H5Dopen2(f, "points", H5P_DEFAULT);
    hid_t ft = H5Dget_type(d);
    for (int i = 0; i < n; i++) {
        int idx = H5Tget_member_index(ft, c[i].name);
        H5T_class_t cls = idx < 0 ? H5T_NO_CLASS : H5Tget_member_class(ft, (unsigned)idx);
        counts += c[i].count;
        if (c[i].type == WB_COL_F64) CHECK(cls == (c[i].count ? H5T_INTEGER : H5T_FLOAT));
    }
    CHECK(counts == 10); /* inst, inst_issued, dram_sectors_read/write, l2_sectors, l1_sectors_ld/st, l1_sectors,
                            l2_atom_requests, l2_red_requests */
    CHECK(!wb_schema_find("inst_per_sector")->count && wb_schema_find("l1_sectors")->count);
    int64_t inst[NROWS];
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(int64_t));
    CHECK(H5Tinsert(t, "inst", 0, H5T_NATIVE_INT64) >= 0);
    CHECK(H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, inst) >= 0);
    for (int k = 0; k < NROWS; k++) {
        wb_row want;
        fixture_expect(&want, k == 2 ? 1002 : k);
        const double v = want.c.v[wb_metric_index("inst")];
        CHECK(isnan(v) ? inst[k] == -1 : inst[k] == (int64_t)v);
    }
    CHECK(H5Tclose(t) >= 0 && H5Tclose(ft) >= 0 && H5Dclose(d) >= 0 && H5Fclose(f) >= 0);
}

static void expect_create_refused(const char *path, const char *words) {
    wb_store *s = (wb_store *)&s;
    wb_err e = {""};
    CHECK(wb_store_create(path, &s, &e) == WB_ERR);
    CHECK(s == NULL);
    CHECK(strstr(e.msg, path) != NULL);
    if (!strstr(e.msg, words)) fprintf(stderr, "message lacks \"%s\": %s\n", words, e.msg), wb_test_failures++;
}

static void expect_open_refused(const char *path, const char *words) {
    wb_results res;
    wb_err e = {""};
    CHECK(wb_results_open(path, &res, &e) == WB_ERR);
    CHECK(res.rows == NULL && res.nrows == 0 && res.attrs == NULL);
    CHECK(strstr(e.msg, path) != NULL);
    if (!strstr(e.msg, words)) fprintf(stderr, "message lacks \"%s\": %s\n", words, e.msg), wb_test_failures++;
}

static void test_create_refusals(const char *good) {
    char p[512];
    expect_create_refused(good, "exists");
    expect_create_refused(in_dir(p, "no_such_folder/x.h5"), "No such file");
    expect_create_refused(in_dir(p, "rt.h5/x.h5"), "Not a directory");
    in_dir(p, "readonly");
    CHECK(mkdir(p, 0555) == 0);
    if (geteuid() != 0) expect_create_refused(in_dir(p, "readonly/x.h5"), "Permission denied");
    else fprintf(stderr, "note: running as root, the read-only folder case cannot fail and is not checked\n");
    CHECK(rmdir(p) == 0);
}

/* Whether name is one of the comma-separated names in list. */
static int listed(const char *list, const char *name) {
    size_t n = strlen(name);
    for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (strncmp(p, name, n) == 0 && (p[n] == ',' || p[n] == '\0')) return 1;
    return 0;
}

/* A raw HDF5 file shaped like a results file, with the given changes:
 * columns skipped, one integer column stored as float, columns in reverse
 * order, and schema_version (or none when version < 0). */
static void raw_file(const char *path, const char *skip, const char *as_float, int reverse, int version) {
    int n;
    const wb_column *c = wb_schema_columns(&n);
    wb_err e = {""};
    size_t size = 0;
    for (int i = 0; i < n; i++) size += c[i].size;
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), ft = H5Tcreate(H5T_COMPOUND, size);
    CHECK(f >= 0 && ft >= 0);
    size_t at = 0;
    for (int j = 0; j < n; j++) {
        const wb_column *col = &c[reverse ? n - 1 - j : j];
        const char *name = wb_column_name_in(col, version < 0 ? WB_SCHEMA_VERSION : version);
        if (listed(skip, name)) continue;
        const wb_col_type type = wb_column_file_type(col, version < 0 ? WB_SCHEMA_VERSION : version);
        hid_t mt = type == WB_COL_STR   ? wb_h5_str_type(col->size, path, &e)
                   : type == WB_COL_F64 ? H5Tcopy(H5T_IEEE_F64LE)
                   : type == WB_COL_I32 ? H5Tcopy(H5T_STD_I32LE)
                                        : H5Tcopy(H5T_STD_I64LE);
        if (as_float && strcmp(as_float, name) == 0) {
            CHECK(H5Tclose(mt) >= 0);
            mt = H5Tcopy(H5T_IEEE_F64LE);
        }
        CHECK(H5Tinsert(ft, name, at, mt) >= 0);
        at += col->size;
        CHECK(H5Tclose(mt) >= 0);
    }
    hsize_t dims = 3;
    /* The rows as a writer of that schema held them: its names, its conventions. */
    const int v = version >= WB_SCHEMA_OLDEST && version <= WB_SCHEMA_VERSION ? version : WB_SCHEMA_VERSION;
    hid_t space = H5Screate_simple(1, &dims, NULL), mem = wb_h5_points_type_of(v, WB_H5_MEMORY, path, &e);
    hid_t d = H5Dcreate2(f, "points", ft, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    wb_row rows[3];
    for (int k = 0; k < 3; k++) {
        fixture_expect(&rows[k], k);
        if (v >= WB_SCHEMA_RENAMED) wb_row_encode(&rows[k]);
        if (v >= WB_SCHEMA_COUNTS) wb_row_encode_counts(&rows[k]);
    }
    CHECK(H5Dwrite(d, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows) >= 0);
    CHECK(H5Dclose(d) >= 0 && H5Sclose(space) >= 0 && H5Tclose(mem) >= 0 && H5Tclose(ft) >= 0);
    wb_h5_sample smp[2] = {{1, 0, 4.5}, {1, 1, 5.5}};
    hsize_t ns = 2;
    hid_t sft = wb_h5_samples_type(WB_H5_FILE, path, &e), smt = wb_h5_samples_type(WB_H5_MEMORY, path, &e);
    space = H5Screate_simple(1, &ns, NULL);
    d = H5Dcreate2(f, "samples", sft, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(H5Dwrite(d, smt, H5S_ALL, H5S_ALL, H5P_DEFAULT, smp) >= 0);
    CHECK(H5Dclose(d) >= 0 && H5Sclose(space) >= 0 && H5Tclose(sft) >= 0 && H5Tclose(smt) >= 0);
    space = H5Screate(H5S_SCALAR);
    if (version >= 0) {
        hid_t a = H5Acreate2(f, "schema_version", H5T_STD_I32LE, space, H5P_DEFAULT, H5P_DEFAULT);
        CHECK(a >= 0 && H5Awrite(a, H5T_NATIVE_INT, &version) >= 0 && H5Aclose(a) >= 0);
    }
    /* h5py writes str attributes as variable-length strings. */
    hid_t vs = H5Tcopy(H5T_C_S1);
    const char *text = "written by h5py";
    CHECK(H5Tset_size(vs, H5T_VARIABLE) >= 0);
    hid_t a = H5Acreate2(f, "vlen_note", vs, space, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(a >= 0 && H5Awrite(a, vs, &text) >= 0 && H5Aclose(a) >= 0);
    CHECK(H5Tclose(vs) >= 0 && H5Sclose(space) >= 0 && H5Fclose(f) >= 0);
}

static void test_open_refusals(const char *good) {
    char p[512];
    expect_open_refused(in_dir(p, "missing.h5"), "No such file");

    FILE *fp = fopen(in_dir(p, "random.h5"), "wb");
    CHECK(fp != NULL);
    srand(7);
    for (int i = 0; fp && i < 4096; i++) fputc(rand() & 0xff, fp);
    if (fp) CHECK(fclose(fp) == 0);
    expect_open_refused(p, "not an HDF5 file");

    /* The first half of a good file: the signature is there, the rest is not. */
    FILE *in = fopen(good, "rb"), *out = fopen(in_dir(p, "truncated.h5"), "wb");
    CHECK(in && out);
    struct stat st;
    CHECK(stat(good, &st) == 0);
    for (off_t i = 0; in && out && i < st.st_size / 2; i++) fputc(fgetc(in), out);
    if (in) CHECK(fclose(in) == 0);
    if (out) CHECK(fclose(out) == 0);
    expect_open_refused(p, "H5Fopen");

    hid_t f = H5Fcreate(in_dir(p, "nopoints.h5"), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t g = H5Gcreate2(f, "other", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(f >= 0 && g >= 0 && H5Gclose(g) >= 0 && H5Fclose(f) >= 0);
    expect_open_refused(p, "no /points dataset: not a wallbench results file");

    int version = WB_SCHEMA_VERSION;
    f = H5Fcreate(in_dir(p, "pointsgroup.h5"), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    g = H5Gcreate2(f, "points", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(f >= 0 && g >= 0 && H5Gclose(g) >= 0);
    CHECK(H5LTset_attribute_int(f, "/", "schema_version", &version, 1) >= 0 && H5Fclose(f) >= 0);
    expect_open_refused(p, "/points is not a dataset: not a wallbench results file");

    char want[128];
    raw_file(in_dir(p, "version.h5"), NULL, NULL, 0, WB_SCHEMA_VERSION + 98);
    snprintf(want, sizeof want, "written with schema %d, this build reads %d to %d", WB_SCHEMA_VERSION + 98,
             WB_SCHEMA_OLDEST, WB_SCHEMA_VERSION);
    expect_open_refused(p, want);
    raw_file(in_dir(p, "noversion.h5"), NULL, NULL, 0, -1);
    expect_open_refused(p, "no schema_version attribute");
    raw_file(in_dir(p, "nocolumn.h5"), "time_median_ms,bound_gh200", NULL, 0, WB_SCHEMA_VERSION);
    expect_open_refused(p, "lacks 2 column(s) this build knows: time_median_ms, bound_gh200");
    raw_file(in_dir(p, "floatcol.h5"), NULL, "groups", 0, WB_SCHEMA_VERSION);
    expect_open_refused(p, "column groups is a float, this build expects an integer");
}

/* Columns in another order read by name; foreign attributes read too. */
/* A schema-7 file, counts as doubles with NaN not counted, reads the same rows as a schema-8 one. */
static void test_counts_schema7(void) {
    char p[512];
    wb_results res;
    wb_err e = {""};
    raw_file(in_dir(p, "schema7.h5"), NULL, NULL, 0, 7); /* counts as doubles, NaN not counted */
    hid_t f = H5Fopen(p, H5F_ACC_RDONLY, H5P_DEFAULT), d = H5Dopen2(f, "points", H5P_DEFAULT), ft = H5Dget_type(d);
    CHECK(H5Tget_member_class(ft, (unsigned)H5Tget_member_index(ft, "inst")) == H5T_FLOAT);
    CHECK(H5Tclose(ft) >= 0 && H5Dclose(d) >= 0 && H5Fclose(f) >= 0);
    CHECK(wb_results_open(p, &res, &e) == WB_OK);
    for (int k = 0; k < res.nrows && k < 3; k++) {
        wb_row want;
        fixture_expect(&want, k);
        want.p.bit_width = -1; /* a column newer than the file (schema 9) reads as "does not apply" */
        for (int i = 0; i < wb_n_metrics; i++) /* and a counter newer than it (10: the atomics') as NaN */
            if (wb_metrics[i].since > 7) want.c.v[i] = NAN;
        wb_point_name(&want.p, want.name, sizeof want.name);
        CHECK(fixture_diff(&res.rows[k], &want, "schema 7") == 0);
    }
    CHECK(res.nrows == 3);
    wb_results_free(&res);
}

static void test_reordered(void) {
    char p[512];
    wb_results res;
    wb_err e = {""};
    raw_file(in_dir(p, "reversed.h5"), NULL, NULL, 1, WB_SCHEMA_VERSION);
    CHECK(wb_results_open(p, &res, &e) == WB_OK);
    if (e.msg[0]) fprintf(stderr, "%s\n", e.msg);
    CHECK(res.nrows == 3);
    for (int k = 0; k < res.nrows && k < 3; k++) {
        wb_row want;
        fixture_expect(&want, k);
        CHECK(fixture_diff(&res.rows[k], &want, "reversed") == 0);
    }
    CHECK(res.nrows == 3 && res.sample_count[0] == 0 && res.sample_count[1] == 2 && res.sample_count[2] == 0);
    CHECK(res.nrows == 3 && res.sample_ms[res.sample_start[1] + 1] == 5.5);
    const char *note = wb_results_attr(&res, "vlen_note");
    CHECK(note && strcmp(note, "written by h5py") == 0);
    wb_results_free(&res);
}

/* A schema-1 file lacks the columns schema 2 added: it opens, and they read
 * as not applicable; the same file claiming schema 2 is refused. */
static void test_older_schema(void) {
    char p[512];
    wb_results res;
    wb_err e = {""};
    const char *v2 = "partitions,table_bytes,gather_greqs,gather_pct,inst_per_l1_sector,inst_per_l2_sector";
    raw_file(in_dir(p, "schema1.h5"), v2, NULL, 0, 1);
    CHECK(wb_results_open(p, &res, &e) == WB_OK);
    if (e.msg[0]) fprintf(stderr, "%s\n", e.msg);
    CHECK(res.nrows == 3);
    for (int k = 0; k < res.nrows && k < 3; k++) {
        const wb_row *r = &res.rows[k];
        CHECK(r->p.partitions == -1 && isnan(r->p.table_bytes) && isnan(r->m.gather_greqs) && isnan(r->m.gather_pct));
        wb_row want, na;
        fixture_expect(&want, k);
        wb_row_init(&na);
        int ncol;
        const wb_column *col = wb_schema_columns(&ncol);
        for (int i = 0; i < ncol; i++) /* what schema 2 added reads as not applicable */
            if (col[i].since > 1) memcpy((char *)&want + col[i].offset, (const char *)&na + col[i].offset, col[i].size);
        wb_point_name(&want.p, want.name, sizeof want.name); /* the reader names rows of every schema */
        CHECK(fixture_diff(r, &want, "schema 1") == 0);
    }
    if (res.nrows) wb_results_free(&res);
    raw_file(in_dir(p, "schema2-short.h5"), v2, NULL, 0, 2);
    expect_open_refused(p, "lacks 6 column(s) this build knows: partitions, table_bytes, gather_greqs, gather_pct, "
                           "inst_per_l1_sector, inst_per_l2_sector");
}

/* The committed record is schema 1: it still reads, the columns schema 2
 * added read as "not applicable", the older ones as written. */
static void check_schema1_record(void) {
    const char *src = getenv("WB_SOURCE_DIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/results/h200/20261130T011431Z-0dafc16.h5", src ? src : ".");
    wb_results r;
    wb_err e = {""};
    int rc = wb_results_open(path, &r, &e);
    if (rc != WB_OK) fprintf(stderr, "%s\n", e.msg);
    CHECK(rc == WB_OK);
    if (rc != WB_OK) return;
    CHECK(r.nrows == 1434);
    int old_ok = 1, new_na = 1;
    for (int64_t i = 0; i < r.nrows; i++) {
        const wb_row *w = &r.rows[i];
        old_ok &= w->m.reps == 10 && w->m.id == i;
        new_na &= w->m.samples_taken == -1 && isnan(w->m.noise) && w->m.stop[0] == '\0' && w->m.throttled == -1 &&
                  w->m.clock_events == -1 && w->p.places == -1;
    }
    CHECK(old_ok && new_na);
    wb_results_free(&r);
}

/* places (schema 4): -1 in the schema-3 record 27456bd; in records 5280b51
 * and 47c0bec every point of a family with a contended output (select,
 * scan, SSB, group-by but its sort) rotated it over at least WB_PLACES_MIN
 * = 16 places and one sample per place unless the noise or the timeout
 * stopped it first; the others have none. The board's state (schema 5):
 * NaN in the schema-4 record 5280b51; in 47c0bec, GPU and HBM temperature
 * and power on every measured point, in plausible ranges. The facts of
 * schema 6 (lookups, fallback) read as not applicable in both. */
static void check_placed(const char *path, int schema) {
    wb_results r;
    wb_err e = {""};
    CHECK(wb_results_open(path, &r, &e) == WB_OK);
    int64_t placed = 0, bad = 0, uncovered = 0, thermal_bad = 0, facts_bad = 0;
    for (int64_t i = 0; i < r.nrows; i++) {
        const wb_row *w = &r.rows[i];
        facts_bad += !isnan(w->p.lookups) || w->p.fallback != -1;
        if (strcmp(w->m.status, "ok") != 0) continue;
        const int contended = strcmp(w->p.family, "select") == 0 || strcmp(w->p.family, "scan") == 0 ||
                              strcmp(w->p.family, "ssb") == 0 ||
                              (strcmp(w->p.family, "groupby") == 0 && strcmp(w->p.variant, "sort") != 0);
        if (contended ? w->p.places < 16 : w->p.places != 0) bad++;
        placed += contended;
        if (contended && strcmp(w->m.stop, "plateau") == 0 && w->m.samples_taken < w->p.places) uncovered++;
        const double g = w->m.gpu_temp_c, hbm = w->m.mem_temp_c, pw = w->m.power_w;
        if (schema < 5 ? !(isnan(g) && isnan(hbm) && isnan(pw))
                       : !(g > 20 && g < 95 && hbm > 20 && hbm < 95 && pw > 50 && pw < 800))
            thermal_bad++;
    }
    if (bad || uncovered || thermal_bad)
        fprintf(stderr, "%s: %lld rows with wrong places, %lld plateaus before one sample a place, %lld rows with "
                "wrong thermal columns\n", path, (long long)bad, (long long)uncovered, (long long)thermal_bad);
    CHECK(bad == 0 && uncovered == 0 && thermal_bad == 0 && facts_bad == 0 && placed > 900);
    wb_results_free(&r);
}

static void check_places_records(void) {
    const char *src = getenv("WB_SOURCE_DIR");
    char path[1024];
    wb_results r;
    wb_err e = {""};
    /* A record from before the column (schema 1) reads -1: not recorded. */
    snprintf(path, sizeof path, "%s/results/h200/20261130T011431Z-0dafc16.h5", src ? src : ".");
    CHECK(wb_results_open(path, &r, &e) == WB_OK);
    int unrecorded = 1;
    for (int64_t i = 0; i < r.nrows; i++) unrecorded &= r.rows[i].p.places == -1;
    CHECK(unrecorded && r.nrows == 1434);
    wb_results_free(&r);
    snprintf(path, sizeof path, "%s/results/h200/20261201T111332Z-5280b51.h5", src ? src : ".");
    check_placed(path, 4);
    snprintf(path, sizeof path, "%s/results/h200/20261201T122005Z-47c0bec.h5", src ? src : ".");
    check_placed(path, 5);
}

/* Schema 6's conventions, read back with the raw HDF5 API as another tool
 * would: the point's name as a column, shares in percent under *_pct, -1
 * for "does not apply", ceilings as /ceilings rows (also when handed over
 * under an older file's attribute name); wallbench reads its own fields and
 * both names of every ceiling back. */
static void test_schema6(void) {
    char p[512];
    wb_store *s = NULL;
    wb_err e = {""};
    CHECK(wb_store_create(in_dir(p, "schema6.h5"), &s, &e) == WB_OK);
    if (!s) return (void)fprintf(stderr, "%s\n", e.msg);
    wb_row r;
    wb_row_init(&r);
    snprintf(r.p.family, sizeof r.p.family, "select");
    snprintf(r.p.variant, sizeof r.p.variant, "if_tile");
    r.p.n = 1000;
    r.p.selectivity = 0.01;
    r.m.noise = 0.004;
    r.p.launch.occupancy_theoretical = 0.75;
    r.m.reps = 0; /* noise-driven */
    snprintf(r.name, sizeof r.name, "stale");
    CHECK(wb_store_append(s, &r, NULL, 0, &e) == WB_OK);
    wb_ceiling_entry c = {"dram_read", NAN, "GB/s", 4321.5, "ceiling/dram_read/n:1", "grid 1 x block 256, ilp 4, 8 blocks/SM"};
    CHECK(wb_store_ceiling(s, &c, &e) == WB_OK);
    c.value = 4400.25; /* a better one replaces it */
    CHECK(wb_store_ceiling(s, &c, &e) == WB_OK);
    CHECK(wb_store_attr_f64(s, "ceiling_gather_word_1073741824B_greqs", 2.5, &e) == WB_OK);
    CHECK(wb_store_attr_f64(s, "ceiling_inst_issue_gips", 12000, &e) == WB_OK);
    CHECK(wb_store_close(s, &e) == WB_OK);

    /* Raw: what h5py and pandas see. */
    typedef struct { char name[256]; double noise_pct, occ_pct; int reps, sm_limit; } raw;
    raw got = {"", 0, 0, 0, 0};
    hid_t f = H5Fopen(p, H5F_ACC_RDONLY, H5P_DEFAULT), d = H5Dopen2(f, "points", H5P_DEFAULT);
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(raw)), s256 = wb_h5_str_type(256, p, &e);
    CHECK(H5Tinsert(t, "name", offsetof(raw, name), s256) >= 0);
    CHECK(H5Tinsert(t, "noise_pct", offsetof(raw, noise_pct), H5T_NATIVE_DOUBLE) >= 0);
    CHECK(H5Tinsert(t, "occupancy_theoretical_pct", offsetof(raw, occ_pct), H5T_NATIVE_DOUBLE) >= 0);
    CHECK(H5Tinsert(t, "reps", offsetof(raw, reps), H5T_NATIVE_INT) >= 0);
    CHECK(H5Tinsert(t, "sm_limit", offsetof(raw, sm_limit), H5T_NATIVE_INT) >= 0);
    CHECK(H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, &got) >= 0);
    CHECK(strcmp(got.name, "select/if_tile/n:1000/selectivity:0.01") == 0);
    if (strcmp(got.name, "select/if_tile/n:1000/selectivity:0.01")) fprintf(stderr, "name: %s\n", got.name);
    CHECK_NEAR(got.noise_pct, 0.4, 1e-12);
    CHECK_NEAR(got.occ_pct, 75, 1e-12);
    CHECK(got.reps == -1 && got.sm_limit == -1); /* noise-driven, all SMs: "does not apply" */
    CHECK(H5Aexists(f, "ceiling_dram_read_gbps") == 0 && H5Aexists(f, "ceiling_gather_word_1073741824B_greqs") == 0);
    CHECK(H5Dclose(d) >= 0 && H5Tclose(t) >= 0 && H5Tclose(s256) >= 0);
    d = H5Dopen2(f, "ceilings", H5P_DEFAULT);
    hid_t cs = H5Dget_space(d);
    CHECK(d >= 0 && H5Sget_simple_extent_npoints(cs) == 3); /* updated in place, not appended */
    CHECK(H5Sclose(cs) >= 0 && H5Dclose(d) >= 0 && H5Fclose(f) >= 0);

    /* wallbench: its own fields, and both names of each ceiling. */
    wb_results res;
    CHECK(wb_results_open(p, &res, &e) == WB_OK);
    if (res.nrows != 1) return (void)fprintf(stderr, "%s\n", e.msg);
    CHECK_NEAR(res.rows[0].m.noise, 0.004, 1e-15);
    CHECK_NEAR(res.rows[0].p.launch.occupancy_theoretical, 0.75, 1e-15);
    CHECK(res.rows[0].m.reps == 0 && res.rows[0].p.launch.sm_limit == 0);
    CHECK(strcmp(res.rows[0].name, "select/if_tile/n:1000/selectivity:0.01") == 0);
    CHECK_NEAR(wb_row_get(&res.rows[0], wb_schema_find("noise_pct")), 0.4, 1e-12);
    CHECK(wb_row_get(&res.rows[0], wb_schema_find("reps")) == -1);
    CHECK(res.nceilings == 3);
    CHECK(wb_results_ceiling(&res, "dram_read", "GB/s", NAN) == 4400.25);
    CHECK(wb_results_attr_f64(&res, "ceiling_dram_read_gbps") == 4400.25);
    CHECK(wb_results_ceiling(&res, "gather_word", "G req/s", 1073741824.0) == 2.5);
    CHECK(wb_results_attr_f64(&res, "ceiling_gather_word_1073741824B_greqs") == 2.5);
    CHECK(wb_results_attr_f64(&res, "ceiling_inst_issue_gips") == 12000);
    CHECK(isnan(wb_results_ceiling(&res, "dram_read", "G inst/s", NAN)));
    int found = 0;
    for (int i = 0; i < res.nceilings; i++)
        found += !strcmp(res.ceilings[i].kernel, "ceiling/dram_read/n:1") &&
                 !strcmp(res.ceilings[i].launch, "grid 1 x block 256, ilp 4, 8 blocks/SM");
    CHECK(found == 1);
    wb_results_free(&res);

    /* The legacy names parse as they were written, and only they. */
    wb_ceiling_entry x;
    char buf[96];
    CHECK(wb_ceiling_from_attr("ceiling_gather_sector_33554432B_greqs", &x) == 1 && !strcmp(x.name, "gather_sector") &&
          x.size_bytes == 33554432.0 && !strcmp(x.unit, "G req/s"));
    CHECK(!strcmp(wb_ceiling_attr_name(&x, buf, sizeof buf), "ceiling_gather_sector_33554432B_greqs"));
    CHECK(wb_ceiling_from_attr("ceiling_l2_read_gbps", &x) == 1 && !strcmp(x.name, "l2_read") && isnan(x.size_bytes));
    CHECK(wb_ceiling_from_attr("ceiling_points", &x) == 0 && wb_ceiling_from_attr("gpu_name", &x) == 0 &&
          wb_ceiling_from_attr("ceiling__gbps", &x) == 0);
}

/* Every committed record of schema 1-5 gives its ceilings through
 * wb_results_ceiling as through the attribute it holds. */
static void check_record_ceilings(void) {
    static const char *const records[] = {"h200/20261130T011431Z-0dafc16.h5", "h200/20261201T085547Z-6a899ef.h5",
                                          "h200/20261201T111332Z-5280b51.h5", "h200/20261201T122005Z-47c0bec.h5"};
    const char *src = getenv("WB_SOURCE_DIR");
    for (size_t i = 0; i < sizeof records / sizeof records[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/results/%s", src ? src : ".", records[i]);
        wb_results r;
        wb_err e = {""};
        CHECK(wb_results_open(path, &r, &e) == WB_OK);
        if (e.msg[0]) fprintf(stderr, "%s\n", e.msg);
        double dram = wb_results_ceiling(&r, "dram_read", "GB/s", NAN);
        CHECK(dram > 1000 && dram == wb_results_attr_f64(&r, "ceiling_dram_read_gbps"));
        CHECK(wb_results_ceiling(&r, "inst_issue", "G inst/s", NAN) > 1000);
        CHECK(r.nceilings > 5);
        wb_results_free(&r);
    }
}

int main(void) {
    char good[512];
    check_schema1_record();
    check_places_records();
    if (!mkdtemp(dir)) return perror("mkdtemp"), 1;
    in_dir(good, "rt.h5");
    write_file(good);
    check_file(good);
    check_columns_table(good);
    check_stored_string(good);
    check_stored_counts(good);
    check_metric_source();
    test_create_refusals(good);
    check_file(good); /* the refused create left it alone */
    test_open_refusals(good);
    test_reordered();
    test_older_schema();
    test_counts_schema7();
    test_schema6();
    check_record_ceilings();
    /* Nothing left open: no file, dataset, group or attribute, on the
     * store's error paths included. */
    CHECK(H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL) == 0);
    if (!wb_test_failures) {
        char cmd[600];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        CHECK(system(cmd) == 0);
    } else fprintf(stderr, "files kept in %s\n", dir);
    return TEST_DONE();
}

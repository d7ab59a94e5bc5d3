/* test_profile_h5.c - the profile file: every column of /launches, /kernels
 * and /ranges round-trips (NaN, -1, strings), attributes and /columns are
 * there, many launches go through the chunked writer, and the reader refuses
 * a file that is not HDF5, a results file, a foreign HDF5 file and another
 * profile_schema_version; wb_results_open names a profile file; counts are
 * int64 in the file (version 3), doubles in the committed version-2 profile. */
#include <hdf5.h>
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "harness/base/counters_derive.h"
#include "harness/base/metrics.h"
#include "harness/base/profile_cols.h"
#include "harness/store/profile_h5.h"
#include "harness/store/store_h5.h"
#include "tests/check.h"
#include "tests/synth_profile.h"
#include "tests/synth_results.h"

static char dir[256];

/* Byte-equal columns, NaN included (memcmp), for every row of every table. */
static void same_tables(const wb_profile *a, const wb_profile *b) {
    for (int t = 0; t < WB_PT_COUNT; t++) {
        int n;
        const wb_pcol *c = wb_pcols((wb_prof_table)t, &n);
        CHECK(wb_prof_rows(a, (wb_prof_table)t) == wb_prof_rows(b, (wb_prof_table)t));
        for (int64_t r = 0; r < wb_prof_rows(a, (wb_prof_table)t) && r < wb_prof_rows(b, (wb_prof_table)t); r++)
            for (int i = 0; i < n; i++) {
                unsigned char x[1024], y[1024];
                memset(x, 0, sizeof x), memset(y, 0, sizeof y);
                wb_pcol_get(&c[i], wb_prof_row(a, (wb_prof_table)t, r), r, x);
                wb_pcol_get(&c[i], wb_prof_row(b, (wb_prof_table)t, r), r, y);
                if (c[i].type == WB_PCOL_STR) {
                    if (strcmp((char *)x, (char *)y) != 0) {
                        fprintf(stderr, "%s row %lld column %s: '%s' != '%s'\n", wb_prof_table_name(t), (long long)r,
                                c[i].name, x, y);
                        CHECK(!"string column round-trips");
                    }
                } else if (memcmp(x, y, c[i].size) != 0) {
                    fprintf(stderr, "%s row %lld column %s differs\n", wb_prof_table_name(t), (long long)r, c[i].name);
                    CHECK(!"numeric column round-trips");
                }
            }
    }
}

static void test_round_trip(void) {
    wb_profile p, q;
    synth_profile(&p);
    wb_err e;
    CHECK(wb_profile_aggregate(&p, &synth_roof, &e) == WB_OK);
    const char *path = synth_path(dir, "p.h5");
    CHECK(wb_profile_write(path, &p, &e) == WB_OK);
    CHECK(wb_profile_write(path, &p, &e) == WB_ERR && strstr(e.msg, "exists"));
    CHECK(wb_profile_file_is(path) == 1);
    CHECK(wb_profile_read(path, &q, &e) == WB_OK);
    same_tables(&p, &q);
    CHECK(strcmp(wb_profile_attr(&q, "gpu_name"), "NVIDIA H200") == 0);
    CHECK(wb_profile_attr_f64(&q, "sm_count") == 132);
    CHECK(q.ceiling_inst_gips == 1000.0 && q.ceiling_dram_gbps == 4000.0);
    CHECK(strcmp(q.kernels[2].demangled, "cub::DeviceSort") == 0);
    CHECK(isnan(q.launches[4].time_ms) == 0 && isnan(q.launches[5].time_ms));
    CHECK(q.launches[5].range == -1);
    wb_profile sum;
    CHECK(wb_profile_read_summary(path, &sum, &e) == WB_OK);
    CHECK(sum.launches == NULL && sum.nlaunches == 7 && sum.nkernels == 3 && sum.nranges == 2);
    CHECK(sum.kernels[1].counted == 1 && strcmp(sum.ranges[1].path, "Q1/filter") == 0 && sum.nattrs == q.nattrs);
    wb_profile_free(&sum);

    /* /columns documents every column of the three tables */
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t d = H5Dopen2(f, "/columns", H5P_DEFAULT);
    hid_t s = H5Dget_space(d);
    hssize_t rows = H5Sget_simple_extent_npoints(s);
    int total = 0;
    for (int t = 0; t < WB_PT_COUNT; t++) {
        int n;
        wb_pcols((wb_prof_table)t, &n);
        total += n;
    }
    CHECK(rows == total);
    H5Sclose(s), H5Dclose(d), H5Fclose(f);
    CHECK(wb_pcol_find(WB_PT_LAUNCHES, "dram_sectors_write") && wb_pcol_find(WB_PT_KERNELS, "stall_mem_latency") &&
          wb_pcol_find(WB_PT_RANGES, "bound_gh200") && wb_pcol_find(WB_PT_KERNELS, "shape"));

    /* a results reader names the profile */
    wb_results r;
    CHECK(wb_results_open(path, &r, &e) == WB_ERR);
    CHECK(strstr(e.msg, "is a profile file (wallbench profile)") && strstr(e.msg, path));
    wb_profile_free(&p);
    wb_profile_free(&q);
}

/* More launches than one write chunk (4096): order and values kept. */
static void test_many(void) {
    wb_profile p, q;
    synth_profile(&p);
    const int64_t n = 10007;
    wb_prof_launch *l = realloc(p.launches, (size_t)n * sizeof *l);
    CHECK(l != NULL);
    if (!l) return;
    p.launches = l;
    for (int64_t i = p.nlaunches; i < n; i++) {
        l[i] = l[i % 4];
        l[i].seq = i;
        l[i].time_ms = 0.001 * (double)i;
    }
    p.nlaunches = n;
    wb_err e;
    CHECK(wb_profile_aggregate(&p, &synth_roof, &e) == WB_OK);
    const char *path = synth_path(dir, "many.h5");
    CHECK(wb_profile_write(path, &p, &e) == WB_OK);
    CHECK(wb_profile_read(path, &q, &e) == WB_OK);
    CHECK(q.nlaunches == n);
    if (q.nlaunches == n) {
        CHECK(q.launches[n - 1].seq == n - 1 && q.launches[n - 1].time_ms == 0.001 * (double)(n - 1));
        CHECK(q.launches[4097].seq == 4097);
    }
    CHECK(q.kernels[0].launches == p.kernels[0].launches);
    wb_profile_free(&p);
    wb_profile_free(&q);
}

/* Attributes other tools add (h5py: UTF-8 variable-length strings, arrays):
 * strings read, arrays left out, nothing fails. */
static void test_foreign_attrs(void) {
    wb_profile p, q;
    synth_profile(&p);
    wb_err e;
    CHECK(wb_profile_aggregate(&p, &synth_roof, &e) == WB_OK);
    const char *path = synth_path(dir, "attrs.h5");
    CHECK(wb_profile_write(path, &p, &e) == WB_OK);
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t vt = H5Tcopy(H5T_C_S1);
    H5Tset_size(vt, H5T_VARIABLE);
    H5Tset_cset(vt, H5T_CSET_UTF8);
    hid_t scalar = H5Screate(H5S_SCALAR);
    const char *note = "added by h5py";
    hid_t a = H5Acreate2(f, "user_note", vt, scalar, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(H5Awrite(a, vt, &note) >= 0);
    H5Aclose(a);
    hsize_t three = 3;
    double v[3] = {1, 2, 3};
    hid_t arr = H5Screate_simple(1, &three, NULL);
    a = H5Acreate2(f, "user_array", H5T_IEEE_F64LE, arr, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(H5Awrite(a, H5T_NATIVE_DOUBLE, v) >= 0);
    H5Aclose(a), H5Sclose(arr), H5Sclose(scalar), H5Tclose(vt), H5Fclose(f);
    CHECK(wb_profile_read(path, &q, &e) == WB_OK);
    CHECK(wb_profile_attr(&q, "user_note") && strcmp(wb_profile_attr(&q, "user_note"), note) == 0);
    CHECK(wb_profile_attr(&q, "user_array") == NULL);
    wb_profile_free(&p);
    wb_profile_free(&q);
}

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    if (f) fputs(text, f), fclose(f);
}

static void test_refusals(void) {
    wb_profile q;
    wb_err e;
    const char *txt = synth_path(dir, "not.h5");
    write_file(txt, "plain text\n");
    CHECK(wb_profile_read(txt, &q, &e) == WB_ERR && strstr(e.msg, "is not an HDF5 file") && strstr(e.msg, txt));
    CHECK(wb_profile_file_is(txt) == 0);
    CHECK(wb_profile_file_is(synth_path(dir, "absent.h5")) == -1);
    CHECK(wb_profile_read(synth_path(dir, "absent.h5"), &q, &e) == WB_ERR && strstr(e.msg, "cannot read"));

    /* a suite results file */
    const char *res = synth_path(dir, "results.h5");
    synth z;
    synth_open(&z, res, "NVIDIA H200");
    wb_row r = synth_row("select", "branch", 1 << 20, 1.0);
    synth_put(&z, &r, NULL, 0);
    CHECK(synth_close(&z) == WB_OK);
    CHECK(wb_profile_file_is(res) == 0);
    CHECK(wb_profile_read(res, &q, &e) == WB_ERR);
    CHECK(strstr(e.msg, "is a wallbench run results file, not a profile") && strstr(e.msg, res));

    /* a foreign HDF5 file, one of another kind, another version */
    const char *foreign = synth_path(dir, "foreign.h5");
    hid_t f = H5Fcreate(foreign, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    H5Fclose(f);
    CHECK(wb_profile_read(foreign, &q, &e) == WB_ERR && strstr(e.msg, "not a wallbench profile") &&
          strstr(e.msg, foreign));

    wb_profile p;
    synth_profile(&p);
    CHECK(wb_profile_aggregate(&p, &synth_roof, &e) == WB_OK);
    /* /counted_ranges (version 2) round trip: a range's counts and span come back as written */
    p.spans = calloc(1, sizeof *p.spans);
    p.nspans = 1;
    snprintf(p.spans[0].name, sizeof p.spans[0].name, "timed #3");
    p.spans[0].first_seq = 1, p.spans[0].last_seq = 2, p.spans[0].launches = 2;
    wb_counters_clear(&p.spans[0].c, "");
    p.spans[0].c.v[wb_metric_index("inst")] = 12345;
    CHECK(wb_profile_aggregate(&p, &synth_roof, &e) == WB_OK);
    const char *spans = synth_path(dir, "spans.h5");
    CHECK(wb_profile_write(spans, &p, &e) == WB_OK);
    CHECK(wb_profile_read(spans, &q, &e) == WB_OK && q.nspans == 1);
    if (q.nspans == 1) {
        CHECK(!strcmp(q.spans[0].name, "timed #3") && q.spans[0].last_seq == 2 && q.spans[0].launches == 2);
        CHECK(q.spans[0].c.v[wb_metric_index("inst")] == 12345);
        CHECK(isnan(q.spans[0].c.v[wb_metric_index("inst_issued")])); /* not counted: -1 in the file, NaN here */
    }
    wb_profile_free(&q);
    /* counts (version 3) are int64 in the file, -1 not counted; reals stay floats */
    hid_t sf = H5Fopen(spans, H5F_ACC_RDONLY, H5P_DEFAULT), sd = H5Dopen2(sf, "counted_ranges", H5P_DEFAULT);
    hid_t stype = H5Dget_type(sd), one = H5Tcreate(H5T_COMPOUND, sizeof(int64_t));
    CHECK(H5Tget_member_class(stype, (unsigned)H5Tget_member_index(stype, "inst")) == H5T_INTEGER);
    CHECK(H5Tget_member_class(stype, (unsigned)H5Tget_member_index(stype, "l1_sectors")) == H5T_INTEGER);
    CHECK(H5Tget_member_class(stype, (unsigned)H5Tget_member_index(stype, "inst_per_sector")) == H5T_FLOAT);
    int64_t raw[2] = {0, 0};
    CHECK(H5Tinsert(one, "inst", 0, H5T_NATIVE_INT64) >= 0 && H5Dread(sd, one, H5S_ALL, H5S_ALL, H5P_DEFAULT, &raw[0]) >= 0);
    CHECK(H5Tclose(one) >= 0 && (one = H5Tcreate(H5T_COMPOUND, sizeof(int64_t))) >= 0);
    CHECK(H5Tinsert(one, "inst_issued", 0, H5T_NATIVE_INT64) >= 0 &&
          H5Dread(sd, one, H5S_ALL, H5S_ALL, H5P_DEFAULT, &raw[1]) >= 0);
    CHECK(raw[0] == 12345 && raw[1] == -1);
    CHECK(H5Tclose(one) >= 0 && H5Tclose(stype) >= 0 && H5Dclose(sd) >= 0 && H5Fclose(sf) >= 0);
    /* committed profiles of two schemas read alike: modes-tpch/core.h5 (version 2, counts as doubles) and
     * the profile of record (version 5, int64 counts), both of the same 65 kernels, every one counted */
    const char *src = getenv("WB_SOURCE_DIR");
    static const char *const committed[2] = {"modes-tpch/core.h5", "tpch-both.h5"};
    for (int f = 0; f < 2; f++) {
        char rec[1024];
        snprintf(rec, sizeof rec, "%s/results/h200-profile/%s", src ? src : ".", committed[f]);
        CHECK(wb_profile_read(rec, &q, &e) == WB_OK && q.nkernels == 65);
        int whole = q.nkernels > 0;
        for (int32_t i = 0; i < q.nkernels; i++) {
            const double v = q.kernels[i].c.v[wb_metric_index("inst")];
            whole &= v > 0 && v == round(v);
        }
        CHECK(whole);
        wb_profile_free(&q);
    }
    /* a version-1 file (before /counted_ranges) reads with none; a later version is refused */
    const char *old = NULL;
    int versions[2] = {1, WB_PROFILE_SCHEMA_VERSION + 1};
    for (int k = 0; k < 2; k++) {
        old = synth_path(dir, k ? "vnext.h5" : "v1.h5");
        CHECK(wb_profile_write(old, &p, &e) == WB_OK);
        f = H5Fopen(old, H5F_ACC_RDWR, H5P_DEFAULT);
        H5Ldelete(f, "counted_ranges", H5P_DEFAULT);
        hid_t a = H5Aopen(f, "profile_schema_version", H5P_DEFAULT);
        CHECK(H5Awrite(a, H5T_NATIVE_INT, &versions[k]) >= 0);
        H5Aclose(a), H5Fclose(f);
        if (k == 0) {
            CHECK(wb_profile_read(old, &q, &e) == WB_OK && q.nspans == 0 && q.nkernels == p.nkernels);
            wb_profile_free(&q);
        }
    }
    char newer[32];
    snprintf(newer, sizeof newer, "schema version %d", WB_PROFILE_SCHEMA_VERSION + 1);
    CHECK(wb_profile_read(old, &q, &e) == WB_ERR && strstr(e.msg, newer) && strstr(e.msg, old));
    CHECK(wb_profile_file_is(old) == 1); /* still a profile: the tools then say why they cannot read it */

    /* attribute names the file keeps for itself */
    CHECK(wb_profile_attr_str(&p, "file_kind", "x", &e) == WB_OK);
    CHECK(wb_profile_write(synth_path(dir, "own.h5"), &p, &e) == WB_ERR && strstr(e.msg, "file_kind"));
    struct stat st;
    CHECK(stat(synth_path(dir, "own.h5"), &st) != 0); /* a failed write leaves no file */
    wb_profile_free(&p);
}

int main(void) {
    setenv("WB_GPUS", WB_SOURCE_DIR "/harness/gpus.tsv", 0);
    snprintf(dir, sizeof dir, "%s/test_profile_h5.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir)) return perror("mkdtemp"), 1;
    test_round_trip();
    test_many();
    test_foreign_attrs();
    test_refusals();
    synth_remove_dir(dir);
    return TEST_DONE();
}

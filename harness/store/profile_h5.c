/* profile_h5.c - the profile file (see profile_h5.h): written in one go once
 * the program has run and its passes are matched, tables in row chunks
 * through a bounded buffer; read back with the same column lists
 * (harness/base/profile_cols.h), refusing any file that is not one. */
#include "harness/store/profile_h5.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/base/counters_derive.h"
#include "harness/base/profile_agg.h"
#include "harness/base/profile_cols.h"
#include "harness/store/h5util.h"

/* Rows converted per HDF5 call: bounds the buffer at a few MiB whatever the
 * number of launches (a launch row is about 650 bytes). */
#define CHUNK_ROWS 4096
#define ROOF_INST_ATTR "roof_inst_gips"
#define ROOF_DRAM_ATTR "roof_dram_gbps"
#define KIND_ATTR "file_kind"
#define VERSION_ATTR "profile_schema_version"

typedef struct io {
    const char *path;
    wb_err *e;
} io;

/* A count (wb_pcol.count) is a double in memory and an int64 in the file (HDF5 converts both ways). */
static hid_t member_type(const wb_pcol *c, int layout, const io *x, int *owned) {
    *owned = 0;
    if (c->count && layout == WB_H5_FILE) return H5T_STD_I64LE;
    switch (c->type) {
    case WB_PCOL_I32: return layout == WB_H5_FILE ? H5T_STD_I32LE : H5T_NATIVE_INT32;
    case WB_PCOL_I64: return layout == WB_H5_FILE ? H5T_STD_I64LE : H5T_NATIVE_INT64;
    case WB_PCOL_F64: return layout == WB_H5_FILE ? H5T_IEEE_F64LE : H5T_NATIVE_DOUBLE;
    default: *owned = 1; return wb_h5_str_type(c->size, x->path, x->e);
    }
}

/* Packed compound of the table's columns (skip[i] set: left out), native
 * or little-endian; *size gets its size. */
static hid_t table_type(wb_prof_table t, int layout, const unsigned char *skip, size_t *size, const io *x) {
    int n;
    const wb_pcol *c = wb_pcols(t, &n);
    size_t total = 0;
    for (int i = 0; i < n; i++)
        if (!skip || !skip[i]) total += c[i].size;
    hid_t ct = H5Tcreate(H5T_COMPOUND, total);
    if (ct < 0) return wb_h5_fail(x->e, x->path, "H5Tcreate(H5T_COMPOUND)");
    size_t at = 0;
    for (int i = 0; i < n; i++) {
        if (skip && skip[i]) continue;
        int owned;
        hid_t mt = member_type(&c[i], layout, x, &owned);
        int rc = mt < 0 ? WB_ERR : WB_OK;
        if (rc == WB_OK && H5Tinsert(ct, c[i].name, at, mt) < 0) rc = wb_h5_fail(x->e, x->path, "H5Tinsert");
        if (owned) rc = wb_h5_end(rc, mt, x->path, x->e);
        if (rc != WB_OK) {
            wb_h5_drop(ct);
            return -1;
        }
        at += c[i].size;
    }
    *size = total;
    return ct;
}

/* Scalar attribute of file type ft from buf in memory type mt. */
static int put_attr(hid_t loc, const char *name, hid_t ft, hid_t mt, const void *buf, const io *x) {
    hid_t space = H5Screate(H5S_SCALAR), a = -1;
    int rc = WB_OK;
    if (space < 0) return wb_h5_fail(x->e, x->path, "H5Screate(H5S_SCALAR)");
    if ((a = H5Acreate2(loc, name, ft, space, H5P_DEFAULT, H5P_DEFAULT)) < 0)
        rc = wb_h5_fail(x->e, x->path, "H5Acreate2");
    else if (H5Awrite(a, mt, buf) < 0)
        rc = wb_h5_fail(x->e, x->path, "H5Awrite");
    rc = wb_h5_end(rc, a, x->path, x->e);
    return wb_h5_end(rc, space, x->path, x->e);
}

static int put_str(hid_t loc, const char *name, const char *value, const io *x) {
    hid_t t = wb_h5_str_type(strlen(value) + 1, x->path, x->e);
    if (t < 0) return WB_ERR;
    return wb_h5_end(put_attr(loc, name, t, t, value, x), t, x->path, x->e);
}

static int put_num(hid_t loc, const char *name, double v, const io *x) {
    return put_attr(loc, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &v, x);
}

static int write_attrs(hid_t root, const wb_profile *p, const io *x) {
    int32_t version = WB_PROFILE_SCHEMA_VERSION;
    if (put_str(root, KIND_ATTR, WB_PROFILE_FILE_KIND, x) != WB_OK) return WB_ERR;
    if (put_attr(root, VERSION_ATTR, H5T_STD_I32LE, H5T_NATIVE_INT32, &version, x) != WB_OK) return WB_ERR;
    for (int32_t i = 0; i < p->nattrs; i++) {
        const wb_prof_attr *a = &p->attrs[i];
        if (strcmp(a->name, KIND_ATTR) == 0 || strcmp(a->name, VERSION_ATTR) == 0)
            return wb_fail(x->e, "%s: attribute %s is the file's own and cannot be set", x->path, a->name);
        int rc = a->is_number ? put_num(root, a->name, strtod(a->value, NULL), x) : put_str(root, a->name, a->value, x);
        if (rc != WB_OK) return wb_fail(x->e, "%s (attribute %s)", x->e->msg, a->name);
    }
    /* The roof the derived columns were computed against, unless the driver
     * named it itself. */
    if (!wb_profile_attr(p, ROOF_INST_ATTR) && put_num(root, ROOF_INST_ATTR, p->ceiling_inst_gips, x) != WB_OK)
        return WB_ERR;
    if (!wb_profile_attr(p, ROOF_DRAM_ATTR) && put_num(root, ROOF_DRAM_ATTR, p->ceiling_dram_gbps, x) != WB_OK)
        return WB_ERR;
    return WB_OK;
}

/* A chunked 1-D dataset of n elements of file type ft (shuffle and deflate
 * where the library has it: counter columns of uncounted launches are all
 * NaN; the shuffle puts each column's bytes together, which halved a
 * sampled timeline of 162,806 rows, 3.7 to 1.7 MB). */
static hid_t create_table(hid_t file, const char *name, hid_t ft, hsize_t n, const io *x) {
    hsize_t dims = n, maxdims = H5S_UNLIMITED, chunk = n < CHUNK_ROWS ? (n ? n : 1) : CHUNK_ROWS;
    hid_t space = H5Screate_simple(1, &dims, &maxdims), dcpl = -1, d = -1;
    if (space < 0) return wb_h5_fail(x->e, x->path, "H5Screate_simple");
    int rc = WB_OK;
    htri_t deflate = 0;
    if ((dcpl = H5Pcreate(H5P_DATASET_CREATE)) < 0) rc = wb_h5_fail(x->e, x->path, "H5Pcreate");
    else if (H5Pset_chunk(dcpl, 1, &chunk) < 0) rc = wb_h5_fail(x->e, x->path, "H5Pset_chunk");
    else if ((deflate = H5Zfilter_avail(H5Z_FILTER_DEFLATE)) < 0) rc = wb_h5_fail(x->e, x->path, "H5Zfilter_avail");
    else if (deflate > 0 && (H5Pset_shuffle(dcpl) < 0 || H5Pset_deflate(dcpl, 4) < 0))
        rc = wb_h5_fail(x->e, x->path, "H5Pset_shuffle/H5Pset_deflate");
    else if ((d = H5Dcreate2(file, name, ft, space, H5P_DEFAULT, dcpl, H5P_DEFAULT)) < 0)
        rc = wb_h5_fail(x->e, x->path, "H5Dcreate2");
    rc = wb_h5_end(rc, dcpl, x->path, x->e);
    rc = wb_h5_end(rc, space, x->path, x->e);
    if (rc != WB_OK) {
        wb_h5_drop(d);
        return -1;
    }
    return d;
}

/* Elements [at, at + count) of d, from or into buf, as mtype. */
static int block_io(hid_t d, hid_t mtype, hsize_t at, hsize_t count, void *buf, int write, const io *x) {
    hid_t fspace = H5Dget_space(d), mspace = -1;
    if (fspace < 0) return wb_h5_fail(x->e, x->path, "H5Dget_space");
    int rc = WB_OK;
    if (H5Sselect_hyperslab(fspace, H5S_SELECT_SET, &at, NULL, &count, NULL) < 0)
        rc = wb_h5_fail(x->e, x->path, "H5Sselect_hyperslab");
    else if ((mspace = H5Screate_simple(1, &count, NULL)) < 0)
        rc = wb_h5_fail(x->e, x->path, "H5Screate_simple");
    else if (write && H5Dwrite(d, mtype, mspace, fspace, H5P_DEFAULT, buf) < 0)
        rc = wb_h5_fail(x->e, x->path, "H5Dwrite");
    else if (!write && H5Dread(d, mtype, mspace, fspace, H5P_DEFAULT, buf) < 0)
        rc = wb_h5_fail(x->e, x->path, "H5Dread");
    rc = wb_h5_end(rc, mspace, x->path, x->e);
    return wb_h5_end(rc, fspace, x->path, x->e);
}

static int write_table(hid_t file, const wb_profile *p, wb_prof_table t, const io *x) {
    int n;
    const wb_pcol *c = wb_pcols(t, &n);
    size_t msize, fsize;
    hid_t mt = table_type(t, WB_H5_MEMORY, NULL, &msize, x);
    if (mt < 0) return WB_ERR;
    hid_t ft = table_type(t, WB_H5_FILE, NULL, &fsize, x);
    if (ft < 0) {
        wb_h5_drop(mt);
        return WB_ERR;
    }
    const int64_t rows = wb_prof_rows(p, t);
    char name[16];
    snprintf(name, sizeof name, "/%s", wb_prof_table_name(t));
    hid_t d = create_table(file, name, ft, (hsize_t)rows, x);
    int rc = d < 0 ? WB_ERR : WB_OK;
    unsigned char *buf = rc == WB_OK ? malloc(CHUNK_ROWS * msize) : NULL;
    if (rc == WB_OK && !buf) rc = wb_fail(x->e, "%s: out of memory for a %s block", x->path, name);
    for (int64_t at = 0; rc == WB_OK && at < rows; at += CHUNK_ROWS) {
        int64_t count = rows - at < CHUNK_ROWS ? rows - at : CHUNK_ROWS;
        memset(buf, 0, (size_t)count * msize);
        for (int64_t r = 0; r < count; r++) {
            const void *row = wb_prof_row(p, t, at + r);
            unsigned char *dst = buf + (size_t)r * msize;
            for (int i = 0; i < n; i++) {
                wb_pcol_get(&c[i], row, at + r, dst);
                if (c[i].count) { /* whole, -1 not counted (a sampled launch's split share rounds) */
                    double v;
                    memcpy(&v, dst, sizeof v);
                    v = v >= 0 && v < 9e18 ? round(v) : -1; /* NaN, inf or no count at all: -1 */
                    memcpy(dst, &v, sizeof v);
                }
                dst += c[i].size;
            }
        }
        rc = block_io(d, mt, (hsize_t)at, (hsize_t)count, buf, 1, x);
    }
    free(buf);
    rc = wb_h5_end(rc, d, x->path, x->e);
    rc = wb_h5_end(rc, ft, x->path, x->e);
    return wb_h5_end(rc, mt, x->path, x->e);
}

/* /columns: one row per column of the three tables. */
typedef struct colrow {
    char table[16], name[48], unit[24], description[200];
} colrow;

static hid_t columns_type(const io *x) {
    static const struct {
        const char *name;
        size_t size, off;
    } m[] = {{"table", 16, offsetof(colrow, table)},
             {"name", 48, offsetof(colrow, name)},
             {"unit", 24, offsetof(colrow, unit)},
             {"description", 200, offsetof(colrow, description)}};
    hid_t ct = H5Tcreate(H5T_COMPOUND, sizeof(colrow));
    if (ct < 0) return wb_h5_fail(x->e, x->path, "H5Tcreate(H5T_COMPOUND)");
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
        hid_t st = wb_h5_str_type(m[i].size, x->path, x->e);
        int rc = st < 0 ? WB_ERR : WB_OK;
        if (rc == WB_OK && H5Tinsert(ct, m[i].name, m[i].off, st) < 0) rc = wb_h5_fail(x->e, x->path, "H5Tinsert");
        if (wb_h5_end(rc, st, x->path, x->e) != WB_OK) {
            wb_h5_drop(ct);
            return -1;
        }
    }
    return ct;
}

static int write_columns(hid_t file, const io *x) {
    int total = 0;
    for (int t = 0; t < WB_PT_COUNT; t++) {
        int n;
        wb_pcols((wb_prof_table)t, &n);
        total += n;
    }
    colrow *rows = calloc((size_t)total, sizeof *rows);
    if (!rows) return wb_fail(x->e, "%s: out of memory for /columns", x->path);
    int k = 0;
    for (int t = 0; t < WB_PT_COUNT; t++) {
        int n;
        const wb_pcol *c = wb_pcols((wb_prof_table)t, &n);
        for (int i = 0; i < n; i++, k++) {
            snprintf(rows[k].table, sizeof rows[k].table, "%s", wb_prof_table_name((wb_prof_table)t));
            snprintf(rows[k].name, sizeof rows[k].name, "%s", c[i].name);
            snprintf(rows[k].unit, sizeof rows[k].unit, "%s", c[i].unit);
            snprintf(rows[k].description, sizeof rows[k].description, "%s", c[i].desc);
        }
    }
    hid_t ct = columns_type(x);
    int rc = ct < 0 ? WB_ERR : WB_OK;
    hid_t d = rc == WB_OK ? create_table(file, "/columns", ct, (hsize_t)total, x) : -1;
    if (rc == WB_OK && d < 0) rc = WB_ERR;
    if (rc == WB_OK) rc = block_io(d, ct, 0, (hsize_t)total, rows, 1, x);
    free(rows);
    rc = wb_h5_end(rc, d, x->path, x->e);
    return wb_h5_end(rc, ct, x->path, x->e);
}

int wb_profile_write(const char *path, const wb_profile *p, wb_err *e) {
    io x = {path, e};
    if (access(path, F_OK) == 0) return wb_fail(e, "%s: exists; a profile file is never overwritten", path);
    if (wb_h5_quiet(path, e) != WB_OK) return WB_ERR;
    hid_t file = H5Fcreate(path, H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT);
    if (file < 0) return wb_h5_fail(e, path, "H5Fcreate");
    hid_t root = H5Gopen2(file, "/", H5P_DEFAULT);
    int rc = root < 0 ? wb_h5_fail(e, path, "H5Gopen2(/)") : WB_OK;
    if (rc == WB_OK) rc = write_attrs(root, p, &x);
    for (int t = 0; rc == WB_OK && t < WB_PT_COUNT; t++) rc = write_table(file, p, (wb_prof_table)t, &x);
    if (rc == WB_OK) rc = write_columns(file, &x);
    rc = wb_h5_end(rc, root, path, e);
    rc = wb_h5_end(rc, file, path, e);
    if (rc != WB_OK) unlink(path); /* half a profile must not read as a whole one */
    return rc;
}

/* ---- reading ---- */

typedef struct reader {
    io x;
    hid_t file, root;
    wb_profile *out;
    int failed;
    int version;     /* the file's profile_schema_version */
} reader;

/* The root attribute name as a string into buf (fixed or variable length);
 * 1 read, 0 absent or not a string, -1 error. */
static int attr_string(hid_t root, const char *name, char *buf, size_t len, const io *x) {
    htri_t has = H5Aexists(root, name);
    if (has < 0) return wb_h5_fail(x->e, x->path, "H5Aexists"), -1;
    if (!has) return 0;
    hid_t a = H5Aopen(root, name, H5P_DEFAULT), t = -1, mt = -1;
    if (a < 0) return wb_h5_fail(x->e, x->path, "H5Aopen"), -1;
    int rc = 1;
    if ((t = H5Aget_type(a)) < 0) rc = (wb_h5_fail(x->e, x->path, "H5Aget_type"), -1);
    else if (H5Tget_class(t) != H5T_STRING) rc = 0;
    else if (H5Tis_variable_str(t) > 0) {
        char *s = NULL;
        /* same character set as the file's (h5py writes UTF-8; HDF5 converts none into another) */
        H5T_cset_t cset = H5Tget_cset(t);
        if (cset < 0) rc = (wb_h5_fail(x->e, x->path, "H5Tget_cset"), -1);
        else if ((mt = H5Tcopy(H5T_C_S1)) < 0 || H5Tset_size(mt, H5T_VARIABLE) < 0 || H5Tset_cset(mt, cset) < 0)
            rc = (wb_h5_fail(x->e, x->path, "H5Tcopy/H5Tset_size/H5Tset_cset"), -1);
        else if (H5Aread(a, mt, &s) < 0) rc = (wb_h5_fail(x->e, x->path, "H5Aread"), -1);
        else snprintf(buf, len, "%s", s ? s : "");
        if (s) H5free_memory(s);
    } else {
        size_t size = H5Tget_size(t);
        char *s = size ? calloc(size + 1, 1) : NULL;
        if (!size) rc = (wb_h5_fail(x->e, x->path, "H5Tget_size"), -1);
        else if (!s) rc = (wb_fail(x->e, "%s: out of memory for an attribute", x->path), -1);
        else if (H5Aread(a, t, s) < 0) rc = (wb_h5_fail(x->e, x->path, "H5Aread"), -1);
        else snprintf(buf, len, "%s", s);
        free(s);
    }
    wb_h5_drop(mt);
    wb_h5_drop(t);
    wb_h5_drop(a);
    return rc;
}

static int check_kind(reader *rd) {
    const io *x = &rd->x;
    char kind[64] = "";
    int has = attr_string(rd->root, KIND_ATTR, kind, sizeof kind, x);
    if (has < 0) return WB_ERR;
    if (has == 0) {
        htri_t points = H5Lexists(rd->file, "points", H5P_DEFAULT);
        htri_t version = H5Aexists(rd->root, "schema_version");
        if (points > 0 && version > 0)
            return wb_fail(x->e, "%s is a wallbench run results file, not a profile (wallbench profile -- CMD makes one)",
                           x->path);
        return wb_fail(x->e, "%s is an HDF5 file but not a wallbench profile (no %s attribute)", x->path, KIND_ATTR);
    }
    if (strcmp(kind, WB_PROFILE_FILE_KIND) != 0)
        return wb_fail(x->e, "%s is an HDF5 file of kind \"%s\", not a wallbench profile", x->path, kind);
    htri_t hv = H5Aexists(rd->root, VERSION_ATTR);
    if (hv < 0) return wb_h5_fail(x->e, x->path, "H5Aexists(" VERSION_ATTR ")");
    if (!hv) return wb_fail(x->e, "%s is a profile without a %s attribute, which this build cannot read", x->path, VERSION_ATTR);
    hid_t a = H5Aopen(rd->root, VERSION_ATTR, H5P_DEFAULT);
    if (a < 0) return wb_h5_fail(x->e, x->path, "H5Aopen(" VERSION_ATTR ")");
    int version = -1, rc = WB_OK;
    hid_t t = H5Aget_type(a);
    if (t < 0) rc = wb_h5_fail(x->e, x->path, "H5Aget_type");
    else if (H5Tget_class(t) != H5T_INTEGER)
        rc = wb_fail(x->e, "%s is a profile whose %s is not an integer, which this build cannot read", x->path, VERSION_ATTR);
    else if (H5Aread(a, H5T_NATIVE_INT, &version) < 0) rc = wb_h5_fail(x->e, x->path, "H5Aread(" VERSION_ATTR ")");
    rc = wb_h5_end(rc, t, x->path, x->e);
    rc = wb_h5_end(rc, a, x->path, x->e);
    if (rc == WB_OK && (version < 1 || version > WB_PROFILE_SCHEMA_VERSION))
        rc = wb_fail(x->e, "%s is a profile of schema version %d; this build reads versions 1 to %d", x->path, version,
                     WB_PROFILE_SCHEMA_VERSION);
    rd->version = version;
    return rc;
}

static herr_t attr_entry(hid_t loc, const char *name, const H5A_info_t *info, void *data) {
    (void)info;
    reader *rd = data;
    const io *x = &rd->x;
    if (strcmp(name, KIND_ATTR) == 0 || strcmp(name, VERSION_ATTR) == 0) return 0;
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    if (a < 0) return rd->failed = wb_h5_fail(x->e, x->path, "H5Aopen"), -1;
    hid_t t = H5Aget_type(a), space = H5Aget_space(a);
    H5T_class_t cls = t < 0 ? H5T_NO_CLASS : H5Tget_class(t);
    /* scalars only: an array attribute another tool added is not provenance this build reads */
    if (space < 0 || H5Sget_simple_extent_npoints(space) != 1) cls = H5T_NO_CLASS;
    wb_h5_drop(space);
    wb_h5_drop(t);
    int rc = WB_OK;
    if (cls == H5T_INTEGER || cls == H5T_FLOAT) {
        double v;
        if (H5Aread(a, H5T_NATIVE_DOUBLE, &v) < 0) rc = wb_h5_fail(x->e, x->path, "H5Aread");
        else rc = wb_profile_attr_num(rd->out, name, v, x->e);
    } else if (cls == H5T_STRING) {
        char value[sizeof(((wb_prof_attr *)0)->value)];
        /* A longer value (written by another tool) is cut to what wb_prof_attr holds. */
        if (attr_string(loc, name, value, sizeof value, x) < 0) rc = WB_ERR;
        else rc = wb_profile_attr_str(rd->out, name, value, x->e);
    }
    wb_h5_drop(a);
    if (rc != WB_OK) {
        rd->failed = WB_ERR;
        return -1;
    }
    return 0;
}

static int read_attrs(reader *rd) {
    hsize_t idx = 0;
    herr_t rc = H5Aiterate2(rd->root, H5_INDEX_NAME, H5_ITER_INC, &idx, attr_entry, rd);
    if (rd->failed) return WB_ERR;
    if (rc < 0) return wb_h5_fail(rd->x.e, rd->x.path, "H5Aiterate2");
    rd->out->ceiling_inst_gips = wb_profile_attr_f64(rd->out, ROOF_INST_ATTR);
    rd->out->ceiling_dram_gbps = wb_profile_attr_f64(rd->out, ROOF_DRAM_ATTR);
    return WB_OK;
}

static void init_rows(wb_prof_table t, void *rows, int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        wb_counters *c = NULL;
        if (t == WB_PT_LAUNCHES) {
            c = &((wb_prof_launch *)rows)[i].c;
            ((wb_prof_launch *)rows)[i].dram_sectors_write_after = NAN; /* a file before 6 */
        }
        if (t == WB_PT_KERNELS) {
            c = &((wb_prof_kernel *)rows)[i].c;
            for (int s = 0; s < WB_SPREAD_N; s++) ((wb_prof_kernel *)rows)[i].spread_pct[s] = NAN; /* a file before 5 */
        }
        if (t == WB_PT_RANGES) c = &((wb_prof_range *)rows)[i].c;
        if (t == WB_PT_SPANS) c = &((wb_prof_span *)rows)[i].c;
        if (t == WB_PT_SAMPLES) c = &((wb_prof_sample *)rows)[i].c;
        wb_counters_clear(c, "");
    }
}

static size_t row_size(wb_prof_table t) {
    return t == WB_PT_LAUNCHES ? sizeof(wb_prof_launch)
           : t == WB_PT_KERNELS ? sizeof(wb_prof_kernel)
           : t == WB_PT_RANGES  ? sizeof(wb_prof_range)
           : t == WB_PT_SPANS   ? sizeof(wb_prof_span)
                                : sizeof(wb_prof_sample);
}

/* Every column this build writes but those newer than the file (skip) must be in the file with the same class (a count: an integer from
 * WB_PROFILE_SCHEMA_COUNTS on, a float before; HDF5 converts either to the double it is read into). */
static int check_members(const char *name, hid_t ft, wb_prof_table t, const unsigned char *skip, const io *x) {
    int n;
    const wb_pcol *c = wb_pcols(t, &n);
    for (int i = 0; i < n; i++) {
        if (skip[i]) continue;
        int idx = H5Tget_member_index(ft, c[i].name);
        if (idx < 0) return wb_fail(x->e, "%s: %s lacks column %s: not a profile this build wrote", x->path, name, c[i].name);
        H5T_class_t cls = H5Tget_member_class(ft, (unsigned)idx);
        H5T_class_t want = c[i].type == WB_PCOL_STR ? H5T_STRING : c[i].type == WB_PCOL_F64 ? H5T_FLOAT : H5T_INTEGER;
        if (c[i].count && cls == H5T_INTEGER) want = cls;
        if (cls != want) return wb_fail(x->e, "%s: %s column %s has another type than this build writes", x->path, name, c[i].name);
    }
    return WB_OK;
}

static int read_table(reader *rd, wb_prof_table t) {
    const io *x = &rd->x;
    char name[16];
    snprintf(name, sizeof name, "/%s", wb_prof_table_name(t));
    htri_t has = H5Lexists(rd->file, name + 1, H5P_DEFAULT);
    if (has < 0) return wb_h5_fail(x->e, x->path, "H5Lexists");
    if (!has) return wb_fail(x->e, "%s is a profile without %s: damaged or cut short", x->path, name);
    hid_t d = H5Dopen2(rd->file, name, H5P_DEFAULT), ft = -1, space = -1, mt = -1;
    if (d < 0) return wb_h5_fail(x->e, x->path, "H5Dopen2");
    hsize_t rows = 0;
    int rc = WB_OK, n;
    const wb_pcol *c = wb_pcols(t, &n);
    unsigned char skip[WB_PCOLS_MAX] = {0}; /* columns newer than the file: left at init_rows' value */
    for (int i = 0; i < n && i < WB_PCOLS_MAX; i++) skip[i] = c[i].since > rd->version;
    if ((ft = H5Dget_type(d)) < 0) rc = wb_h5_fail(x->e, x->path, "H5Dget_type");
    else if (H5Tget_class(ft) != H5T_COMPOUND) rc = wb_fail(x->e, "%s: %s is not a table", x->path, name);
    else if ((rc = check_members(name, ft, t, skip, x)) != WB_OK) {
    } else if ((space = H5Dget_space(d)) < 0) rc = wb_h5_fail(x->e, x->path, "H5Dget_space");
    else if (H5Sget_simple_extent_ndims(space) != 1) rc = wb_fail(x->e, "%s: %s is not one-dimensional", x->path, name);
    else if (H5Sget_simple_extent_dims(space, &rows, NULL) < 0) rc = wb_h5_fail(x->e, x->path, "H5Sget_simple_extent_dims");
    size_t msize = 0;
    if (rc == WB_OK && (mt = table_type(t, WB_H5_MEMORY, skip, &msize, x)) < 0) rc = WB_ERR;
    void *arr = NULL;
    unsigned char *buf = NULL;
    if (rc == WB_OK) {
        arr = calloc((size_t)rows + 1, row_size(t));
        buf = malloc(CHUNK_ROWS * msize);
        if (!arr || !buf) rc = wb_fail(x->e, "%s: out of memory for %llu rows of %s", x->path, (unsigned long long)rows, name);
    }
    if (rc == WB_OK) {
        init_rows(t, arr, (int64_t)rows);
        if (t == WB_PT_LAUNCHES) rd->out->launches = arr, rd->out->nlaunches = (int64_t)rows;
        if (t == WB_PT_KERNELS) rd->out->kernels = arr, rd->out->nkernels = (int32_t)rows;
        if (t == WB_PT_RANGES) rd->out->ranges = arr, rd->out->nranges = (int32_t)rows;
        if (t == WB_PT_SPANS) rd->out->spans = arr, rd->out->nspans = (int32_t)rows;
        if (t == WB_PT_SAMPLES) rd->out->samples = arr, rd->out->nsamples = (int64_t)rows;
        arr = NULL;
    }
    for (hsize_t at = 0; rc == WB_OK && at < rows; at += CHUNK_ROWS) {
        hsize_t count = rows - at < CHUNK_ROWS ? rows - at : CHUNK_ROWS;
        rc = block_io(d, mt, at, count, buf, 0, x);
        for (hsize_t r = 0; rc == WB_OK && r < count; r++) {
            void *row = wb_prof_row(rd->out, t, (int64_t)(at + r));
            const unsigned char *src = buf + r * msize;
            for (int i = 0; i < n; i++) {
                if (skip[i]) continue;
                double v = 0, not_counted = NAN;
                if (c[i].count && rd->version >= WB_PROFILE_SCHEMA_COUNTS) memcpy(&v, src, sizeof v);
                wb_pcol_set(&c[i], row, v == -1 ? (const void *)&not_counted : src); /* a count of -1: NaN */
                src += c[i].size;
            }
        }
    }
    free(arr);
    free(buf);
    rc = wb_h5_end(rc, mt, x->path, x->e);
    rc = wb_h5_end(rc, space, x->path, x->e);
    rc = wb_h5_end(rc, ft, x->path, x->e);
    return wb_h5_end(rc, d, x->path, x->e);
}

/* Launch rows must point at rows that exist: the tools index with them. */
static int check_refs(const reader *rd) {
    const wb_profile *p = rd->out;
    for (int64_t i = 0; i < p->nlaunches; i++) {
        const wb_prof_launch *l = &p->launches[i];
        if (l->kernel < 0 || l->kernel >= p->nkernels || l->range < -1 || l->range >= p->nranges)
            return wb_fail(rd->x.e, "%s: /launches row %lld names kernel %d / range %d, which do not exist", rd->x.path,
                           (long long)i, l->kernel, l->range);
    }
    return WB_OK;
}

/* Rows of /launches without reading them. */
static int count_launches(reader *rd) {
    const io *x = &rd->x;
    hid_t d = H5Dopen2(rd->file, "/launches", H5P_DEFAULT);
    if (d < 0) return wb_h5_fail(x->e, x->path, "H5Dopen2(/launches)");
    hid_t space = H5Dget_space(d);
    hsize_t rows = 0;
    int rc = WB_OK;
    if (space < 0) rc = wb_h5_fail(x->e, x->path, "H5Dget_space");
    else if (H5Sget_simple_extent_ndims(space) != 1) rc = wb_fail(x->e, "%s: /launches is not one-dimensional", x->path);
    else if (H5Sget_simple_extent_dims(space, &rows, NULL) < 0) rc = wb_h5_fail(x->e, x->path, "H5Sget_simple_extent_dims");
    rd->out->nlaunches = (int64_t)rows;
    rc = wb_h5_end(rc, space, x->path, x->e);
    return wb_h5_end(rc, d, x->path, x->e);
}

static int read_profile(const char *path, wb_profile *out, int launches, wb_err *e) {
    memset(out, 0, sizeof *out);
    out->ceiling_inst_gips = out->ceiling_dram_gbps = NAN;
    if (access(path, R_OK) != 0) return wb_fail(e, "%s: cannot read: %s", path, strerror(errno));
    if (wb_h5_quiet(path, e) != WB_OK) return WB_ERR;
    htri_t is = H5Fis_hdf5(path);
    if (is < 0) return wb_h5_fail(e, path, "H5Fis_hdf5");
    if (is == 0) return wb_fail(e, "%s is not an HDF5 file, so not a wallbench profile", path);
    reader rd = {{path, e}, -1, -1, out, WB_OK, 0};
    if ((rd.file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT)) < 0) return wb_h5_fail(e, path, "H5Fopen");
    int rc = WB_OK;
    if ((rd.root = H5Gopen2(rd.file, "/", H5P_DEFAULT)) < 0) rc = wb_h5_fail(e, path, "H5Gopen2(/)");
    if (rc == WB_OK) rc = check_kind(&rd);
    if (rc == WB_OK) rc = read_attrs(&rd);
    for (int t = launches ? 0 : 1; rc == WB_OK && t < WB_PT_COUNT; t++) {
        /* the tables of one mode (counted ranges, samples): absent means none (version 1 files never have them) */
        char name[32];
        snprintf(name, sizeof name, "%s", wb_prof_table_name((wb_prof_table)t));
        htri_t has = WB_PT_SINCE_V2(t) ? H5Lexists(rd.file, name, H5P_DEFAULT) : 1;
        if (has < 0) rc = wb_h5_fail(e, path, "H5Lexists");
        else if (has > 0 && (!WB_PT_SINCE_V2(t) || rd.version >= 2)) rc = read_table(&rd, (wb_prof_table)t);
    }
    if (rc == WB_OK) rc = launches ? check_refs(&rd) : count_launches(&rd);
    rc = wb_h5_end(rc, rd.root, path, e);
    rc = wb_h5_end(rc, rd.file, path, e);
    if (rc != WB_OK) wb_profile_free(out);
    return rc;
}

int wb_profile_read(const char *path, wb_profile *out, wb_err *e) {
    return read_profile(path, out, 1, e);
}

int wb_profile_read_summary(const char *path, wb_profile *out, wb_err *e) {
    return read_profile(path, out, 0, e);
}

int wb_profile_file_is(const char *path) {
    wb_err e;
    if (access(path, R_OK) != 0) return -1;
    if (wb_h5_quiet(path, &e) != WB_OK) return -1;
    htri_t is = H5Fis_hdf5(path);
    if (is < 0) return -1;
    if (is == 0) return 0;
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (file < 0) return -1;
    hid_t root = H5Gopen2(file, "/", H5P_DEFAULT);
    char kind[64] = "";
    io x = {path, &e};
    int has = root < 0 ? -1 : attr_string(root, KIND_ATTR, kind, sizeof kind, &x);
    wb_h5_drop(root);
    wb_h5_drop(file);
    if (has < 0) return -1;
    return has == 1 && strcmp(kind, WB_PROFILE_FILE_KIND) == 0;
}

/* results_h5.c - the results reader (see store_h5.h): checks that a file is
 * a wallbench results file of this build's schema before trusting it, then
 * reads /points by column name, every root attribute, and /samples grouped
 * by point. A file left by a killed run reads like any other: the writer
 * flushed after every point, and nothing here needs the file closed cleanly. */
#include "harness/store/store_h5.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/store/h5util.h"
#include "harness/store/profile_h5.h"
#include "harness/store/schema.h"

/* Rows are converted through a bounded buffer so that reading a large file
 * costs one extra block, not a second copy of every row. */
#define READ_BLOCK 4096

typedef struct reader {
    const char *path;
    hid_t file, root;
    wb_results *out;
    wb_err *e;
    int failed; /* set by the attribute callback, which cannot return a wb_err */
    wb_h5_flushed flushed; /* how much of /points and /samples to read; -1: all */
    int version;           /* the file's schema_version */
} reader;

static int check_version(reader *rd) {
    const char *p = rd->path;
    htri_t has = H5Aexists(rd->root, "schema_version");
    if (has < 0) return wb_h5_fail(rd->e, p, "H5Aexists(schema_version)");
    if (!has) return wb_fail(rd->e, "%s: no schema_version attribute: not a wallbench results file", p);
    hid_t a = H5Aopen(rd->root, "schema_version", H5P_DEFAULT);
    if (a < 0) return wb_h5_fail(rd->e, p, "H5Aopen(schema_version)");
    hid_t t = H5Aget_type(a);
    int version = 0, rc = WB_OK;
    if (t < 0) rc = wb_h5_fail(rd->e, p, "H5Aget_type(schema_version)");
    else if (H5Tget_class(t) != H5T_INTEGER)
        rc = wb_fail(rd->e, "%s: schema_version is not an integer: not a wallbench results file", p);
    else if (H5Aread(a, H5T_NATIVE_INT, &version) < 0)
        rc = wb_h5_fail(rd->e, p, "H5Aread(schema_version)");
    rc = wb_h5_end(rc, t, p, rd->e);
    rc = wb_h5_end(rc, a, p, rd->e);
    if (rc == WB_OK && (version < WB_SCHEMA_OLDEST || version > WB_SCHEMA_VERSION))
        rc = wb_fail(rd->e, "%s: written with schema %d, this build reads %d to %d", p, version, WB_SCHEMA_OLDEST,
                     WB_SCHEMA_VERSION);
    rd->version = version;
    return rc;
}

static const char *class_name(H5T_class_t c) {
    switch (c) {
    case H5T_INTEGER: return "an integer";
    case H5T_FLOAT: return "a float";
    case H5T_STRING: return "a string";
    default: return "neither number nor string";
    }
}

/* Every column this build knows must be in the file type, as a number or a
 * fixed-length string as schema.h says (HDF5 converts integer widths and
 * string lengths, but not one class into another). */
static int check_columns(reader *rd, hid_t ftype) {
    const char *p = rd->path;
    int n, missing = 0;
    const wb_column *c = wb_schema_columns(&n);
    char list[600] = "";
    for (int i = 0; i < n; i++) {
        if (c[i].since > rd->version) continue; /* newer than the file: reads as "not applicable" */
        const char *name = wb_column_name_in(&c[i], rd->version);
        int idx = H5Tget_member_index(ftype, name);
        if (idx < 0) {
            size_t at = strlen(list);
            snprintf(list + at, sizeof list - at, "%s%s", missing ? ", " : "", name);
            missing++;
            continue;
        }
        H5T_class_t cls = H5Tget_member_class(ftype, (unsigned)idx);
        if (cls < 0) return wb_h5_fail(rd->e, p, "H5Tget_member_class");
        H5T_class_t want = c[i].type == WB_COL_STR ? H5T_STRING : c[i].type == WB_COL_F64 ? H5T_FLOAT : H5T_INTEGER;
        if (c[i].count && cls == H5T_INTEGER) want = cls; /* a count: int64 from schema 8, a double before; HDF5 converts */
        if (cls != want)
            return wb_fail(rd->e, "%s: /points column %s is %s, this build expects %s", p, name, class_name(cls),
                           class_name(want));
        if (cls != H5T_STRING) continue;
        hid_t mt = H5Tget_member_type(ftype, (unsigned)idx);
        if (mt < 0) return wb_h5_fail(rd->e, p, "H5Tget_member_type");
        htri_t var = H5Tis_variable_str(mt);
        int rc = var < 0 ? wb_h5_fail(rd->e, p, "H5Tis_variable_str") : WB_OK;
        if (wb_h5_end(rc, mt, p, rd->e) != WB_OK) return WB_ERR;
        if (var > 0)
            return wb_fail(rd->e, "%s: /points column %s is a variable-length string; this build reads fixed-length",
                           p, name);
    }
    if (missing)
        return wb_fail(rd->e, "%s: /points lacks %d column(s) this build knows: %s", p, missing, list);
    return WB_OK;
}

/* Copies the schema's columns of src into a freshly initialised row, so that
 * fields outside the schema hold their "not applicable" values and every
 * string ends inside its buffer whatever the file held; a schema-6+ file's
 * conventions (percent, -1) go back to the fields' (wb_col_enc), and the name
 * is the point's, whatever the file's schema. */
static void take_row(wb_row *dst, const wb_row *src, int version) {
    int n;
    const wb_column *c = wb_schema_columns(&n);
    wb_row_init(dst);
    for (int i = 0; i < n; i++) {
        if (c[i].since > version) continue;
        memcpy((char *)dst + c[i].offset, (const char *)src + c[i].offset, c[i].size);
        if (c[i].type == WB_COL_STR) ((char *)dst + c[i].offset)[c[i].size - 1] = '\0';
    }
    if (version >= WB_SCHEMA_RENAMED) wb_row_decode(dst);
    if (version >= WB_SCHEMA_COUNTS) wb_row_decode_counts(dst); /* HDF5 converted the int64 counts; -1 is NaN */
    wb_point_name(&dst->p, dst->name, sizeof dst->name);
}

/* Reads elements [at, at + count) of d as mtype into buf. */
static int read_block(reader *rd, hid_t d, hid_t mtype, hsize_t at, hsize_t count, void *buf, const char *what) {
    const char *p = rd->path;
    hid_t fspace = H5Dget_space(d), mspace = -1;
    if (fspace < 0) return wb_h5_fail(rd->e, p, "H5Dget_space");
    int rc = WB_OK;
    if (H5Sselect_hyperslab(fspace, H5S_SELECT_SET, &at, NULL, &count, NULL) < 0)
        rc = wb_h5_fail(rd->e, p, "H5Sselect_hyperslab");
    else if ((mspace = H5Screate_simple(1, &count, NULL)) < 0)
        rc = wb_h5_fail(rd->e, p, "H5Screate_simple");
    else if (H5Dread(d, mtype, mspace, fspace, H5P_DEFAULT, buf) < 0)
        rc = wb_h5_fail(rd->e, p, what);
    rc = wb_h5_end(rc, mspace, p, rd->e);
    return wb_h5_end(rc, fspace, p, rd->e);
}

/* Opens a 1-D compound dataset; *n gets its length. */
static hid_t open_table(reader *rd, const char *name, hsize_t *n, hid_t *ftype) {
    const char *p = rd->path;
    htri_t has = H5Lexists(rd->file, name, H5P_DEFAULT);
    if (has < 0) return wb_h5_fail(rd->e, p, "H5Lexists");
    if (!has) return wb_fail(rd->e, "%s: no /%s dataset: not a wallbench results file", p, name);
    hid_t d = H5Oopen(rd->file, name, H5P_DEFAULT);
    if (d < 0) return wb_h5_fail(rd->e, p, "H5Oopen");
    hid_t space = -1;
    int rc = WB_OK;
    if (H5Iget_type(d) != H5I_DATASET)
        rc = wb_fail(rd->e, "%s: /%s is not a dataset: not a wallbench results file", p, name);
    else if ((*ftype = H5Dget_type(d)) < 0) rc = wb_h5_fail(rd->e, p, "H5Dget_type");
    else if (H5Tget_class(*ftype) != H5T_COMPOUND) /* H5T_NO_CLASS on error reads as "not a table" too */
        rc = wb_fail(rd->e, "%s: /%s is not a table (compound dataset): not a wallbench results file", p, name);
    else if ((space = H5Dget_space(d)) < 0) rc = wb_h5_fail(rd->e, p, "H5Dget_space");
    else if (H5Sget_simple_extent_ndims(space) != 1)
        rc = wb_fail(rd->e, "%s: /%s is not one-dimensional: not a wallbench results file", p, name);
    else if (H5Sget_simple_extent_dims(space, n, NULL) < 0)
        rc = wb_h5_fail(rd->e, p, "H5Sget_simple_extent_dims");
    rc = wb_h5_end(rc, space, p, rd->e);
    if (rc != WB_OK) {
        wb_h5_drop(*ftype);
        *ftype = -1;
        wb_h5_drop(d);
        return -1;
    }
    return d;
}

/* Reads the "flushed" counts of /points d into rd->flushed (h5util.h says
 * why); a file without them (not written by store_h5.c) reads whole. */
static int read_flushed(reader *rd, hid_t d, hsize_t nrows) {
    const char *p = rd->path;
    rd->flushed = (wb_h5_flushed){-1, -1};
    htri_t has = H5Aexists(d, "flushed");
    if (has < 0) return wb_h5_fail(rd->e, p, "H5Aexists(flushed)");
    if (!has) return WB_OK;
    hid_t a = H5Aopen(d, "flushed", H5P_DEFAULT), mt = -1;
    if (a < 0) return wb_h5_fail(rd->e, p, "H5Aopen(flushed)");
    int rc = WB_OK;
    if ((mt = wb_h5_flushed_type(WB_H5_MEMORY, p, rd->e)) < 0) rc = WB_ERR;
    else if (H5Aread(a, mt, &rd->flushed) < 0) rc = wb_h5_fail(rd->e, p, "H5Aread(flushed)");
    else if (rd->flushed.rows < 0 || (hsize_t)rd->flushed.rows > nrows || rd->flushed.samples < 0)
        rc = wb_fail(rd->e, "%s: /points has %llu rows but says %lld were flushed (damaged file?)", p,
                     (unsigned long long)nrows, (long long)rd->flushed.rows);
    rc = wb_h5_end(rc, mt, p, rd->e);
    return wb_h5_end(rc, a, p, rd->e);
}

static int read_points(reader *rd) {
    const char *p = rd->path;
    hsize_t n = 0;
    hid_t ftype = -1, mtype = -1, d = open_table(rd, "points", &n, &ftype);
    if (d < 0) return WB_ERR;
    int rc = check_columns(rd, ftype);
    rc = wb_h5_end(rc, ftype, p, rd->e);
    if (rc == WB_OK) rc = read_flushed(rd, d, n);
    /* Rows after the flushed count belong to a point a killed run was storing. */
    if (rc == WB_OK && rd->flushed.rows >= 0) n = (hsize_t)rd->flushed.rows;
    wb_row *block = NULL;
    if (rc == WB_OK && n > 0) {
        rd->out->rows = malloc((size_t)n * sizeof(wb_row));
        block = malloc((size_t)(n < READ_BLOCK ? n : READ_BLOCK) * sizeof(wb_row));
        if (!rd->out->rows || !block) rc = wb_fail(rd->e, "%s: out of memory for %llu rows", p, (unsigned long long)n);
    }
    if (rc == WB_OK && (mtype = wb_h5_points_type_of(rd->version, WB_H5_MEMORY, p, rd->e)) < 0) rc = WB_ERR;
    for (hsize_t at = 0; rc == WB_OK && at < n; at += READ_BLOCK) {
        hsize_t count = n - at < READ_BLOCK ? n - at : READ_BLOCK;
        rc = read_block(rd, d, mtype, at, count, block, "H5Dread(/points)");
        for (hsize_t i = 0; rc == WB_OK && i < count; i++) {
            wb_row *r = &rd->out->rows[at + i];
            take_row(r, &block[i], rd->version);
            /* /samples is keyed by id, and the writer gives each row its number. */
            if (r->m.id != (int64_t)(at + i))
                rc = wb_fail(rd->e, "%s: /points row %llu has id %lld; ids must be row numbers (damaged file?)", p,
                             (unsigned long long)(at + i), (long long)r->m.id);
        }
    }
    free(block);
    rc = wb_h5_end(rc, mtype, p, rd->e);
    rc = wb_h5_end(rc, d, p, rd->e);
    if (rc == WB_OK) rd->out->nrows = (int64_t)n;
    return rc;
}

static int read_samples(reader *rd) {
    const char *p = rd->path;
    static const char *const member[] = {"point_id", "rep", "time_ms"};
    wb_results *out = rd->out;
    hsize_t n = 0;
    hid_t ftype = -1, mtype = -1, d = open_table(rd, "samples", &n, &ftype);
    if (d < 0) return WB_ERR;
    int rc = WB_OK;
    if (rd->flushed.samples > (int64_t)n)
        rc = wb_fail(rd->e, "%s: /samples has %llu samples but /points says %lld were flushed (damaged file?)", p,
                     (unsigned long long)n, (long long)rd->flushed.samples);
    else if (rd->flushed.samples >= 0) n = (hsize_t)rd->flushed.samples;
    for (int k = 0; k < 3 && rc == WB_OK; k++)
        if (H5Tget_member_index(ftype, member[k]) < 0)
            rc = wb_fail(rd->e, "%s: /samples lacks column %s", p, member[k]);
    rc = wb_h5_end(rc, ftype, p, rd->e);
    wb_h5_sample *all = NULL;
    size_t rows = (size_t)out->nrows;
    if (rc == WB_OK) {
        all = malloc((n ? (size_t)n : 1) * sizeof *all);
        out->sample_ms = malloc((n ? (size_t)n : 1) * sizeof *out->sample_ms);
        out->sample_start = calloc(rows ? rows : 1, sizeof *out->sample_start);
        out->sample_count = calloc(rows ? rows : 1, sizeof *out->sample_count);
        if (!all || !out->sample_ms || !out->sample_start || !out->sample_count)
            rc = wb_fail(rd->e, "%s: out of memory for %llu samples", p, (unsigned long long)n);
    }
    if (rc == WB_OK && (mtype = wb_h5_samples_type(WB_H5_MEMORY, p, rd->e)) < 0) rc = WB_ERR;
    if (rc == WB_OK && n > 0) rc = read_block(rd, d, mtype, 0, n, all, "H5Dread(/samples)");
    rc = wb_h5_end(rc, mtype, p, rd->e);
    rc = wb_h5_end(rc, d, p, rd->e);
    if (rc == WB_OK) {
        /* Grouped by point, in file (= repetition) order. Samples of a point
         * without a row are left out: only a file written by other means
         * than store_h5.c, which never flushes samples before their row, has
         * them. */
        for (hsize_t i = 0; i < n; i++)
            if (all[i].point_id >= 0 && (size_t)all[i].point_id < rows) out->sample_count[all[i].point_id]++;
        int64_t at = 0;
        for (size_t r = 0; r < rows; r++) out->sample_start[r] = at, at += out->sample_count[r];
        int *filled = calloc(rows ? rows : 1, sizeof *filled);
        if (!filled) rc = wb_fail(rd->e, "%s: out of memory grouping samples", p);
        for (hsize_t i = 0; rc == WB_OK && i < n; i++) {
            int64_t id = all[i].point_id;
            if (id < 0 || (size_t)id >= rows) continue;
            out->sample_ms[out->sample_start[id] + filled[id]++] = all[i].time_ms;
        }
        free(filled);
    }
    free(all);
    return rc;
}

/* Attribute value as text: strings as they are, numbers as %.17g, anything
 * else described. */
static int attr_value(reader *rd, hid_t a, wb_attr *out) {
    const char *p = rd->path;
    hid_t t = H5Aget_type(a), space = -1, mt = -1;
    if (t < 0) return wb_h5_fail(rd->e, p, "H5Aget_type");
    int rc = WB_OK;
    hssize_t count = 0;
    H5T_class_t cls = H5Tget_class(t);
    if (cls < 0) rc = wb_h5_fail(rd->e, p, "H5Tget_class");
    else if ((space = H5Aget_space(a)) < 0) rc = wb_h5_fail(rd->e, p, "H5Aget_space");
    else if ((count = H5Sget_simple_extent_npoints(space)) < 0) rc = wb_h5_fail(rd->e, p, "H5Sget_simple_extent_npoints");
    else if (count != 1 || (cls != H5T_STRING && cls != H5T_INTEGER && cls != H5T_FLOAT))
        snprintf(out->value, sizeof out->value, "(%lld values of HDF5 type class %d; not read)", (long long)count,
                 (int)cls);
    else if (cls != H5T_STRING) {
        double v;
        if (H5Aread(a, H5T_NATIVE_DOUBLE, &v) < 0) rc = wb_h5_fail(rd->e, p, "H5Aread");
        else snprintf(out->value, sizeof out->value, "%.17g", v), out->is_number = 1;
    } else {
        htri_t var = H5Tis_variable_str(t);
        size_t size = H5Tget_size(t);
        char *text = NULL;
        if (var < 0) rc = wb_h5_fail(rd->e, p, "H5Tis_variable_str");
        else if (var > 0) {
            if ((mt = H5Tget_native_type(t, H5T_DIR_ASCEND)) < 0) rc = wb_h5_fail(rd->e, p, "H5Tget_native_type");
            else if (H5Aread(a, mt, &text) < 0) rc = wb_h5_fail(rd->e, p, "H5Aread");
        } else if (size == 0) rc = wb_h5_fail(rd->e, p, "H5Tget_size");
        else if (!(text = calloc(size + 1, 1))) rc = wb_fail(rd->e, "%s: out of memory for an attribute", p);
        else if (H5Aread(a, t, text) < 0) rc = wb_h5_fail(rd->e, p, "H5Aread");
        if (rc == WB_OK && text) {
            /* A value longer than wb_attr holds (a long command line) is cut
             * and marked, never silently shortened. */
            if (strlen(text) >= sizeof out->value)
                snprintf(out->value, sizeof out->value, "%.*s...", (int)sizeof out->value - 4, text);
            else snprintf(out->value, sizeof out->value, "%s", text);
        }
        if (var > 0 && text && H5free_memory(text) < 0 && rc == WB_OK) rc = wb_h5_fail(rd->e, p, "H5free_memory");
        if (var <= 0) free(text);
    }
    rc = wb_h5_end(rc, mt, p, rd->e);
    rc = wb_h5_end(rc, space, p, rd->e);
    return wb_h5_end(rc, t, p, rd->e);
}

static herr_t attr_entry(hid_t loc, const char *name, const H5A_info_t *info, void *data) {
    reader *rd = data;
    wb_results *out = rd->out;
    (void)info;
    wb_attr *grown = realloc(out->attrs, (size_t)(out->nattrs + 1) * sizeof *grown);
    if (!grown) {
        rd->failed = wb_fail(rd->e, "%s: out of memory for attributes", rd->path);
        return -1;
    }
    out->attrs = grown;
    wb_attr *at = memset(&out->attrs[out->nattrs], 0, sizeof *at);
    snprintf(at->name, sizeof at->name, "%s", name);
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    if (a < 0) {
        rd->failed = wb_h5_fail(rd->e, rd->path, "H5Aopen");
        return -1;
    }
    if (wb_h5_end(attr_value(rd, a, at), a, rd->path, rd->e) != WB_OK) {
        rd->failed = WB_ERR;
        return -1;
    }
    out->nattrs++;
    return 0;
}

static int read_attrs(reader *rd) {
    hsize_t idx = 0;
    herr_t rc = H5Aiterate2(rd->root, H5_INDEX_NAME, H5_ITER_INC, &idx, attr_entry, rd);
    if (rd->failed) return WB_ERR;
    return rc < 0 ? wb_h5_fail(rd->e, rd->path, "H5Aiterate2") : WB_OK;
}

/* Adds a ceiling to out->ceilings; NULL when out of memory. */
static wb_ceiling_entry *add_ceiling(reader *rd) {
    wb_results *out = rd->out;
    wb_ceiling_entry *grown = realloc(out->ceilings, (size_t)(out->nceilings + 1) * sizeof *grown);
    if (!grown) {
        wb_fail(rd->e, "%s: out of memory for ceilings", rd->path);
        return NULL;
    }
    out->ceilings = grown;
    return memset(&out->ceilings[out->nceilings++], 0, sizeof *grown);
}

/* Adds the schema-1-5 attribute of ceiling c, marked as not in the file. */
static int add_ceiling_attr(reader *rd, const wb_ceiling_entry *c) {
    wb_results *out = rd->out;
    wb_attr *grown = realloc(out->attrs, (size_t)(out->nattrs + 1) * sizeof *grown);
    if (!grown) return wb_fail(rd->e, "%s: out of memory for attributes", rd->path);
    out->attrs = grown;
    wb_attr *a = memset(&out->attrs[out->nattrs++], 0, sizeof *a);
    wb_ceiling_attr_name(c, a->name, sizeof a->name);
    snprintf(a->value, sizeof a->value, "%.17g", c->value);
    a->is_number = a->from_ceilings = 1;
    return WB_OK;
}

/* /ceilings of a schema-6 file, each also under its older attribute name; a
 * schema-1-5 file's ceiling attributes as ceilings (kernel, launch unknown). */
static int read_ceilings(reader *rd) {
    const char *p = rd->path;
    wb_results *out = rd->out;
    htri_t has = rd->version >= WB_SCHEMA_RENAMED ? H5Lexists(rd->file, "ceilings", H5P_DEFAULT) : 0;
    if (has < 0) return wb_h5_fail(rd->e, p, "H5Lexists(ceilings)");
    if (!has) {
        int nattrs = out->nattrs;
        for (int i = 0; i < nattrs; i++) {
            wb_ceiling_entry c;
            memset(&c, 0, sizeof c);
            if (!out->attrs[i].is_number || !wb_ceiling_from_attr(out->attrs[i].name, &c)) continue;
            c.value = strtod(out->attrs[i].value, NULL);
            wb_ceiling_entry *to = add_ceiling(rd);
            if (!to) return WB_ERR;
            *to = c;
        }
        return WB_OK;
    }
    hsize_t n = 0;
    hid_t ftype = -1, mtype = -1, d = open_table(rd, "ceilings", &n, &ftype);
    if (d < 0) return WB_ERR;
    int rc = wb_h5_end(WB_OK, ftype, p, rd->e);
    wb_ceiling_entry *all = NULL;
    if (rc == WB_OK && n > 0 && !(all = calloc((size_t)n, sizeof *all)))
        rc = wb_fail(rd->e, "%s: out of memory for %llu ceilings", p, (unsigned long long)n);
    if (rc == WB_OK && (mtype = wb_h5_ceilings_type(WB_H5_MEMORY, p, rd->e)) < 0) rc = WB_ERR;
    if (rc == WB_OK && n > 0) rc = read_block(rd, d, mtype, 0, n, all, "H5Dread(/ceilings)");
    rc = wb_h5_end(rc, mtype, p, rd->e);
    rc = wb_h5_end(rc, d, p, rd->e);
    for (hsize_t i = 0; rc == WB_OK && i < n; i++) {
        wb_ceiling_entry *c = &all[i];
        c->name[sizeof c->name - 1] = c->unit[sizeof c->unit - 1] = '\0';
        c->kernel[sizeof c->kernel - 1] = c->launch[sizeof c->launch - 1] = '\0';
        wb_ceiling_entry *to = add_ceiling(rd);
        if (!to) rc = WB_ERR;
        else *to = *c, rc = add_ceiling_attr(rd, c);
    }
    free(all);
    return rc;
}

int wb_results_open(const char *path, wb_results *out, wb_err *e) {
    memset(out, 0, sizeof *out);
    if (strlen(path) >= sizeof out->path) return wb_fail(e, "%s: path too long", path);
    strcpy(out->path, path);
    if (access(path, R_OK) != 0) return wb_fail(e, "%s: cannot read: %s", path, strerror(errno));
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return wb_fail(e, "%s is a folder, not a results file: give one of its .h5 files (ls %s/*.h5)", path, path);
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0)
        return wb_fail(e, "%s is empty (0 bytes), not a results file: give one that `wallbench run` wrote "
                          "(results/<profile>/*.h5)", path);
    if (wb_h5_quiet(path, e) != WB_OK) return WB_ERR;
    htri_t is = H5Fis_hdf5(path);
    if (is < 0) return wb_h5_fail(e, path, "H5Fis_hdf5");
    if (is == 0)
        return wb_fail(e, "%s: not an HDF5 file (no HDF5 signature; a text file?): give a results file that "
                          "`wallbench run` wrote (results/<profile>/*.h5)", path);
    if (wb_profile_file_is(path) == 1)
        return wb_fail(e, "%s is a profile file (wallbench profile); use report/roofline/compare/export/project, which "
                          "read both", path);
    reader rd = {path, -1, -1, out, e, WB_OK, {-1, -1}};
    /* Fails on a truncated or damaged file, and on one a running wallbench
     * still holds open (HDF5 locks files being written). */
    if ((rd.file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT)) < 0) return wb_h5_fail(e, path, "H5Fopen");
    int rc = WB_OK;
    htri_t has_points = 0;
    /* /points first: an HDF5 file from elsewhere is "not ours", not "old". */
    if ((rd.root = H5Gopen2(rd.file, "/", H5P_DEFAULT)) < 0) rc = wb_h5_fail(e, path, "H5Gopen2(/)");
    else if ((has_points = H5Lexists(rd.file, "points", H5P_DEFAULT)) < 0) rc = wb_h5_fail(e, path, "H5Lexists");
    else if (!has_points) rc = wb_fail(e, "%s: no /points dataset: not a wallbench results file", path);
    if (rc == WB_OK) rc = check_version(&rd);
    if (rc == WB_OK) rc = read_points(&rd);
    if (rc == WB_OK) rc = read_samples(&rd);
    if (rc == WB_OK) rc = read_attrs(&rd);
    if (rc == WB_OK) rc = read_ceilings(&rd);
    rc = wb_h5_end(rc, rd.root, path, e);
    rc = wb_h5_end(rc, rd.file, path, e);
    if (rc != WB_OK) {
        wb_results_free(out);
        snprintf(out->path, sizeof out->path, "%s", path);
    }
    return rc;
}

void wb_results_free(wb_results *r) {
    free(r->rows);
    free(r->attrs);
    free(r->sample_ms);
    free(r->sample_start);
    free(r->sample_count);
    free(r->ceilings);
    memset(r, 0, sizeof *r);
}

const char *wb_results_attr(const wb_results *r, const char *name) {
    for (int i = 0; i < r->nattrs; i++)
        if (strcmp(r->attrs[i].name, name) == 0) return r->attrs[i].value;
    return NULL;
}

double wb_results_attr_f64(const wb_results *r, const char *name) {
    const char *v = wb_results_attr(r, name);
    if (!v || !v[0]) return NAN;
    char *end;
    double x = strtod(v, &end);
    return *end == '\0' ? x : NAN;
}

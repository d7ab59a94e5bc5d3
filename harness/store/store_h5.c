/* store_h5.c - the results writer (see store_h5.h): creates the file, then
 * appends one /points row and its /samples per finished point, flushing after
 * each so that a run killed with SIGKILL keeps every finished point
 * (an HDF5 file killed before its flush does not open again; tests/test_crash.c),
 * and raising the /points "flushed" count in a second flush so that a kill
 * inside the first cannot damage what the reader reads (h5util.h).
 * The reader is results_h5.c; the types both use are in h5util.c. */
#include "harness/store/store_h5.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/store/h5util.h"
#include "harness/store/schema.h"

/* Chunks are rewritten whole at every flush: 64 rows of /points (~80 KB) keep
 * that write small and the chunk index short for runs of thousands of points. */
#define POINTS_CHUNK 64
#define SAMPLES_CHUNK 1024
#define CEILINGS_CHUNK 16
#define XFER_BUFFER (16 * sizeof(wb_row))

struct wb_store {
    char path[512];
    hid_t file, root, points, samples, ceilings;
    hid_t flushed;                           /* /points attribute, see h5util.h */
    hid_t xfer;                              /* dataset transfer properties of every write */
    hid_t row_mem, sample_mem, flushed_mem; /* memory types */
    int64_t nrows, nsamples;                 /* complete on disk, as "flushed" says */
    hid_t ceiling_mem;                       /* memory type of /ceilings */
    wb_ceiling_entry *ceil;                  /* /ceilings as written, to find a row to update */
    int nceil;
};

static int flush(wb_store *s, wb_err *e) {
    return H5Fflush(s->file, H5F_SCOPE_GLOBAL) < 0 ? wb_h5_fail(e, s->path, "H5Fflush") : WB_OK;
}

/* An empty 1-D chunked dataset with an unlimited extent, not compressed: a deflated chunk changes
 * size at every flush and moves, and a kill between its new index entry and its bytes left a file
 * whose /points no longer inflated (tests/test_crash.c failed 1 run in 8 after commit bae290f made
 * the tables deflated). Committed files are repacked with gzip afterwards (results/README.md);
 * -1 on error. */
static hid_t create_table(wb_store *s, const char *name, hid_t ftype, hsize_t chunk, wb_err *e) {
    hsize_t dims = 0, maxdims = H5S_UNLIMITED;
    hid_t space = -1, dcpl = -1, d = -1;
    int rc = WB_OK;
    if ((space = H5Screate_simple(1, &dims, &maxdims)) < 0) rc = wb_h5_fail(e, s->path, "H5Screate_simple");
    else if ((dcpl = H5Pcreate(H5P_DATASET_CREATE)) < 0) rc = wb_h5_fail(e, s->path, "H5Pcreate");
    else if (H5Pset_chunk(dcpl, 1, &chunk) < 0) rc = wb_h5_fail(e, s->path, "H5Pset_chunk");
    else if ((d = H5Dcreate2(s->file, name, ftype, space, H5P_DEFAULT, dcpl, H5P_DEFAULT)) < 0)
        rc = wb_h5_fail(e, s->path, "H5Dcreate2");
    rc = wb_h5_end(rc, dcpl, s->path, e);
    rc = wb_h5_end(rc, space, s->path, e);
    if (rc != WB_OK) {
        wb_h5_drop(d);
        return -1;
    }
    return d;
}

/* Writes count elements of buf at element `at`, growing the dataset first
 * when grow is set. */
static int write_at(wb_store *s, hid_t d, hid_t mtype, hsize_t at, hsize_t count, const void *buf, int grow,
                    wb_err *e) {
    hsize_t end = at + count;
    if (count == 0) return WB_OK;
    if (grow && H5Dset_extent(d, &end) < 0) return wb_h5_fail(e, s->path, "H5Dset_extent");
    hid_t fspace = H5Dget_space(d);
    if (fspace < 0) return wb_h5_fail(e, s->path, "H5Dget_space");
    hid_t mspace = -1;
    int rc = WB_OK;
    if (H5Sselect_hyperslab(fspace, H5S_SELECT_SET, &at, NULL, &count, NULL) < 0)
        rc = wb_h5_fail(e, s->path, "H5Sselect_hyperslab");
    else if ((mspace = H5Screate_simple(1, &count, NULL)) < 0)
        rc = wb_h5_fail(e, s->path, "H5Screate_simple");
    else if (H5Dwrite(d, mtype, mspace, fspace, s->xfer, buf) < 0)
        rc = wb_h5_fail(e, s->path, "H5Dwrite");
    rc = wb_h5_end(rc, mspace, s->path, e);
    return wb_h5_end(rc, fspace, s->path, e);
}

/* Overwrites attribute name of loc in place if its file type is t: it keeps
 * its space in the object header, so nothing is allocated and a kill cannot
 * leave the header pointing past the end of the file. *done says whether it
 * did. buf is of memory type mt. */
static int overwrite_attr(wb_store *s, hid_t loc, const char *name, hid_t t, hid_t mt, const void *buf, int *done,
                          wb_err *e) {
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    if (a < 0) return wb_h5_fail(e, s->path, "H5Aopen");
    hid_t old = H5Aget_type(a);
    htri_t same = 0;
    int rc = WB_OK;
    if (old < 0) rc = wb_h5_fail(e, s->path, "H5Aget_type");
    else if ((same = H5Tequal(old, t)) < 0) rc = wb_h5_fail(e, s->path, "H5Tequal");
    else if (same && H5Awrite(a, mt, buf) < 0) rc = wb_h5_fail(e, s->path, "H5Awrite");
    *done = same > 0;
    rc = wb_h5_end(rc, old, s->path, e);
    return wb_h5_end(rc, a, s->path, e);
}

/* Sets attribute name of loc to a scalar of file type t holding buf (of
 * memory type mt), replacing one of another type. */
static int put_attr(wb_store *s, hid_t loc, const char *name, hid_t t, hid_t mt, const void *buf, wb_err *e) {
    htri_t exists = H5Aexists(loc, name);
    int done = 0;
    if (exists < 0) return wb_h5_fail(e, s->path, "H5Aexists");
    if (exists > 0 && overwrite_attr(s, loc, name, t, mt, buf, &done, e) != WB_OK) return WB_ERR;
    if (done) return WB_OK;
    if (exists > 0 && H5Adelete(loc, name) < 0) return wb_h5_fail(e, s->path, "H5Adelete");
    hid_t space = H5Screate(H5S_SCALAR);
    if (space < 0) return wb_h5_fail(e, s->path, "H5Screate");
    hid_t a = H5Acreate2(loc, name, t, space, H5P_DEFAULT, H5P_DEFAULT);
    if (a < 0) {
        wb_h5_fail(e, s->path, "H5Acreate2");
        wb_h5_drop(space);
        return WB_ERR;
    }
    int rc = H5Awrite(a, mt, buf) < 0 ? wb_h5_fail(e, s->path, "H5Awrite") : WB_OK;
    rc = wb_h5_end(rc, a, s->path, e);
    return wb_h5_end(rc, space, s->path, e);
}

/* Names the reader can hold (wb_attr.name) and that do not clash with the
 * version stamp the reader trusts. */
static int check_attr_name(wb_store *s, const char *name, wb_err *e) {
    if (!name || !name[0] || strlen(name) >= sizeof(((wb_attr *)0)->name))
        return wb_fail(e, "%s: attribute name \"%s\" is empty or longer than %zu bytes", s->path, name ? name : "",
                       sizeof(((wb_attr *)0)->name) - 1);
    if (strcmp(name, "schema_version") == 0)
        return wb_fail(e, "%s: attribute schema_version is set by the store, not by callers", s->path);
    return WB_OK;
}

int wb_store_attr_str(wb_store *s, const char *name, const char *value, wb_err *e) {
    if (check_attr_name(s, name, e) != WB_OK) return WB_ERR;
    if (!value) value = "";
    hid_t t = wb_h5_str_type(strlen(value) + 1, s->path, e);
    if (t < 0) return WB_ERR;
    if (wb_h5_end(put_attr(s, s->root, name, t, t, value, e), t, s->path, e) != WB_OK) return WB_ERR;
    return flush(s, e);
}

int wb_store_ceiling(wb_store *s, const wb_ceiling_entry *c, wb_err *e) {
    int at = 0;
    while (at < s->nceil && !(strcmp(s->ceil[at].name, c->name) == 0 && strcmp(s->ceil[at].unit, c->unit) == 0 &&
                              ((isnan(s->ceil[at].size_bytes) && isnan(c->size_bytes)) ||
                               s->ceil[at].size_bytes == c->size_bytes)))
        at++;
    if (at == s->nceil) {
        wb_ceiling_entry *grown = realloc(s->ceil, (size_t)(s->nceil + 1) * sizeof *grown);
        if (!grown) return wb_fail(e, "%s: out of memory for /ceilings", s->path);
        s->ceil = grown;
    }
    wb_ceiling_entry row;
    memset(&row, 0, sizeof row); /* no stale bytes after the strings' NULs */
    snprintf(row.name, sizeof row.name, "%s", c->name);
    snprintf(row.unit, sizeof row.unit, "%s", c->unit);
    snprintf(row.kernel, sizeof row.kernel, "%s", c->kernel);
    snprintf(row.launch, sizeof row.launch, "%s", c->launch);
    row.size_bytes = c->size_bytes;
    row.value = c->value;
    if (write_at(s, s->ceilings, s->ceiling_mem, (hsize_t)at, 1, &row, at == s->nceil, e) != WB_OK) return WB_ERR;
    s->ceil[at] = row;
    if (at == s->nceil) s->nceil++;
    return flush(s, e);
}

int wb_store_attr_f64(wb_store *s, const char *name, double value, wb_err *e) {
    if (check_attr_name(s, name, e) != WB_OK) return WB_ERR;
    wb_ceiling_entry c;
    memset(&c, 0, sizeof c);
    if (wb_ceiling_from_attr(name, &c)) { /* a caller (merge) copying an older file's ceiling */
        c.value = value;
        return wb_store_ceiling(s, &c, e);
    }
    if (put_attr(s, s->root, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &value, e) != WB_OK) return WB_ERR;
    return flush(s, e);
}

/* /columns: name, unit, description and source of every /points column, so
 * that the file explains itself without this source tree. Each string member
 * is as wide as its longest entry, so nothing is cut. */
static int write_columns(wb_store *s, wb_err *e) {
    static const char *const member[4] = {"name", "unit", "description", "source"};
    int n;
    const wb_column *c = wb_schema_columns(&n);
    size_t width[4] = {1, 1, 1, 1}, off[4], size = 0;
    if (n <= 0) return wb_fail(e, "%s: the schema has no columns (schema.c)", s->path);
    for (int i = 0; i < n; i++) {
        const char *f[4] = {c[i].name, c[i].unit, c[i].desc, c[i].source};
        for (int k = 0; k < 4; k++)
            if (strlen(f[k]) + 1 > width[k]) width[k] = strlen(f[k]) + 1;
    }
    for (int k = 0; k < 4; k++) off[k] = size, size += width[k];
    char *buf = calloc((size_t)n, size);
    if (!buf) return wb_fail(e, "%s: out of memory for /columns", s->path);
    for (int i = 0; i < n; i++) {
        const char *f[4] = {c[i].name, c[i].unit, c[i].desc, c[i].source};
        for (int k = 0; k < 4; k++) memcpy(buf + (size_t)i * size + off[k], f[k], strlen(f[k]));
    }
    hid_t t = -1, st = -1, space = -1, d = -1;
    hsize_t dims = (hsize_t)n;
    int rc = WB_OK;
    if ((t = H5Tcreate(H5T_COMPOUND, size)) < 0) rc = wb_h5_fail(e, s->path, "H5Tcreate(/columns)");
    for (int k = 0; k < 4 && rc == WB_OK; k++) {
        if ((st = wb_h5_str_type(width[k], s->path, e)) < 0) rc = WB_ERR;
        else if (H5Tinsert(t, member[k], off[k], st) < 0) rc = wb_h5_fail(e, s->path, "H5Tinsert(/columns)");
        rc = wb_h5_end(rc, st, s->path, e);
    }
    if (rc == WB_OK && (space = H5Screate_simple(1, &dims, NULL)) < 0) rc = wb_h5_fail(e, s->path, "H5Screate_simple");
    if (rc == WB_OK && (d = H5Dcreate2(s->file, "columns", t, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)) < 0)
        rc = wb_h5_fail(e, s->path, "H5Dcreate2(/columns)");
    if (rc == WB_OK && H5Dwrite(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0)
        rc = wb_h5_fail(e, s->path, "H5Dwrite(/columns)");
    free(buf);
    rc = wb_h5_end(rc, d, s->path, e);
    rc = wb_h5_end(rc, space, s->path, e);
    return wb_h5_end(rc, t, s->path, e);
}

/* Everything a new file holds before its first point. */
static int populate(wb_store *s, wb_err *e) {
    int version = WB_SCHEMA_VERSION;
    wb_h5_flushed none = {0, 0};
    hid_t ptype = -1, stype = -1, ftype = -1, ctype = -1;
    if ((s->root = H5Gopen2(s->file, "/", H5P_DEFAULT)) < 0) return wb_h5_fail(e, s->path, "H5Gopen2(/)");
    if (put_attr(s, s->root, "schema_version", H5T_STD_I32LE, H5T_NATIVE_INT, &version, e) != WB_OK) return WB_ERR;
    if ((s->row_mem = wb_h5_points_type(WB_H5_MEMORY, s->path, e)) < 0) return WB_ERR;
    if ((s->sample_mem = wb_h5_samples_type(WB_H5_MEMORY, s->path, e)) < 0) return WB_ERR;
    if ((s->flushed_mem = wb_h5_flushed_type(WB_H5_MEMORY, s->path, e)) < 0) return WB_ERR;
    if ((s->ceiling_mem = wb_h5_ceilings_type(WB_H5_MEMORY, s->path, e)) < 0) return WB_ERR;
    /* HDF5 clears a type-conversion background buffer of the transfer buffer's
     * size (1 MiB by default) on every write; rows are written one at a time,
     * and that memset was 30% of an append's time (perf, HDF5 1.10.8). */
    if ((s->xfer = H5Pcreate(H5P_DATASET_XFER)) < 0) return wb_h5_fail(e, s->path, "H5Pcreate(H5P_DATASET_XFER)");
    if (H5Pset_buffer(s->xfer, XFER_BUFFER, NULL, NULL) < 0) return wb_h5_fail(e, s->path, "H5Pset_buffer");
    int rc = WB_ERR;
    if ((ptype = wb_h5_points_type(WB_H5_FILE, s->path, e)) >= 0 &&
        (stype = wb_h5_samples_type(WB_H5_FILE, s->path, e)) >= 0 &&
        (ftype = wb_h5_flushed_type(WB_H5_FILE, s->path, e)) >= 0 &&
        (ctype = wb_h5_ceilings_type(WB_H5_FILE, s->path, e)) >= 0 &&
        (s->points = create_table(s, "points", ptype, POINTS_CHUNK, e)) >= 0 &&
        (s->samples = create_table(s, "samples", stype, SAMPLES_CHUNK, e)) >= 0 &&
        (s->ceilings = create_table(s, "ceilings", ctype, CEILINGS_CHUNK, e)) >= 0 &&
        put_attr(s, s->points, "flushed", ftype, s->flushed_mem, &none, e) == WB_OK)
        rc = WB_OK;
    rc = wb_h5_end(rc, ctype, s->path, e);
    rc = wb_h5_end(rc, ftype, s->path, e);
    rc = wb_h5_end(rc, stype, s->path, e);
    rc = wb_h5_end(rc, ptype, s->path, e);
    if (rc != WB_OK || write_columns(s, e) != WB_OK) return WB_ERR;
    if ((s->flushed = H5Aopen(s->points, "flushed", H5P_DEFAULT)) < 0) return wb_h5_fail(e, s->path, "H5Aopen");
    return flush(s, e);
}

static void drop_all(wb_store *s) {
    hid_t ids[] = {s->flushed,     s->points, s->samples, s->ceilings, s->row_mem, s->sample_mem,
                   s->flushed_mem, s->ceiling_mem, s->xfer, s->root, s->file};
    for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++) wb_h5_drop(ids[k]);
    free(s->ceil);
}

int wb_store_create(const char *path, wb_store **out, wb_err *e) {
    *out = NULL;
    struct stat st;
    if (strlen(path) >= sizeof((wb_store *)0)->path) return wb_fail(e, "%s: path too long", path);
    if (stat(path, &st) == 0) return wb_fail(e, "%s: already exists; a results file is never overwritten", path);
    if (wb_h5_quiet(path, e) != WB_OK) return WB_ERR;
    wb_store *s = calloc(1, sizeof *s);
    if (!s) return wb_fail(e, "%s: out of memory", path);
    strcpy(s->path, path);
    s->root = s->points = s->samples = s->ceilings = s->flushed = -1;
    s->row_mem = s->sample_mem = s->flushed_mem = s->ceiling_mem = s->xfer = -1;
    /* EXCL closes the race with another run choosing the same name. The file
     * format stays at HDF5's default (earliest): the newest (superblock 3)
     * marks a file open for writing, and a killed run's file then refuses to
     * open until h5clear -s (checked with 1.10.8). */
    s->file = H5Fcreate(path, H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT);
    if (s->file < 0) {
        wb_h5_fail(e, path, "H5Fcreate");
        free(s);
        return WB_ERR;
    }
    if (populate(s, e) != WB_OK) {
        drop_all(s);
        /* A half-made file would block the next attempt at the same name. */
        if (unlink(path) != 0 && errno != ENOENT) wb_err_prefix(e, "partial file left behind");
        free(s);
        return WB_ERR;
    }
    *out = s;
    return WB_OK;
}

/* The row as stored: named after its point, in the file's conventions
 * (wb_col_enc: percent, -1; counts whole, -1 not counted), string columns ending in NUL inside their width
 * (a string that filled its buffer loses its last byte) and zero after it,
 * so that no stale bytes reach the file. */
static void normalize(wb_row *r) {
    int n;
    const wb_column *c = wb_schema_columns(&n);
    memset(r->name, 0, sizeof r->name);
    for (int i = 0; i < n; i++) {
        if (c[i].type != WB_COL_STR) continue;
        char *f = (char *)r + c[i].offset;
        size_t len = strnlen(f, c[i].size - 1);
        memset(f + len, 0, c[i].size - len);
    }
    wb_point_name(&r->p, r->name, sizeof r->name); /* after the strings it is made of end in NUL */
    wb_row_encode(r);
    wb_row_encode_counts(r);
}

/* A point is stored in two flushes: its row and samples, then the "flushed"
 * count that makes the reader see them (h5util.h says why). The counts here
 * move only when both are done, so a failed append is retried in place. */
int wb_store_append(wb_store *s, wb_row *r, const double *samples_ms, int nsamples, wb_err *e) {
    if (nsamples < 0 || (nsamples > 0 && !samples_ms))
        return wb_fail(e, "%s: wb_store_append: %d samples at %p", s->path, nsamples, (const void *)samples_ms);
    wb_row row = *r;
    row.m.id = s->nrows;
    normalize(&row);
    if (write_at(s, s->points, s->row_mem, (hsize_t)s->nrows, 1, &row, 1, e) != WB_OK) return WB_ERR;
    if (nsamples > 0) {
        wb_h5_sample *buf = malloc((size_t)nsamples * sizeof *buf);
        if (!buf) return wb_fail(e, "%s: out of memory for %d samples", s->path, nsamples);
        for (int i = 0; i < nsamples; i++) buf[i] = (wb_h5_sample){row.m.id, i, samples_ms[i]};
        int rc = write_at(s, s->samples, s->sample_mem, (hsize_t)s->nsamples, (hsize_t)nsamples, buf, 1, e);
        free(buf);
        if (rc != WB_OK) return WB_ERR;
    }
    if (flush(s, e) != WB_OK) return WB_ERR;
    wb_h5_flushed done = {s->nrows + 1, s->nsamples + nsamples};
    if (H5Awrite(s->flushed, s->flushed_mem, &done) < 0) return wb_h5_fail(e, s->path, "H5Awrite(flushed)");
    if (flush(s, e) != WB_OK) return WB_ERR;
    s->nrows = done.rows;
    s->nsamples = done.samples;
    r->m.id = row.m.id;
    return WB_OK;
}

int wb_store_update(wb_store *s, const wb_row *r, wb_err *e) {
    if (r->m.id < 0 || r->m.id >= s->nrows)
        return wb_fail(e, "%s: wb_store_update: row %lld does not exist (%lld rows)", s->path, (long long)r->m.id,
                       (long long)s->nrows);
    wb_row row = *r;
    normalize(&row);
    if (write_at(s, s->points, s->row_mem, (hsize_t)row.m.id, 1, &row, 0, e) != WB_OK) return WB_ERR;
    return flush(s, e);
}

int wb_store_close(wb_store *s, wb_err *e) {
    if (!s) return WB_OK;
    hid_t ids[] = {s->flushed,     s->points, s->samples, s->ceilings, s->row_mem, s->sample_mem,
                   s->flushed_mem, s->ceiling_mem, s->xfer, s->root, s->file};
    int rc = WB_OK;
    for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++) rc = wb_h5_end(rc, ids[k], s->path, e);
    free(s->ceil);
    free(s);
    return rc;
}

/* h5util.c - the HDF5 error policy and the /points and /samples compound
 * types shared by the results writer and reader (see h5util.h). */
#include "harness/store/h5util.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/store/schema.h"
#include "harness/store/store_h5.h"

int wb_h5_quiet(const char *path, wb_err *e) {
    /* HDF5 prints its whole error stack to stderr by default, once per failing
     * call and again for every caller up the stack; wallbench reports the
     * failing call itself, so the automatic printing only adds noise. */
    if (H5Eset_auto2(H5E_DEFAULT, NULL, NULL) < 0) return wb_h5_fail(e, path, "H5Eset_auto2");
    return WB_OK;
}

typedef struct stack_walk {
    char api[256];   /* message of the API call (outermost entry) */
    char cause[256]; /* message of the innermost entry */
    int entries;
} stack_walk;

/* Copies src into dst, newlines (HDF5 embeds ctime() output) made spaces. */
static void copy_line(char *dst, size_t len, const char *src) {
    snprintf(dst, len, "%s", src ? src : "");
    for (char *p = dst; *p; p++)
        if (*p == '\n' || *p == '\r') *p = ' ';
}

static herr_t walk_entry(unsigned n, const H5E_error2_t *err, void *data) {
    stack_walk *w = data;
    if (n == 0) copy_line(w->api, sizeof w->api, err->desc);
    copy_line(w->cause, sizeof w->cause, err->desc);
    w->entries++;
    return 0;
}

/* The sec2 driver's innermost message is "unable to open file: name = ...,
 * errno = 13, error message = 'Permission denied', flags = ..."; only the
 * quoted system message tells the user something the path does not. */
static void shorten_cause(char *cause) {
    static const char key[] = "error message = '";
    char *p = strstr(cause, key);
    if (!p) return;
    p += sizeof key - 1;
    char *q = strchr(p, '\'');
    size_t n = q ? (size_t)(q - p) : strlen(p);
    memmove(cause, p, n);
    cause[n] = '\0';
}

int wb_h5_fail(wb_err *e, const char *path, const char *call) {
    stack_walk w = {"", "", 0};
    if (H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, walk_entry, &w) < 0 || w.entries == 0)
        return wb_fail(e, "%s: %s failed (HDF5 gave no reason)", path, call);
    shorten_cause(w.cause);
    if (w.entries == 1 || strcmp(w.api, w.cause) == 0) return wb_fail(e, "%s: %s failed: %s", path, call, w.api);
    return wb_fail(e, "%s: %s failed: %s (%s)", path, call, w.api, w.cause);
}

int wb_h5_close(hid_t id, const char *path, wb_err *e) {
    if (id < 0) return WB_OK;
    herr_t rc;
    const char *call;
    switch (H5Iget_type(id)) {
    case H5I_FILE: rc = H5Fclose(id), call = "H5Fclose"; break;
    case H5I_GROUP: rc = H5Gclose(id), call = "H5Gclose"; break;
    case H5I_DATASET: rc = H5Dclose(id), call = "H5Dclose"; break;
    case H5I_DATATYPE: rc = H5Tclose(id), call = "H5Tclose"; break;
    case H5I_DATASPACE: rc = H5Sclose(id), call = "H5Sclose"; break;
    case H5I_ATTR: rc = H5Aclose(id), call = "H5Aclose"; break;
    case H5I_GENPROP_LST: rc = H5Pclose(id), call = "H5Pclose"; break;
    default: return wb_fail(e, "%s: H5Iget_type: id %lld is not an open HDF5 object", path, (long long)id);
    }
    return rc < 0 ? wb_h5_fail(e, path, call) : WB_OK;
}

void wb_h5_drop(hid_t id) {
    wb_err ignored;
    (void)wb_h5_close(id, "", &ignored);
}

int wb_h5_end(int rc, hid_t id, const char *path, wb_err *e) {
    if (rc == WB_OK) return wb_h5_close(id, path, e);
    wb_h5_drop(id);
    return rc;
}

hid_t wb_h5_str_type(size_t size, const char *path, wb_err *e) {
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t < 0) return wb_h5_fail(e, path, "H5Tcopy(H5T_C_S1)");
    if (H5Tset_size(t, size) < 0) {
        wb_h5_fail(e, path, "H5Tset_size");
        wb_h5_drop(t);
        return -1;
    }
    if (H5Tset_strpad(t, H5T_STR_NULLTERM) < 0) {
        wb_h5_fail(e, path, "H5Tset_strpad");
        wb_h5_drop(t);
        return -1;
    }
    return t;
}

/* Inserts one member; numbers are native in memory, little-endian in the
 * file (the same bytes on x86-64 and aarch64, and explicit for other readers). */
static int insert(hid_t t, const char *name, wb_col_type type, size_t size, size_t offset, int layout,
                  const char *path, wb_err *e) {
    hid_t mt = -1;
    size_t want = 0;
    switch (type) {
    case WB_COL_I32: mt = layout == WB_H5_FILE ? H5T_STD_I32LE : H5T_NATIVE_INT32, want = 4; break;
    case WB_COL_I64: mt = layout == WB_H5_FILE ? H5T_STD_I64LE : H5T_NATIVE_INT64, want = 8; break;
    case WB_COL_F64: mt = layout == WB_H5_FILE ? H5T_IEEE_F64LE : H5T_NATIVE_DOUBLE, want = 8; break;
    case WB_COL_STR: want = size; break;
    }
    if (size != want || size == 0)
        return wb_fail(e, "%s: column %s: %zu bytes do not fit its type (schema.c)", path, name, size);
    if (type == WB_COL_STR && (mt = wb_h5_str_type(size, path, e)) < 0) return WB_ERR;
    int rc = WB_OK;
    if (H5Tinsert(t, name, offset, mt) < 0) rc = wb_h5_fail(e, path, "H5Tinsert");
    return type == WB_COL_STR ? wb_h5_end(rc, mt, path, e) : rc;
}

typedef struct member {
    const char *name;
    wb_col_type type;
    size_t size, offset; /* offset in the memory struct */
} member;

/* A compound of n members: at their memory offsets in a struct of mem_size
 * bytes, or packed in order for the file. */
static hid_t build(const member *m, int n, size_t mem_size, int layout, const char *path, wb_err *e) {
    size_t size = 0;
    for (int i = 0; i < n; i++) size += m[i].size;
    hid_t t = H5Tcreate(H5T_COMPOUND, layout == WB_H5_FILE ? size : mem_size);
    if (t < 0) return wb_h5_fail(e, path, "H5Tcreate(H5T_COMPOUND)");
    size_t at = 0;
    for (int i = 0; i < n; i++) {
        size_t offset = layout == WB_H5_FILE ? at : m[i].offset;
        if (insert(t, m[i].name, m[i].type, m[i].size, offset, layout, path, e) != WB_OK) {
            wb_h5_drop(t);
            return -1;
        }
        at += m[i].size;
    }
    return t;
}

hid_t wb_h5_points_type(int layout, const char *path, wb_err *e) {
    return wb_h5_points_type_of(WB_SCHEMA_VERSION, layout, path, e);
}

hid_t wb_h5_points_type_of(int version, int layout, const char *path, wb_err *e) {
    int n, k = 0;
    const wb_column *c = wb_schema_columns(&n);
    member *m = malloc((size_t)n * sizeof *m);
    if (!m) return wb_fail(e, "%s: out of memory for the /points type", path);
    for (int i = 0; i < n; i++)
        if (c[i].since <= version) /* a count: a double field, an int64 in files of WB_SCHEMA_COUNTS on (HDF5 converts) */
            m[k++] = (member){wb_column_name_in(&c[i], version),
                              layout == WB_H5_FILE ? wb_column_file_type(&c[i], version) : c[i].type, c[i].size, c[i].offset};
    hid_t t = build(m, k, sizeof(wb_row), layout, path, e);
    free(m);
    return t;
}

hid_t wb_h5_samples_type(int layout, const char *path, wb_err *e) {
    static const member m[] = {{"point_id", WB_COL_I64, 8, offsetof(wb_h5_sample, point_id)},
                               {"rep", WB_COL_I32, 4, offsetof(wb_h5_sample, rep)},
                               {"time_ms", WB_COL_F64, 8, offsetof(wb_h5_sample, time_ms)}};
    return build(m, 3, sizeof(wb_h5_sample), layout, path, e);
}

hid_t wb_h5_flushed_type(int layout, const char *path, wb_err *e) {
    static const member m[] = {{"rows", WB_COL_I64, 8, offsetof(wb_h5_flushed, rows)},
                               {"samples", WB_COL_I64, 8, offsetof(wb_h5_flushed, samples)}};
    return build(m, 2, sizeof(wb_h5_flushed), layout, path, e);
}

hid_t wb_h5_ceilings_type(int layout, const char *path, wb_err *e) {
#define CEIL(field, type) {#field, type, sizeof(((wb_ceiling_entry *)0)->field), offsetof(wb_ceiling_entry, field)}
    static const member m[] = {CEIL(name, WB_COL_STR),  CEIL(size_bytes, WB_COL_F64), CEIL(unit, WB_COL_STR),
                               CEIL(value, WB_COL_F64), CEIL(kernel, WB_COL_STR),     CEIL(launch, WB_COL_STR)};
#undef CEIL
    return build(m, (int)(sizeof m / sizeof m[0]), sizeof(wb_ceiling_entry), layout, path, e);
}

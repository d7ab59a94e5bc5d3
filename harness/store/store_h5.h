/* store_h5.h - the results file: provenance attributes on the root group,
 * one row per point in /points (compound of schema.h's columns, chunked,
 * appended and flushed row by row so that a killed run keeps every finished
 * point), every timed sample in /samples {point_id, rep, time_ms}, the
 * columns' units in /columns and the run's ceilings in /ceilings (schema 6;
 * docs/results-format.md). Reading checks the schema version and the
 * columns before trusting a file. */
#ifndef WB_STORE_H5_H
#define WB_STORE_H5_H

#include <stdint.h>
#include "harness/base/error.h"
#include "harness/base/point.h"

typedef struct wb_store wb_store;

/* One row of /ceilings (schema 6): a ceiling the run measured, the best value
 * so far of one (name, size, unit). Files of schema 1-5 held these as root
 * attributes named ceiling_<name>_gbps | _gips | _<size>B_greqs; the reader
 * gives both kinds of file both forms (wb_results_ceiling, wb_results_attr). */
typedef struct wb_ceiling_entry {
    char name[32];     /* the ceiling kernel's variant: dram_read, inst_issue, gather_word, ... */
    double size_bytes; /* table bytes of a gather ceiling; NaN: not sized */
    char unit[16];     /* "GB/s", "G inst/s" or "G req/s" */
    double value;
    char kernel[256];  /* the point that measured it (wb_point_name); "" when unknown (older file) */
    char launch[96];   /* its launch shape, e.g. "grid 1056 x block 256, ilp 4"; "" when unknown */
} wb_ceiling_entry;

/* Creates path (fails if it exists or the folder is not writable) and writes
 * the schema_version attribute. */
int wb_store_create(const char *path, wb_store **s, wb_err *e);
/* File attributes; may be called at any time (ceilings become known mid-run). */
int wb_store_attr_str(wb_store *s, const char *name, const char *value, wb_err *e);
int wb_store_attr_f64(wb_store *s, const char *name, double value, wb_err *e);
/* Sets the /ceilings row of c's (name, size_bytes, unit), adding it if new.
 * wb_store_attr_f64 of an older file's ceiling attribute name (see
 * wb_ceiling_entry) lands here too, with kernel and launch unknown. */
int wb_store_ceiling(wb_store *s, const wb_ceiling_entry *c, wb_err *e);
/* Appends r (setting r->m.id) and its samples, then flushes the file. */
int wb_store_append(wb_store *s, wb_row *r, const double *samples_ms, int nsamples, wb_err *e);
/* Rewrites row r->m.id in place (e.g. derived columns known later); flushes. */
int wb_store_update(wb_store *s, const wb_row *r, wb_err *e);
int wb_store_close(wb_store *s, wb_err *e);

typedef struct wb_attr {
    char name[64];
    char value[512];   /* numbers as %.17g */
    int is_number;
    int from_ceilings; /* 1: not in the file: a /ceilings row under its schema-1-5 attribute name */
} wb_attr;

typedef struct wb_results {
    char path[512];
    wb_row *rows;
    int64_t nrows;
    wb_attr *attrs;
    int nattrs;
    /* samples, grouped by point: sample_ms[sample_start[i] .. sample_start[i] + sample_count[i]) */
    double *sample_ms;
    int64_t *sample_start;
    int *sample_count;
    wb_ceiling_entry *ceilings; /* /ceilings, or the ceiling attributes of a schema-1-5 file */
    int nceilings;
} wb_results;

/* Opens a results file. Refuses, with a message naming the file and what is
 * wrong, a file that is not HDF5, lacks /points, has another
 * schema_version, or lacks a column this build knows. */
int wb_results_open(const char *path, wb_results *out, wb_err *e);
void wb_results_free(wb_results *r);
/* Attribute value as string or number; NULL / NaN when absent. */
const char *wb_results_attr(const wb_results *r, const char *name);
double wb_results_attr_f64(const wb_results *r, const char *name);
/* "The ceiling named X of this file", for files of every schema: name is the
 * ceiling kernel's variant (dram_read, inst_issue, ...), unit "GB/s",
 * "G inst/s" or "G req/s", size_bytes NaN or a gather table's bytes. NaN
 * when the file has none. */
double wb_results_ceiling(const wb_results *r, const char *name, const char *unit, double size_bytes);

/* The schema-1-5 attribute name of a ceiling (ceiling_dram_read_gbps,
 * ceiling_gather_word_1073741824B_greqs), and back: 1 when attr is such a
 * name (c gets name, unit and size; value and the rest are left alone). */
const char *wb_ceiling_attr_name(const wb_ceiling_entry *c, char *buf, size_t len);
int wb_ceiling_from_attr(const char *attr, wb_ceiling_entry *c);

#endif

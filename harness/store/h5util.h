/* h5util.h - what the results writer (store_h5.c) and reader (results_h5.c)
 * share: the one HDF5 error policy and the compound types of /points and
 * /samples, built from schema.h so that both sides agree column by column.
 * Internal to harness/ (and its tests). */
#ifndef WB_H5UTIL_H
#define WB_H5UTIL_H

#include <hdf5.h>
#include <stdint.h>

#include "harness/base/error.h"

/* Turns off HDF5's automatic error-stack printing for the process: every
 * failing call is reported once, through wb_err, by wb_h5_fail. */
int wb_h5_quiet(const char *path, wb_err *e);

/* Fills e with "path: call: <HDF5's reason>" taken from the current error
 * stack (the API's message and the innermost cause, e.g. "file signature not
 * found" or the errno text). Returns WB_ERR. Call it right after the failing
 * call: the next HDF5 API call clears the stack. */
int wb_h5_fail(wb_err *e, const char *path, const char *call);

/* Closes any HDF5 id (file, group, dataset, type, space, property list,
 * attribute) with the matching H5?close; a negative id is a no-op. Returns
 * WB_OK, or WB_ERR with e naming the close call. */
int wb_h5_close(hid_t id, const char *path, wb_err *e);
/* The same on an error path, where the first error is the one reported and
 * a failing close has nothing left to add. */
void wb_h5_drop(hid_t id);
/* Releases id after a step that returned rc: a checked close when rc is
 * WB_OK, a drop otherwise. Returns the status after both. */
int wb_h5_end(int rc, hid_t id, const char *path, wb_err *e);

/* One element of /samples. */
typedef struct wb_h5_sample {
    int64_t point_id;
    int32_t rep;
    double time_ms;
} wb_h5_sample;

enum { WB_H5_MEMORY = 0, WB_H5_FILE = 1 };

/* Compound type of /points. WB_H5_MEMORY: members at their wb_row offsets,
 * size sizeof(wb_row), native types. WB_H5_FILE: the same members, in schema
 * order, packed, little-endian. Strings are fixed-size and NUL-terminated.
 * Returns the type id (caller closes it), or -1 with e filled. */
hid_t wb_h5_points_type(int layout, const char *path, wb_err *e);
/* The same with only the columns schema `version` has (reading older files). */
hid_t wb_h5_points_type_of(int version, int layout, const char *path, wb_err *e);
/* Compound type of /samples {point_id, rep, time_ms}; same conventions. */
hid_t wb_h5_samples_type(int layout, const char *path, wb_err *e);
/* Compound type of /ceilings (wb_ceiling_entry, store_h5.h); same conventions. */
hid_t wb_h5_ceilings_type(int layout, const char *path, wb_err *e);

/* The /points attribute "flushed" {rows, samples}: how many rows of /points
 * and elements of /samples were whole on disk when it was written. HDF5
 * writes a flush's metadata in several pieces, and a run killed inside a
 * flush can leave the newest pieces pointing at space the file does not yet
 * hold (seen as "addr overflow" on read). The writer therefore raises this
 * count in a flush of its own after each point's data flush, and the reader
 * reads no further than it. */
typedef struct wb_h5_flushed {
    int64_t rows, samples;
} wb_h5_flushed;
hid_t wb_h5_flushed_type(int layout, const char *path, wb_err *e);
/* Fixed-size NUL-terminated C string type of size bytes (caller closes). */
hid_t wb_h5_str_type(size_t size, const char *path, wb_err *e);

#endif

/* provenance.h - where a results file comes from: its name
 * DIR/<UTC yyyymmddThhmmssZ>-<short git rev>.h5 and the file attributes
 * written when it is created (schema_version is the store's own). */
#ifndef WB_PROVENANCE_H
#define WB_PROVENANCE_H

#include <stddef.h>
#include <stdint.h>

#include "harness/gpu/device.h"
#include "harness/base/error.h"
#include "harness/store/store_h5.h"

typedef struct wb_provenance {
    char git_revision[96]; /* $WB_GIT_REV, else git's HEAD (+ "-dirty"), else "unknown" */
    char short_rev[16];    /* first 7 characters, for the file name */
    char utc_stamp[24];    /* yyyymmddThhmmssZ */
    char utc_time[32];     /* ISO 8601, e.g. 2026-11-29T12:00:00Z */
} wb_provenance;

/* What the run adds to the device's description. */
typedef struct wb_provenance_run {
    const char *command_line, *profile, *profile_model, *sweep, *counters;
    int reps;
    uint64_t seed;
} wb_provenance_run;

/* Reads the revision (git in WB_SOURCE_DIR; "-dirty" when `git status
 * --porcelain` lists anything outside results/) and the time. Never fails. */
void wb_provenance_init(wb_provenance *pv);

/* Creates the results file in dir and writes every provenance attribute;
 * path gets its name. A name taken by a run that started in the same second
 * gets a suffix -2, -3, ... . On WB_ERR no store is left open. */
int wb_provenance_create(const char *dir, const wb_provenance *pv, const wb_device *d, const wb_provenance_run *run,
                         wb_store **s, char *path, size_t len, wb_err *e);

#endif

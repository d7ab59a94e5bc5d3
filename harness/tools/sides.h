/* sides.h - what two results files are and where they differ, said before
 * a tool compares them: each side by file, GPU model, board and revision,
 * and every mismatch of schema, sweep (its name, fingerprint, or the points
 * each file holds), board (gpu_uuid), GPU model, GPU profile, build (git
 * revision and CUDA architectures) and command (--out aside), so that
 * `check` and `compare` state in their first lines what they compared and
 * what they did about it, for files of every schema the reader takes. */
#ifndef WB_SIDES_H
#define WB_SIDES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "harness/store/store_h5.h"

enum {
    WB_SIDE_SCHEMA, WB_SIDE_SWEEP, WB_SIDE_BOARD, WB_SIDE_MODEL, WB_SIDE_PROFILE, WB_SIDE_BUILD, WB_SIDE_COMMAND,
    WB_SIDE_KINDS
};

typedef struct wb_side_diff {
    int differs[WB_SIDE_KINDS];  /* 1 where the two files say different things */
    char a[WB_SIDE_KINDS][256];  /* what each file says ("?" where it does not) */
    char b[WB_SIDE_KINDS][256];
    int n;                       /* how many kinds differ */
} wb_side_diff;

/* The boards a file was measured on: merged_gpu_uuids when a merge wrote
 * it, else gpu_uuid; "?" when neither. */
const char *wb_side_boards(const wb_results *r);

/* The command that measured r without its --out DIR (a merge's: its first
 * shard's, with its --shard I/N dropped too); "" when the file does not say. */
void wb_side_command(const wb_results *r, char *out, size_t len);

/* "results/h200/x.h5 (NVIDIA H200, board GPU-4efdb731, revision 47c0bec, sweep full)". */
void wb_side_label(const wb_results *r, char *out, size_t len);

/* Fills d with what the two files say and where they differ. A kind only
 * one file states (an older file without a sweep attribute) is not a
 * mismatch: nothing can be said. */
void wb_side_compare(const wb_results *a, const wb_results *b, wb_side_diff *d);

/* After matching: two files that name one sweep (and no fingerprint tells
 * them apart) yet hold other points (a sweep that changed between builds,
 * or a run that stopped early) differ in sweep too, said with each file's
 * point count and how many points it alone holds. */
void wb_side_points(wb_side_diff *d, const wb_results *a, const wb_results *b, int64_t only_a, int64_t only_b);

/* 1 when a and b are one run: one file (same real path), or copies of one
 * run (same utc_time, board, revision, point count and every point's median
 * time: a copy edited to stand for another run is not one); why says which. */
int wb_side_same_run(const wb_results *a, const wb_results *b, char *why, size_t len);

/* One line per mismatch, "<prefix>board differs: A GPU-..., B GPU-...: <consequence>"
 * (tag_a, tag_b name the sides), where consequence[kind] says what the tool
 * did about it (NULL: nothing added); nothing when the files agree. */
void wb_side_print(FILE *f, const wb_side_diff *d, const char *prefix, const char *tag_a, const char *tag_b,
                   const char *const consequence[WB_SIDE_KINDS]);


/* The same for --json: {"file", "gpu_name", "gpu_uuid", "git_revision", "sweep", "schema_version", "profile",
 * "cuda_archs", "utc_time", "points", "projected"}. */
void wb_side_json(FILE *f, const wb_results *r);
/* [{"kind", "<tag_a>", "<tag_b>", "action"}] of the mismatches (tags as JSON keys). */
void wb_side_diff_json(FILE *f, const wb_side_diff *d, const char *tag_a, const char *tag_b,
                       const char *const consequence[WB_SIDE_KINDS]);

#endif

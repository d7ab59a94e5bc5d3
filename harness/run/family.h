/* family.h - what a micro/ family offers the harness: its sweep (the points
 * to measure), its data (inputs, filled once and shared by the points that
 * agree on data axes, with the CPU reference), and a launch callback that
 * only launches. Adding a family: kernels/<family>.cu, micro/<family>.c,
 * one line in harness/run/registry.c, and its test; or, outside the tree,
 * a plugin (WB_PLUGIN below, examples/wallbench-plugin). */
#ifndef WB_FAMILY_H
#define WB_FAMILY_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#include "harness/gpu/device.h"
#include "harness/base/error.h"
#include "harness/base/point.h"

typedef enum {
    WB_SWEEP_TEST,  /* tiny, odd sizes (0, 1, non-multiples of the tile), every variant: CTest */
    WB_SWEEP_QUICK, /* the default: the whole suite within 10 minutes on an H200 */
    WB_SWEEP_FULL   /* SWEEP=full */
} wb_sweep_kind;

/* Receives one point; returns WB_OK or WB_ERR. */
typedef int (*wb_point_add)(void *ctx, const wb_point *p);

/* One sweep of a family that needs nothing but the sink. */
typedef int (*wb_sweep_fn)(wb_point_add add, void *ctx);
/* Runs the one of test, quick, full that kind names: a family's sweep
 * callback in one line. */
int wb_sweep_of_kind(wb_sweep_kind kind, wb_sweep_fn test, wb_sweep_fn quick, wb_sweep_fn full, wb_point_add add,
                     void *ctx);

typedef struct wb_family {
    const char *name;
    const char *summary;
    const char *const *variants; /* NULL-terminated; the kernels' enum order and names */

    /* Calls add for every point of the sweep, with family, variant,
     * variant_id and axes set (wb_point_init first). */
    int (*sweep)(wb_sweep_kind kind, const wb_device *dev, wb_point_add add, void *ctx);

    /* Device bytes the point's data needs (inputs, outputs, tables, scratch);
     * the harness skips a point that does not fit before allocating. */
    double (*device_bytes)(const wb_point *p);

    /* 1 if b can reuse the data created for a (same data axes). */
    int (*same_data)(const wb_point *a, const wb_point *b);

    /* Allocates and fills inputs (random, seeded, never constant), computes
     * the CPU reference. Returns WB_OK, WB_SKIP or WB_ERR; *data is NULL on
     * failure and nothing stays allocated. */
    int (*data_create)(const wb_point *p, void **data, wb_err *e);
    void (*data_destroy)(void *data);

    /* Completes p->launch (grid, smem, occupancy, temp_bytes), p->bytes_model,
     * p->items and p->note; allocates scratch into data. WB_SKIP when the
     * configuration cannot run (e.g. shared table too large). */
    int (*plan)(void *data, wb_point *p, wb_err *e);

    /* Restores state a launch changes (counters, atomics targets, tables) so
     * that every sample and every counter replay sees the same start.
     * poison != 0 also fills every output with a value no correct run writes.
     * Runs outside timed regions; enqueues on s. */
    int (*reset)(void *data, const wb_point *p, int poison, cudaStream_t s, wb_err *e);

    /* Enqueues the point's kernel(s) on s. Nothing else: no allocation, no
     * copy, no synchronisation, no host work. */
    int (*launch)(void *data, const wb_point *p, cudaStream_t s, wb_err *e);

    /* After reset(poison) + launch + sync: compares the device output with
     * the CPU reference. WB_OK, or WB_ERR with up to ten mismatches
     * (index, got, expected) and the total count in e. */
    int (*verify)(void *data, const wb_point *p, wb_err *e);
} wb_family;

/* The registry (harness/run/registry.c), NULL-terminated, in run order
 * (ceiling first: the others are judged against it); plugin families
 * (wallbench run --plugin) follow the built-in ones. */
#define WB_FAMILIES_MAX 32
extern const wb_family *wb_families[];
const wb_family *wb_family_find(const char *name);
/* Appends f to the registry. WB_ERR with one sentence when a callback or
 * the variant list is missing, the name is empty or too long for
 * wb_point.family, another family has the name, or the registry is full. */
int wb_registry_add(const wb_family *f, wb_err *e);
/* 1 if f is one of the families compiled into wallbench. */
int wb_family_builtin(const wb_family *f);

/* ---- plugins: families in a shared library (wallbench run --plugin) ----
 * A plugin defines its families exactly like micro/<family>.c and ends
 * with one line, WB_PLUGIN(&my_family) or WB_PLUGIN(&a, &b), which defines
 * the entry point the harness looks up after dlopen. The harness refuses a
 * plugin built against another interface: bump WB_FAMILY_INTERFACE_VERSION
 * whenever wb_family, wb_point, wb_launch, wb_device or wb_err change. */
#define WB_FAMILY_INTERFACE_VERSION 1
#define WB_PLUGIN_ENTRY "wb_plugin_entry"

typedef struct wb_plugin {
    int interface_version;             /* WB_FAMILY_INTERFACE_VERSION the plugin was compiled with */
    size_t family_size, point_size;    /* sizeof(wb_family), sizeof(wb_point) there: a second check */
    const wb_family *const *families;  /* NULL-terminated */
} wb_plugin;

typedef const wb_plugin *(*wb_plugin_entry_fn)(void);

#ifdef __cplusplus
#define WB_PLUGIN_EXTERN extern "C"
#else
#define WB_PLUGIN_EXTERN
#endif
#define WB_PLUGIN(...)                                                                                       \
    static const wb_family *const wb_plugin_families_[] = {__VA_ARGS__, NULL};                               \
    static const wb_plugin wb_plugin_info_ = {WB_FAMILY_INTERFACE_VERSION, sizeof(wb_family), sizeof(wb_point), \
                                              wb_plugin_families_};                                          \
    WB_PLUGIN_EXTERN __attribute__((visibility("default"))) const wb_plugin *wb_plugin_entry(void);          \
    WB_PLUGIN_EXTERN __attribute__((visibility("default"))) const wb_plugin *wb_plugin_entry(void) {         \
        return &wb_plugin_info_;                                                                             \
    }

/* Loads the plugin at path (dlopen) and registers its families. WB_ERR with
 * one sentence naming the file when it does not load, lacks the entry
 * point, was built against another interface version, or a family's name
 * is taken (a built-in family or an earlier plugin). */
int wb_plugin_load(const char *path, wb_err *e);
/* Index of a variant name in f->variants, or -1. */
int wb_family_variant(const wb_family *f, const char *variant);

#endif

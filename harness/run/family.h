/* family.h - what a micro/ family offers the harness: its sweep (the points
 * to measure), its data (inputs, filled once and shared by the points that
 * agree on data axes, with the CPU reference), and a launch callback that
 * only launches. Adding a family: kernels/<family>.cu, micro/<family>.c,
 * its figure micro/<family>_figure.c, one line in micro/families.def
 * (docs/adding-a-family.md); or, outside
 * the tree, a plugin (WB_PLUGIN below, examples/wallbench-plugin). */
#ifndef WB_FAMILY_H
#define WB_FAMILY_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#include "harness/gpu/device.h"
#include "harness/base/error.h"
#include "harness/base/point.h"
#include "harness/base/roof_contract.h"

typedef enum {
    WB_SWEEP_TEST,  /* tiny, odd sizes (0, 1, non-multiples of the tile), every variant: CTest */
    WB_SWEEP_QUICK, /* the default: the whole suite within 10 minutes on an H200 */
    WB_SWEEP_FULL,  /* SWEEP=full */
    WB_SWEEP_KINDS
} wb_sweep_kind;

/* Receives one point; returns WB_OK or WB_ERR. */
typedef int (*wb_point_add)(void *ctx, const wb_point *p);

struct wb_family;
/* Where a sweep sends its points, and the device it sweeps for. */
typedef struct wb_sink {
    const struct wb_family *family;
    const wb_device *dev;
    wb_point_add add;
    void *ctx;
} wb_sink;

/* Sends p (wb_point_init first, then variant_id and the axes set) to the
 * sink: the harness fills p->family and p->variant from the family and its
 * variant table. WB_ERR when variant_id is not one of the family's. */
int wb_sink_add(const wb_sink *s, wb_point *p);

/* One sweep of a family: calls wb_sink_add for every point. */
typedef int (*wb_sweep_fn)(const wb_sink *s);

/* One variant: its name (point names, the variant column), what it does,
 * and in a family of ceilings the roof role it plays (0: none). */
typedef struct wb_variant {
    const char *name;
    const char *summary;
    wb_roof_role role;
} wb_variant;

/* A family's variant table from its list in kernels/<f>.h (see
 * kernels/variant_list.h): row i is enum value i, and the count must match
 * the enum's, checked at compile time. */
#define WB_VARIANT_ROW(id, name, summary) [id] = {name, summary},
#define WB_VARIANT_TABLE(table, list, count)                                \
    static const wb_variant table[] = {list(WB_VARIANT_ROW)};               \
    _Static_assert(sizeof table / sizeof *table == (count), #table ": one row per enum value")
#define WB_VARIANT_COUNT(table) ((int)(sizeof table / sizeof *table))
/* The same with each row's roof role: define WB_VARIANT_ROLE(id), a
 * constant expression of the enum value, before it (micro/ceiling.c). */
#define WB_VARIANT_ROW_ROLE(id, name, summary) [id] = {name, summary, WB_VARIANT_ROLE(id)},
#define WB_VARIANT_TABLE_ROLES(table, list, count)                          \
    static const wb_variant table[] = {list(WB_VARIANT_ROW_ROLE)};          \
    _Static_assert(sizeof table / sizeof *table == (count), #table ": one row per enum value")

typedef struct wb_family {
    const char *name;
    const char *summary;
    /* 1: the family's rows are ceilings: each variant's best value is kept
     * as a file attribute (wb_ceiling_attr, harness/base/roof.h), and the
     * variants' roles (wb_variant.role) make the run's measured roof and
     * its random-access wall. */
    int ceilings;
    const wb_variant *variants; /* WB_VARIANT_TABLE: the kernels' enum order */
    int nvariants;

    /* The sweeps by kind (WB_SWEEP_TEST, QUICK, FULL); the harness picks one. */
    wb_sweep_fn sweep[WB_SWEEP_KINDS];

    /* Device bytes the point's data needs (inputs, outputs, tables, scratch);
     * the harness skips a point that does not fit before allocating. */
    double (*device_bytes)(const wb_point *p);

    /* 1 if b can reuse the data created for a (same data axes). */
    int (*same_data)(const wb_point *a, const wb_point *b);

    /* Allocates and fills inputs (random from the run's seed, never constant), computes
     * the CPU reference. Returns WB_OK, WB_SKIP or WB_ERR; *data is NULL on
     * failure and nothing stays allocated. */
    int (*data_create)(const wb_point *p, uint64_t seed, void **data, wb_err *e);
    void (*data_destroy)(void *data);

    /* Completes p->launch (grid, smem, occupancy, temp_bytes), p->bytes_model,
     * p->items, the facts the tools read (p->lookups, p->fallback: never only
     * in p->note) and p->note; allocates scratch into data. WB_SKIP when the
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

/* The registry (harness/run/registry.c), owned by the harness: families
 * are handed in with wb_registry_add and run in the order they were added.
 * The built-in ones come from micro/families.def (micro/families.c adds
 * them, ceiling first: the others are judged against its ceilings); a
 * plugin adds its own after them. */
#define WB_REGISTRY_MAX 32
/* Appends f. WB_ERR with one sentence naming the family when its name is
 * empty, too long for wb_point.family or taken (built in or loaded), a
 * callback, sweep or its variant table is missing or names a variant
 * twice, a variant plays a roof role in a family that is not of ceilings
 * or under another name than the roof contract's, or the registry is full. */
int wb_registry_add(const wb_family *f, wb_err *e);
/* The families added so far are the built-in ones (micro/families.c). */
void wb_registry_mark_builtin(void);
/* 1 if f is one of the families compiled into wallbench. */
int wb_family_builtin(const wb_family *f);
int wb_registry_count(void);
/* The i-th family in run order, NULL past the end. */
const wb_family *wb_registry_at(int i);
/* The family of that name, or NULL. */
const wb_family *wb_family_find(const char *name);
/* Empties the registry (tests). */
void wb_registry_clear(void);

/* ---- plugins: families in a shared library (wallbench run --plugin) ----
 * A plugin defines its families exactly like micro/<family>.c and ends
 * with one line, WB_PLUGIN(&my_family) or WB_PLUGIN(&a, &b), which defines
 * the entry point the harness looks up after dlopen. The harness refuses a
 * plugin built against another interface: bump WB_FAMILY_INTERFACE_VERSION
 * whenever wb_family, wb_point, wb_launch, wb_device or wb_err change. */
#define WB_FAMILY_INTERFACE_VERSION 5 /* 2: variant tables, sweeps by kind, data_create's seed, ceilings; 3: wb_point.places; 4: wb_point.lookups, fallback, wb_variant.role; 5: wb_point.bit_width */
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

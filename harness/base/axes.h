/* axes.h - the axes of a point, one line each: what varies between points
 * of a family beyond family, variant, dtype, layout and n. Each line is
 *   X(column, type, not_applicable, unit, description, since)
 * with column the field of wb_point (point.h) and of /points (schema.c),
 * the key in point names ("column:value", point.c), and the key of the
 * fixed-axes signature of the figure tables (export_slice.c). type is I32,
 * I64 or F64; an axis that does not apply holds not_applicable (-1, NaN,
 * 0 for flags); since the schema version whose files first hold the column
 * (0: every version; an older file reads not_applicable). A new axis is one
 * line here with since = the new WB_SCHEMA_VERSION (harness/store/schema.h,
 * bumped), and the sweep that sets it; wb_point changes, so plugins need
 * WB_FAMILY_INTERFACE_VERSION bumped too (harness/run/family.h). */
#ifndef WB_AXES_H
#define WB_AXES_H

#include <math.h>
#include <stdint.h>

#define WB_POINT_AXES(X)                                                                            \
    X(selectivity, F64, NAN, "fraction", "share of rows passing the predicate", 0)                  \
    X(table_entries, I64, -1, "entries", "dimension/hash table entries", 0)                         \
    X(groups, I64, -1, "groups", "group-by groups", 0)                                              \
    X(expr_ops, I32, -1, "operators", "expression operators", 0)                                    \
    X(vector_bytes, I32, -1, "bytes", "access width per thread", 0)                                 \
    X(columns, I32, -1, "columns", "distinct input columns", 0)                                     \
    X(load_factor, F64, NAN, "fraction", "hash table load factor", 0)                               \
    X(match_rate, F64, NAN, "fraction", "share of probes that match", 0)                            \
    X(partitions, I32, -1, "partitions", "probe keys partitioned by table slice first; -1 n/a", 2)  \
    X(warm_cache, I32, 0, "bool", "1: L2 not flushed between samples", 0)                          \
    X(bit_width, I32, -1, "bits", "bits a value the column's data is drawn to fill (compression)", 9)

/* The launch axes a sweep chooses (fields of wb_launch, kernels/launch.h;
 * plan fills the rest of wb_launch), in the same form. */
#define WB_LAUNCH_AXES(X)                                                                           \
    X(ilp, I32, -1, "items/thread", "items per thread (ILP axis); -1 n/a", 0)                       \
    X(block, I32, -1, "threads", "threads per block; -1 n/a (library peers)", 0)                    \
    X(occupancy_target, F64, NAN, "fraction", "requested share of resident warps", 0)               \
    X(sm_limit, I32, 0, "SMs", "grid restricted to this many SMs; 0 = all", 0)

#define WB_AXIS_CTYPE_I32 int
#define WB_AXIS_CTYPE_I64 int64_t
#define WB_AXIS_CTYPE_F64 double

/* WB_AXIS_<column>: the index of an axis of WB_POINT_AXES. */
#define WB_AXIS_INDEX(column, type, na, unit, desc, since) WB_AXIS_##column,
enum { WB_POINT_AXES(WB_AXIS_INDEX) WB_POINT_AXES_N };
#undef WB_AXIS_INDEX

/* 1 if v is the axis' "not applicable" value (NaN for reals). */
#define WB_AXIS_NA(v, na) ((v) != (v) || (double)(v) == (double)(na))

#endif

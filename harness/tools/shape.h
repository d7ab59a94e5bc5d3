/* shape.h - the launch-shape rule a table, figure or comparison applies
 * when a point was measured at several launch shapes (ILP x occupancy x
 * block x SM limit): "fastest" keeps, per point, the shape with the lowest
 * median time (best-of, which must then be said), a fixed shape keeps only
 * the rows measured at it. Library peers (CUB: ILP and block -1) have no
 * shape and pass every rule. Spelled on the command line as
 *   fastest | ilp=I[,occ=O][,block=B][,sms=S]   (unnamed parts: any)
 * and described in words for keys and titles by wb_shape_text. */
#ifndef WB_SHAPE_H
#define WB_SHAPE_H

#include <stddef.h>

#include "harness/base/error.h"
#include "harness/base/point.h"
#include "harness/store/store_h5.h"

typedef struct wb_shape {
    int fastest;   /* 1: best-of per point; the fields below unused */
    int ilp;       /* -1: any */
    double occ;    /* occupancy target; NaN: any */
    int block;     /* -1: any */
    int sms;       /* SM limit (0 = all SMs); -1: any */
} wb_shape;

/* The default of every tool: fastest per point (what the figures did before
 * the rule was named), so that old commands draw what they drew. */
extern const wb_shape wb_shape_fastest;

/* Parses s (see above); WB_ERR with one sentence naming the bad part. */
int wb_shape_parse(const char *s, wb_shape *out, wb_err *e);
/* 1 when r passes a fixed rule (always 1 for fastest and for peers). */
int wb_shape_match(const wb_shape *sh, const wb_row *r);
/* "fastest launch shape per point" or "launch shape ILP 4, occupancy 1,
 * block 256" (parts that are "any" left out). */
const char *wb_shape_text(const wb_shape *sh, char *buf, size_t len);

/* Applies the rule to a whole file in place (rows and their samples): a
 * fixed shape keeps the rows measured at it; fastest keeps, per point (every
 * axis but ILP, occupancy, block, SM limit and the vector width that follows
 * ILP), its ok row of least median time; not-ok rows stay. Returns the rows
 * left, -1 when out of memory. */
int64_t wb_shape_filter(wb_results *r, const wb_shape *sh);

#endif

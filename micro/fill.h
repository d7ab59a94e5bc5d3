/* fill.h - the host half of kernels/fill.h: the values of a fill spec for
 * any rows, drawn on their own (splitmix64 is counter-based: draw j of a
 * stream is wb_splitmix(seed + (j+1) * golden), wb_rng_at). A family that generates
 * its inputs on the GPU (wb_fill_gpu) uses this to rebuild any stretch of
 * them on the host for its reference, chunk by chunk on every core, without
 * holding whole columns. tests/test_expr_stream.c holds it to the sequential
 * fills of data.h, tests/test_gpu_fill.c the GPU fill to it. */
#ifndef WB_MICRO_FILL_H
#define WB_MICRO_FILL_H

#include <stdint.h>

#include "kernels/fill.h"
#include "micro/data.h"

/* x[0, n) = rows [first, first + n) of the spec's column (4- or 8-byte
 * elements by spec->type), on the calling thread. */
void wb_fill_host_range(const wb_fill_spec *spec, void *x, int64_t first, int64_t n);

/* Element size of a spec's type. */
int wb_fill_elem_bytes(const wb_fill_spec *spec);

#endif

/* fill.h - the host half of kernels/fill.h: the values of a fill spec for
 * any rows, drawn on their own (splitmix64 is counter-based: draw j of a
 * stream is mix(seed + (j+1) * golden), wb_rng_at). A family that generates
 * its inputs on the GPU (wb_fill_gpu) uses this to rebuild any stretch of
 * them on the host for its reference, chunk by chunk on every core, without
 * holding whole columns. tests/test_fill.c holds it to the sequential fills
 * of data.h, tests/test_gpu_fill.c the GPU fill to it. */
#ifndef WB_MICRO_FILL_H
#define WB_MICRO_FILL_H

#include <stdint.h>

#include "kernels/fill.h"

/* Draw j (0-based) of the stream that wb_rng_next walks from seed. */
static inline uint64_t wb_rng_at(uint64_t seed, uint64_t j) {
    uint64_t z = seed + (j + 1) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* x[0, n) = rows [first, first + n) of the spec's column (4- or 8-byte
 * elements by spec->type), on the calling thread. */
void wb_fill_host_range(const wb_fill_spec *spec, void *x, int64_t first, int64_t n);

/* Element size of a spec's type. */
int wb_fill_elem_bytes(const wb_fill_spec *spec);

#endif

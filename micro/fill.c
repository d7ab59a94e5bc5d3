/* fill.c - host values of a fill spec (see fill.h). */
#include "micro/fill.h"

#include "kernels/splitmix.h"
#include "micro/exact.h"

int wb_fill_elem_bytes(const wb_fill_spec *spec) { return spec->type == WB_FILL_I32 ? 4 : 8; }

void wb_fill_host_range(const wb_fill_spec *f, void *x, int64_t first, int64_t n) {
    int64_t i = 0;
    while (i < n) {
        const int64_t row = first + i, c = row / f->chunk, j0 = row % f->chunk;
        const int64_t len = f->chunk - j0 < n - i ? f->chunk - j0 : n - i;
        const uint64_t seed = wb_chunk_seed(f->seed, c + (int64_t)f->chunk_salt);
        /* One chunk's stretch: the same expressions as data.h's fills. */
        if (f->type == WB_FILL_F64) {
            double *o = (double *)x + i;
            for (int64_t k = 0; k < len; k++) {
                const double u = (double)(wb_rng_at(seed, (uint64_t)(j0 + k)) >> 11) * (1.0 / 9007199254740992.0);
                o[k] = f->dlo + (f->dhi - f->dlo) * u;
            }
        } else {
            for (int64_t k = 0; k < len; k++) {
                const uint64_t z = wb_rng_at(seed, (uint64_t)(j0 + k));
                const uint64_t v = (uint64_t)f->lo + (f->span ? wb_mulhi(z, f->span) : 0);
                if (f->type == WB_FILL_I32) ((int32_t *)x)[i + k] = (int32_t)v;
                else ((int64_t *)x)[i + k] = (int64_t)v;
            }
        }
        i += len;
    }
}

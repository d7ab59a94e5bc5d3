/* exact.c - the keyed bijection behind exact selectivities and the chunk
 * seeds of parallel fills (see exact.h). */
#include "micro/exact.h"

#include <math.h>

#include "kernels/splitmix.h"
#include "micro/data.h"

void wb_perm_init(wb_perm *p, uint64_t n, uint64_t seed) {
    int bits = 0;
    while (bits < 63 && (1ull << bits) < n) bits++;
    p->n = n;
    p->mask = bits ? (1ull << bits) - 1 : 0;
    /* Half the width moves high bits into the low ones that the multiply
     * cannot reach; at least 1 keeps the xorshift invertible and non-trivial. */
    p->shift = bits / 2 + 1;
    uint64_t s = seed ^ 0x5DEECE66Dull;
    for (int r = 0; r < 3; r++) {
        p->mul[r] = wb_rng_next(&s) | 1u;
        p->add[r] = wb_rng_next(&s);
    }
}

int64_t wb_exact_k(int64_t n, double s) {
    if (n <= 0 || !(s > 0)) return 0;
    if (s >= 1) return n;
    int64_t k = (int64_t)llround(s * (double)n);
    return k < 0 ? 0 : k > n ? n : k;
}

uint64_t wb_chunk_seed(uint64_t seed, int64_t chunk_index) { return wb_chunk_stream(seed, (uint64_t)chunk_index); }

/* bijection.h - the seeded random bijection of [0, n) behind the probe
 * family's exact match rates (micro/keys.h keys it and keeps its C API),
 * here as header code: plain C on the host, __host__ __device__ under nvcc,
 * so that the GPU generator (kernels/probe_gen.cu) ranks and unranks keys
 * with the bits micro/keys.c uses on the host. */
#ifndef WB_KERNELS_BIJECTION_H
#define WB_KERNELS_BIJECTION_H

#include <stdint.h>

#ifdef __CUDACC__
#define WB_BIJECTION_HD __host__ __device__
#else
#define WB_BIJECTION_HD
#endif

/* A 4-round Feistel network on the smallest power-of-two domain >= n (the
 * halves differ by a bit when the width is odd), walked in cycles until the
 * value falls below n: a bijection of [0, n), under two steps on average. */
typedef struct wb_bijection {
    uint64_t n;
    int wl, wr;        /* bits of the left and right halves, wl + wr = domain bits */
    uint64_t key[4];
} wb_bijection;

/* The round function, cut to `bits` bits. */
static inline WB_BIJECTION_HD uint64_t wb_feistel_f(uint64_t x, uint64_t key, int bits) {
    uint64_t z = (x ^ key) * 0x9E3779B97F4A7C15ull;
    z ^= z >> 29;
    z *= 0xBF58476D1CE4E5B9ull;
    return (z ^ (z >> 32)) & ((1ull << bits) - 1);
}

/* Round i maps (l, r) to (r, l ^ F_i(r)), so the halves swap widths each
 * round and are back after four; the inverse runs the rounds backwards,
 * (l, r) to (r ^ F_i(l), l). Cycle walking keeps both within [0, n).
 * x < n: the image of x. */
static inline WB_BIJECTION_HD uint64_t wb_feistel_fwd(const wb_bijection *b, uint64_t x) {
    do {
        int wl = b->wl, wr = b->wr;
        uint64_t l = x >> wr, r = x & ((1ull << wr) - 1);
        for (int i = 0; i < 4; i++) {
            uint64_t t = l ^ wb_feistel_f(r, b->key[i], wl);
            l = r, r = t;
            int w = wl;
            wl = wr, wr = w;
        }
        x = (l << wr) | r;
    } while (x >= b->n);
    return x;
}

/* y < n: the x with wb_feistel_fwd(b, x) == y. */
static inline WB_BIJECTION_HD uint64_t wb_feistel_inv(const wb_bijection *b, uint64_t y) {
    do {
        int wl = b->wl, wr = b->wr;
        uint64_t l = y >> wr, r = y & ((1ull << wr) - 1);
        for (int i = 3; i >= 0; i--) {
            uint64_t t = r ^ wb_feistel_f(l, b->key[i], wr);
            r = l, l = t;
            int w = wl;
            wl = wr, wr = w;
        }
        y = (l << wr) | r;
    } while (y >= b->n);
    return y;
}

#endif

/* fingerprint.c - fingerprints of host arrays (see fingerprint.h), on every
 * core: a sum mod 2^64 does not depend on the split. */
#include "micro/fingerprint.h"

#include <stdatomic.h>
#include <string.h>

#include "micro/parallel.h"

#define CHUNK ((int64_t)1 << 20)

typedef struct print_job {
    const unsigned char *x; /* NULL: every element holds `byte` */
    int elem, byte;
    int64_t first;
    _Atomic uint64_t sum;
} print_job;

static uint64_t bits_at(const unsigned char *p, int elem) {
    if (elem == 4) {
        uint32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static void print_chunk(void *ctx, int worker, int64_t chunk, int64_t begin, int64_t end) {
    print_job *j = ctx;
    (void)worker, (void)chunk;
    unsigned char pattern[8];
    memset(pattern, j->byte, sizeof pattern);
    const uint64_t fill = bits_at(pattern, j->elem);
    uint64_t sum = 0;
    for (int64_t i = begin; i < end; i++)
        sum += wb_print_term((uint64_t)(j->first + i), j->x ? bits_at(j->x + i * j->elem, j->elem) : fill);
    atomic_fetch_add_explicit(&j->sum, sum, memory_order_relaxed);
}

static uint64_t print_of(const void *x, int64_t n, int elem, int byte, int64_t first) {
    print_job j = {.x = x, .elem = elem, .byte = byte, .first = first};
    atomic_init(&j.sum, 0);
    wb_par_chunks(n, CHUNK, print_chunk, &j);
    return atomic_load(&j.sum);
}

uint64_t wb_print_host(const void *x, int64_t n, int elem, int64_t first) { return print_of(x, n, elem, 0, first); }

uint64_t wb_print_fill(int64_t n, int elem, int byte, int64_t first) { return print_of(NULL, n, elem, byte, first); }

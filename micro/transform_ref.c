/* transform_ref.c - inputs, permutation, CPU reference and output check of
 * the transform family (see transform_ref.h). */
#include "micro/transform_ref.h"

#include <string.h>

#include "micro/exact.h"

#define FILL_CHUNK ((int64_t)1 << 20)  /* elements per fill or reference task */
#define CHECK_CHUNK ((int64_t)1 << 18) /* elements per check task */

int wb_transform_esz(wb_transform_dtype dt) { return dt == WB_TRANSFORM_I32 ? 4 : 8; }

/* The j-th output of a splitmix64 stream started at seed: counter-based, so
 * any element can be recomputed without the ones before it. */
static uint64_t stream_at(uint64_t seed, int64_t j) {
    uint64_t s = seed + (uint64_t)j * 0x9E3779B97F4A7C15ull;
    return wb_rng_next(&s);
}

int32_t wb_transform_input_i32(uint64_t seed, int64_t j) { return (int32_t)(uint32_t)(stream_at(seed, j) >> 32); }

double wb_transform_input_f64(uint64_t seed, int64_t j) {
    return (double)(stream_at(seed, j) >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

void wb_transform_constants(uint64_t seed, int32_t *a_i32, int32_t *b_i32, double *a_f64, double *b_f64) {
    uint64_t s = seed ^ 0xC0FFEE5EEDull;
    *a_i32 = (int32_t)(((uint32_t)wb_rng_next(&s) | 1u) << 1);
    *b_i32 = (int32_t)((uint32_t)wb_rng_next(&s) | 1u);
    *a_f64 = 0.5 + 1.5 * wb_rng_unit(&s);
    *b_f64 = 2.0 * wb_rng_unit(&s) - 1.0;
}

/* ---- host data and reference, on all CPUs ---- */

typedef struct fill_job {
    wb_transform_dtype dt;
    uint64_t seed;
    void *out;
    const int32_t *map;             /* reference: NULL is the identity */
    const wb_perm *q;     /* map fill: NULL is the identity */
    int32_t a_i32, b_i32;
    double a_f64, b_f64;
} fill_job;

static void input_chunk(void *ctx, int worker, int64_t chunk, int64_t begin, int64_t end) {
    const fill_job *j = ctx;
    (void)worker, (void)chunk;
    if (j->dt == WB_TRANSFORM_I32)
        for (int64_t i = begin; i < end; i++) ((int32_t *)j->out)[i] = wb_transform_input_i32(j->seed, i);
    else
        for (int64_t i = begin; i < end; i++) ((double *)j->out)[i] = wb_transform_input_f64(j->seed, i);
}

void wb_transform_fill_input(wb_transform_dtype dt, uint64_t seed, void *in, int64_t n) {
    fill_job j = {.dt = dt, .seed = seed, .out = in};
    wb_par_chunks(n, FILL_CHUNK, input_chunk, &j);
}

static void map_chunk(void *ctx, int worker, int64_t chunk, int64_t begin, int64_t end) {
    const fill_job *j = ctx;
    int32_t *map = j->out;
    (void)worker, (void)chunk;
    if (j->q)
        for (int64_t i = begin; i < end; i++) map[i] = (int32_t)wb_perm_at(j->q, (uint64_t)i);
    else
        for (int64_t i = begin; i < end; i++) map[i] = (int32_t)i;
}

void wb_transform_fill_map(int32_t *map, int64_t n, const wb_perm *q) {
    fill_job j = {.out = map, .q = q};
    wb_par_chunks(n, FILL_CHUNK, map_chunk, &j);
}

static void reference_chunk(void *ctx, int worker, int64_t chunk, int64_t begin, int64_t end) {
    const fill_job *j = ctx;
    const int32_t *map = j->map;
    (void)worker, (void)chunk;
    if (j->dt == WB_TRANSFORM_I32) {
        int32_t *r = j->out;
        for (int64_t i = begin; i < end; i++)
            r[i] = wb_transform_op_i32(wb_transform_input_i32(j->seed, map ? map[i] : i), j->a_i32, j->b_i32);
    } else {
        double *r = j->out;
        for (int64_t i = begin; i < end; i++)
            r[i] = wb_transform_op_f64(wb_transform_input_f64(j->seed, map ? map[i] : i), j->a_f64, j->b_f64);
    }
}

void wb_transform_reference(wb_transform_dtype dt, uint64_t seed, const int32_t *map, int64_t n, int32_t a_i32,
                            int32_t b_i32, double a_f64, double b_f64, void *ref) {
    fill_job j = {.dt = dt, .seed = seed, .out = ref, .map = map, .a_i32 = a_i32, .b_i32 = b_i32, .a_f64 = a_f64,
                  .b_f64 = b_f64};
    wb_par_chunks(n, FILL_CHUNK, reference_chunk, &j);
}

int wb_transform_poison_byte(wb_transform_dtype dt) { return dt == WB_TRANSFORM_I32 ? 0xAA : 0xFF; }

typedef struct check_job {
    wb_transform_dtype dt;
    const unsigned char *chunk;
    int64_t first, lead, n;
    const void *expected;
} check_job;

/* Elements [begin, end) of the chunk, in order. */
static void check_range(void *ctx, int64_t begin, int64_t end, wb_mismatches *m) {
    const check_job *j = ctx;
    const int esz = wb_transform_esz(j->dt);
    unsigned char poison[8];
    memset(poison, wb_transform_poison_byte(j->dt), sizeof poison);
    for (int64_t k = begin; k < end; k++) {
        const int64_t i = j->first + k - j->lead;
        const unsigned char *at = j->chunk + k * esz;
        if (i < 0 || i >= j->n) {
            if (memcmp(at, poison, (size_t)esz) != 0) wb_mismatch_add(m, i, "a write", "poison (outside the output)");
        } else if (j->dt == WB_TRANSFORM_I32) {
            int32_t got, want = ((const int32_t *)j->expected)[i];
            memcpy(&got, at, sizeof got);
            if (got != want) wb_mismatch_add_i64(m, i, got, want);
        } else {
            double got, want = ((const double *)j->expected)[i];
            memcpy(&got, at, sizeof got);
            if (!(got == want)) wb_mismatch_add_f64(m, i, got, want);
        }
    }
}

void wb_transform_check_chunk(wb_transform_dtype dt, const void *chunk, int64_t first, int64_t count, int64_t lead,
                              int64_t n, const void *expected, wb_mismatches *m) {
    check_job j = {.dt = dt, .chunk = chunk, .first = first, .lead = lead, .n = n, .expected = expected};
    wb_par_check(count, CHECK_CHUNK, check_range, &j, m);
}

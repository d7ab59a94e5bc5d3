/* ceiling_ref.c - source words, checksums, output checks and the
 * instruction kernels' reference (see ceiling_ref.h). Fill, sum and checks
 * run on all CPUs through exact.h's chunk loop. */
#include "micro/ceiling_ref.h"

#include "micro/exact.h"

#define WORD_CHUNK ((int64_t)1 << 20)  /* words per fill or sum task: even, so no pair straddles two */
#define CHECK_CHUNK ((int64_t)1 << 18) /* words per check task */

typedef struct words_job {
    uint32_t *w;
    const uint32_t *got, *want;
    uint64_t seed;
    uint32_t pattern_seed;
    int64_t first;
    uint32_t sum[WB_PAR_MAX];
} words_job;

/* Chunk c draws from its own stream, wb_chunk_seed(seed, c): the words do
 * not depend on the number of workers. */
static void fill_chunk(void *ctx, int worker, int64_t chunk, int64_t begin, int64_t end) {
    words_job *j = ctx;
    uint32_t *w = j->w;
    (void)worker;
    uint64_t s = wb_chunk_seed(j->seed, chunk);
    int64_t k = begin;
    for (; k + 1 < end; k += 2) {
        const uint64_t r = wb_rng_next(&s);
        w[k] = (uint32_t)r | 1u;
        w[k + 1] = (uint32_t)(r >> 32) | 1u;
    }
    if (k < end) w[k] = (uint32_t)wb_rng_next(&s) | 1u;
}

void wb_ceiling_fill_words(uint32_t *w, int64_t nwords, uint64_t seed) {
    words_job j = {.w = w, .seed = seed};
    wb_par_chunks(nwords, WORD_CHUNK, fill_chunk, &j);
}

static void sum_chunk(void *ctx, int worker, int64_t chunk, int64_t begin, int64_t end) {
    words_job *j = ctx;
    (void)chunk;
    uint32_t sum = 0;
    for (int64_t k = begin; k < end; k++) sum += j->got[k];
    j->sum[worker] += sum;
}

/* Sums mod 2^32 of any split add up to the same total. */
uint32_t wb_ceiling_word_sum(const uint32_t *w, int64_t nwords) {
    words_job j = {.got = w};
    wb_par_chunks(nwords, WORD_CHUNK, sum_chunk, &j);
    uint32_t sum = 0;
    for (int i = 0; i < WB_PAR_MAX; i++) sum += j.sum[i];
    return sum;
}

static void words_range(void *ctx, int64_t begin, int64_t end, wb_mismatches *m) {
    const words_job *j = ctx;
    for (int64_t k = begin; k < end; k++) {
        const int64_t i = j->first + k;
        const uint32_t expect = j->want ? j->want[i] : wb_ceiling_pattern((uint64_t)i, j->pattern_seed);
        if (j->got[k] != expect) wb_mismatch_add_i64(m, i, j->got[k], expect);
    }
}

void wb_ceiling_check_words(const uint32_t *got, int64_t first, int64_t count, const uint32_t *want, uint32_t seed,
                            wb_mismatches *m) {
    words_job j = {.got = got, .want = want, .pattern_seed = seed, .first = first};
    wb_par_check(count, CHECK_CHUNK, words_range, &j, m);
}

static void poison_range(void *ctx, int64_t begin, int64_t end, wb_mismatches *m) {
    const words_job *j = ctx;
    const uint32_t poison = 0x01010101u * WB_CEILING_POISON;
    for (int64_t k = begin; k < end; k++)
        if (j->got[k] == poison) wb_mismatch_add(m, j->first + k, "poison", "a written output");
}

void wb_ceiling_check_inst(const uint32_t *got, int64_t first, int64_t count, const int64_t *ids, const uint32_t *ref,
                           int nsample, wb_mismatches *m) {
    words_job j = {.got = got, .first = first};
    wb_par_check(count, CHECK_CHUNK, poison_range, &j, m);
    for (int i = 0; i < nsample; i++)
        if (ids[i] >= first && ids[i] < first + count && got[ids[i] - first] != ref[i])
            wb_mismatch_add_i64(m, ids[i], got[ids[i] - first], ref[i]);
}

/* A sum mod 2^32 over [0, n) on all CPUs: each worker's share in sum[worker], then their total
 * (sums of any split add up to the same). The gathers' and the atomics' references. */
typedef struct sum_job {
    int sector;            /* gather: 32-byte sectors (1) or words (0) */
    const uint32_t *table; /* atomics' table check: entries [first, first + n) */
    uint64_t count, first; /* gather: table words; atomics: table entries */
    uint32_t seed;
    uint32_t sum[WB_PAR_MAX];
} sum_job;

static uint32_t par_sum(int64_t n, void (*chunk)(void *, int, int64_t, int64_t, int64_t), sum_job *j) {
    wb_par_chunks(n, WORD_CHUNK, chunk, j);
    uint32_t sum = 0;
    for (int i = 0; i < WB_PAR_MAX; i++) sum += j->sum[i];
    return sum;
}

static void gather_chunk(void *ctx, int worker, int64_t chunk, int64_t begin, int64_t end) {
    sum_job *j = ctx;
    (void)chunk;
    uint32_t sum = 0;
    if (j->sector) {
        for (int64_t r = begin; r < end; r++) {
            const uint64_t first = 8 * wb_ceiling_gather_slot((uint64_t)r, j->seed, j->count / 8);
            for (int k = 0; k < 8; k++) sum += wb_ceiling_gather_word(first + (uint64_t)k, j->seed);
        }
    } else {
        for (int64_t r = begin; r < end; r++)
            sum += wb_ceiling_gather_word(wb_ceiling_gather_slot((uint64_t)r, j->seed, j->count), j->seed);
    }
    j->sum[worker] += sum;
}

uint32_t wb_ceiling_gather_ref(int sector, int64_t n, uint64_t table_words, uint32_t seed) {
    sum_job j = {.sector = sector, .count = table_words, .seed = seed};
    return par_sum(n, gather_chunk, &j);
}

static void atom_ref_chunk(void *ctx, int worker, int64_t chunk, int64_t begin, int64_t end) {
    sum_job *j = ctx;
    (void)chunk;
    uint32_t sum = 0;
    for (int64_t r = begin; r < end; r++)
        sum += wb_ceiling_atom_value((uint64_t)r, j->seed) *
               (2u * (uint32_t)wb_ceiling_gather_slot((uint64_t)r, j->seed, j->count) + 1u);
    j->sum[worker] += sum;
}

static void atom_table_chunk(void *ctx, int worker, int64_t chunk, int64_t begin, int64_t end) {
    sum_job *j = ctx;
    (void)chunk;
    uint32_t sum = 0;
    for (int64_t k = begin; k < end; k++) sum += j->table[k] * (2u * (uint32_t)(j->first + (uint64_t)k) + 1u);
    j->sum[worker] += sum;
}

uint32_t wb_ceiling_atom_ref(int64_t n, uint64_t entries, uint32_t seed) {
    sum_job j = {.count = entries, .seed = seed};
    return par_sum(n, atom_ref_chunk, &j);
}

uint32_t wb_ceiling_atom_table_sum(const uint32_t *table, uint64_t first, int64_t count) {
    sum_job j = {.table = table, .first = first};
    return par_sum(count, atom_table_chunk, &j);
}

uint32_t wb_ceiling_inst_ref(wb_ceiling_variant v, uint32_t tid, uint32_t seed, int turns) {
    switch (v) {
    case WB_CEILING_INST_ISSUE: return wb_ceiling_inst_issue(tid, seed, turns);
    case WB_CEILING_INT_ALU: return wb_ceiling_int_alu(tid, seed, turns);
    default: return wb_ceiling_fma(tid, seed, turns);
    }
}

int wb_ceiling_sample(int64_t n, int count, int64_t *ids) {
    if (n <= count) {
        for (int64_t i = 0; i < n; i++) ids[i] = i;
        return (int)n;
    }
    /* i * (n - 1) / (count - 1) grows by at least 1 per step since n > count. */
    for (int i = 0; i < count; i++) ids[i] = (int64_t)((__int128)i * (n - 1) / (count - 1));
    return count;
}

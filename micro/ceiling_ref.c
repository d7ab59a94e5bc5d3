/* ceiling_ref.c - source words, checksums, output checks and the
 * instruction kernels' reference (see ceiling_ref.h). */
#include "ceiling_ref.h"

void wb_ceiling_fill_words(uint32_t *w, int64_t nwords, uint64_t seed) {
    uint64_t s = seed;
    int64_t j = 0;
    for (; j + 1 < nwords; j += 2) {
        const uint64_t r = wb_rng_next(&s);
        w[j] = (uint32_t)r | 1u;
        w[j + 1] = (uint32_t)(r >> 32) | 1u;
    }
    if (j < nwords) w[j] = (uint32_t)wb_rng_next(&s) | 1u;
}

uint32_t wb_ceiling_word_sum(const uint32_t *w, int64_t nwords) {
    uint32_t sum = 0;
    for (int64_t j = 0; j < nwords; j++) sum += w[j];
    return sum;
}

void wb_ceiling_check_words(const uint32_t *got, int64_t first, int64_t count, const uint32_t *want, uint32_t seed,
                            wb_mismatches *m) {
    for (int64_t k = 0; k < count; k++) {
        const int64_t j = first + k;
        const uint32_t expect = want ? want[j] : wb_ceiling_pattern((uint64_t)j, seed);
        if (got[k] != expect) wb_mismatch_add_i64(m, j, got[k], expect);
    }
}

void wb_ceiling_check_inst(const uint32_t *got, int64_t first, int64_t count, const int64_t *ids, const uint32_t *ref,
                           int nsample, wb_mismatches *m) {
    const uint32_t poison = 0x01010101u * WB_CEILING_POISON;
    for (int64_t k = 0; k < count; k++)
        if (got[k] == poison) wb_mismatch_add(m, first + k, "poison", "a written output");
    for (int i = 0; i < nsample; i++)
        if (ids[i] >= first && ids[i] < first + count && got[ids[i] - first] != ref[i])
            wb_mismatch_add_i64(m, ids[i], got[ids[i] - first], ref[i]);
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

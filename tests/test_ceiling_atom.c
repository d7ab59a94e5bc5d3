/* test_ceiling_atom.c - the atomics ceilings' check without a GPU (micro/ceiling_ref.h): the CPU
 * runs the requests the kernels run (request r adds wb_ceiling_atom_value(r) to entry
 * wb_ceiling_gather_slot(r, seed, entries)) into a table, and wb_ceiling_atom_table_sum of that table,
 * summed whole or by chunks, equals wb_ceiling_atom_ref; a value added to a neighbouring entry, or
 * lost, changes it; reps passes give reps times the sum (the shared variant's 16 passes). */
#include <stdint.h>
#include <stdlib.h>

#include "tests/check.h"
#include "micro/ceiling_ref.h"

static void run_requests(uint32_t *table, uint64_t entries, int64_t n, uint32_t seed) {
    for (int64_t r = 0; r < n; r++)
        table[wb_ceiling_gather_slot((uint64_t)r, seed, entries)] += wb_ceiling_atom_value((uint64_t)r, seed);
}

int main(void) {
    const uint32_t seed = 0x9E3779B9u;
    static const uint64_t sizes[] = {1, 32, 4096, 3000017}; /* the sweep's few/many, and a large odd table */
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        const uint64_t entries = sizes[k];
        const int64_t n = 1000003; /* odd, across the reference's chunks of 2^20 */
        uint32_t *table = calloc(entries, sizeof *table);
        CHECK(table != NULL);
        if (!table) return TEST_DONE();
        run_requests(table, entries, n, seed);
        const uint32_t want = wb_ceiling_atom_ref(n, entries, seed);
        CHECK(wb_ceiling_atom_table_sum(table, 0, (int64_t)entries) == want);
        if (entries > 1) { /* by two chunks, as verify downloads them */
            const int64_t half = (int64_t)entries / 2;
            CHECK(wb_ceiling_atom_table_sum(table, 0, half) +
                      wb_ceiling_atom_table_sum(table + half, (uint64_t)half, (int64_t)entries - half) ==
                  want);
            const uint32_t v = wb_ceiling_atom_value(0, seed); /* request 0's value at a wrong entry */
            const uint64_t at = wb_ceiling_gather_slot(0, seed, entries), other = (at + 1) % entries;
            table[at] -= v, table[other] += v;
            CHECK(wb_ceiling_atom_table_sum(table, 0, (int64_t)entries) != want);
            table[other] -= v; /* and lost */
            CHECK(wb_ceiling_atom_table_sum(table, 0, (int64_t)entries) != want);
            table[at] += v;
        }
        run_requests(table, entries, n, seed); /* a second pass: twice the sum */
        CHECK(wb_ceiling_atom_table_sum(table, 0, (int64_t)entries) == want * 2u);
        CHECK(wb_ceiling_atom_ref(n, entries, seed + 1) != want || entries == 1); /* another seed, other requests */
        free(table);
    }
    CHECK(wb_ceiling_atom_ref(0, 32, seed) == 0); /* no requests */
    return TEST_DONE();
}

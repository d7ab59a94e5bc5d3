/* ceiling_ref.h - the ceiling family's host side that tests reach directly:
 * the random source words, their checksum, the check of written words
 * (copies against the source, writes against the seeded pattern), and the
 * instruction kernels' CPU reference with its deterministic sample. */
#ifndef WB_CEILING_REF_H
#define WB_CEILING_REF_H

#include <stdint.h>

#include "kernels/ceiling.h"
#include "micro/data.h"

/* Poison bytes: 0xAA gives the even word 0xAAAAAAAA, which no correct
 * output holds (source words, the write pattern and inst outputs are odd);
 * 0x55 gives the odd 0x55555555 for cub_reduce's sum, which is always even
 * (a sum of 4n odd words). */
#define WB_CEILING_POISON 0xAA
#define WB_CEILING_POISON_SUM 0x55

/* Random odd 32-bit words from seed, on all CPUs: chunk c of 2^20 words
 * from its own stream (wb_chunk_seed), so the same words whatever the
 * number of threads. */
void wb_ceiling_fill_words(uint32_t *w, int64_t nwords, uint64_t seed);
/* Their sum mod 2^32: the checksum every read variant must reproduce. */
uint32_t wb_ceiling_word_sum(const uint32_t *w, int64_t nwords);

/* Checks got[0, count), words [first, first + count) of an output: against
 * want[first + k] (copies), or against wb_ceiling_pattern(first + k, seed)
 * when want is NULL (dram_write). Adds mismatches to m. */
void wb_ceiling_check_words(const uint32_t *got, int64_t first, int64_t count, const uint32_t *want, uint32_t seed,
                            wb_mismatches *m);

/* Checks got[0, count), outputs [first, first + count) of an instruction
 * kernel: none may still hold the poison (every id must be written), and
 * each sampled id in range must equal its reference. */
void wb_ceiling_check_inst(const uint32_t *got, int64_t first, int64_t count, const int64_t *ids, const uint32_t *ref,
                           int nsample, wb_mismatches *m);

/* The output of thread id tid of an instruction variant (inst_issue,
 * int_alu, fma): the very function the kernel runs. */
uint32_t wb_ceiling_inst_ref(wb_ceiling_variant v, uint32_t tid, uint32_t seed, int turns);

/* What a gather of n requests from a table of table_words words returns:
 * the sum mod 2^32 of the word (sector 0) or of the 8 words of the sector
 * (sector 1) each request names, from the table's contents as
 * wb_ceiling_gather_word defines them, on all CPUs. */
uint32_t wb_ceiling_gather_ref(int sector, int64_t n, uint64_t table_words, uint32_t seed);

/* The atomics' check (kernels/ceiling.h): what a table that every request
 * r < n added wb_ceiling_atom_value(r) to at entry wb_ceiling_gather_slot(r,
 * seed, entries) must give wb_ceiling_atom_table_sum: the sum of entry e
 * times 2e + 1, mod 2^32. Both on all CPUs; table_sum takes the entries
 * [first, first + count) of the table, so that a large one is summed by
 * chunks and the chunks' sums added. */
uint32_t wb_ceiling_atom_ref(int64_t n, uint64_t entries, uint32_t seed);
uint32_t wb_ceiling_atom_table_sum(const uint32_t *table, uint64_t first, int64_t count);

/* The ids of the checked sample: every id when n <= count, else count ids
 * spread evenly from 0 to n - 1, both included. Returns how many. */
int wb_ceiling_sample(int64_t n, int count, int64_t *ids);

#endif

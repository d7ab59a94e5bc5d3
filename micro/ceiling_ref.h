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

/* The ids of the checked sample: every id when n <= count, else count ids
 * spread evenly from 0 to n - 1, both included. Returns how many. */
int wb_ceiling_sample(int64_t n, int count, int64_t *ids);

#endif

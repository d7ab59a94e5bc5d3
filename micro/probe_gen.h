/* probe_gen.h - inputs, CPU reference and checks of the probe family.
 *
 * The data: a dimension of D rows with dense keys 0..D-1 (sorted, as SSB's
 * dimensions), of which exactly `passing` = round(match * D) pass the
 * dimension filter (at least 1 and at most D-1 when match < 1); a passing
 * row's value is a seeded hash of its key in [0, 2^30), a filtered row's is
 * WB_PROBE_FILTERED. A fact column of n foreign keys, of which exactly
 * `hits` = round(match * n) name a passing row: misses are keys of filtered
 * dimension rows (the filter removes them, as a WHERE on the dimension
 * does), so every probe still reads the table and the DRAM traffic per
 * probe does not depend on the match rate. Keys are uniform over each set.
 *
 * Exactness without shuffles: key k passes iff rank(k) < passing, fact row i
 * hits iff rank'(i) < hits, with rank and rank' random bijections; a fact
 * key is drawn as a uniform rank and mapped back. Values are a function of
 * the key, so the reference sum is accumulated while the keys are drawn,
 * with no random lookups into a 1 GiB table. */
#ifndef WB_PROBE_GEN_H
#define WB_PROBE_GEN_H

#include <stdint.h>

#include "harness/base/error.h"
#include "kernels/probe.h"
#include "kernels/probe_gen.h"
#include "micro/keys.h"

typedef struct wb_probe_gen {
    int64_t n, dim_rows, passing, hits;
    double match;
    uint64_t seed;
    wb_bijection dim_rank, row_rank;
} wb_probe_gen;

/* What a probe of the fact keys must return. */
typedef struct wb_probe_ref {
    uint64_t sum;        /* sum of the matched rows' values (hash, direct) */
    uint64_t packed_sum; /* sum of their packed group values, value & WB_PROBE_PACKED_MASK (packed) */
    int64_t matches;
} wb_probe_ref;

/* n >= 0, dim_rows >= 0, 0 < match <= 1. WB_SKIP when the match rate
 * cannot be met (fact rows but no dimension, or match < 1 with fewer than 2
 * dimension rows). */
int wb_probe_gen_init(wb_probe_gen *g, int64_t n, int64_t dim_rows, double match, uint64_t seed, wb_err *e);
/* The value of dimension key 0 <= key < dim_rows. */
int32_t wb_probe_dim_val(const wb_probe_gen *g, int64_t key);
/* keys[i] = i, vals[i] = wb_probe_dim_val(i), for i < dim_rows. */
void wb_probe_gen_dim(const wb_probe_gen *g, int32_t *keys, int32_t *vals);
/* n fact keys and the reference over them. */
void wb_probe_gen_fact(const wb_probe_gen *g, int32_t *fact, wb_probe_ref *ref);

/* The same inputs made on the GPU (kernels/probe_gen.h; probe_gen_gpu.c):
 * dim_keys and dim_vals (device, dim_rows int32 each) as wb_probe_gen_dim's,
 * fact (device, n int32) as wb_probe_gen_fact's, and ref their reference,
 * reduced on the GPU; waits for them. The host holds none of the columns.
 * WB_ERR naming the CUDA call that failed, or when the GPU's match count is
 * not `hits` (exact by construction: a cheap check the host can make on its
 * own). tests/test_gpu_probe_gen.c holds it to the host generator. */
int wb_probe_gen_gpu(const wb_probe_gen *g, int32_t *dim_keys, int32_t *dim_vals, int32_t *fact, wb_probe_ref *ref,
                     wb_err *e);
/* The kernels' parameters of g. */
void wb_probe_gen_params_of(const wb_probe_gen *g, wb_probe_gen_params *p);

/* The textbook reference, for the tests: probe dim_vals with every key (a
 * key outside [0, dim_rows) or with a negative value is a miss). */
void wb_probe_reference(const int32_t *fact, int64_t n, const int32_t *dim_vals, int64_t dim_rows, wb_probe_ref *ref);

/* Checks, WB_OK or WB_ERR with the mismatches in e. All fill and check
 * loops run on exact.h's parallel chunks. */
int wb_probe_check_sums(uint64_t sum, uint64_t matches, uint64_t want_sum, int64_t want_matches, wb_err *e);
/* A direct table: entry k equals wb_probe_dim_val(k), for every k. */
int wb_probe_check_direct(const int32_t *table, const wb_probe_gen *g, wb_err *e);
/* A hash table (slot layout of kernels/probe.h): exactly `passing` slots
 * occupied, each by a passing key with its value, reachable from its home
 * slot through occupied slots none of which holds the same key (so no key
 * twice, and a probe finds every key). */
int wb_probe_check_hash(const uint64_t *slots, int64_t nslots, const wb_probe_gen *g, wb_err *e);

/* The partitioned probe's partition step (kernels/probe.h): got[0, n) must
 * hold the keys of fact[0, n), grouped by partition key >> shift, the
 * partitions (0..partitions-1) in increasing order, in any order within one.
 * Checked from the reference's counts of fact: position i holds a key of the
 * partition whose run covers i (a mismatch per position, so a lost, moved
 * or poisoned key is shown where it is), and each partition's run holds the
 * multiset of its keys in fact (count and an order-free 64-bit fingerprint,
 * the sum of a mix of each key; one mismatch per partition). */
int wb_probe_check_parts(const int32_t *got, const int32_t *fact, int64_t n, int partitions, int shift, wb_err *e);

/* The same check without the host holding the partitioned keys: the
 * reference is the fact keys' counts and fingerprints by fine bucket (key >>
 * fine shift, WB_PROBE_PARTS_MAX buckets), from which those of any coarser
 * partition follow (partition p at shift s >= the fine shift is the buckets
 * b with b >> (s - fine shift) == p); the partitioned keys are summarised on
 * the GPU (kernels/probe_check.h: keys misplaced against the reference's
 * runs, count and fingerprint by partition) and the two compared. Misplaced
 * positions catch a key moved across a border, a lost or poisoned key; the
 * fingerprints a key replaced by another of its partition or one key twice. */
typedef struct wb_probe_fine {
    int shift;       /* bucket of a key: key >> shift */
    int64_t outside; /* keys of no bucket (key < 0 or key >> shift >= WB_PROBE_PARTS_MAX) */
    int64_t count[WB_PROBE_PARTS_MAX];
    uint64_t print[WB_PROBE_PARTS_MAX]; /* sum of wb_probe_key_mix over the bucket's keys */
} wb_probe_fine;
/* The fine shift of a dimension of dim_rows keys: every partition plan of
 * kernels/probe.h (shift ceil(log2 rows) - log2 partitions, at least 0) has
 * a shift at least this one. */
int wb_probe_fine_shift(int64_t dim_rows);
/* fine = the buckets of keys[0, n) at `shift`, on every core. WB_ERR when
 * out of memory. */
int wb_probe_fine_of(const int32_t *keys, int64_t n, int shift, wb_probe_fine *fine, wb_err *e);
/* The same from keys in device memory, without reading them back: the GPU
 * summary of kernels/probe_check.h over them as one run of
 * WB_PROBE_PARTS_MAX partitions at `shift` gives each bucket's count and
 * fingerprint (test_gpu_probe_parts holds the two equal). ~1 ms against ~1 s
 * of read-back and pass at 2^28 keys. WB_ERR on a CUDA or memory failure. */
int wb_probe_fine_gpu(const int32_t *keys, int64_t n, int shift, wb_probe_fine *fine, wb_err *e);
/* The reference of `partitions` partitions at `shift` from fine: count[p],
 * print[p] and the runs start[0, partitions] of n keys. WB_ERR when a key is
 * of no partition or the shift is finer than fine's (the caller then checks
 * on the host). */
int wb_probe_parts_ref(const wb_probe_fine *fine, int64_t n, int partitions, int shift, int64_t *count,
                       uint64_t *print, int64_t *start, wb_err *e);
/* What the GPU's summary (kernels/probe_check.h) of got[0, n) is, computed
 * on the host: the tests hold the kernel to it. */
void wb_probe_parts_summary_host(const int32_t *got, int64_t n, int partitions, int shift, const int64_t *start,
                                 uint64_t *summary);
/* A summary against the reference: WB_OK when nothing is misplaced and every
 * partition's count and fingerprint match; else WB_ERR naming the first
 * misplaced position and the partitions that differ. */
int wb_probe_parts_compare(const uint64_t *summary, int64_t n, int partitions, const int64_t *count,
                           const uint64_t *print, const int64_t *start, wb_err *e);

/* Slots of a hash table of dim_rows at a load factor in (0, 1): ceil(rows / lf). */
int64_t wb_probe_hash_slots(int64_t dim_rows, double load_factor);

#endif

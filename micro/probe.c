/* probe.c - the probe family: hash vs direct-mapped vs 1-byte packed probes
 * of a dimension table by a fact column's foreign keys (sum of the matched
 * values), and the CAS vs plain-store builds, across the table-size regimes
 * of seed 001 section 4.3: table in L1/shared memory, in L2, in DRAM. Inputs
 * and checks: probe_gen.h; kernels: kernels/probe.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/probe.h"
#include "kernels/probe_check.h"
#include "micro/data.h"
#include "harness/run/family.h"
#include "micro/keys.h"
#include "micro/probe_gen.h"

WB_VARIANT_TABLE(probe_variants, WB_PROBE_VARIANT_LIST, WB_PROBE_VARIANTS);

#define PROBE_BLOCK 256
#define PROBE_LF 0.5 /* default hash load factor (Crystal's table is double-sized, too) */
#define ROWS28 (1LL << 28)
/* Default partition: an 8 MiB slice of the direct table (128 partitions at
 * 1 GiB). The probe's persistent grid works on ~1 M consecutive keys at a
 * time, so it holds one or two slices (8-16 MiB) in the 50 MB L2: the
 * random-read wall is 160 G req/s at 16 MiB against 174 at 1 MiB, nearly
 * the same, while fewer partitions give the scatter runs of ~64 keys a tile
 * instead of 8 at 1024 partitions (4 MiB slices before issue 31). With the
 * one-pass scatter at 2^28 keys into 1 GiB (c019eac): 3.21 ms at 128
 * partitions, 3.15 at 64, 3.52 at 256 (results/h200-issue31/README.md, in history: results/HISTORY.md). */
#define SLICE_ENTRIES (1LL << 21)

static int is_build(int op) { return op == WB_PROBE_BUILD_HASH || op == WB_PROBE_BUILD_DIRECT; }
/* The partitioned probe and its partition alone: one plan, one scratch. */
static int is_part(int op) { return op == WB_PROBE_PARTITIONED || op == WB_PROBE_PARTITION; }

/* The build op of the table a variant reads or writes. */
static wb_probe_op table_of(int op) {
    return op == WB_PROBE_HASH || op == WB_PROBE_BUILD_HASH ? WB_PROBE_BUILD_HASH
           : op == WB_PROBE_DIRECT || op == WB_PROBE_BUILD_DIRECT || is_part(op)
               ? WB_PROBE_BUILD_DIRECT
               : WB_PROBE_BUILD_PACKED;
}

static double table_bytes(wb_probe_op table, int64_t rows, double lf) {
    if (table == WB_PROBE_BUILD_HASH) return lf > 0 && lf < 1 ? 8.0 * (double)wb_probe_hash_slots(rows, lf) : 0;
    return (table == WB_PROBE_BUILD_DIRECT ? 4.0 : 1.0) * (double)rows;
}

/* ---- sweep ---- */

/* n: fact rows (ignored by builds, whose size is the dimension's rows);
 * match: the match rate of probes, the share of dimension rows inserted by
 * builds (their selectivity). */
static void probe_point(wb_point *p, int op, int64_t n, int64_t rows, double match, double lf, int ilp, double occ) {
    wb_point_init(p);
    p->variant_id = op;
    snprintf(p->dtype, sizeof p->dtype, "int32");
    snprintf(p->layout, sizeof p->layout, "uniform");
    p->table_entries = rows;
    if (is_build(op)) {
        p->n = rows;
        p->selectivity = match;
    } else {
        p->n = n;
        p->match_rate = match;
    }
    if (table_of(op) == WB_PROBE_BUILD_HASH) p->load_factor = lf;
    p->launch.block = PROBE_BLOCK;
    p->launch.ilp = ilp;
    p->launch.occupancy_target = occ;
}

static int add(const wb_sink *s, int op, int64_t n, int64_t rows, double match, double lf, int ilp, double occ) {
    wb_point p;
    probe_point(&p, op, n, rows, match, lf, ilp, occ);
    return wb_sink_add(s, &p);
}

/* Partitions of SLICE_ENTRIES rows (at least 2, at most WB_PROBE_PARTS_MAX). */
static int default_parts(int64_t rows) {
    int parts = 2;
    while (parts < WB_PROBE_PARTS_MAX && (int64_t)parts * SLICE_ENTRIES < rows) parts *= 2;
    return parts;
}

/* The partitioned probe and, next to it, its partition alone (the same
 * point but the variant): one point records one timed launch, so the
 * partitioning's time is the twin's and the probe's is the difference.
 * parts 0: the default, slices of SLICE_ENTRIES. */
static int add_part(const wb_sink *s, int64_t n, int64_t rows, int parts) {
    static const int ops[] = {WB_PROBE_PARTITIONED, WB_PROBE_PARTITION};
    for (int i = 0; i < 2; i++) {
        wb_point p;
        probe_point(&p, ops[i], n, rows, 1, NAN, 4, 1);
        p.partitions = parts ? parts : default_parts(rows);
        if (wb_sink_add(s, &p) != WB_OK) return WB_ERR;
    }
    return WB_OK;
}

/* Partitioned (default partitions) at table sizes 2^lo, 2^(lo+2), ... and
 * 2^hi, with direct from 2^direct_from on (below, the sweep has it). */
static int add_part_sizes(const wb_sink *s, int lo, int hi, int direct_from) {
    for (int sh = lo; sh <= hi; sh = sh < hi && sh + 2 > hi ? hi : sh + 2)
        if ((sh >= direct_from && add(s, WB_PROBE_DIRECT, ROWS28, 1LL << sh, 1, PROBE_LF, 4, 1) != WB_OK) ||
            add_part(s, ROWS28, 1LL << sh, 0) != WB_OK)
            return WB_ERR;
    return WB_OK;
}

/* The partition-count sweep at one table size, less the default count
 * (add_part_sizes has it). */
static int add_part_counts(const wb_sink *s, int64_t rows, int lo_bits, int hi_bits, int step) {
    for (int b = lo_bits; b <= hi_bits; b += step)
        if ((1 << b) != default_parts(rows) && add_part(s, ROWS28, rows, 1 << b) != WB_OK) return WB_ERR;
    return WB_OK;
}

static int add_probes(const wb_sink *s, int64_t n, int64_t rows, double match, int ilp, double occ) {
    /* every probe variant but the partitioned one and its partition, which have their own sizes and counts; the
     * builds have theirs */
    for (int op = 0; op < WB_PROBE_VARIANTS; op++)
        if (!is_build(op) && !is_part(op) && add(s, op, n, rows, match, PROBE_LF, ilp, occ) != WB_OK)
            return WB_ERR;
    return WB_OK;
}

/* ILP x occupancy of one probe variant; skips the default point (ILP 4, occupancy 1). */
static int add_grid(const wb_sink *s, int op, int64_t rows, const int *ilps, int nilps, const double *occs, int noccs) {
    for (int i = 0; i < nilps; i++)
        for (int o = 0; o < noccs; o++)
            if (!(ilps[i] == 4 && occs[o] == 1) && add(s, op, ROWS28, rows, 1, PROBE_LF, ilps[i], occs[o]) != WB_OK)
                return WB_ERR;
    return WB_OK;
}

/* test: odd sizes, both probe data shapes (a dimension of 1000 rows, one of
 * 3000017 past L1), misses, every build including empty ones; the
 * partitioned probe and its partition alone at 2..4096 partitions. 114 points. */
static int sweep_test(const wb_sink *s) {
    static const int64_t rows[] = {1000, 3000017}, ns[] = {0, 1, 1000003}, build_rows[] = {0, 1, 1000, 3000017};
    for (int r = 0; r < 2; r++)
        for (int i = 0; i < 3; i++)
            for (int ilp = 1; ilp <= 4; ilp += 3)
                if (add_probes(s, ns[i], rows[r], 0.5, ilp, 1) != WB_OK) return WB_ERR;
    if (add_probes(s, 1000003, 1000, 1, 4, 1) != WB_OK || add_probes(s, 1000003, 1000, 0.1, 4, 1) != WB_OK)
        return WB_ERR;
    /* Partitioned and its partition alone: odd sizes, partial tiles, 2 to
     * 4096 partitions, a dimension smaller than the partition count; 5000011
     * keys are 611 tiles of 8192, several a block on any GPU of up to 150
     * SMs (each block owns a chunk of whole tiles). */
    static const int64_t part_ns[] = {0, 1, 1000003, 5000011};
    static const int counts[] = {2, 4096, 16, 128, 1024}; /* the first two only for 0 and 1 key */
    for (int r = 0; r < 2; r++)
        for (int i = 0; i < 4; i++)
            for (int c = 0; c < (part_ns[i] > 1 ? 5 : 2); c++)
                if (add_part(s, part_ns[i], rows[r], counts[c]) != WB_OK) return WB_ERR;
    for (int r = 0; r < 4; r++)
        for (int op = 0; op < WB_PROBE_VARIANTS; op++)
            for (int ilp = 1; ilp <= 4; ilp += 3)
                if (is_build(op) &&
                    add(s, op, -1, build_rows[r], build_rows[r] >= 2 ? 0.5 : 1, PROBE_LF, ilp, 1) != WB_OK)
                    return WB_ERR;
    return WB_OK;
}

/* quick: 2^28 probes at 11 table sizes x 3 variants (33): L1/shared up to
 * 2^14 rows, L2 up to 2^23 (direct 32 MiB), DRAM from 2^24 to 2^28 (direct
 * 1 GiB, hash 4 GiB); the direct ILP x occupancy grid at 2^28 rows (8);
 * match 0.5 and 0.1 at 2^28 rows (6); both builds at 4 sizes (8). 55 points,
 * 13 data sets. Estimate on an H200 (~30 launches per point: warm-up,
 * samples and ~15 counter replays): DRAM-regime probes 5-10 ms a launch, the
 * rest < 2 ms; ~0.5 s of data per set; about 40-60 s in all. */
static int sweep_quick(const wb_sink *s) {
    static const int shifts[] = {10, 12, 14, 17, 20, 22, 23, 24, 25, 26, 28};
    static const int ilps[] = {1, 4, 16};
    static const double occs[] = {0.25, 0.5, 1};
    for (int i = 0; i < 11; i++)
        if (add_probes(s, ROWS28, 1LL << shifts[i], 1, 4, 1) != WB_OK) return WB_ERR;
    if (add_grid(s, WB_PROBE_DIRECT, ROWS28, ilps, 3, occs, 3) != WB_OK) return WB_ERR;
    if (add_probes(s, ROWS28, ROWS28, 0.5, 4, 1) != WB_OK || add_probes(s, ROWS28, ROWS28, 0.1, 4, 1) != WB_OK)
        return WB_ERR;
    /* Partitioned (issues 17, 31): 2^20..2^28 rows x4 and 2^29 (2 GiB,
     * direct too), the default 128 and 16..4096 partitions at 2^28 (1 GiB),
     * each with its partition twin. 23 points, ~1-5 ms a launch: ~3 s,
     * plus ~3 s for the 2^29-row data. */
    if (add_part_sizes(s, 20, 29, 29) != WB_OK || add_part_counts(s, ROWS28, 4, 12, 2) != WB_OK) return WB_ERR;
    for (int sh = 12; sh <= 28; sh += sh < 20 ? 8 : 4)
        for (int op = 0; op < WB_PROBE_VARIANTS; op++)
            if (is_build(op) && add(s, op, -1, 1LL << sh, 1, PROBE_LF, 4, 1) != WB_OK) return WB_ERR;
    return WB_OK;
}

/* full: every power of two from 2^10 to 2^28 rows (57), load factors 0.25
 * and 0.75 (6), ILP {1,2,4,8,16} x occupancy {1/8,1/4,1/2,1} for direct at
 * 2^22 and direct and hash at 2^28 (57), match 0.5 / 0.1 at 3 sizes (18),
 * fact sizes 2^20..2^26 (18), builds every 4x (20) and at two load factors
 * (6). 182 points. */
static int sweep_full(const wb_sink *s) {
    static const int ilps[] = {1, 2, 4, 8, 16};
    static const double occs[] = {0.125, 0.25, 0.5, 1}, lfs[] = {0.25, 0.75};
    static const int miss_shifts[] = {12, 22, 28};
    for (int sh = 10; sh <= 28; sh += 2) {
        int64_t rows = 1LL << sh;
        if (add_probes(s, ROWS28, rows, 1, 4, 1) != WB_OK) return WB_ERR;
        if (sh == 12 || sh == 22 || sh == 28)
            for (int l = 0; l < 2; l++)
                if (add(s, WB_PROBE_HASH, ROWS28, rows, 1, lfs[l], 4, 1) != WB_OK) return WB_ERR;
        if ((sh == 22 || sh == 28) && add_grid(s, WB_PROBE_DIRECT, rows, ilps, 5, occs, 4) != WB_OK) return WB_ERR;
        if (sh == 28 && add_grid(s, WB_PROBE_HASH, rows, ilps, 5, occs, 4) != WB_OK) return WB_ERR;
    }
    for (int i = 0; i < 3; i++)
        if (add_probes(s, ROWS28, 1LL << miss_shifts[i], 0.5, 4, 1) != WB_OK ||
            add_probes(s, ROWS28, 1LL << miss_shifts[i], 0.1, 4, 1) != WB_OK)
            return WB_ERR;
    for (int nsh = 20; nsh <= 26; nsh += nsh < 24 ? 4 : 2)
        if (add_probes(s, 1LL << nsh, 1LL << 12, 1, 4, 1) != WB_OK ||
            add_probes(s, 1LL << nsh, ROWS28, 1, 4, 1) != WB_OK)
            return WB_ERR;
    for (int sh = 10; sh <= 28; sh += 2)
        for (int op = 0; op < WB_PROBE_VARIANTS; op++)
            if (is_build(op) && add(s, op, -1, 1LL << sh, 1, PROBE_LF, 4, 1) != WB_OK) return WB_ERR;
    for (int i = 0; i < 3; i++)
        for (int l = 0; l < 2; l++)
            if (add(s, WB_PROBE_BUILD_HASH, -1, 1LL << miss_shifts[i], 1, lfs[l], 4, 1) != WB_OK) return WB_ERR;
    /* Partitioned: the quick points, 2^21..2^30 rows x2 (direct past 2^28,
     * 4 GiB: two probes per sector; direct at the odd sizes too) and every
     * count 2..4096 at 2^28, each with its partition twin. 50 points, ~15 s
     * with the two large data sets. */
    if (add_part_sizes(s, 20, 28, 99) != WB_OK || add_part_sizes(s, 21, 27, 21) != WB_OK ||
        add_part_sizes(s, 29, 30, 29) != WB_OK || add_part_counts(s, ROWS28, 1, 12, 1) != WB_OK)
        return WB_ERR;
    return WB_OK;
}

/* ---- data ---- */

static double data_match(const wb_point *p) { return is_build(p->variant_id) ? p->selectivity : p->match_rate; }

static double probe_device_bytes(const wb_point *p) {
    int64_t rows = p->table_entries;
    double b = 8.0 * (double)rows + table_bytes(table_of(p->variant_id), rows, p->load_factor) + 16;
    /* the partitioned keys, the counts and starts (partitions x a grid of at
     * most 4 blocks of 512 threads on each of up to 256 SMs), the scan's storage */
    if (is_part(p->variant_id)) b += 4.0 * (double)p->n + 8.0 * p->partitions * 1024 + (1 << 20);
    return is_build(p->variant_id) ? b : b + 4.0 * (double)p->n;
}

/* Builds carry no fact column, so they share data only with builds. */
static int probe_same_data(const wb_point *a, const wb_point *b) {
    return is_build(a->variant_id) == is_build(b->variant_id) && a->table_entries == b->table_entries &&
           data_match(a) == data_match(b) && (is_build(a->variant_id) || a->n == b->n);
}

typedef struct probe_data {
    wb_probe_gen gen;
    wb_probe_ref ref;
    void *fact, *dim_keys, *dim_vals;  /* device int32 columns */
    void *out;                         /* device unsigned long long [sum, matches] */
    /* The table of the point planned last (plan precedes its point's launches). */
    int table_op;                      /* its build op, -1 before the first plan */
    void *table;
    int64_t slots;
    size_t table_bytes;
    size_t table_cap;                  /* bytes allocated at d->table: only grows (ensure_table) */
    int table_ready;                   /* 1: holds the build the probes read */
    wb_probe_parts parts;              /* partitioned: plan of the point planned last */
    void *temp;                        /* its scratch */
    size_t temp_bytes;
    wb_probe_fine *fine;               /* the fact keys' fine buckets (the partition check's reference), made by
                                          the first partition point's verify; NULL before */
    void *check;                       /* the GPU partition check's scratch */
    size_t check_bytes;
} probe_data;

static void probe_data_destroy(void *data) {
    probe_data *d = data;
    if (!d) return;
    wb_dev_free(d->fact), wb_dev_free(d->dim_keys), wb_dev_free(d->dim_vals);
    wb_dev_free(d->out), wb_dev_free(d->table), wb_dev_free(d->temp), wb_dev_free(d->check);
    free(d->fine);
    free(d);
}

static int probe_data_create(const wb_point *p, uint64_t run_seed, void **out, wb_err *e) {
    *out = NULL;
    int build = is_build(p->variant_id);
    int64_t rows = p->table_entries, n = build ? 0 : p->n;
    double match = data_match(p);
    probe_data *d = calloc(1, sizeof *d);
    if (!d) return wb_fail(e, "calloc(probe data) failed");
    d->table_op = -1;
    uint64_t seed = wb_keys_seed(run_seed, 0x70726f6265ull, (uint64_t)n, (uint64_t)rows, (uint64_t)llround(match * 1e9));
    int rc = wb_probe_gen_init(&d->gen, n, rows, match, seed, e);
    size_t col = (size_t)rows * sizeof(int32_t), fact = (size_t)n * sizeof(int32_t);
    if (rc == WB_OK) rc = wb_dev_alloc(&d->out, 2 * sizeof(unsigned long long), "probe sums", e);
    if (rc == WB_OK) rc = wb_dev_alloc(&d->dim_keys, col, "dimension keys", e);
    if (rc == WB_OK) rc = wb_dev_alloc(&d->dim_vals, col, "dimension values", e);
    if (rc == WB_OK) rc = wb_dev_alloc(&d->fact, fact, "fact keys", e);
    /* Made on the GPU (kernels/probe_gen.h, the host generator's values
     * bit for bit): the host holds no column, and the fact keys' reference
     * comes back with them. */
    if (rc == WB_OK) rc = wb_probe_gen_gpu(&d->gen, d->dim_keys, d->dim_vals, d->fact, &d->ref, e);
    if (rc != WB_OK) {
        probe_data_destroy(d);
        return rc;
    }
    *out = d;
    return WB_OK;
}

/* ---- plan ---- */

static wb_probe_args args_of(const probe_data *d) {
    wb_probe_args a = {d->fact,  d->gen.n, d->dim_keys, d->dim_vals, d->gen.dim_rows,
                       d->table, d->slots, d->out,      &d->parts};
    return a;
}

/* Gives d the table `table` needs. The buffer only grows, so switching kinds
 * within one data set frees nothing: in record 0dafc16 the direct table's
 * first counted range right after a 4 GiB hash table was freed counted
 * 12.5 B per probe of DRAM writes in a read-only kernel, most likely the
 * driver zeroing the freed memory in the background (test_gpu_writeback
 * prints what a free before a range does). */
static int ensure_table(probe_data *d, wb_probe_op table, double lf, wb_err *e) {
    int64_t slots = table == WB_PROBE_BUILD_HASH ? wb_probe_hash_slots(d->gen.dim_rows, lf) : 0;
    size_t bytes = (size_t)table_bytes(table, d->gen.dim_rows, lf);
    if (d->table && d->table_op == (int)table && d->slots == slots && d->table_bytes == bytes) return WB_OK;
    d->table_op = -1;
    d->table_ready = 0;
    if (!d->table || bytes > d->table_cap) {
        wb_dev_free(d->table);
        d->table = NULL;
        d->table_cap = 0;
        const char *what = table == WB_PROBE_BUILD_HASH     ? "hash table"
                           : table == WB_PROBE_BUILD_DIRECT ? "direct table"
                                                            : "packed table";
        if (wb_dev_alloc(&d->table, bytes, what, e) != WB_OK) return WB_ERR;
        d->table_cap = bytes;
    }
    d->table_op = (int)table;
    d->slots = slots;
    d->table_bytes = bytes;
    return WB_OK;
}

/* Builds the table for the probes, outside any timed region. */
static int build_table(probe_data *d, int block, wb_err *e) {
    wb_launch l;
    memset(&l, 0, sizeof l);
    l.block = block;
    l.ilp = 4;
    l.occupancy_target = 1;
    wb_probe_args a = args_of(d);
    if (d->table_op == WB_PROBE_BUILD_HASH) WB_CUDA_TRY(e, cudaMemset(d->table, 0xFF, d->table_bytes));
    WB_CUDA_TRY(e, wb_probe_plan((wb_probe_op)d->table_op, &l, d->gen.dim_rows));
    WB_CUDA_TRY(e, wb_probe_launch((wb_probe_op)d->table_op, &l, &a, 0));
    WB_CUDA_TRY(e, cudaDeviceSynchronize());
    d->table_ready = 1;
    return WB_OK;
}

static const char *human(double bytes, char *buf, size_t len) {
    static const char *const units[] = {"B", "KiB", "MiB", "GiB"};
    int u = 0;
    while (bytes >= 1024 && u < 3) bytes /= 1024, u++;
    snprintf(buf, len, "%.4g %s", bytes, units[u]);
    return buf;
}

/* The bytes model (issue 6). A probe reads its 4-byte key; a table that does
 * not fit L2 costs one 64-byte DRAM access per probe (a random 4-byte read
 * moved about two 32-byte sectors on the H200, measured), one that fits is
 * read from DRAM at most once: min(table, 64 B per probe). A build reads its
 * 8-byte dimension row; direct writes its table once; the CAS build reads
 * and writes back one 64-byte access per insert when the table does not fit
 * L2, and the table once each way when it does. Plus the 16-byte result. */
static double bytes_model(int op, const probe_data *d, double l2, int *fits) {
    double t = (double)d->table_bytes, n = (double)d->gen.n, rows = (double)d->gen.dim_rows;
    *fits = t <= l2;
    switch (op) {
    case WB_PROBE_BUILD_DIRECT: return 8 * rows + t;
    case WB_PROBE_BUILD_HASH: return 8 * rows + (*fits ? 2 * t : 128 * (double)d->gen.passing);
    case WB_PROBE_PARTITIONED: return 16 * n + t + 16; /* keys: histogram, scatter read + write, probe; each slice
                                                          of the table once, from L2 after that */
    case WB_PROBE_PARTITION: return 12 * n; /* keys: histogram read, scatter read + write */
    default: return 4 * n + (*fits ? fmin(t, 64 * n) : 64 * n) + 16;
    }
}

static int probe_plan(void *data, wb_point *p, wb_err *e) {
    probe_data *d = data;
    int op = p->variant_id;
    if (op < 0 || op >= WB_PROBE_VARIANTS) return wb_fail(e, "probe: no variant %d", op);
    wb_probe_op table = table_of(op);
    double lf = table == WB_PROBE_BUILD_HASH ? p->load_factor : NAN;
    if (table == WB_PROBE_BUILD_HASH) {
        if (!(lf > 0 && lf < 1)) return wb_skip(e, "hash load factor %g outside (0, 1)", lf);
        if (wb_probe_hash_slots(d->gen.dim_rows, lf) >= (1LL << 32))
            return wb_skip(e, "hash table of %lld rows at load factor %g needs 2^32 slots or more",
                           (long long)d->gen.dim_rows, lf);
    }
    if (ensure_table(d, table, lf, e) != WB_OK) return WB_ERR;
    if (is_build(op))
        d->table_ready = 0; /* its samples rebuild it; a probe planned later builds it again */
    else if (!d->table_ready && build_table(d, p->launch.block, e) != WB_OK)
        return WB_ERR;
    int64_t items = is_build(op) ? d->gen.dim_rows : d->gen.n;
    if (is_part(op)) {
        cudaError_t c = wb_probe_parts_plan(&p->launch, items, d->gen.dim_rows, p->partitions, &d->parts);
        if (c == cudaErrorInvalidValue)
            return wb_skip(e, "partitioned probe: %d partitions (2..%d, a power of two) of %lld keys (< 2^31)",
                           p->partitions, WB_PROBE_PARTS_MAX, (long long)items);
        WB_CUDA_TRY(e, c);
        if (p->launch.temp_bytes > d->temp_bytes) {
            wb_dev_free(d->temp);
            d->temp = NULL, d->temp_bytes = 0;
            if (wb_dev_alloc(&d->temp, p->launch.temp_bytes, "partitioned keys", e) != WB_OK) return WB_ERR;
            d->temp_bytes = p->launch.temp_bytes;
        }
        wb_probe_parts_bind(&d->parts, d->temp, items);
    } else {
        WB_CUDA_TRY(e, wb_probe_plan((wb_probe_op)op, &p->launch, items));
    }
    /* The partition alone reads no table: no table_bytes, so no gather_pct against the wall. */
    if (!is_build(op) && op != WB_PROBE_PARTITION) p->table_bytes = (double)d->table_bytes;
    int dev = 0, l2 = 0, fits = 0;
    WB_CUDA_TRY(e, cudaGetDevice(&dev));
    WB_CUDA_TRY(e, cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    p->items = (double)items;
    p->bytes_model = bytes_model(op, d, (double)l2, &fits);
    char tb[24], lb[24];
    human((double)d->table_bytes, tb, sizeof tb);
    human((double)l2, lb, sizeof lb);
    if (is_build(op))
        snprintf(p->note, sizeof p->note, "table %.11s %s L2 %.11s; model: 8 B/row read + %s", tb,
                 fits ? "<=" : ">", lb,
                 op == WB_PROBE_BUILD_DIRECT ? "table written once"
                 : fits                      ? "table read+written once"
                                             : "128 B/insert");
    else if (op == WB_PROBE_PARTITIONED)
        snprintf(p->note, sizeof p->note, "table %.11s, slices of %.11s (key >> %d); model: 16 B/probe + table once",
                 tb, human((double)d->table_bytes / p->partitions, lb, sizeof lb), d->parts.shift);
    else if (op == WB_PROBE_PARTITION)
        snprintf(p->note, sizeof p->note, "partitioned's partition alone: key >> %d, %d blocks; model: 12 B/key",
                 d->parts.shift, d->parts.grid);
    else
        snprintf(p->note, sizeof p->note, "table %.11s %s L2 %.11s; model: %s%s", tb, fits ? "<=" : ">", lb,
                 fits ? "4 B/probe + table once" : "4+64 B/probe",
                 d->gen.hits < d->gen.n ? "; misses: filtered dim rows" : "");
    return WB_OK;
}

/* ---- reset, launch, verify ---- */

static int probe_reset(void *data, const wb_point *p, int poison, cudaStream_t s, wb_err *e) {
    probe_data *d = data;
    switch (p->variant_id) {
    case WB_PROBE_BUILD_DIRECT:
        /* Cleared to "no match"; poisoned with 0x5A5A5A5A, which is no dimension value. */
        return WB_CUDA(e, cudaMemsetAsync(d->table, poison ? 0x5A : 0xFF, d->table_bytes, s));
    case WB_PROBE_BUILD_HASH:
        /* The CAS build needs empty slots, so empty is also its poison: a
         * build that did not run leaves no key, which verify reports. */
        return WB_CUDA(e, cudaMemsetAsync(d->table, 0xFF, d->table_bytes, s));
    case WB_PROBE_PARTITION:
        /* Poisoned partitioned keys read as key -1, which no partition
         * holds: verify shows every position the scatter did not write.
         * Nothing to restore otherwise (the histogram writes every count). */
        if (!poison) return WB_OK;
        return WB_CUDA(e, cudaMemsetAsync(d->parts.keys, 0xFF, (size_t)d->gen.n * sizeof(int32_t), s));
    case WB_PROBE_PARTITIONED:
        /* Poisoned partitioned keys read as key 0 (the probe must read a
         * table entry), so a key the scatter loses changes the sum. */
        if (poison) WB_CUDA_TRY(e, cudaMemsetAsync(d->parts.keys, 0, (size_t)d->gen.n * sizeof(int32_t), s));
        /* fall through */
    default:
        /* The sums are the atomics' targets and must start at 0, poison or
         * not; a probe that did not run leaves 0, which fails whenever a row matches. */
        return WB_CUDA(e, cudaMemsetAsync(d->out, 0, 2 * sizeof(unsigned long long), s));
    }
}

static int probe_launch(void *data, const wb_point *p, cudaStream_t s, wb_err *e) {
    probe_data *d = data;
    wb_probe_args a = args_of(d);
    return WB_CUDA(e, wb_probe_launch((wb_probe_op)p->variant_id, &p->launch, &a, s));
}

/* The partition alone on the host: its keys against the fact column, drawn
 * again (the data keeps no host copy of 2^28 keys). Names every misplaced
 * key; the GPU check's fallback. */
static int verify_partition_host(probe_data *d, wb_err *e) {
    const int64_t n = d->gen.n;
    const size_t bytes = (size_t)n * sizeof(int32_t);
    int32_t *got = wb_host_alloc(bytes, "partitioned keys copy", e);
    int32_t *fact = got ? wb_host_alloc(bytes, "fact keys drawn again", e) : NULL;
    int rc = fact ? wb_download(got, d->parts.keys, bytes, e) : WB_ERR;
    if (rc == WB_OK) {
        wb_probe_ref ref;
        wb_probe_gen_fact(&d->gen, fact, &ref);
        rc = wb_probe_check_parts(got, fact, n, d->parts.partitions, d->parts.shift, e);
    }
    free(got), free(fact);
    return rc;
}

/* The fact keys' fine buckets, once per data set, from the column the
 * kernels read, on the GPU (wb_probe_fine_gpu). The host's way, a 1 GiB
 * read-back and a pass on every core (wb_probe_fine_of), took ~1 s a data
 * set at 2^28 keys (4a8b068: 7 data sets, 7 s of the default run); after a
 * mismatch verify_partition_host still draws the keys again on the host. */
static int ensure_fine(probe_data *d, wb_err *e) {
    if (d->fine) return WB_OK;
    wb_probe_fine *fine = malloc(sizeof *fine);
    if (!fine) return wb_fail(e, "partition check: out of host memory for the fine buckets");
    if (wb_probe_fine_gpu(d->fact, d->gen.n, wb_probe_fine_shift(d->gen.dim_rows), fine, e) != WB_OK) {
        free(fine);
        return WB_ERR;
    }
    d->fine = fine;
    return WB_OK;
}

/* The partition alone: the GPU's summary of its keys (kernels/probe_check.h)
 * against the reference's runs, counts and fingerprints from the fact keys'
 * fine buckets (probe_gen.h). Exact and order-free; on a mismatch the host
 * check runs for its report, and a mismatch it does not confirm still fails
 * the point (one of the two checks is wrong). */
static int verify_partition(probe_data *d, wb_err *e) {
    const int parts = d->parts.partitions, shift = d->parts.shift;
    const int64_t n = d->gen.n;
    if (shift < wb_probe_fine_shift(d->gen.dim_rows)) return verify_partition_host(d, e);
    if (ensure_fine(d, e) != WB_OK) return WB_ERR;
    const size_t words = wb_probe_parts_summary_words(parts), need = wb_probe_parts_check_bytes(parts);
    int64_t *count = malloc((size_t)parts * sizeof *count), *start = malloc(((size_t)parts + 1) * sizeof *start);
    uint64_t *print = malloc((size_t)parts * sizeof *print), *summary = malloc(words * sizeof *summary);
    int rc = count && start && print && summary ? WB_OK
                                                : wb_fail(e, "partition check: out of host memory for %d partitions", parts);
    if (rc == WB_OK) rc = wb_probe_parts_ref(d->fine, n, parts, shift, count, print, start, e);
    if (rc == WB_OK && need > d->check_bytes) {
        wb_dev_free(d->check);
        d->check = NULL, d->check_bytes = 0;
        rc = wb_dev_alloc(&d->check, need, "partition check scratch", e);
        if (rc == WB_OK) d->check_bytes = need;
    }
    if (rc == WB_OK) {
        cudaError_t c = wb_probe_parts_check(d->parts.keys, n, parts, shift, start, d->check, summary, 0);
        if (c != cudaSuccess)
            rc = wb_fail(e, "probe partition (%lld keys, %d partitions): wb_probe_parts_check: %s (%s)", (long long)n,
                         parts, cudaGetErrorName(c), cudaGetErrorString(c));
    }
    if (rc == WB_OK && wb_probe_parts_compare(summary, n, parts, count, print, start, e) != WB_OK) {
        wb_err gpu = *e;
        rc = WB_ERR;
        if (verify_partition_host(d, e) == WB_OK)
            wb_fail(e, "partition check: the GPU summary failed (%.900s) but the host check passed", gpu.msg);
    }
    free(count), free(start), free(print), free(summary);
    return rc;
}

static int probe_verify(void *data, const wb_point *p, wb_err *e) {
    probe_data *d = data;
    int op = p->variant_id;
    if (op == WB_PROBE_PARTITION) return verify_partition(d, e);
    if (!is_build(op)) {
        unsigned long long got[2];
        if (wb_download(got, d->out, sizeof got, e) != WB_OK) return WB_ERR;
        return wb_probe_check_sums(got[0], got[1], op == WB_PROBE_PACKED ? d->ref.packed_sum : d->ref.sum,
                                   d->ref.matches, e);
    }
    void *host = wb_host_alloc(d->table_bytes, "probe table copy", e);
    if (!host) return WB_ERR;
    int rc = wb_download(host, d->table, d->table_bytes, e);
    if (rc == WB_OK)
        rc = op == WB_PROBE_BUILD_DIRECT ? wb_probe_check_direct(host, &d->gen, e)
                                         : wb_probe_check_hash(host, d->slots, &d->gen, e);
    free(host);
    return rc;
}

const wb_family wb_family_probe = {
    .name = "probe",
    .summary = "join probe: hash vs direct-mapped vs 1-byte packed vs partitioned, CAS vs store build, by table size",
    .variants = probe_variants,
    .nvariants = WB_VARIANT_COUNT(probe_variants),
    .sweep = {sweep_test, sweep_quick, sweep_full},
    .device_bytes = probe_device_bytes,
    .same_data = probe_same_data,
    .data_create = probe_data_create,
    .data_destroy = probe_data_destroy,
    .plan = probe_plan,
    .reset = probe_reset,
    .launch = probe_launch,
    .verify = probe_verify,
};

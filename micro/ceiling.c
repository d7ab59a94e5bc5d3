/* ceiling.c - the ceiling family: what this GPU does at best, measured in
 * the same run as everything judged against it (kernels/ceiling.h). Each
 * point's bytes_model makes gbps_model that ceiling's bandwidth; the
 * instruction points carry designed warp instructions in items and are
 * read through the counters (warp instructions per second).
 *
 * Data classes (one dataset each, shared by the variants of a class at the
 * same n): dram (dram_read/write/copy, memcpy, cub_reduce: 2 GiB of random
 * odd words and a destination), l2, l1, smem (small sets), inst (one output
 * per thread id, per variant), h2d and d2h (pinned host memory), gather (a
 * table of 16 MB to 16 GiB written on the device by a hash of the index, so
 * that its CPU reference needs no copy of it), atom (the table the atomics add
 * to: 1 to 2^24 words, zeroed before every launch). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/ceiling.h"
#include "micro/ceiling_ref.h"
#include "micro/data.h"
#include "harness/base/roof.h"
#include "harness/run/family.h"
#include "harness/run/sweep.h"

/* The roles of the roof contract (harness/base/roof_contract.h): the
 * ceilings that make the measured roof and the random-access wall. */
#define WB_VARIANT_ROLE(id)                                          \
    ((id) == WB_CEILING_INST_ISSUE      ? WB_ROLE_INST               \
     : (id) == WB_CEILING_DRAM_READ     ? WB_ROLE_DRAM               \
     : (id) == WB_CEILING_GATHER_WORD   ? WB_ROLE_GATHER_WORD        \
     : (id) == WB_CEILING_GATHER_SECTOR ? WB_ROLE_GATHER_SECTOR      \
                                        : WB_ROLE_NONE)
WB_VARIANT_TABLE_ROLES(variant_names, WB_CEILING_VARIANT_LIST, WB_CEILING_VARIANTS);

enum { C_DRAM, C_L2, C_L1, C_SMEM, C_INST, C_H2D, C_D2H, C_GATHER, C_ATOM };

#define HOST_WORDS ((int64_t)1 << 24)  /* 256 MiB over the interconnect */
#define L1_WORDS 2048                  /* 32 KiB per SM, whatever the L1/shared split */
#define SMEM_WORDS 1024                /* 16 KiB per block: 8 blocks of 256 threads fit an SM */
#define L2_REPS 512                    /* passes over the L2 set: ~1 ms */
#define L1_REPS 1024
#define SMEM_REPS 2048
#define INST_TURNS 256                 /* x 16 ids per resident thread: ~2.3 ms at the issue limit on an H200,
                                          and a CPU reference of 4096 sampled ids that costs well under a second */
#define INST_SAMPLE 4096
#define CHUNK_WORDS ((int64_t)1 << 24) /* verify downloads 64 MiB at a time */
#define GATHER_REQUESTS ((int64_t)1 << 28) /* per launch: 6-7 ms at the ~40 G/s DRAM wall, ~2 ms from L2 */
#define ATOM_SHARED_REPS 16            /* passes of the shared atomics over their requests: the CPU check
                                          hashes n requests once, the GPU adds n x 16 */

static int class_of(int v) {
    switch (v) {
    case WB_CEILING_L2_READ: return C_L2;
    case WB_CEILING_L1_READ: return C_L1;
    case WB_CEILING_SMEM_READ: return C_SMEM;
    case WB_CEILING_INST_ISSUE:
    case WB_CEILING_INT_ALU:
    case WB_CEILING_FMA: return C_INST;
    case WB_CEILING_H2D: return C_H2D;
    case WB_CEILING_D2H: return C_D2H;
    case WB_CEILING_GATHER_WORD:
    case WB_CEILING_GATHER_SECTOR: return C_GATHER;
    case WB_CEILING_ATOM_GLOBAL:
    case WB_CEILING_ATOM_SHARED: return C_ATOM;
    default: return C_DRAM;
    }
}

static int reps_of(int v) {
    switch (class_of(v)) {
    case C_L2: return L2_REPS;
    case C_L1: return L1_REPS;
    case C_SMEM: return SMEM_REPS;
    case C_INST: return INST_TURNS;
    case C_ATOM: return v == WB_CEILING_ATOM_SHARED ? ATOM_SHARED_REPS : 1;
    default: return 1;
    }
}

static int kernel_variant(int v) {
    return v != WB_CEILING_MEMCPY && v != WB_CEILING_H2D && v != WB_CEILING_D2H && v != WB_CEILING_CUB_REDUCE;
}

/* ---- sweep ---- */

static int add_point_on(const wb_sink *sink, int v, int64_t n, int ilp, double occ, int block, int sm_limit) {
    wb_point p;
    wb_point_init(&p);
    p.variant_id = v;
    p.n = n;
    if (kernel_variant(v)) {
        p.launch.block = block;
        p.launch.ilp = class_of(v) == C_INST ? -1 : ilp;
        p.launch.occupancy_target = occ;
        p.launch.sm_limit = sm_limit;
    }
    if (class_of(v) != C_INST) p.vector_bytes = 16;
    p.warm_cache = class_of(v) == C_L2; /* the set must stay in L2 between samples */
    return wb_sink_add(sink, &p);
}

static int add_point(const wb_sink *sink, int v, int64_t n, int ilp, double occ, int block) {
    return add_point_on(sink, v, n, ilp, occ, block, 0);
}

/* Bytes a gather request asks for: a word, or a whole sector. */
static int gather_entry_bytes(int v) { return v == WB_CEILING_GATHER_SECTOR ? 32 : 4; }

/* n random requests into a table of `bytes` (a multiple of 32). */
static int add_gather(const wb_sink *sink, int v, int64_t n, int64_t bytes, int ilp) {
    wb_point p;
    wb_point_init(&p);
    p.variant_id = v;
    p.n = n;
    p.table_entries = bytes / gather_entry_bytes(v);
    p.table_bytes = (double)bytes;
    p.vector_bytes = v == WB_CEILING_GATHER_SECTOR ? 16 : 4;
    p.launch.block = 256;
    p.launch.ilp = ilp;
    p.launch.occupancy_target = 1.0;
    return wb_sink_add(sink, &p);
}

/* Both gathers over table sizes lo..hi bytes (x4): the word gather at each
 * of word_ilps, the sector gather at each of sector_ilps. */
static int add_gathers(const wb_sink *sink, int64_t n, int lo, int hi, const int *word_ilps, int nword,
                       const int *sector_ilps, int nsector) {
    for (int sh = lo; sh <= hi; sh += 2) {
        for (int i = 0; i < nword; i++)
            if (add_gather(sink, WB_CEILING_GATHER_WORD, n, (int64_t)1 << sh, word_ilps[i])) return WB_ERR;
        for (int i = 0; i < nsector; i++)
            if (add_gather(sink, WB_CEILING_GATHER_SECTOR, n, (int64_t)1 << sh, sector_ilps[i])) return WB_ERR;
    }
    return WB_OK;
}

/* n atomic requests into a table of `entries` words (global, or each
 * block's shared memory), ILP requests per thread. */
static int add_atom(const wb_sink *sink, int v, int64_t n, int64_t entries, int ilp) {
    wb_point p;
    wb_point_init(&p);
    p.variant_id = v;
    p.n = n;
    p.table_entries = entries;
    p.table_bytes = 4.0 * (double)entries;
    p.vector_bytes = 4;
    p.launch.block = 256;
    p.launch.ilp = ilp;
    p.launch.occupancy_target = 1.0;
    return wb_sink_add(sink, &p);
}

/* The atomic ceilings at their sizes (a list, data): table words and
 * requests per pass. Global: one word (all contend: the rate of one L2
 * address), 32 words (one warp's worth), 2^20 words (4 MiB, 32,768 128-byte
 * lines the L2 holds: uncontended, the L2's atomic rate, the one the limiter
 * reads as the fastest table) and 2^24 words (64 MiB, more than the L2
 * holds: atomics that miss; on the H200 it moved 1,312 GB/s of DRAM at
 * 36.6 G adds/s, where the 2^20-word table made 105.5: record 4531e1f).
 * Shared: one word, 32 words, 4096 words (16 KiB) per block, 16
 * passes. Requests chosen for a few ms each at rates guessed before any
 * measurement (1-2 G/s for one global word, ~100 G/s uncontended; shared
 * ~10x global); the CPU check hashes each request once (2^28: ~0.3 s). */
static const struct {
    int variant;
    int64_t entries, n;
} atom_points[] = {
    {WB_CEILING_ATOM_GLOBAL, 1, (int64_t)1 << 22},  {WB_CEILING_ATOM_GLOBAL, 32, (int64_t)1 << 24},
    {WB_CEILING_ATOM_GLOBAL, (int64_t)1 << 20, (int64_t)1 << 28}, {WB_CEILING_ATOM_GLOBAL, (int64_t)1 << 24, (int64_t)1 << 28},
    {WB_CEILING_ATOM_SHARED, 1, (int64_t)1 << 22},  {WB_CEILING_ATOM_SHARED, 32, (int64_t)1 << 24},
    {WB_CEILING_ATOM_SHARED, WB_CEILING_ATOM_SHARED_MAX, (int64_t)1 << 26},
};

/* The L2 set: the largest power of two of 16-byte words within a third of
 * the L2 (16 MiB on a 50-60 MB L2), so that it stays resident. */
static int64_t l2_words(const wb_device *dev) {
    int64_t bytes = dev->l2_bytes > 0 ? dev->l2_bytes / 3 : (int64_t)16 << 20, w = 1;
    while (w * 2 * 16 <= bytes) w *= 2;
    return w;
}

/* The DRAM set: 2^27 words (2 GiB, 34x the H200's 60 MB L2), doubled until
 * it is 32x the device's L2 (B200, RTX 5090: 2^28), halved while source and
 * destination would take more than half of its memory. */
static int64_t dram_words(const wb_device *dev) {
    int64_t w = (int64_t)1 << 27;
    while (dev->l2_bytes > 0 && w * 16 < 32 * dev->l2_bytes) w *= 2;
    while (dev->mem_total_bytes > 0 && w > ((int64_t)1 << 20) && 32 * w > dev->mem_total_bytes / 2) w /= 2;
    return w;
}

/* 16 ids per thread of a full wave: the persistent grid gives every thread
 * the same work, so no SM idles at the end. */
static int64_t inst_threads(const wb_device *dev) {
    return 16 * (int64_t)(dev->sms > 0 ? dev->sms : 1) * (dev->max_threads_per_sm > 0 ? dev->max_threads_per_sm : 2048);
}

static int sweep_test(const wb_sink *sink) {
    static const int64_t dram_n[] = {0, 1, 1000003};
    static const int ilps[] = {1, 4, 16}, blocks[] = {512, 256, 128};
    static const int dram_kernels[] = {WB_CEILING_DRAM_READ, WB_CEILING_DRAM_WRITE, WB_CEILING_DRAM_COPY};
    for (int s = 0; s < 3; s++) {
        for (int k = 0; k < 3; k++)
            for (int i = 0; i < 3; i++)
                if (add_point(sink, dram_kernels[k], dram_n[s], ilps[i], 1.0, blocks[i])) return WB_ERR;
        if (add_point(sink, WB_CEILING_MEMCPY, dram_n[s], -1, 0, -1) ||
            add_point(sink, WB_CEILING_CUB_REDUCE, dram_n[s], -1, 0, -1))
            return WB_ERR;
    }
    for (int i = 0; i < 3; i++)
        if (add_point(sink, WB_CEILING_L2_READ, 12345, ilps[i], 1.0, blocks[i]) ||
            add_point(sink, WB_CEILING_L1_READ, L1_WORDS, ilps[i], 1.0, blocks[i]))
            return WB_ERR;
    for (int ilp = 1; ilp <= 4; ilp *= 2) /* block x ILP = 512 divides the set; blocks 512, 256, 128 */
        if (add_point(sink, WB_CEILING_SMEM_READ, SMEM_WORDS, ilp, 1.0, 512 / ilp)) return WB_ERR;
    static const int64_t inst_n[] = {1, 1000, 70001};
    for (int v = WB_CEILING_INST_ISSUE; v <= WB_CEILING_FMA; v++)
        for (int s = 0; s < 3; s++)
            if (add_point(sink, v, inst_n[s], -1, 1.0, 256)) return WB_ERR;
    for (int s = 1; s < 3; s++)
        if (add_point(sink, WB_CEILING_H2D, dram_n[s], -1, 0, -1) ||
            add_point(sink, WB_CEILING_D2H, dram_n[s], -1, 0, -1))
            return WB_ERR;
    /* Gathers: tables of one sector, of 1000 and 2^18 + 8 words, no/one/odd requests. */
    static const int64_t gather_bytes[] = {32, 4000, 4 * ((1 << 18) + 8)};
    for (int t = 0; t < 3; t++)
        for (int s = 0; s < 3; s++)
            for (int v = WB_CEILING_GATHER_WORD; v <= WB_CEILING_GATHER_SECTOR; v++)
                if (add_gather(sink, v, dram_n[s], gather_bytes[t], ilps[s])) return WB_ERR;
    /* Atomics: tables of 1, 32 and 1000 (global) or 4096 (shared) words, no/one/odd requests. */
    static const int64_t atom_entries[2][3] = {{1, 32, 1000}, {1, 32, WB_CEILING_ATOM_SHARED_MAX}};
    for (int k = 0; k < 2; k++)
        for (int t = 0; t < 3; t++)
            for (int s = 0; s < 3; s++)
                if (add_atom(sink, k ? WB_CEILING_ATOM_SHARED : WB_CEILING_ATOM_GLOBAL, dram_n[s], atom_entries[k][t],
                             ilps[s]))
                    return WB_ERR;
    return WB_OK;
}

/* quick: the ILPs around the usual best for the streams; full adds the
 * whole ILP range and occupancy, and other transfer sizes. */
static int sweep_run(int full, const wb_sink *sink) {
    const wb_device *dev = sink->dev;
    /* ILP 1 is in the quick set: one 16-byte access per thread and a grid that
     * covers the input was the fastest copy on the H200 (100% of cudaMemcpy,
     * against 97% at ILP 2 and 4; measured on the H200 on 2026-11-29, before
     * the records in results/). */
    static const int ilps_quick[] = {1, 2, 4}, ilps_full[] = {1, 2, 4, 8, 16};
    static const double occs[] = {1.0, 0.5, 0.25};
    const int *ilps = full ? ilps_full : ilps_quick;
    const int nilp = full ? 5 : 3, nocc = full ? 3 : 1;
    static const int streams[] = {WB_CEILING_DRAM_READ, WB_CEILING_DRAM_WRITE, WB_CEILING_DRAM_COPY};
    for (int k = 0; k < 3; k++) {
        for (int i = 0; i < nilp; i++)
            for (int o = 0; o < nocc; o++)
                if (add_point(sink, streams[k], dram_words(dev), ilps[i], occs[o], 256)) return WB_ERR;
        if (k == 0 && add_point(sink, WB_CEILING_CUB_REDUCE, dram_words(dev), -1, 0, -1)) return WB_ERR;
    }
    if (add_point(sink, WB_CEILING_MEMCPY, dram_words(dev), -1, 0, -1)) return WB_ERR;
    for (int i = full ? 1 : 2; i < (full ? 5 : 4); i++)
        if (add_point(sink, WB_CEILING_L2_READ, l2_words(dev), ilps_full[i], 1.0, 256)) return WB_ERR;
    for (int ilp = full ? 1 : 4; ilp <= (full ? 8 : 4); ilp *= 2)
        if (add_point(sink, WB_CEILING_L1_READ, L1_WORDS, ilp, 1.0, 256)) return WB_ERR;
    for (int ilp = full ? 1 : 4; ilp <= 4; ilp *= 2)
        if (add_point(sink, WB_CEILING_SMEM_READ, SMEM_WORDS, ilp, 1.0, 256)) return WB_ERR;
    for (int v = WB_CEILING_INST_ISSUE; v <= WB_CEILING_FMA; v++)
        if (add_point(sink, v, inst_threads(dev), -1, 1.0, 256)) return WB_ERR;
    /* The random-access wall (issue 17): tables of 16 MiB (in L2) to 16 GiB,
     * 2^28 requests each, ILP 1, 4, 16; full adds 1 and 4 MiB and ILP 2 and 8
     * for the word gather. About 0.35 s a point on an H200 (~20 launches of
     * 2-8 ms and the counter passes) and ~0.3 s of CPU checksum per table:
     * ~15 s quick (36 points), ~25 s full (64). */
    static const int gather_ilps[] = {1, 4, 16};
    if (add_gathers(sink, GATHER_REQUESTS, full ? 20 : 24, 34, full ? ilps_full : gather_ilps, full ? 5 : 3,
                    gather_ilps, 3))
        return WB_ERR;
    /* Atomics: ILP 4 (quick), 1, 4 and 16 (full), at the sizes of atom_points. */
    static const int atom_ilps[] = {1, 4, 16};
    for (size_t i = 0; i < sizeof atom_points / sizeof atom_points[0]; i++)
        for (int k = full ? 0 : 1; k < (full ? 3 : 2); k++)
            if (add_atom(sink, atom_points[i].variant, atom_points[i].n, atom_points[i].entries, atom_ilps[k]))
                return WB_ERR;
    for (int64_t w = full ? HOST_WORDS / 4 : HOST_WORDS; w <= (full ? 4 : 1) * HOST_WORDS; w *= 4)
        if (add_point(sink, WB_CEILING_H2D, w, -1, 0, -1) || add_point(sink, WB_CEILING_D2H, w, -1, 0, -1))
            return WB_ERR;
    /* SM scaling (issue 8's validation of `wallbench project`): the read
     * stream and two instruction ceilings on k SMs, one block of 1024
     * threads per SM; k = all SMs is the base the others are projected from. */
    int ks[WB_SM_STEPS];
    for (int i = 0, nk = wb_sm_steps(dev, ks); i < nk; i++)
        if (add_point_on(sink, WB_CEILING_DRAM_READ, dram_words(dev), 4, 1.0, 512, ks[i]) || /* 1024 does not fit */
            add_point_on(sink, WB_CEILING_INST_ISSUE, inst_threads(dev), -1, 1.0, 1024, ks[i]) ||
            add_point_on(sink, WB_CEILING_INT_ALU, inst_threads(dev), -1, 1.0, 1024, ks[i]))
            return WB_ERR;
    return WB_OK;
}

static int sweep_quick(const wb_sink *sink) { return sweep_run(0, sink); }
static int sweep_full(const wb_sink *sink) { return sweep_run(1, sink); }

/* ---- data ---- */

typedef struct cdata {
    int cls, inst_variant;
    int64_t n;           /* 16-byte words, or thread ids (inst) */
    uint32_t seed;
    uint32_t *h_words;   /* host copy of the 4n source words */
    uint32_t words_sum;  /* their sum mod 2^32 */
    void *d_src, *d_dst; /* inst: d_dst holds the n outputs */
    uint32_t *d_sum;
    void *pinned;        /* h2d source, d2h destination */
    void *temp;          /* cub_reduce scratch */
    size_t temp_bytes;
    uint32_t *stage;     /* verify chunk */
    int64_t sample_ids[INST_SAMPLE];
    uint32_t sample_ref[INST_SAMPLE];
    int nsample;
    uint64_t table_words;   /* gather table; atomics: the table's words */
    uint32_t gather_ref[2]; /* checksum of gather_word, gather_sector; computed at the first verify */
    int have_ref[2];
    uint32_t atom_ref;      /* the atomics' table check for one pass, at the first verify */
    int have_atom_ref;
} cdata;

static double ceiling_device_bytes(const wb_point *p) {
    const double n = (double)p->n;
    switch (class_of(p->variant_id)) {
    case C_DRAM: return 32 * n + (1 << 20); /* + cub_reduce's scratch, well under 1 MiB */
    case C_INST: return 4 * n;
    case C_GATHER: return p->table_bytes + 4;
    case C_ATOM: return p->table_bytes;
    default: return 16 * n + 4;
    }
}

static int ceiling_same_data(const wb_point *a, const wb_point *b) {
    const int ca = class_of(a->variant_id);
    return ca == class_of(b->variant_id) && a->n == b->n && (ca != C_INST || a->variant_id == b->variant_id) &&
           ((ca != C_GATHER && ca != C_ATOM) || a->table_bytes == b->table_bytes);
}

static void ceiling_data_destroy(void *data) {
    cdata *d = data;
    if (!d) return;
    wb_dev_free(d->d_src);
    wb_dev_free(d->d_dst);
    wb_dev_free(d->d_sum);
    wb_dev_free(d->temp);
    if (d->pinned) (void)cudaFreeHost(d->pinned); /* teardown: nothing to do on failure */
    free(d->h_words);
    free(d->stage);
    free(d);
}

/* Source words on the host, their checksum, and where they go. */
static int create_words(cdata *d, const char *what, wb_err *e) {
    const size_t bytes = (size_t)d->n * 16;
    if (!(d->h_words = wb_host_alloc(bytes, what, e))) return WB_ERR;
    wb_ceiling_fill_words(d->h_words, 4 * d->n, (uint64_t)d->seed * 0x9E3779B97F4A7C15ull);
    d->words_sum = wb_ceiling_word_sum(d->h_words, 4 * d->n);
    switch (d->cls) {
    case C_H2D:
        if (WB_CUDA(e, cudaMallocHost(&d->pinned, bytes ? bytes : 1)) ||
            wb_dev_alloc(&d->d_dst, bytes, "ceiling h2d destination", e))
            return WB_ERR;
        memcpy(d->pinned, d->h_words, bytes);
        return WB_OK;
    case C_D2H:
        if (WB_CUDA(e, cudaMallocHost(&d->pinned, bytes ? bytes : 1)) ||
            wb_dev_alloc(&d->d_src, bytes, "ceiling d2h source", e))
            return WB_ERR;
        return wb_upload(d->d_src, d->h_words, bytes, e);
    default:
        if (wb_dev_alloc(&d->d_src, bytes, what, e) || wb_upload(d->d_src, d->h_words, bytes, e) ||
            wb_dev_alloc((void **)&d->d_sum, sizeof(uint32_t), "ceiling checksum", e))
            return WB_ERR;
        return d->cls == C_DRAM ? wb_dev_alloc(&d->d_dst, bytes, "ceiling dram destination", e) : WB_OK;
    }
}

static int create_inst(cdata *d, wb_err *e) {
    d->nsample = wb_ceiling_sample(d->n, INST_SAMPLE, d->sample_ids);
    for (int i = 0; i < d->nsample; i++)
        d->sample_ref[i] = wb_ceiling_inst_ref((wb_ceiling_variant)d->inst_variant, (uint32_t)d->sample_ids[i], d->seed,
                                               INST_TURNS);
    return wb_dev_alloc(&d->d_dst, (size_t)d->n * 4, "ceiling inst outputs", e);
}

/* The table, written on the device; the checksums come later, per variant. */
static int create_gather(cdata *d, double bytes, wb_err *e) {
    d->table_words = (uint64_t)(bytes / 4);
    if (wb_dev_alloc(&d->d_src, (size_t)bytes, "gather table", e) ||
        wb_dev_alloc((void **)&d->d_sum, sizeof(uint32_t), "gather checksum", e))
        return WB_ERR;
    if (WB_CUDA(e, wb_ceiling_gather_fill(d->d_src, d->table_words, d->seed, 0))) return WB_ERR;
    return WB_CUDA(e, cudaDeviceSynchronize());
}

/* The atomics' table and a stage to download it by chunks for the check. */
static int create_atom(cdata *d, double bytes, wb_err *e) {
    d->table_words = (uint64_t)(bytes / 4);
    const int64_t chunk = (int64_t)d->table_words < CHUNK_WORDS ? (int64_t)d->table_words : CHUNK_WORDS;
    if (!(d->stage = wb_host_alloc((size_t)chunk * 4, "atomics verify chunk", e))) return WB_ERR;
    return wb_dev_alloc(&d->d_dst, (size_t)bytes, "atomics table", e);
}

static int ceiling_data_create(const wb_point *p, uint64_t run_seed, void **data, wb_err *e) {
    *data = NULL;
    if (class_of(p->variant_id) == C_ATOM &&
        !(p->table_bytes >= 4 && fmod(p->table_bytes, 4) == 0 && p->table_bytes <= (double)((int64_t)1 << 40)))
        return wb_fail(e, "ceiling: atomics table of %g bytes: must be a positive multiple of 4", p->table_bytes);
    if (class_of(p->variant_id) == C_GATHER &&
        !(p->table_bytes >= 32 && fmod(p->table_bytes, 32) == 0 && p->table_bytes / 4 <= (double)UINT64_MAX / 2))
        return wb_fail(e, "ceiling: gather table of %g bytes: must be a positive multiple of 32", p->table_bytes);
    if (p->n < 0 || (class_of(p->variant_id) == C_INST && p->n > UINT32_MAX))
        return wb_fail(e, "ceiling: n = %lld out of range", (long long)p->n);
    cdata *d = calloc(1, sizeof *d);
    if (!d) return wb_fail(e, "calloc(ceiling data) failed");
    d->cls = class_of(p->variant_id);
    d->inst_variant = p->variant_id;
    d->n = p->n;
    uint64_t s = run_seed ^ ((uint64_t)d->cls << 56) ^ (uint64_t)p->n;
    d->seed = (uint32_t)wb_rng_next(&s);
    if (d->cls == C_GATHER || d->cls == C_ATOM) {
        if ((d->cls == C_GATHER ? create_gather(d, p->table_bytes, e) : create_atom(d, p->table_bytes, e)) != WB_OK) {
            ceiling_data_destroy(d);
            return WB_ERR;
        }
        *data = d;
        return WB_OK;
    }
    const int64_t words = d->cls == C_INST ? d->n : 4 * d->n;
    const int64_t chunk = words < CHUNK_WORDS ? words : CHUNK_WORDS;
    int rc = (d->stage = wb_host_alloc((size_t)chunk * 4, "ceiling verify chunk", e)) ? WB_OK : WB_ERR;
    if (rc == WB_OK) rc = d->cls == C_INST ? create_inst(d, e) : create_words(d, "ceiling source", e);
    if (rc != WB_OK) {
        ceiling_data_destroy(d);
        return WB_ERR;
    }
    *data = d;
    return WB_OK;
}

/* ---- plan, reset, launch, verify ---- */

static wb_ceiling_args args_of(const cdata *d, const wb_point *p) {
    wb_ceiling_args a;
    memset(&a, 0, sizeof a);
    a.variant = (wb_ceiling_variant)p->variant_id;
    a.src = d->cls == C_H2D ? d->pinned : d->d_src;
    a.dst = d->cls == C_D2H ? d->pinned : d->d_dst;
    a.n = d->n;
    a.reps = reps_of(p->variant_id);
    a.seed = d->seed;
    a.sum = d->d_sum;
    a.temp = d->temp;
    a.table_words = d->table_words;
    return a;
}

static void set_model(const cdata *d, wb_point *p) {
    const double n = (double)d->n, reps = reps_of(p->variant_id);
    const int v = p->variant_id;
    p->items = n;
    switch (v) {
    case WB_CEILING_DRAM_COPY:
    case WB_CEILING_MEMCPY:
        p->bytes_model = 32 * n;
        snprintf(p->note, sizeof p->note, "bytes read + written");
        break;
    case WB_CEILING_L2_READ:
        p->bytes_model = 16 * n * reps, p->items = n * reps;
        snprintf(p->note, sizeof p->note, "%.0f KiB set read %d times through ld.global.cg", n / 64, (int)reps);
        break;
    case WB_CEILING_L1_READ:
    case WB_CEILING_SMEM_READ:
        p->bytes_model = 16 * n * reps * p->launch.grid, p->items = n * reps * p->launch.grid;
        snprintf(p->note, sizeof p->note, "each of %d blocks reads the %.0f KiB set %d times", p->launch.grid, n / 64,
                 (int)reps);
        break;
    case WB_CEILING_INST_ISSUE:
    case WB_CEILING_INT_ALU:
    case WB_CEILING_FMA: {
        const int ops = v == WB_CEILING_INST_ISSUE ? WB_CEILING_INST_ISSUE_OPS
                        : v == WB_CEILING_INT_ALU  ? WB_CEILING_INT_ALU_OPS
                                                   : WB_CEILING_FMA_OPS;
        p->bytes_model = 4 * n;
        p->items = (double)((d->n + 31) / 32) * reps * ops;
        snprintf(p->note, sizeof p->note, "all %lld outputs checked, %d ids vs CPU; items: designed warp inst",
                 (long long)d->n, d->nsample);
        break;
    }
    case WB_CEILING_GATHER_WORD:
    case WB_CEILING_GATHER_SECTOR:
        /* The bytes requested; the memory system moves at least a 32-byte
         * sector per request (about two from DRAM on the H200). Indices are
         * hashed from the request number: no index stream. */
        p->bytes_model = gather_entry_bytes(v) * n;
        snprintf(p->note, sizeof p->note, "items: random %d-B requests into %.4g MiB, hashed indices; bytes: requested",
                 gather_entry_bytes(v), (double)d->table_words / (1 << 18));
        break;
    case WB_CEILING_ATOM_GLOBAL:
    case WB_CEILING_ATOM_SHARED:
        /* Items: atomics (the rate the ceiling table holds, G req/s at the table's size). */
        p->items = n * reps, p->bytes_model = 4 * n * reps;
        snprintf(p->note, sizeof p->note, "items: atomicAdds, hashed entries of %llu %s words, %d pass(es)",
                 (unsigned long long)d->table_words, v == WB_CEILING_ATOM_SHARED ? "shared" : "global", (int)reps);
        break;
    case WB_CEILING_CUB_REDUCE:
        p->bytes_model = 16 * n;
        snprintf(p->note, sizeof p->note, "cub::DeviceReduce::Sum of dram_read's words (uint32, mod 2^32)");
        break;
    default: p->bytes_model = 16 * n;
    }
}

static int ceiling_plan(void *data, wb_point *p, wb_err *e) {
    cdata *d = data;
    const int v = p->variant_id;
    if (v < 0 || v >= WB_CEILING_VARIANTS) return wb_fail(e, "ceiling: no variant %d", v);
    if (v == WB_CEILING_ATOM_SHARED && d->table_words > WB_CEILING_ATOM_SHARED_MAX)
        return wb_skip(e, "a shared atomics table of %llu words is over the %d this ceiling holds in shared memory",
                       (unsigned long long)d->table_words, WB_CEILING_ATOM_SHARED_MAX);
    if ((v == WB_CEILING_L1_READ || v == WB_CEILING_SMEM_READ) &&
        (d->n <= 0 || d->n % ((int64_t)p->launch.block * p->launch.ilp) != 0))
        return wb_skip(e, "the %lld-word set is not a multiple of block %d x ILP %d", (long long)d->n, p->launch.block,
                       p->launch.ilp);
    wb_ceiling_args a = args_of(d, p);
    cudaError_t c = wb_ceiling_plan(&a, &p->launch);
    if (c == cudaErrorInvalidValue && kernel_variant(v))
        return wb_skip(e, "kernel cannot run with block %d, ILP %d (registers or shared memory)", p->launch.block,
                       p->launch.ilp);
    if (WB_CUDA(e, c) != WB_OK) return WB_ERR;
    if (p->launch.temp_bytes > d->temp_bytes) {
        wb_dev_free(d->temp);
        d->temp = NULL, d->temp_bytes = 0;
        if (wb_dev_alloc(&d->temp, p->launch.temp_bytes, "cub_reduce scratch", e) != WB_OK) return WB_ERR;
        d->temp_bytes = p->launch.temp_bytes;
    }
    set_model(d, p);
    return WB_OK;
}

static void CUDART_CB poison_pinned(void *data) {
    cdata *d = data;
    memset(d->pinned, WB_CEILING_POISON, (size_t)d->n * 16);
}

static int ceiling_reset(void *data, const wb_point *p, int poison, cudaStream_t s, wb_err *e) {
    cdata *d = data;
    switch (p->variant_id) {
    case WB_CEILING_DRAM_READ:
    case WB_CEILING_L2_READ:
    case WB_CEILING_L1_READ:
    case WB_CEILING_SMEM_READ: /* the kernels add to the checksum: it must start at 0 */
    case WB_CEILING_GATHER_WORD:
    case WB_CEILING_GATHER_SECTOR:
        return WB_CUDA(e, cudaMemsetAsync(d->d_sum, 0, sizeof(uint32_t), s));
    case WB_CEILING_ATOM_GLOBAL: /* the atomics add to the table: it must start at 0 */
    case WB_CEILING_ATOM_SHARED:
        return WB_CUDA(e, cudaMemsetAsync(d->d_dst, 0, (size_t)d->table_words * 4, s));
    case WB_CEILING_CUB_REDUCE:
        return poison ? WB_CUDA(e, cudaMemsetAsync(d->d_sum, WB_CEILING_POISON_SUM, sizeof(uint32_t), s)) : WB_OK;
    case WB_CEILING_D2H: /* host memory: poisoned in stream order by a host function */
        return poison ? WB_CUDA(e, cudaLaunchHostFunc(s, poison_pinned, d)) : WB_OK;
    default: {
        const size_t bytes = d->cls == C_INST ? (size_t)d->n * 4 : (size_t)d->n * 16;
        return poison ? WB_CUDA(e, cudaMemsetAsync(d->d_dst, WB_CEILING_POISON, bytes, s)) : WB_OK;
    }
    }
}

static int ceiling_launch(void *data, const wb_point *p, cudaStream_t s, wb_err *e) {
    wb_ceiling_args a = args_of(data, p);
    return WB_CUDA(e, wb_ceiling_launch(&a, &p->launch, s));
}

/* Checks the 4n words at got (device, or pinned host memory) against want
 * or, want NULL, the write pattern; downloads through the stage buffer. */
static int verify_words(cdata *d, const uint32_t *got, int on_host, const uint32_t *want, const char *what, wb_err *e) {
    const int64_t nwords = 4 * d->n;
    wb_mismatches m;
    wb_mismatch_init(&m);
    for (int64_t first = 0; first < nwords; first += CHUNK_WORDS) {
        const int64_t count = nwords - first < CHUNK_WORDS ? nwords - first : CHUNK_WORDS;
        if (!on_host && wb_download(d->stage, got + first, (size_t)count * 4, e) != WB_OK) return WB_ERR;
        wb_ceiling_check_words(on_host ? got + first : d->stage, first, count, want, d->seed, &m);
    }
    return wb_mismatch_finish(&m, nwords, what, e);
}

static int sum_matches(uint32_t got, uint32_t expect, const char *what, wb_err *e) {
    wb_mismatches m;
    wb_mismatch_init(&m);
    if (got != expect) wb_mismatch_add_i64(&m, 0, got, expect);
    return wb_mismatch_finish(&m, 1, what, e);
}

static int verify_sum(cdata *d, uint32_t expect, const char *what, wb_err *e) {
    uint32_t got = 0;
    if (wb_download(&got, d->d_sum, sizeof got, e) != WB_OK) return WB_ERR;
    return sum_matches(got, expect, what, e);
}

/* The atomics' table, summed by chunks (wb_ceiling_atom_table_sum), against
 * reps passes of the CPU's hashed requests. */
static int verify_atom(cdata *d, int reps, wb_err *e) {
    uint32_t got = 0;
    for (int64_t first = 0; first < (int64_t)d->table_words; first += CHUNK_WORDS) {
        const int64_t left = (int64_t)d->table_words - first, count = left < CHUNK_WORDS ? left : CHUNK_WORDS;
        if (wb_download(d->stage, (const uint32_t *)d->d_dst + first, (size_t)count * 4, e) != WB_OK) return WB_ERR;
        got += wb_ceiling_atom_table_sum(d->stage, (uint64_t)first, count);
    }
    if (!d->have_atom_ref) d->atom_ref = wb_ceiling_atom_ref(d->n, d->table_words, d->seed), d->have_atom_ref = 1;
    return sum_matches(got, d->atom_ref * (uint32_t)reps, "weighted sum of the atomics' table (CPU: the same hashed requests)", e);
}

static int verify_inst(cdata *d, wb_err *e) {
    wb_mismatches m;
    wb_mismatch_init(&m);
    for (int64_t first = 0; first < d->n; first += CHUNK_WORDS) {
        const int64_t count = d->n - first < CHUNK_WORDS ? d->n - first : CHUNK_WORDS;
        if (wb_download(d->stage, (const uint32_t *)d->d_dst + first, (size_t)count * 4, e) != WB_OK) return WB_ERR;
        wb_ceiling_check_inst(d->stage, first, count, d->sample_ids, d->sample_ref, d->nsample, &m);
    }
    return wb_mismatch_finish(&m, d->n, "inst outputs (all written; sample vs CPU)", e);
}

static int ceiling_verify(void *data, const wb_point *p, wb_err *e) {
    cdata *d = data;
    const uint32_t grid = p->launch.grid > 0 ? (uint32_t)p->launch.grid : 0;
    switch (p->variant_id) {
    case WB_CEILING_DRAM_READ:
    case WB_CEILING_CUB_REDUCE: return verify_sum(d, d->words_sum, "checksum of the words read", e);
    case WB_CEILING_L2_READ: return verify_sum(d, d->words_sum * (uint32_t)L2_REPS, "checksum of the L2 passes", e);
    case WB_CEILING_L1_READ:
    case WB_CEILING_SMEM_READ:
        return verify_sum(d, d->words_sum * (uint32_t)reps_of(p->variant_id) * grid,
                          "checksum of every block's passes", e);
    case WB_CEILING_GATHER_WORD:
    case WB_CEILING_GATHER_SECTOR: {
        const int k = p->variant_id == WB_CEILING_GATHER_SECTOR;
        if (!d->have_ref[k]) d->gather_ref[k] = wb_ceiling_gather_ref(k, d->n, d->table_words, d->seed), d->have_ref[k] = 1;
        return verify_sum(d, d->gather_ref[k], "checksum of the gathered words (CPU: the same hashed requests)", e);
    }
    case WB_CEILING_ATOM_GLOBAL:
    case WB_CEILING_ATOM_SHARED: return verify_atom(d, reps_of(p->variant_id), e);
    case WB_CEILING_DRAM_WRITE: return verify_words(d, d->d_dst, 0, NULL, "dram_write pattern", e);
    case WB_CEILING_D2H: return verify_words(d, d->pinned, 1, d->h_words, "d2h copy", e);
    case WB_CEILING_INST_ISSUE:
    case WB_CEILING_INT_ALU:
    case WB_CEILING_FMA: return verify_inst(d, e);
    default: return verify_words(d, d->d_dst, 0, d->h_words, "copy of the source words", e);
    }
}

const wb_family wb_family_ceiling = {
    .name = WB_CEILING_FAMILY,
    .ceilings = 1,
    .summary = "measured roofs: DRAM read/write/copy, memcpy, L2, L1, shared memory, issue limit, ALU, FMA, PCIe, "
               "random gather, global and shared atomics",
    .variants = variant_names,
    .nvariants = WB_VARIANT_COUNT(variant_names),
    .sweep = {sweep_test, sweep_quick, sweep_full},
    .device_bytes = ceiling_device_bytes,
    .same_data = ceiling_same_data,
    .data_create = ceiling_data_create,
    .data_destroy = ceiling_data_destroy,
    .plan = ceiling_plan,
    .reset = ceiling_reset,
    .launch = ceiling_launch,
    .verify = ceiling_verify,
};

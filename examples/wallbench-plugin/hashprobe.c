/* hashprobe.c - an example plugin family, "hashprobe": a user's own hash
 * probe (linear probing, 32-bit keys, 32-bit payloads) measured by wallbench
 * like a built-in family. Build: see CMakeLists.txt; run:
 *   wallbench run --plugin libwallbench_hashprobe.so --family ceiling,hashprobe
 * The table is built on the host (the CPU reference probes the same table),
 * keys and payloads are random, the output is poisoned before each check,
 * and the test sweep's sizes are not multiples of block * ILP. */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/run/family.h"
#include "hashprobe_kernel.h"
#include "micro/data.h"

static const wb_variant variants[] = {{"scalar", "one probe per thread"}, {"ilp4", "four probes in flight per thread"}};
static const int variant_ilp[] = {1, 4};
/* Bytes 0x80 make every int32 negative and not -1: no payload (>= 0) and no miss. */
#define POISON_BYTE 0x80

typedef struct hp_data {
    int64_t n;
    uint32_t capacity;
    uint32_t *d_keys, *d_probe;
    int32_t *d_vals, *d_out;
    int32_t *ref, *got; /* host: expected and downloaded output */
} hp_data;

/* The smallest power of two >= 2 * entries: load factor <= 0.5. */
static uint32_t capacity_of(int64_t entries) {
    uint32_t c = 16;
    while ((int64_t)c < 2 * entries) c <<= 1;
    return c;
}

static int add_point(const wb_sink *sink, int v, int64_t n, int64_t entries, int block) {
    wb_point p;
    wb_point_init(&p);
    p.variant_id = v;
    snprintf(p.dtype, sizeof p.dtype, "int32");
    snprintf(p.layout, sizeof p.layout, "uniform");
    p.n = n;
    p.table_entries = entries;
    p.load_factor = (double)entries / capacity_of(entries);
    p.match_rate = 0.5;
    p.launch.block = block;
    p.launch.ilp = variant_ilp[v];
    p.launch.occupancy_target = 1.0;
    return wb_sink_add(sink, &p);
}

static int sweep_test(const wb_sink *sink) {
    static const int64_t sizes[] = {0, 1, 12345, 1000003}; /* 12345 and 1000003: no tile multiple */
    for (int s = 0; s < 4; s++)
        for (int v = 0; v < 2; v++)
            if (add_point(sink, v, sizes[s], 1000, 256) || add_point(sink, v, sizes[s], 100003, 128))
                return WB_ERR;
    return WB_OK;
}

/* A table that fits in L2 (2^16 entries, 512 KiB) and one that does not (2^24, 128 MiB). */
static int sweep_sizes(const wb_sink *sink, const int64_t *sizes, int nsizes) {
    for (int s = 0; s < nsizes; s++)
        for (int t = 16; t <= 24; t += 8)
            for (int v = 0; v < 2; v++)
                if (add_point(sink, v, sizes[s], (int64_t)1 << t, 256)) return WB_ERR;
    return WB_OK;
}

static int sweep_quick(const wb_sink *sink) {
    static const int64_t sizes[] = {1 << 24, 1 << 26};
    return sweep_sizes(sink, sizes, 2);
}

static int sweep_full(const wb_sink *sink) {
    static const int64_t sizes[] = {1 << 20, 1 << 24, 1 << 26, 1 << 28};
    return sweep_sizes(sink, sizes, 4);
}

static double hp_device_bytes(const wb_point *p) { return 8.0 * capacity_of(p->table_entries) + 8.0 * (double)p->n; }

static int hp_same_data(const wb_point *a, const wb_point *b) {
    return a->n == b->n && a->table_entries == b->table_entries && a->match_rate == b->match_rate;
}

static void hp_data_destroy(void *data) {
    hp_data *d = data;
    if (!d) return;
    wb_dev_free(d->d_keys);
    wb_dev_free(d->d_vals);
    wb_dev_free(d->d_probe);
    wb_dev_free(d->d_out);
    free(d->ref);
    free(d->got);
    free(d);
}

/* The CPU reference: the same probe sequence as the kernel. */
static int32_t probe_ref(const uint32_t *keys, const int32_t *vals, uint32_t mask, uint32_t k) {
    for (uint32_t s = hashprobe_hash(k) & mask;; s = (s + 1) & mask) {
        if (keys[s] == k) return vals[s];
        if (keys[s] == HASHPROBE_EMPTY) return HASHPROBE_MISS;
    }
}

/* Table keys j * odd ^ salt are distinct (a bijection of j), payloads
 * random in [0, 2^31 - 2]; half the probe keys come from the table. */
static int fill(hp_data *d, const wb_point *p, uint64_t seed, uint32_t *keys, int32_t *vals, uint32_t *probe,
                wb_err *e) {
    uint64_t rng = seed ^ ((uint64_t)p->n * 0x9E3779B97F4A7C15ull) ^ (uint64_t)p->table_entries;
    const uint32_t mask = d->capacity - 1, salt = (uint32_t)wb_rng_next(&rng);
    uint32_t *inserted = wb_host_alloc((size_t)p->table_entries * 4, "hashprobe keys", e);
    if (!inserted) return WB_ERR;
    for (uint32_t s = 0; s < d->capacity; s++) keys[s] = HASHPROBE_EMPTY;
    int64_t m = 0;
    for (int64_t j = 0; j < p->table_entries; j++) {
        uint32_t k = ((uint32_t)j * 0x9E3779B1u) ^ salt;
        if (k == HASHPROBE_EMPTY) continue;
        uint32_t s = hashprobe_hash(k) & mask;
        while (keys[s] != HASHPROBE_EMPTY) s = (s + 1) & mask;
        keys[s] = k;
        vals[s] = (int32_t)wb_rng_below(&rng, 0x7FFFFFFF);
        inserted[m++] = k;
    }
    for (int64_t i = 0; i < d->n; i++) {
        uint32_t k = wb_rng_unit(&rng) < p->match_rate && m ? inserted[wb_rng_below(&rng, (uint64_t)m)]
                                                             : (uint32_t)wb_rng_next(&rng);
        probe[i] = k == HASHPROBE_EMPTY ? 0 : k;
        d->ref[i] = probe_ref(keys, vals, mask, probe[i]);
    }
    free(inserted);
    return WB_OK;
}

static int hp_data_create(const wb_point *p, uint64_t seed, void **data, wb_err *e) {
    *data = NULL;
    hp_data *d = calloc(1, sizeof *d);
    if (!d) return wb_fail(e, "hashprobe: out of host memory");
    d->n = p->n;
    d->capacity = capacity_of(p->table_entries);
    const size_t tb = (size_t)d->capacity * 4, nb = (size_t)(d->n ? d->n : 1) * 4;
    uint32_t *keys = wb_host_alloc(tb, "hashprobe table keys", e), *probe = wb_host_alloc(nb, "hashprobe probe keys", e);
    int32_t *vals = wb_host_alloc(tb, "hashprobe table payloads", e);
    d->ref = wb_host_alloc(nb, "hashprobe reference", e);
    d->got = wb_host_alloc(nb, "hashprobe output", e);
    int rc = keys && probe && vals && d->ref && d->got ? fill(d, p, seed, keys, vals, probe, e) : WB_ERR;
    if (rc == WB_OK) rc = wb_dev_alloc((void **)&d->d_keys, tb, "hashprobe table keys", e);
    if (rc == WB_OK) rc = wb_dev_alloc((void **)&d->d_vals, tb, "hashprobe table payloads", e);
    if (rc == WB_OK) rc = wb_dev_alloc((void **)&d->d_probe, nb, "hashprobe probe keys", e);
    if (rc == WB_OK) rc = wb_dev_alloc((void **)&d->d_out, nb, "hashprobe output", e);
    if (rc == WB_OK) rc = wb_upload(d->d_keys, keys, tb, e);
    if (rc == WB_OK) rc = wb_upload(d->d_vals, vals, tb, e);
    if (rc == WB_OK) rc = wb_upload(d->d_probe, probe, nb, e);
    free(keys);
    free(vals);
    free(probe);
    if (rc != WB_OK) {
        hp_data_destroy(d);
        return WB_ERR;
    }
    *data = d;
    return WB_OK;
}

static int hp_plan(void *data, wb_point *p, wb_err *e) {
    hp_data *d = data;
    if (WB_CUDA(e, hashprobe_plan(&p->launch, p->n))) return WB_ERR;
    /* Probe keys in, payloads out; the table counted once (it is read at
     * least once when it is larger than the probes touch, at most once in L2). */
    p->bytes_model = 8.0 * (double)p->n + 8.0 * d->capacity;
    p->items = (double)p->n;
    snprintf(p->note, sizeof p->note, "table %.1f MiB, %u slots", 8.0 * d->capacity / (1 << 20), d->capacity);
    return WB_OK;
}

static int hp_reset(void *data, const wb_point *p, int poison, cudaStream_t s, wb_err *e) {
    hp_data *d = data;
    (void)p;
    if (!poison || !d->n) return WB_OK; /* the probe changes no state */
    return WB_CUDA(e, cudaMemsetAsync(d->d_out, POISON_BYTE, (size_t)d->n * 4, s));
}

static int hp_launch(void *data, const wb_point *p, cudaStream_t s, wb_err *e) {
    hp_data *d = data;
    return WB_CUDA(e, hashprobe_launch(&p->launch, d->d_keys, d->d_vals, d->capacity, d->d_probe, d->d_out, d->n, s));
}

static int hp_verify(void *data, const wb_point *p, wb_err *e) {
    hp_data *d = data;
    (void)p;
    if (d->n && wb_download(d->got, d->d_out, (size_t)d->n * 4, e) != WB_OK) return WB_ERR;
    wb_mismatches m;
    wb_mismatch_init(&m);
    for (int64_t i = 0; i < d->n; i++)
        if (d->got[i] != d->ref[i]) wb_mismatch_add_i64(&m, i, d->got[i], d->ref[i]);
    return wb_mismatch_finish(&m, d->n, "hashprobe payloads", e);
}

static const wb_family hashprobe = {
    .name = "hashprobe",
    .summary = "example plugin: linear-probing hash probe, one key or four keys per thread",
    .variants = variants,
    .nvariants = WB_VARIANT_COUNT(variants),
    .sweep = {sweep_test, sweep_quick, sweep_full},
    .device_bytes = hp_device_bytes,
    .same_data = hp_same_data,
    .data_create = hp_data_create,
    .data_destroy = hp_data_destroy,
    .plan = hp_plan,
    .reset = hp_reset,
    .launch = hp_launch,
    .verify = hp_verify,
};

WB_PLUGIN(&hashprobe)

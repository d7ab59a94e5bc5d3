/* groupby.c - the group-by family: SUM(val) GROUP BY key with global
 * atomics, a shared-memory privatized table, and CUB sort + reduce-by-key,
 * from 1 to 2^20 groups (56 and 175: SSB Q2.2 and Q4.1), uniform and Zipf
 * keys. Inputs and checks: groupby_gen.h; kernels: kernels/groupby.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/groupby.h"
#include "micro/data.h"
#include "harness/run/family.h"
#include "micro/groupby_gen.h"
#include "micro/keys.h"

WB_VARIANT_TABLE(gb_variants, WB_GROUPBY_VARIANT_LIST, WB_GROUPBY_VARIANTS);

#define GB_BLOCK 256
#define ROWS28 (1LL << 28)

static const int64_t gb_groups[] = {1, 8, 56, 175, 1024, 8192, 65536, 1 << 20};

/* ---- sweep ---- */

static int add(const wb_sink *s, int v, int64_t n, int64_t groups, int zipf, int ilp, double occ) {
    wb_point p;
    wb_point_init(&p);
    p.variant_id = v;
    snprintf(p.dtype, sizeof p.dtype, "int32");
    snprintf(p.layout, sizeof p.layout, "%s", zipf ? "zipf" : "uniform");
    p.n = n;
    p.groups = groups;
    if (v != WB_GROUPBY_SORT) { /* CUB tunes its own launches: no block, ILP or occupancy axes */
        p.launch.block = GB_BLOCK;
        p.launch.ilp = ilp;
        p.launch.occupancy_target = occ;
    }
    return wb_sink_add(s, &p);
}

/* Every variant: at each ILP of ilps, then sort (CUB's own launch) once. */
static int add_variants(const wb_sink *s, int64_t n, int64_t groups, int zipf, const int *ilps, int nilps) {
    for (int i = 0; i < nilps; i++)
        for (int v = 0; v < WB_GROUPBY_VARIANTS; v++)
            if (v != WB_GROUPBY_SORT && add(s, v, n, groups, zipf, ilps[i], 1) != WB_OK) return WB_ERR;
    return add(s, WB_GROUPBY_SORT, n, groups, zipf, -1, 1);
}

/* ILP x occupancy of one variant at 2^28 uniform rows, without the default (ILP 4, occupancy 1). */
static int add_grid(const wb_sink *s, int v, int64_t groups, const int *ilps, int nilps, const double *occs, int noccs) {
    for (int i = 0; i < nilps; i++)
        for (int o = 0; o < noccs; o++)
            if (!(ilps[i] == 4 && occs[o] == 1) && add(s, v, ROWS28, groups, 0, ilps[i], occs[o]) != WB_OK)
                return WB_ERR;
    return WB_OK;
}

/* test: odd sizes at 175 groups, then 1, 8, 8192 and 2^20 groups (one per
 * shared layout: regs, thread, block, fallback; 175 is warp) and Zipf keys,
 * ILP 1 and 4. 40 points. */
static int sweep_test(const wb_sink *s) {
    static const int ilps[] = {1, 4};
    static const int64_t ns[] = {0, 1, 1000003}, groups[] = {1, 8, 8192, 1 << 20};
    for (int i = 0; i < 3; i++)
        if (add_variants(s, ns[i], 175, 0, ilps, 2) != WB_OK) return WB_ERR;
    for (int g = 0; g < 4; g++)
        if (add_variants(s, 1000003, groups[g], 0, ilps, 2) != WB_OK) return WB_ERR;
    return add_variants(s, 1000003, 175, 1, ilps, 2);
}

/* quick: 2^28 uniform rows at all 8 group counts x 3 variants (24), the
 * shared ILP x occupancy grid at 175 groups (8), Zipf at 8, 175 and 8192
 * groups (9). 41 points, 11 data sets (~1 s each: 2 GiB generated and
 * uploaded). Estimate on an H200 (~30 launches per point): shared ~1 ms a
 * launch, sort ~8 ms, global 2-3 ms from 1024 groups up but up to ~150 ms
 * at 1 and 8 groups (every row's atomic on one or a few L2 addresses,
 * ~5 s each); about 50-70 s in all. */
static int sweep_quick(const wb_sink *s) {
    static const int ilp4[] = {4}, ilps[] = {1, 4, 16};
    static const double occs[] = {0.25, 0.5, 1};
    static const int64_t zipf_groups[] = {8, 175, 8192};
    for (int g = 0; g < 8; g++) {
        if (add_variants(s, ROWS28, gb_groups[g], 0, ilp4, 1) != WB_OK) return WB_ERR;
        if (gb_groups[g] == 175 && add_grid(s, WB_GROUPBY_SHARED, 175, ilps, 3, occs, 3) != WB_OK) return WB_ERR;
    }
    for (int g = 0; g < 3; g++)
        if (add_variants(s, ROWS28, zipf_groups[g], 1, ilp4, 1) != WB_OK) return WB_ERR;
    return WB_OK;
}

/* full: 2^24 and 2^28 rows, uniform and Zipf, all 8 group counts x 3
 * variants (96); ILP {1,2,4,8,16} x occupancy {1/8,1/4,1/2,1} for shared at
 * 175 and 8192 groups and global at 65536 (57). 153 points. */
static int sweep_full(const wb_sink *s) {
    static const int ilp4[] = {4}, ilps[] = {1, 2, 4, 8, 16};
    static const double occs[] = {0.125, 0.25, 0.5, 1};
    for (int zipf = 0; zipf <= 1; zipf++)
        for (int64_t n = 1LL << 24; n <= ROWS28; n <<= 4)
            for (int g = 0; g < 8; g++) {
                int64_t groups = gb_groups[g];
                if (add_variants(s, n, groups, zipf, ilp4, 1) != WB_OK) return WB_ERR;
                if (zipf || n != ROWS28) continue;
                if ((groups == 175 || groups == 8192) &&
                    add_grid(s, WB_GROUPBY_SHARED, groups, ilps, 5, occs, 4) != WB_OK)
                    return WB_ERR;
                if (groups == 65536 && add_grid(s, WB_GROUPBY_GLOBAL, groups, ilps, 5, occs, 4) != WB_OK) return WB_ERR;
            }
    return WB_OK;
}

/* ---- data ---- */

static int64_t max_runs(int64_t n, int64_t groups) { return n < groups ? n : groups; }

/* Sort scratch: sorted copies (8 B/row), CUB's temporary storage estimated
 * as another 8 B/row plus 16 MiB (onesweep keeps an alternate copy of keys
 * and values; its histograms and lookback state are small), and the runs. */
static double gb_device_bytes(const wb_point *p) {
    double n = (double)p->n, g = (double)p->groups;
    double b = 8 * n + wb_placed_bytes(8 * g);
    if (p->variant_id == WB_GROUPBY_SORT) b += 16 * n + 16777216.0 + 12 * (double)max_runs(p->n, p->groups) + 8;
    return b;
}

static int gb_same_data(const wb_point *a, const wb_point *b) {
    return a->n == b->n && a->groups == b->groups && strcmp(a->layout, b->layout) == 0;
}

typedef struct gb_data {
    wb_groupby_gen gen;
    wb_groupby_ref ref;
    void *keys, *vals;  /* device: n keys, n values */
    wb_placed group_sums; /* the group sums, moved by each reset (data.h) */
    /* sort scratch, held while sort points run */
    void *sorted_keys, *sorted_vals, *unique, *sums, *runs, *temp;
    size_t temp_bytes;
    int table; /* shared layout of the point planned last (plan precedes its launches) */
} gb_data;

static void free_sort(gb_data *d) {
    wb_dev_free(d->sorted_keys), wb_dev_free(d->sorted_vals), wb_dev_free(d->unique);
    wb_dev_free(d->sums), wb_dev_free(d->runs), wb_dev_free(d->temp);
    d->sorted_keys = d->sorted_vals = d->unique = d->sums = d->runs = d->temp = NULL;
    d->temp_bytes = 0;
}

static void gb_data_destroy(void *data) {
    gb_data *d = data;
    if (!d) return;
    free_sort(d);
    wb_dev_free(d->keys), wb_dev_free(d->vals), wb_placed_free(&d->group_sums);
    wb_groupby_ref_free(&d->ref);
    free(d);
}

static int gb_data_create(const wb_point *p, uint64_t run_seed, void **out, wb_err *e) {
    *out = NULL;
    if (p->n < 0 || p->groups < 1 || p->groups > INT32_MAX)
        return wb_fail(e, "group-by data: n %lld, groups %lld out of range", (long long)p->n, (long long)p->groups);
    gb_data *d = calloc(1, sizeof *d);
    if (!d) return wb_fail(e, "calloc(group-by data) failed");
    int zipf = strcmp(p->layout, "zipf") == 0;
    d->gen = (wb_groupby_gen){p->n, p->groups, zipf, wb_keys_seed(run_seed, 0x67726f7570ull, (uint64_t)p->n,
                                                                  (uint64_t)p->groups, (uint64_t)zipf)};
    size_t col = (size_t)p->n * sizeof(int32_t);
    int rc = wb_groupby_ref_alloc(&d->ref, p->groups, e);
    if (rc == WB_OK) rc = wb_dev_alloc(&d->keys, col, "group-by keys", e);
    if (rc == WB_OK) rc = wb_dev_alloc(&d->vals, col, "group-by values", e);
    if (rc == WB_OK) rc = wb_placed_alloc(&d->group_sums, (size_t)p->groups * sizeof(unsigned long long), "group sums", e);
    int32_t *host = rc == WB_OK ? wb_host_alloc(2 * col, "group-by host inputs", e) : NULL;
    if (rc == WB_OK && !host) rc = WB_ERR;
    if (rc == WB_OK) rc = wb_groupby_generate(&d->gen, host, host + p->n, &d->ref, e);
    if (rc == WB_OK) rc = wb_upload(d->keys, host, col, e);
    if (rc == WB_OK) rc = wb_upload(d->vals, host + p->n, col, e);
    free(host);
    if (rc != WB_OK) {
        gb_data_destroy(d);
        return rc;
    }
    *out = d;
    return WB_OK;
}

/* ---- plan ---- */

static int alloc_sort(gb_data *d, size_t temp_bytes, wb_err *e) {
    if (d->temp && d->temp_bytes >= temp_bytes) return WB_OK;
    free_sort(d);
    size_t col = (size_t)d->gen.n * sizeof(int32_t), runs = (size_t)max_runs(d->gen.n, d->gen.groups);
    if (wb_dev_alloc(&d->sorted_keys, col, "sorted keys", e) ||
        wb_dev_alloc(&d->sorted_vals, col, "sorted values", e) ||
        wb_dev_alloc(&d->unique, runs * sizeof(int32_t), "run keys", e) ||
        wb_dev_alloc(&d->sums, runs * sizeof(long long), "run sums", e) ||
        wb_dev_alloc(&d->runs, sizeof(long long), "run count", e) ||
        wb_dev_alloc(&d->temp, temp_bytes, "CUB temporary storage", e)) {
        free_sort(d);
        return WB_ERR;
    }
    d->temp_bytes = temp_bytes;
    return WB_OK;
}

static const char *kib(double bytes, char *buf, size_t len) {
    snprintf(buf, len, bytes < 1048576 ? "%.4g KiB" : "%.4g MiB", bytes < 1048576 ? bytes / 1024 : bytes / 1048576);
    return buf;
}

/* Notes what the point ran: the shared layout or its fallback, the sort's scratch. */
static int gb_note(const gb_data *d, wb_point *p, wb_err *e) {
    char a[16], b[16];
    const char *zipf = d->gen.zipf ? "; zipf s=1" : "";
    switch (p->variant_id) {
    case WB_GROUPBY_GLOBAL:
        snprintf(p->note, sizeof p->note, "one global atomicAdd per row%s", zipf);
        break;
    case WB_GROUPBY_SHARED:
        if (d->table == WB_GROUPBY_TABLE_GLOBAL) {
            p->fallback = 1;
            int dev = 0, optin = 0;
            WB_CUDA_TRY(e, cudaGetDevice(&dev));
            WB_CUDA_TRY(e, cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
            kib((double)wb_groupby_table_bytes(WB_GROUPBY_TABLE_BLOCK, p->launch.block, d->gen.groups), a, sizeof a);
            snprintf(p->note, sizeof p->note, "fell back to global: the table needs %s > %s shared/block%s", a,
                     kib(optin, b, sizeof b), zipf);
        } else if (d->table == WB_GROUPBY_TABLE_REGS) {
            snprintf(p->note, sizeof p->note, "1 group: register sums, one atomic per warp%s", zipf);
        } else {
            kib((double)wb_groupby_table_bytes(d->table, p->launch.block, d->gen.groups), a, sizeof a);
            snprintf(p->note, sizeof p->note, "per-%s tables, %s shared per block%s", wb_groupby_table_name(d->table),
                     a, zipf);
        }
        break;
    default:
        snprintf(p->note, sizeof p->note, "CUB SortPairs (32 key bits) + ReduceByKey, temp %s%s",
                 kib((double)d->temp_bytes, a, sizeof a), zipf);
    }
    return WB_OK;
}

static int gb_plan(void *data, wb_point *p, wb_err *e) {
    gb_data *d = data;
    int v = p->variant_id;
    if (v < 0 || v >= WB_GROUPBY_VARIANTS) return wb_fail(e, "groupby: no variant %d", v);
    if (v == WB_GROUPBY_SORT && d->gen.n > INT32_MAX)
        return wb_skip(e, "sort: %lld rows exceed the int row count users pass to CUB", (long long)d->gen.n);
    if (v != WB_GROUPBY_SORT) free_sort(d); /* device_bytes of table points counts no sort scratch */
    int table = -1;
    WB_CUDA_TRY(e, wb_groupby_plan((wb_groupby_variant)v, d->gen.n, d->gen.groups, &p->launch, &table));
    if (v == WB_GROUPBY_SORT && alloc_sort(d, p->launch.temp_bytes, e) != WB_OK) return WB_ERR;
    d->table = table;
    if (v != WB_GROUPBY_SORT) p->places = d->group_sums.places;
    double n = (double)d->gen.n;
    p->items = n;
    /* Inputs once (8 B/row), outputs once: the dense table, or the runs. */
    p->bytes_model = 8 * n + (v == WB_GROUPBY_SORT ? 12.0 * (double)d->ref.present + 8 : 8.0 * (double)d->gen.groups);
    return gb_note(d, p, e);
}

/* ---- reset, launch, verify ---- */

static int gb_reset(void *data, const wb_point *p, int poison, cudaStream_t s, wb_err *e) {
    gb_data *d = data;
    if (p->variant_id == WB_GROUPBY_SORT) {
        /* CUB overwrites every output: nothing to restore; poison = a run
         * count of -1, keys of -1, sums of 0x5A5A... */
        if (!poison) return WB_OK;
        size_t runs = (size_t)max_runs(d->gen.n, d->gen.groups);
        if (WB_CUDA(e, cudaMemsetAsync(d->runs, 0xFF, sizeof(long long), s)) != WB_OK ||
            WB_CUDA(e, cudaMemsetAsync(d->unique, 0xFF, runs * sizeof(int32_t), s)) != WB_OK)
            return WB_ERR;
        return WB_CUDA(e, cudaMemsetAsync(d->sums, 0x5A, runs * sizeof(long long), s));
    }
    /* The sums are the atomics' targets and start at 0, poison or not; a
     * launch that did not run leaves 0, which fails for any non-empty group. */
    return wb_placed_reset(&d->group_sums, s, e);
}

static int gb_launch(void *data, const wb_point *p, cudaStream_t s, wb_err *e) {
    gb_data *d = data;
    wb_groupby_args a = {d->keys,   d->vals,        d->gen.n,  d->gen.groups, wb_placed_here(&d->group_sums),
                         d->sorted_keys, d->sorted_vals, d->unique, d->sums,       d->runs,
                         d->temp,        d->temp_bytes};
    return WB_CUDA(e, wb_groupby_launch((wb_groupby_variant)p->variant_id, d->table, &p->launch, &a, s));
}

static int gb_verify(void *data, const wb_point *p, wb_err *e) {
    gb_data *d = data;
    int rc;
    if (p->variant_id != WB_GROUPBY_SORT) {
        unsigned long long *got = wb_host_alloc((size_t)d->gen.groups * sizeof *got, "group sums copy", e);
        if (!got) return WB_ERR;
        rc = wb_download(got, wb_placed_here(&d->group_sums), (size_t)d->gen.groups * sizeof *got, e);
        if (rc == WB_OK) rc = wb_groupby_check_table(got, &d->ref, e);
        free(got);
        return rc;
    }
    long long runs = -1;
    if (wb_download(&runs, d->runs, sizeof runs, e) != WB_OK) return WB_ERR;
    if (runs < 0 || runs > max_runs(d->gen.n, d->gen.groups))
        return wb_fail(e, "verification of runs: run count %lld, expected %lld", runs, (long long)d->ref.present);
    int32_t *keys = wb_host_alloc((size_t)runs * sizeof *keys, "run keys copy", e);
    long long *sums = wb_host_alloc((size_t)runs * sizeof *sums, "run sums copy", e);
    rc = keys && sums ? WB_OK : WB_ERR;
    if (rc == WB_OK) rc = wb_download(keys, d->unique, (size_t)runs * sizeof *keys, e);
    if (rc == WB_OK) rc = wb_download(sums, d->sums, (size_t)runs * sizeof *sums, e);
    if (rc == WB_OK) rc = wb_groupby_check_runs(keys, sums, runs, &d->ref, e);
    free(keys), free(sums);
    return rc;
}

const wb_family wb_family_groupby = {
    .name = "groupby",
    .summary = "SUM GROUP BY: global atomics vs shared-memory privatized vs CUB sort+reduce, 1..2^20 groups",
    .variants = gb_variants,
    .nvariants = WB_VARIANT_COUNT(gb_variants),
    .sweep = {sweep_test, sweep_quick, sweep_full},
    .device_bytes = gb_device_bytes,
    .same_data = gb_same_data,
    .data_create = gb_data_create,
    .data_destroy = gb_data_destroy,
    .plan = gb_plan,
    .reset = gb_reset,
    .launch = gb_launch,
    .verify = gb_verify,
};

/* transform.c - the transform family: out = a * x + b over int32 and double,
 * scalar vs vector accesses vs gathers vs CUB (kernels/transform.h), on
 * random data verified element by element, guard elements included.
 *
 * Data axes: dtype, n, layout. Layouts: "aligned" (16-byte aligned in and
 * out), "offset1" (both one element past alignment: vector variants peel a
 * head), "offset1_in" (only in: in and out misaligned to each other, vector
 * variants fall back to element accesses). One dataset per (dtype, n,
 * layout) holds both maps and both references, so every variant reuses it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/transform.h"
#include "micro/data.h"
#include "micro/fingerprint.h"
#include "harness/run/family.h"
#include "harness/run/sweep.h"
#include "micro/transform_ref.h"

WB_VARIANT_TABLE(variant_names, WB_TRANSFORM_VARIANT_LIST, WB_TRANSFORM_VARIANTS);

/* Guard elements on each side of the output: one 16-byte vector's worth, so
 * a head or tail written one vector too far lands in poison that verify sees. */
#define GUARD_BYTES 16
/* Verify downloads the output in chunks of this many bytes. */
#define CHUNK_BYTES ((size_t)64 << 20)

typedef struct tdata {
    wb_transform_dtype dtype;
    int64_t n, off_in, off_out, guard; /* elements */
    int esz;
    int32_t a_i32, b_i32;
    double a_f64, b_f64;
    void *d_in, *d_out;                /* allocations; the outputs start at d_out + (guard + off_out) */
    int64_t out_elems;                 /* of the output allocation */
    int32_t *d_map_seq, *d_map_rand;   /* NULL when n exceeds int32 indices */
    void *ref, *ref_rand;              /* host: identity and random-map references */
    void *stage;                       /* host chunk buffer for verify */
    uint64_t print, print_rand, print_copy; /* the output allocation's expected fingerprints (guards included):
                                                a*x+b, through the random map, memcpy's copy of x */
    void *d_print;                     /* wb_print_gpu's scratch */
} tdata;

static int is_gather(int v) { return v == WB_TRANSFORM_GATHER_SEQ || v == WB_TRANSFORM_GATHER_RAND; }

static int parse_dtype(const char *s, wb_transform_dtype *dt) {
    if (strcmp(s, "int32") == 0) *dt = WB_TRANSFORM_I32;
    else if (strcmp(s, "double") == 0) *dt = WB_TRANSFORM_F64;
    else return 0;
    return 1;
}

static int parse_layout(const char *s, int64_t *off_in, int64_t *off_out) {
    if (strcmp(s, "aligned") == 0) *off_in = 0, *off_out = 0;
    else if (strcmp(s, "offset1") == 0) *off_in = 1, *off_out = 1;
    else if (strcmp(s, "offset1_in") == 0) *off_in = 1, *off_out = 0;
    else return 0;
    return 1;
}

/* ---- sweep ---- */

/* cub and memcpy size their own launches: no block, ILP or occupancy axes. */
static int own_launch(int v) { return v == WB_TRANSFORM_CUB || v == WB_TRANSFORM_MEMCPY; }

static int access_bytes(int v, int esz) {
    return v == WB_TRANSFORM_VEC8 ? 8 : v == WB_TRANSFORM_VEC16 ? 16 : own_launch(v) ? -1 : esz;
}

static int add_point(const wb_sink *sink, int v, const char *dtype, const char *layout, int64_t n, int ilp,
                     double occ, int block, int sm_limit) {
    wb_point p;
    wb_point_init(&p);
    p.variant_id = v;
    snprintf(p.dtype, sizeof p.dtype, "%s", dtype);
    snprintf(p.layout, sizeof p.layout, "%s", layout);
    p.n = n;
    p.vector_bytes = access_bytes(v, strcmp(dtype, "int32") == 0 ? 4 : 8);
    if (!own_launch(v)) {
        p.launch.block = block;
        p.launch.ilp = ilp;
        p.launch.occupancy_target = occ;
        p.launch.sm_limit = sm_limit;
    }
    return wb_sink_add(sink, &p);
}

static const char *const dtypes[] = {"int32", "double"};

/* Every variant at one launch shape (cub once); vec8 on double stays in the
 * sweep once per size so that its skip reason is recorded. */
static int add_all_variants(const wb_sink *sink, const char *dtype, const char *layout, int64_t n, int ilp,
                            int block) {
    for (int v = 0; v < WB_TRANSFORM_VARIANTS; v++)
        if (add_point(sink, v, dtype, layout, n, ilp, 1.0, block, 0) != WB_OK) return WB_ERR;
    return WB_OK;
}

/* The ILP x occupancy grid of one variant at the default block. */
static int add_grid(const wb_sink *sink, int v, const char *dtype, int64_t n) {
    static const int ilps[] = {1, 4, 16};
    static const double occs[] = {0.25, 0.5, 1.0};
    for (int i = 0; i < 3; i++)
        for (int o = 0; o < 3; o++)
            if (add_point(sink, v, dtype, "aligned", n, ilps[i], occs[o], 256, 0) != WB_OK) return WB_ERR;
    return WB_OK;
}

static int sweep_test(const wb_sink *sink) {
    static const struct { const char *layout; int64_t n; } data[] = {
        {"aligned", 0},   {"aligned", 1},       {"aligned", 12345},     {"aligned", 1000003},
        {"offset1", 1},   {"offset1", 1000003}, {"offset1_in", 12345},
    };
    /* ILP 1, 4, 16 at blocks 512, 256, 128: no kernel may assume a block size. */
    static const int ilps[] = {1, 4, 16}, blocks[] = {512, 256, 128};
    for (int t = 0; t < 2; t++)
        for (size_t d = 0; d < sizeof data / sizeof data[0]; d++) {
            for (int v = 0; v < WB_TRANSFORM_VARIANTS; v++)
                for (int i = 0; i < (own_launch(v) ? 1 : 3); i++)
                    if (add_point(sink, v, dtypes[t], data[d].layout, data[d].n, ilps[i], 1.0, blocks[i], 0)) return WB_ERR;
            if (data[d].n != 1000003) continue;
            /* The persistent grid on two SMs: the grid-stride path sm_limit uses. */
            if (add_point(sink, WB_TRANSFORM_SCALAR, dtypes[t], data[d].layout, data[d].n, 4, 1.0, 256, 2) ||
                add_point(sink, WB_TRANSFORM_VEC16, dtypes[t], data[d].layout, data[d].n, 4, 1.0, 256, 2))
                return WB_ERR;
        }
    return WB_OK;
}

static int sweep_quick(const wb_sink *sink) {
    const wb_device *dev = sink->dev;
    static const int64_t sizes[] = {1 << 16, 1 << 20, 1000003, 1 << 24, 1 << 28};
    const int64_t big = (int64_t)1 << 28, grid_n = (int64_t)1 << 26;
    for (int t = 0; t < 2; t++) {
        for (int s = 0; s < 5; s++)
            if (add_all_variants(sink, dtypes[t], "aligned", sizes[s], 4, 256) != WB_OK) return WB_ERR;
        /* ILP 1 and 2 at the largest size too: one 16-byte access per thread
         * over a covering grid matched cudaMemcpy on the H200, ILP 4 reached
         * 97% (H200, 2026-11-29, before the records in results/). */
        for (int ilp = 1; ilp <= 2; ilp++)
            if (add_point(sink, WB_TRANSFORM_SCALAR, dtypes[t], "aligned", big, ilp, 1.0, 256, 0) ||
                add_point(sink, WB_TRANSFORM_VEC16, dtypes[t], "aligned", big, ilp, 1.0, 256, 0))
                return WB_ERR;
    }
    if (add_grid(sink, WB_TRANSFORM_SCALAR, "int32", grid_n) != WB_OK ||
        add_grid(sink, WB_TRANSFORM_VEC16, "int32", grid_n) != WB_OK)
        return WB_ERR;
    /* SM scaling for `wallbench project --validate`: one block of 1024
     * threads per SM on k SMs; k = all SMs is the base. */
    int ks[WB_SM_STEPS];
    for (int i = 0, nk = wb_sm_steps(dev, ks); i < nk; i++)
        if (add_point(sink, WB_TRANSFORM_SCALAR, "int32", "aligned", grid_n, 4, 1.0, 1024, ks[i]) ||
            add_point(sink, WB_TRANSFORM_VEC16, "int32", "aligned", grid_n, 4, 1.0, 1024, ks[i]))
            return WB_ERR;
    return WB_OK;
}

static int sweep_full(const wb_sink *sink) {
    const wb_device *dev = sink->dev;
    static const int64_t sizes[] = {1 << 16, 1 << 18, 1 << 20, 1000003, 1 << 22, 1 << 24, 1 << 26, 1 << 28, 1 << 29};
    /* the ILP x occupancy grid below L2 (2^20) and far above it (2^26) */
    static const int grid_size[] = {0, 0, 1, 0, 0, 0, 1, 0, 0};
    static const int sm_limits[] = {1, 2, 4, 8, 16, 32, 64};
    for (int t = 0; t < 2; t++)
        for (int s = 0; s < 9; s++) {
            const int64_t n = sizes[s];
            if (!grid_size[s]) {
                if (add_all_variants(sink, dtypes[t], "aligned", n, 4, 256) != WB_OK) return WB_ERR;
            } else {
                for (int v = 0; v < WB_TRANSFORM_CUB; v++) {
                    int once = t == 1 && v == WB_TRANSFORM_VEC8;
                    if (once ? add_point(sink, v, dtypes[t], "aligned", n, 4, 1.0, 256, 0)
                             : add_grid(sink, v, dtypes[t], n))
                        return WB_ERR;
                }
                if (add_point(sink, WB_TRANSFORM_CUB, dtypes[t], "aligned", n, -1, NAN, -1, 0) ||
                    add_point(sink, WB_TRANSFORM_MEMCPY, dtypes[t], "aligned", n, -1, NAN, -1, 0))
                    return WB_ERR;
            }
            /* Projection-model inputs: the same work on k SMs, one block each. */
            if (t == 0 && n == (int64_t)1 << 26)
                for (int k = 0; k < 8; k++) {
                    int sms = k < 7 ? sm_limits[k] : dev->sms;
                    if (k < 7 && sms >= dev->sms) continue;
                    if (add_point(sink, WB_TRANSFORM_SCALAR, "int32", "aligned", n, 4, 1.0, 256, sms) ||
                        add_point(sink, WB_TRANSFORM_VEC16, "int32", "aligned", n, 4, 1.0, 256, sms))
                        return WB_ERR;
                }
            /* ILP 1 and 2 at the largest size too, as the quick sweep has them at
             * 2^28: record 47c0bec had only ILP 4 at 2^29, where the best form
             * reached 0.948x cudaMemcpy (issue 31's target: 0.98x). */
            if (n == (int64_t)1 << 29)
                for (int ilp = 1; ilp <= 2; ilp++)
                    if (add_point(sink, WB_TRANSFORM_SCALAR, dtypes[t], "aligned", n, ilp, 1.0, 256, 0) ||
                        add_point(sink, WB_TRANSFORM_VEC16, dtypes[t], "aligned", n, ilp, 1.0, 256, 0))
                        return WB_ERR;
            /* At 2^26 (the smallest size of the 0.98x cudaMemcpy target, 0.13 ms a
             * launch) also ILP 2, which the grid lacks, and ILP 1 and 2 at blocks
             * of 128 and 512: record 47c0bec's best there was 0.977x (ILP 1, 256). */
            if (n == (int64_t)1 << 26)
                for (int ilp = 1; ilp <= 2; ilp++)
                    for (int b = 128; b <= 512; b *= 2) {
                        if (ilp == 1 && b == 256) continue; /* in the grid */
                        if (add_point(sink, WB_TRANSFORM_SCALAR, dtypes[t], "aligned", n, ilp, 1.0, b, 0) ||
                            add_point(sink, WB_TRANSFORM_VEC16, dtypes[t], "aligned", n, ilp, 1.0, b, 0))
                            return WB_ERR;
                    }
            /* Block size at the largest size but one. */
            if (n == (int64_t)1 << 28)
                for (int b = 128; b <= 512; b *= 4)
                    if (add_point(sink, WB_TRANSFORM_SCALAR, dtypes[t], "aligned", n, 4, 1.0, b, 0) ||
                        add_point(sink, WB_TRANSFORM_VEC16, dtypes[t], "aligned", n, 4, 1.0, b, 0))
                        return WB_ERR;
        }
    return WB_OK;
}

/* ---- data ---- */

static int64_t guard_of(int esz) { return GUARD_BYTES / esz; }
static int has_maps(int64_t n) { return n <= INT32_MAX; }

static double transform_device_bytes(const wb_point *p) {
    const double esz = strcmp(p->dtype, "int32") == 0 ? 4 : 8, n = (double)p->n;
    return esz * (n + 1) + esz * (n + 1 + 2.0 * guard_of((int)esz)) + (has_maps(p->n) ? 8.0 * n : 0);
}

static int transform_same_data(const wb_point *a, const wb_point *b) {
    return a->n == b->n && strcmp(a->dtype, b->dtype) == 0 && strcmp(a->layout, b->layout) == 0;
}

static uint64_t data_seed(uint64_t run_seed, const wb_point *p) {
    uint64_t s = run_seed ^ ((uint64_t)p->n * 0xD6E8FEB86659FD93ull);
    s ^= strcmp(p->dtype, "int32") == 0 ? 0x1111 : 0x2222;
    return wb_rng_next(&s);
}

static void transform_data_destroy(void *data) {
    tdata *d = data;
    if (!d) return;
    wb_dev_free(d->d_in);
    wb_dev_free(d->d_out);
    wb_dev_free(d->d_map_seq);
    wb_dev_free(d->d_map_rand);
    wb_dev_free(d->d_print);
    free(d->ref);
    free(d->ref_rand);
    free(d->stage);
    free(d);
}

/* Uploads the identity map, then the random one; the random reference is
 * computed from the host copy of the map while it exists. */
static int create_maps(tdata *d, uint64_t seed, wb_err *e) {
    const int64_t n = d->n;
    int32_t *map = wb_host_alloc((size_t)n * 4, "transform map", e);
    if (!map) return WB_ERR;
    int rc = wb_dev_alloc((void **)&d->d_map_seq, (size_t)n * 4, "transform map_seq", e);
    if (rc == WB_OK) rc = wb_dev_alloc((void **)&d->d_map_rand, (size_t)n * 4, "transform map_rand", e);
    if (rc == WB_OK) {
        wb_transform_fill_map(map, n, NULL);
        rc = wb_upload(d->d_map_seq, map, (size_t)n * 4, e);
    }
    if (rc == WB_OK) {
        wb_perm q;
        wb_perm_init(&q, (uint64_t)n, seed);
        wb_transform_fill_map(map, n, &q);
        rc = wb_upload(d->d_map_rand, map, (size_t)n * 4, e);
    }
    if (rc == WB_OK)
        wb_transform_reference(d->dtype, seed, map, n, d->a_i32, d->b_i32, d->a_f64, d->b_f64, d->ref_rand);
    free(map);
    return rc;
}

static uint64_t expected_print(const tdata *d, const void *ref);

static int create_input(tdata *d, uint64_t seed, wb_err *e) {
    const int64_t n = d->n;
    void *in = wb_host_alloc((size_t)n * d->esz, "transform input", e);
    if (!in) return WB_ERR;
    wb_transform_fill_input(d->dtype, seed, in, n);
    int rc = wb_upload((char *)d->d_in + d->off_in * d->esz, in, (size_t)n * d->esz, e);
    d->print_copy = expected_print(d, in);
    free(in);
    return rc;
}

/* The fingerprint the whole output allocation must have: poison, the
 * reference, poison (what verify's element check expects). */
static uint64_t expected_print(const tdata *d, const void *ref) {
    const int byte = wb_transform_poison_byte(d->dtype);
    const int64_t lead = d->guard + d->off_out;
    return wb_print_fill(lead, d->esz, byte, 0) + wb_print_host(ref, d->n, d->esz, lead) +
           wb_print_fill(d->out_elems - lead - d->n, d->esz, byte, lead + d->n);
}

static int transform_data_create(const wb_point *p, uint64_t run_seed, void **data, wb_err *e) {
    *data = NULL;
    tdata *d = calloc(1, sizeof *d);
    if (!d) return wb_fail(e, "calloc(transform data) failed");
    if (!parse_dtype(p->dtype, &d->dtype) || !parse_layout(p->layout, &d->off_in, &d->off_out) || p->n < 0) {
        free(d);
        return wb_fail(e, "transform: unknown dtype '%s' or layout '%s', or n < 0", p->dtype, p->layout);
    }
    const uint64_t seed = data_seed(run_seed, p);
    d->n = p->n;
    d->esz = wb_transform_esz(d->dtype);
    d->guard = guard_of(d->esz);
    d->out_elems = d->guard + d->off_out + d->n + d->guard;
    wb_transform_constants(seed, &d->a_i32, &d->b_i32, &d->a_f64, &d->b_f64);
    const size_t out_bytes = (size_t)d->out_elems * d->esz;
    const size_t stage = out_bytes < CHUNK_BYTES ? out_bytes : CHUNK_BYTES;
    int rc = WB_OK;
    if (!(d->ref = wb_host_alloc((size_t)d->n * d->esz, "transform reference", e)) ||
        !(d->ref_rand = wb_host_alloc((size_t)d->n * d->esz, "transform reference (random map)", e)) ||
        !(d->stage = wb_host_alloc(stage, "transform verify chunk", e)))
        rc = WB_ERR;
    if (rc == WB_OK) rc = wb_dev_alloc(&d->d_in, (size_t)(d->n + d->off_in) * d->esz, "transform in", e);
    if (rc == WB_OK) rc = wb_dev_alloc(&d->d_out, out_bytes, "transform out", e);
    if (rc == WB_OK) rc = create_input(d, seed, e);
    if (rc == WB_OK)
        wb_transform_reference(d->dtype, seed, NULL, d->n, d->a_i32, d->b_i32, d->a_f64, d->b_f64, d->ref);
    if (rc == WB_OK && has_maps(d->n)) rc = create_maps(d, seed, e);
    if (rc == WB_OK) rc = wb_dev_alloc(&d->d_print, WB_PRINT_SCRATCH_BYTES, "transform fingerprint", e);
    if (rc == WB_OK) {
        d->print = expected_print(d, d->ref);
        d->print_rand = has_maps(d->n) ? expected_print(d, d->ref_rand) : 0;
    }
    if (rc != WB_OK) {
        transform_data_destroy(d);
        return WB_ERR;
    }
    *data = d;
    return WB_OK;
}

/* ---- plan, reset, launch, verify ---- */

static void *out_start(const tdata *d) { return (char *)d->d_out + (d->guard + d->off_out) * d->esz; }

static wb_transform_args args_of(const tdata *d, const wb_point *p) {
    wb_transform_args a;
    memset(&a, 0, sizeof a);
    a.variant = (wb_transform_variant)p->variant_id;
    a.dtype = d->dtype;
    a.in = (const char *)d->d_in + d->off_in * d->esz;
    a.out = out_start(d);
    a.map = p->variant_id == WB_TRANSFORM_GATHER_SEQ ? d->d_map_seq
            : p->variant_id == WB_TRANSFORM_GATHER_RAND ? d->d_map_rand : NULL;
    a.n = d->n;
    a.a_i32 = d->a_i32, a.b_i32 = d->b_i32, a.a_f64 = d->a_f64, a.b_f64 = d->b_f64;
    return a;
}

static int transform_plan(void *data, wb_point *p, wb_err *e) {
    tdata *d = data;
    const int v = p->variant_id;
    if (v < 0 || v >= WB_TRANSFORM_VARIANTS) return wb_fail(e, "transform: no variant %d", v);
    if (v == WB_TRANSFORM_VEC8 && d->dtype == WB_TRANSFORM_F64)
        return wb_skip(e, "vec8 on double is an 8-byte access: the same code as scalar, measured there");
    if (is_gather(v) && !d->d_map_rand) return wb_skip(e, "n = %lld exceeds the int32 map", (long long)d->n);
    if (!own_launch(v)) {
        const int ilp = p->launch.ilp;
        if (ilp != 1 && ilp != 2 && ilp != 4 && ilp != 8 && ilp != 16)
            return wb_fail(e, "transform: ILP %d not in {1, 2, 4, 8, 16}", ilp);
    }
    wb_transform_args a = args_of(d, p);
    cudaError_t c = wb_transform_plan(&a, &p->launch);
    if (c == cudaErrorInvalidValue)
        return wb_skip(e, "kernel cannot run with block %d (registers or shared memory)", p->launch.block);
    if (WB_CUDA(e, c) != WB_OK) return WB_ERR;
    p->bytes_model = (double)d->n * 2 * d->esz + (is_gather(v) ? 4.0 * (double)d->n : 0);
    p->items = (double)d->n;
    const int vec = v == WB_TRANSFORM_VEC8 || v == WB_TRANSFORM_VEC16;
    if (vec && d->off_in != d->off_out)
        snprintf(p->note, sizeof p->note, "in/out misaligned to each other: element accesses");
    else if (v == WB_TRANSFORM_CUB)
        snprintf(p->note, sizeof p->note, "cub::DeviceTransform of the toolkit's CCCL, its own launch shape");
    else if (v == WB_TRANSFORM_MEMCPY)
        snprintf(p->note, sizeof p->note, "cudaMemcpyAsync device to device, out = in: the copy roof at this size");
    else if (p->launch.sm_limit > 0)
        snprintf(p->note, sizeof p->note, "persistent grid, one block per SM on %d SMs", p->launch.grid);
    return WB_OK;
}

static int transform_reset(void *data, const wb_point *p, int poison, cudaStream_t s, wb_err *e) {
    (void)p;
    tdata *d = data;
    if (!poison) return WB_OK; /* a launch changes nothing but its outputs */
    return WB_CUDA(e, cudaMemsetAsync(d->d_out, wb_transform_poison_byte(d->dtype), (size_t)d->out_elems * d->esz, s));
}

static int transform_launch(void *data, const wb_point *p, cudaStream_t s, wb_err *e) {
    wb_transform_args a = args_of(data, p);
    return WB_CUDA(e, wb_transform_launch(&a, &p->launch, s));
}

/* The output's fingerprint against the reference's first (kernels/fingerprint.h:
 * nothing read back); when they differ, every element is read back and
 * checked, and that check decides and names what is wrong. */
static int transform_verify(void *data, const wb_point *p, wb_err *e) {
    tdata *d = data;
    const int rand = p->variant_id == WB_TRANSFORM_GATHER_RAND, copy = p->variant_id == WB_TRANSFORM_MEMCPY;
    const void *expected = rand ? d->ref_rand : d->ref;
    uint64_t got = 0;
    if (WB_CUDA(e, wb_print_gpu(d->d_out, d->out_elems, d->esz, 0, d->d_print, &got, 0)) != WB_OK) return WB_ERR;
    if (got == (copy ? d->print_copy : rand ? d->print_rand : d->print)) return WB_OK;
    void *input = NULL; /* memcpy's reference: the input, read back (only after a mismatch) */
    if (copy) {
        if (!(input = wb_host_alloc((size_t)d->n * d->esz, "transform input read back", e))) return WB_ERR;
        if (wb_download(input, (char *)d->d_in + d->off_in * d->esz, (size_t)d->n * d->esz, e) != WB_OK) {
            free(input);
            return WB_ERR;
        }
        expected = input;
    }
    const int64_t chunk = (int64_t)(CHUNK_BYTES / (size_t)d->esz);
    wb_mismatches m;
    wb_mismatch_init(&m);
    for (int64_t first = 0; first < d->out_elems; first += chunk) {
        const int64_t count = d->out_elems - first < chunk ? d->out_elems - first : chunk;
        if (wb_download(d->stage, (char *)d->d_out + first * d->esz, (size_t)count * d->esz, e) != WB_OK) {
            free(input);
            return WB_ERR;
        }
        wb_transform_check_chunk(d->dtype, d->stage, first, count, d->guard + d->off_out, d->n, expected, &m);
    }
    free(input);
    return wb_mismatch_finish(&m, d->out_elems, "transform output (guards included)", e);
}

const wb_family wb_family_transform = {
    .name = "transform",
    .summary = "out = a*x + b: scalar vs 8/16-byte vector accesses vs gathers vs cub::DeviceTransform, beside cudaMemcpy",
    .variants = variant_names,
    .nvariants = WB_VARIANT_COUNT(variant_names),
    .sweep = {sweep_test, sweep_quick, sweep_full},
    .device_bytes = transform_device_bytes,
    .same_data = transform_same_data,
    .data_create = transform_data_create,
    .data_destroy = transform_data_destroy,
    .plan = transform_plan,
    .reset = transform_reset,
    .launch = transform_launch,
    .verify = transform_verify,
};

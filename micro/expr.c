/* expr.c - the expression family (seed 000 §7, cuDF's compute_column_kernel):
 * one arithmetic/comparison expression over int32/int64/double columns into
 * one output column, evaluated by a cuDF-style interpreter and by compiled
 * straight-line code (kernels/expr.h). Axes: dtype, layout (chain or tree),
 * expr_ops, columns, n, ILP, occupancy. Each input column is read once and
 * the output written once: bytes_model = n * (columns + 1) * element size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/expr.h"
#include "micro/expr_plan.h"
#include "micro/fingerprint.h"
#include "harness/gpu/cuda_check.h"
#include "kernels/fill.h"
#include "harness/run/family.h"

WB_VARIANT_TABLE(expr_variants, WB_EXPR_VARIANT_LIST, WB_EXPR_VARIANTS);

/* Launch shape of the main points: cuDF launches compute_column_kernel with
 * 128 threads and one row per thread; compiled reads one 16-byte vector per
 * int32 column per thread (two per 64-bit column). */
#define EXPR_BLOCK 128
#define EXPR_ILP_INTERP 1
#define EXPR_ILP_COMPILED 4
/* Verify reads the output back in chunks of this many bytes, into two
 * pinned stages: one is copied into while the other is checked. */
#define EXPR_STAGE_BYTES ((size_t)32 << 20)
/* Expressions of one data set whose fingerprints are kept (a sweep has at
 * most 12: two shapes x six operator counts). */
#define EXPR_PRINTS 32

typedef struct expr_data {
    wb_expr_plan plan;
    wb_expr_plan *plan_dev;
    void *columns_dev[WB_EXPR_MAX_COLUMNS];
    void *table_dev; /* device array of columns_dev, as cuDF's table_device_view */
    void *out_dev;
    wb_fill_spec spec[WB_EXPR_MAX_COLUMNS]; /* the inputs, for the reference rebuilt in verify */
    void *stage[2];  /* pinned host: verify reads the output back through these, chunk by chunk */
    cudaStream_t copy; /* verify's read-back */
    wb_expr_job job[2];
    int64_t n;
    size_t elem;
    int type, shape, ops;  /* of d->plan: the expression planned last */
    uint64_t run_seed;
    /* The expected fingerprint of each expression's output, from its first
     * point's full check: the later points of the same expression (the
     * other variant, other launch shapes) are checked on the GPU against it. */
    struct { int shape, ops; uint64_t print; } prints[EXPR_PRINTS];
    int nprints;
    void *print_dev; /* wb_print_gpu's scratch */
} expr_data;

/* ---- sweep --------------------------------------------------------------------- */

static int point(const wb_sink *s, int variant, int type, int shape, int64_t n, int ops, int columns, int ilp,
                 double occupancy, int block) {
    wb_point p;
    wb_point_init(&p);
    p.variant_id = variant;
    snprintf(p.dtype, sizeof p.dtype, "%s", wb_expr_type_name(type));
    snprintf(p.layout, sizeof p.layout, "%s", wb_expr_shape_name(shape));
    p.n = n;
    p.expr_ops = ops;
    p.columns = columns;
    p.launch.block = block;
    p.launch.ilp = ilp;
    p.launch.occupancy_target = occupancy;
    p.launch.sm_limit = 0;
    /* access width: the interpreter reads one element; compiled packs ILP
     * elements, up to 16 bytes */
    int elem = wb_expr_type_bytes(type);
    p.vector_bytes = variant == WB_EXPR_INTERP ? elem : ilp * elem < 16 ? ilp * elem : 16;
    return wb_sink_add(s, &p);
}

/* Both variants at their main launch shape. */
static int pair(const wb_sink *s, int type, int shape, int64_t n, int ops, int columns) {
    if (point(s, WB_EXPR_INTERP, type, shape, n, ops, columns, EXPR_ILP_INTERP, 1.0, EXPR_BLOCK) != WB_OK) return WB_ERR;
    return point(s, WB_EXPR_COMPILED, type, shape, n, ops, columns, EXPR_ILP_COMPILED, 1.0, EXPR_BLOCK);
}

static const int ops_all[] = {1, 2, 4, 8, 16, 32};
static const int ops_few[] = {1, 8, 32};
/* cuDF's AST benchmark grid: left-deep chains of depth 1, 5, 10 over
 * 1e5..1e8 rows, with a column per leaf or one reused column; depth is
 * approximated by 1, 4, 8 operators, columns capped at WB_EXPR_MAX_COLUMNS. */
static const int ops_cudf[] = {1, 4, 8};
static const int64_t rows_cudf[] = {100000, 1000000, 10000000, 100000000};
static const double occupancies[] = {0.125, 0.25, 0.5, 1.0};

#define N_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define TRY(call)                                \
    do {                                         \
        if ((call) != WB_OK) return WB_ERR;      \
    } while (0)

/* 64-bit columns get half the rows: the same bytes as int32 at 2^28. */
static int64_t rows_main(int type) { return type == WB_EXPR_INT32 ? (int64_t)1 << 28 : (int64_t)1 << 27; }
static int cudf_columns(int ops) { return ops + 1 < WB_EXPR_MAX_COLUMNS ? ops + 1 : WB_EXPR_MAX_COLUMNS; }

/* Every dtype, both shapes, ops 1/4/32, ILP 1/4, sizes 0, 1, 4097, 1000003;
 * plus 1 and 4 columns, and a 256-thread block at quarter occupancy. */
static int sweep_test(const wb_sink *s) {
    static const int64_t sizes[] = {0, 1, 4097, 1000003};
    static const int ops_test[] = {1, 4, 32};
    for (int type = 0; type < 3; type++)
        for (int i = 0; i < N_OF(sizes); i++)
            for (int shape = 0; shape < 2; shape++)
                for (int o = 0; o < N_OF(ops_test); o++)
                    for (int v = 0; v < 2; v++)
                        for (int ilp = 1; ilp <= 4; ilp *= 4)
                            TRY(point(s, v, type, shape, sizes[i], ops_test[o], 2, ilp, 1.0, EXPR_BLOCK));
    for (int shape = 0; shape < 2; shape++)
        for (int columns = 1; columns <= 4; columns *= 4)
            for (int v = 0; v < 2; v++) TRY(point(s, v, WB_EXPR_INT32, shape, 4097, 32, columns, 4, 1.0, EXPR_BLOCK));
    for (int type = WB_EXPR_INT32; type <= WB_EXPR_F64; type += 2)
        for (int v = 0; v < 2; v++) TRY(point(s, v, type, WB_EXPR_TREE, 1000003, 32, 2, 4, 0.25, 256));
    return WB_OK;
}

/* 96 points, 37 data sets:
 *   24  int32 at 2^28 rows, 2 columns, both shapes, ops 1..32 (the lead's check: compiled up to 8 ops)
 *   24  int64/double at 2^27 rows, both shapes, ops 1, 8, 32
 *   24  cuDF's benchmark grid: chain, ops 1/4/8, rows 1e5..1e8
 *   24  ILP 1/4/16 x occupancy 1/8..1 at 2^26 rows, chain of 8 ops
 * On the H200 before issue 31 the family's set-up took 18 s (host fills,
 * reference, pageable uploads) and its verification 8 s; the inputs are now
 * generated on the GPU, and verify rebuilds the reference for an
 * expression's first point and compares fingerprints for the rest: data
 * 0.4 s, verify 6.7 s in the default run of 910a51a. */
static int sweep_quick(const wb_sink *s) {
    for (int shape = 0; shape < 2; shape++)
        for (int o = 0; o < N_OF(ops_all); o++) TRY(pair(s, WB_EXPR_INT32, shape, rows_main(WB_EXPR_INT32), ops_all[o], 2));
    for (int type = WB_EXPR_INT64; type <= WB_EXPR_F64; type++)
        for (int shape = 0; shape < 2; shape++)
            for (int o = 0; o < N_OF(ops_few); o++) TRY(pair(s, type, shape, rows_main(type), ops_few[o], 2));
    for (int o = 0; o < N_OF(ops_cudf); o++)
        for (int r = 0; r < N_OF(rows_cudf); r++)
            TRY(pair(s, WB_EXPR_INT32, WB_EXPR_CHAIN, rows_cudf[r], ops_cudf[o], cudf_columns(ops_cudf[o])));
    for (int v = 0; v < 2; v++)
        for (int ilp = 1; ilp <= 16; ilp *= 4)
            for (int c = 0; c < N_OF(occupancies); c++)
                TRY(point(s, v, WB_EXPR_INT32, WB_EXPR_CHAIN, (int64_t)1 << 26, 8, 2, ilp, occupancies[c], EXPR_BLOCK));
    return WB_OK;
}

/* 778 points: every dtype x shape x ops x columns 1/2/4 (192); cuDF's grid
 * for int32 and double with one reused column and with one column per leaf
 * (96); ILP 1..16 x occupancy for int32 and double, both shapes, ops 1/8/32
 * (480); rows 2^16..2^24 for a chain of 8 (10; 2^26 and 2^28 are above). */
/* Full sweep, sized to run with the rest of the suite in one 10-minute call
 * on the H200: every dtype x shape x operator count at 2^26 rows with two
 * columns (int32 chains also with one and four), the int32 two-column trees
 * and chains at 2^28 rows (the size of the
 * issue's target), cuDF's benchmark grid, the ILP x occupancy grid of int32
 * chains, and a size scan. */
static int sweep_full(const wb_sink *s) {
    static const int ilps[] = {1, 4, 16};
    static const double occs[] = {0.25, 1.0};
    for (int type = 0; type < 3; type++)
        for (int shape = 0; shape < 2; shape++)
            for (int o = 0; o < N_OF(ops_all); o++)
                for (int columns = 1; columns <= 4; columns *= 2)
                    if (columns <= wb_expr_column_leaves(ops_all[o]) &&
                        (columns == 2 || (type == WB_EXPR_INT32 && shape == WB_EXPR_CHAIN)))
                        TRY(pair(s, type, shape, (int64_t)1 << 26, ops_all[o], columns));
    for (int shape = 0; shape < 2; shape++)
        for (int o = 0; o < N_OF(ops_all); o++)
            if (wb_expr_column_leaves(ops_all[o]) >= 2) TRY(pair(s, WB_EXPR_INT32, shape, rows_main(WB_EXPR_INT32), ops_all[o], 2));
    for (int type = WB_EXPR_INT32; type <= WB_EXPR_F64; type += 2)
        for (int o = 0; o < N_OF(ops_cudf); o++)
            for (int reuse = 1; reuse >= 0; reuse--)
                for (int r = 0; r < N_OF(rows_cudf); r++)
                    if (reuse || type == WB_EXPR_INT32 || rows_cudf[r] < 100000000) /* 1e8 x 9 doubles: 7.2 GB to fill */
                        TRY(pair(s, type, WB_EXPR_CHAIN, rows_cudf[r], ops_cudf[o], reuse ? 1 : cudf_columns(ops_cudf[o])));
    for (int o = 0; o < N_OF(ops_few); o++)
        for (int v = 0; v < 2; v++)
            for (int i = 0; i < N_OF(ilps); i++)
                for (int c = 0; c < N_OF(occs); c++)
                    TRY(point(s, v, WB_EXPR_INT32, WB_EXPR_CHAIN, (int64_t)1 << 26, ops_few[o], 2, ilps[i], occs[c], EXPR_BLOCK));
    for (int lg = 16; lg <= 24; lg += 2) TRY(pair(s, WB_EXPR_INT32, WB_EXPR_CHAIN, (int64_t)1 << lg, 8, 2));
    return WB_OK;
}

/* ---- data ------------------------------------------------------------------------- */

static double expr_device_bytes(const wb_point *p) {
    int type = wb_expr_type_parse(p->dtype);
    double elem = type < 0 ? 8.0 : (double)wb_expr_type_bytes(type);
    return (double)p->n * (p->columns + 1) * elem + sizeof(wb_expr_plan) + sizeof(void *) * WB_EXPR_MAX_COLUMNS;
}

/* A data set is the input columns; the expression (layout, operators) is
 * the plan's, so that every expression over the same columns shares them and
 * their counter batches (CUPTI's first Start of a batch costs ~0.2 s). */
static int expr_same_data(const wb_point *a, const wb_point *b) {
    return strcmp(a->dtype, b->dtype) == 0 && a->n == b->n && a->columns == b->columns;
}

static void expr_data_destroy(void *data) {
    expr_data *d = data;
    if (!d) return;
    for (int c = 0; c < WB_EXPR_MAX_COLUMNS; c++) wb_dev_free(d->columns_dev[c]);
    wb_dev_free(d->table_dev);
    wb_dev_free(d->plan_dev);
    wb_dev_free(d->out_dev);
    wb_dev_free(d->print_dev);
    for (int k = 0; k < 2; k++)
        if (d->stage[k]) cudaFreeHost(d->stage[k]);
    if (d->copy) cudaStreamDestroy(d->copy);
    free(d);
}

/* Inputs depend on (seed, dtype, column), literals on (seed, dtype, shape,
 * ops, columns): every expression of a dtype reads the same columns. */
static uint64_t expr_seed(uint64_t run_seed, uint64_t salt) {
    uint64_t s = run_seed ^ (salt * 0x9E3779B97F4A7C15ull);
    return wb_rng_next(&s);
}

/* Generates the input columns on the GPU (wb_fill_gpu: the values of
 * wb_expr_fill, which the host never holds: verify rebuilds them block by
 * block for its reference), uploads the plan, and sets up verify's pinned
 * read-back stages and stream. */
static int expr_data_fill(expr_data *d, int type, int columns, uint64_t run_seed, wb_err *e) {
    const size_t bytes = (size_t)d->n * d->elem;
    const size_t stage = bytes < EXPR_STAGE_BYTES ? bytes : EXPR_STAGE_BYTES;
    for (int c = 0; c < columns; c++) {
        wb_expr_fill_spec(type, expr_seed(run_seed, 0x100u + 16u * (uint64_t)type + (uint64_t)c), &d->spec[c]);
        if (wb_dev_alloc(&d->columns_dev[c], bytes, "expression input column", e) != WB_OK ||
            WB_CUDA(e, wb_fill_gpu(&d->spec[c], d->columns_dev[c], 0, d->n, 0)) != WB_OK)
            return WB_ERR;
    }
    for (int k = 0; k < 2; k++)
        if (WB_CUDA(e, cudaMallocHost(&d->stage[k], stage ? stage : 1)) != WB_OK) return WB_ERR;
    if (WB_CUDA(e, cudaStreamCreateWithFlags(&d->copy, cudaStreamNonBlocking)) != WB_OK ||
        wb_dev_alloc(&d->out_dev, bytes, "expression output", e) != WB_OK ||
        wb_dev_alloc(&d->print_dev, WB_PRINT_SCRATCH_BYTES, "expression output fingerprint", e) != WB_OK ||
        wb_dev_alloc((void **)&d->plan_dev, sizeof d->plan, "expression plan", e) != WB_OK ||
        wb_dev_alloc(&d->table_dev, sizeof(void *) * columns, "expression column table", e) != WB_OK ||
        wb_upload(d->table_dev, d->columns_dev, sizeof(void *) * columns, e) != WB_OK)
        return WB_ERR;
    return WB_CUDA(e, cudaDeviceSynchronize()); /* the fills' errors land here, named */
}

static int expr_data_create(const wb_point *p, uint64_t run_seed, void **data, wb_err *e) {
    *data = NULL;
    int type = wb_expr_type_parse(p->dtype), shape = wb_expr_shape_parse(p->layout);
    if (type < 0 || shape < 0 || p->n < 0)
        return wb_fail(e, "expression data: dtype '%s', layout '%s' or n %lld invalid", p->dtype, p->layout,
                       (long long)p->n);
    expr_data *d = wb_host_alloc(sizeof *d, "expression data", e);
    if (!d) return WB_ERR;
    memset(d, 0, sizeof *d);
    d->n = p->n;
    d->elem = (size_t)wb_expr_type_bytes(type);
    d->type = type;
    d->shape = d->ops = -1; /* no expression planned yet */
    d->run_seed = run_seed;
    if (p->columns < 1 || p->columns > WB_EXPR_MAX_COLUMNS) {
        expr_data_destroy(d);
        return wb_fail(e, "expression data: %d columns (1 to %d)", p->columns, WB_EXPR_MAX_COLUMNS);
    }
    if (expr_data_fill(d, type, p->columns, run_seed, e) != WB_OK) {
        expr_data_destroy(d);
        return WB_ERR;
    }
    for (int v = 0; v < 2; v++) {
        wb_expr_job *j = &d->job[v];
        j->variant = v;
        j->plan = &d->plan;
        j->plan_dev = d->plan_dev;
        j->columns_dev = (const void *const *)d->table_dev;
        for (int c = 0; c < p->columns; c++) j->columns[c] = d->columns_dev[c];
        j->out = d->out_dev;
        j->n = d->n;
    }
    *data = d;
    return WB_OK;
}

/* ---- plan, reset, launch, verify ---------------------------------------------------- */

/* The point's expression into d->plan and the device's copy, unless it is
 * the one planned last. Literals depend on (seed, dtype, shape, ops,
 * columns), so an expression is the same whichever point plans it. */
static int use_expression(expr_data *d, const wb_point *p, wb_err *e) {
    const int shape = wb_expr_shape_parse(p->layout);
    if (shape < 0) return wb_fail(e, "expression: layout '%s'", p->layout);
    if (shape == d->shape && p->expr_ops == d->ops) return WB_OK;
    d->shape = d->ops = -1;
    uint64_t lit_seed = expr_seed(d->run_seed, 0x10000u + 4096u * (uint64_t)d->type + 512u * (uint64_t)shape +
                                  8u * (uint64_t)p->expr_ops + (uint64_t)p->columns);
    if (wb_expr_plan_build(&d->plan, d->type, shape, p->expr_ops, p->columns, lit_seed, e) != WB_OK ||
        wb_upload(d->plan_dev, &d->plan, sizeof d->plan, e) != WB_OK)
        return WB_ERR;
    d->shape = shape, d->ops = p->expr_ops;
    return WB_OK;
}

static int expr_plan(void *data, wb_point *p, wb_err *e) {
    expr_data *d = data;
    if (p->variant_id < 0 || p->variant_id > 1) return wb_fail(e, "expression: variant id %d", p->variant_id);
    if (use_expression(d, p, e) != WB_OK) return WB_ERR;
    cudaError_t c = wb_expr_plan_launch(&d->job[p->variant_id], &p->launch);
    if (c != cudaSuccess) {
        (void)cudaGetLastError(); /* keep a planning error out of the next launch check */
        if (c == cudaErrorNotSupported)
            return wb_skip(e, "compiled variant not instantiated for %d operators, %d columns, ILP %d", p->expr_ops,
                           p->columns, p->launch.ilp);
        if (c == cudaErrorInvalidValue)
            return wb_skip(e, "block of %d threads cannot run with %d intermediate slots of %zu bytes", p->launch.block,
                           d->plan.n_slots, d->elem);
        return wb_cuda_check((int)c, "wb_expr_plan_launch", __FILE__, __LINE__, e);
    }
    p->bytes_model = (double)d->n * (double)((size_t)p->columns * d->elem + d->elem);
    p->items = (double)d->n;
    if (p->variant_id == WB_EXPR_INTERP)
        snprintf(p->note, sizeof p->note, "cuDF-style interpreter, %d intermediate slots (%d B shared per block)",
                 d->plan.n_slots, d->plan.n_slots * p->launch.block * (int)d->elem);
    else
        snprintf(p->note, sizeof p->note, "straight-line code, intermediates in registers");
    return WB_OK;
}

/* The kernels keep no state; poison is NaN for doubles (never produced) and
 * 0xA5A5A5A5 for integers. */
static int expr_reset(void *data, const wb_point *p, int poison, cudaStream_t s, wb_err *e) {
    expr_data *d = data;
    (void)p;
    if (!poison || d->n == 0) return WB_OK;
    return WB_CUDA(e, cudaMemsetAsync(d->out_dev, d->plan.type == WB_EXPR_F64 ? 0xFF : 0xA5, (size_t)d->n * d->elem, s));
}

static int expr_launch(void *data, const wb_point *p, cudaStream_t s, wb_err *e) {
    expr_data *d = data;
    return WB_CUDA(e, wb_expr_launch(&d->job[p->variant_id], &p->launch, s));
}

/* Output chunk k: rows [k * chunk, ...) into stage k % 2, on the copy stream. */
static int expr_read_chunk(expr_data *d, int64_t k, int64_t chunk, wb_err *e) {
    const int64_t lo = k * chunk, len = d->n - lo < chunk ? d->n - lo : chunk;
    return WB_CUDA(e, cudaMemcpyAsync(d->stage[k & 1], (char *)d->out_dev + lo * d->elem, (size_t)len * d->elem,
                                      cudaMemcpyDeviceToHost, d->copy));
}

/* The first point of a data set: chunk by chunk, the next chunk read back
 * while this one is checked against the reference rebuilt from the fill
 * specs (wb_expr_check_stream), which also sums the reference's fingerprint.
 * The points after it: the output's fingerprint on the GPU against that one
 * (kernels/fingerprint.h), and the full check only when the two differ (it
 * decides, and names the rows). */
static int expr_verify(void *data, const wb_point *p, wb_err *e) {
    expr_data *d = data;
    (void)p;
    int known = 0;
    while (known < d->nprints && (d->prints[known].shape != d->shape || d->prints[known].ops != d->ops)) known++;
    if (known < d->nprints) {
        uint64_t got = 0;
        if (WB_CUDA(e, wb_print_gpu(d->out_dev, d->n, (int)d->elem, 0, d->print_dev, &got, 0)) != WB_OK) return WB_ERR;
        if (got == d->prints[known].print) return WB_OK;
    }
    const int64_t chunk = (int64_t)(EXPR_STAGE_BYTES / d->elem), chunks = (d->n + chunk - 1) / chunk;
    uint64_t print = 0;
    wb_mismatches m;
    wb_mismatch_init(&m);
    if (chunks > 0 && expr_read_chunk(d, 0, chunk, e) != WB_OK) return WB_ERR;
    for (int64_t k = 0; k < chunks; k++) {
        if (WB_CUDA(e, cudaStreamSynchronize(d->copy)) != WB_OK) return WB_ERR;
        if (k + 1 < chunks && expr_read_chunk(d, k + 1, chunk, e) != WB_OK) return WB_ERR;
        const int64_t lo = k * chunk, len = d->n - lo < chunk ? d->n - lo : chunk;
        wb_expr_check_stream(&d->plan, d->spec, d->stage[k & 1], lo, len, &m, &print);
    }
    if (m.total == 0 && known == d->nprints && d->nprints < EXPR_PRINTS) {
        d->prints[d->nprints].shape = d->shape, d->prints[d->nprints].ops = d->ops;
        d->prints[d->nprints++].print = print;
    }
    return wb_mismatch_finish(&m, d->n, "expression output", e);
}

const wb_family wb_family_expr = {
    .name = "expr",
    .summary = "expression over columns: cuDF-style interpreter vs compiled straight-line code",
    .variants = expr_variants,
    .nvariants = WB_VARIANT_COUNT(expr_variants),
    .sweep = {sweep_test, sweep_quick, sweep_full},
    .device_bytes = expr_device_bytes,
    .same_data = expr_same_data,
    .data_create = expr_data_create,
    .data_destroy = expr_data_destroy,
    .plan = expr_plan,
    .reset = expr_reset,
    .launch = expr_launch,
    .verify = expr_verify,
};

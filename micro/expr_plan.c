/* expr_plan.c - plan builder, column fills, CPU reference and comparison of
 * the expression family (see expr_plan.h). */
#include "micro/expr_plan.h"

#include <stdatomic.h>
#include <string.h>

#include "kernels/fingerprint.h"
#include "micro/exact.h"

#define WB_EXPR_FILL_CHUNK ((int64_t)1 << 20) /* rows per fill task: fixed, so values do not depend on threads */
#define WB_EXPR_EVAL_CHUNK ((int64_t)1 << 16) /* rows per evaluation task */
#define WB_EXPR_BLOCK 256                     /* rows evaluated operator by operator */
#define WB_EXPR_CHECK_CHUNK ((int64_t)1 << 18) /* elements per comparison task */

static const char *const type_names[] = {"int32", "int64", "double"};
static const char *const shape_names[] = {"chain", "tree"};

int wb_expr_type_bytes(int type) { return type == WB_EXPR_INT32 ? 4 : 8; }
const char *wb_expr_type_name(int type) { return type >= 0 && type < 3 ? type_names[type] : NULL; }
const char *wb_expr_shape_name(int shape) { return shape >= 0 && shape < 2 ? shape_names[shape] : NULL; }

int wb_expr_type_parse(const char *name) {
    for (int i = 0; i < 3; i++)
        if (strcmp(name, type_names[i]) == 0) return i;
    return -1;
}

int wb_expr_shape_parse(const char *name) {
    for (int i = 0; i < 2; i++)
        if (strcmp(name, shape_names[i]) == 0) return i;
    return -1;
}

/* ---- values: the one distribution for columns and literals ------------------ */

#define WB_EXPR_I32_LO (-100000)
#define WB_EXPR_I32_HI 100000
#define WB_EXPR_I64_LO (-((int64_t)1 << 40))
#define WB_EXPR_I64_SPAN (((uint64_t)1 << 41) + 1)
#define WB_EXPR_F64_LO (-100.0)
#define WB_EXPR_F64_HI 100.0

static uint64_t derive(uint64_t seed, uint64_t salt) {
    uint64_t s = seed ^ (salt * 0xD1B54A32D192ED03ull);
    return wb_rng_next(&s);
}

static wb_expr_literal draw_literal(int type, uint64_t *s) {
    wb_expr_literal v;
    memset(&v, 0, sizeof v);
    if (type == WB_EXPR_INT32)
        v.i32 = (int32_t)(WB_EXPR_I32_LO + (int64_t)wb_rng_below(s, (uint64_t)(WB_EXPR_I32_HI - WB_EXPR_I32_LO) + 1));
    else if (type == WB_EXPR_INT64)
        v.i64 = WB_EXPR_I64_LO + (int64_t)wb_rng_below(s, WB_EXPR_I64_SPAN);
    else
        v.f64 = WB_EXPR_F64_LO + (WB_EXPR_F64_HI - WB_EXPR_F64_LO) * wb_rng_unit(s);
    return v;
}

/* ---- plan builder: cuDF's expression_parser, post-order, slots reused -------- */

typedef struct builder {
    wb_expr_plan *p;
    int ops, columns;
    unsigned char used[WB_EXPR_MAX_OPS]; /* slot in use */
    int broken;                          /* an internal limit or invariant failed */
} builder;

/* Index of an equal reference, or a new one (cuDF deduplicates them too). */
static int add_ref(builder *b, int kind, int index) {
    wb_expr_plan *p = b->p;
    for (int i = 0; i < p->n_refs; i++)
        if (p->ref[i].kind == kind && p->ref[i].index == index) return i;
    if (p->n_refs == WB_EXPR_MAX_REFS) {
        b->broken = 1;
        return 0;
    }
    p->ref[p->n_refs].kind = (int8_t)kind;
    p->ref[p->n_refs].type = (int8_t)p->type;
    p->ref[p->n_refs].index = (int16_t)index;
    return p->n_refs++;
}

static int take_slot(builder *b) {
    for (int s = 0; s < WB_EXPR_MAX_OPS; s++)
        if (!b->used[s]) {
            b->used[s] = 1;
            if (s + 1 > b->p->n_slots) b->p->n_slots = s + 1;
            return s;
        }
    b->broken = 1;
    return 0;
}

static void give_back(builder *b, int ref) {
    const wb_expr_ref *r = &b->p->ref[ref];
    if (r->kind == WB_EXPR_REF_SLOT) b->used[r->index] = 0;
}

/* Emits the subtree with k operators, first leaf `leaf`, first operator op0;
 * returns the reference holding its value. */
static int emit(builder *b, int k, int leaf, int op0) {
    if (k == 0)
        return wb_expr_leaf_is_literal(leaf) ? add_ref(b, WB_EXPR_REF_LITERAL, wb_expr_leaf_literal(leaf))
                                             : add_ref(b, WB_EXPR_REF_COLUMN, wb_expr_leaf_column(leaf, b->columns));
    int l = wb_expr_left_ops(b->p->shape, k), r = k - 1 - l;
    int lhs = emit(b, l, leaf, op0);
    int rhs = emit(b, r, leaf + l + 1, op0 + l);
    /* Operands give their slots back before the result takes one, as cuDF's
     * intermediate counter does: a chain needs a single slot. */
    give_back(b, lhs);
    give_back(b, rhs);
    wb_expr_plan *p = b->p;
    int i = p->n_ops;
    if (i != op0 + l + r || i >= WB_EXPR_MAX_OPS) {
        b->broken = 1;
        return 0;
    }
    int out = i == b->ops - 1 ? add_ref(b, WB_EXPR_REF_OUTPUT, 0) : add_ref(b, WB_EXPR_REF_SLOT, take_slot(b));
    p->op[i] = wb_expr_op_kind(i, l, r);
    p->src[3 * i] = lhs;
    p->src[3 * i + 1] = rhs;
    p->src[3 * i + 2] = out;
    p->n_ops++;
    return out;
}

int wb_expr_plan_build(wb_expr_plan *p, int type, int shape, int ops, int columns, uint64_t seed, wb_err *e) {
    if (!wb_expr_type_name(type) || !wb_expr_shape_name(shape))
        return wb_fail(e, "expression plan: type %d or shape %d unknown", type, shape);
    if (ops < 1 || ops > WB_EXPR_MAX_OPS)
        return wb_fail(e, "expression plan: %d operators outside 1..%d", ops, WB_EXPR_MAX_OPS);
    if (columns < 1 || columns > WB_EXPR_MAX_COLUMNS || columns > wb_expr_column_leaves(ops))
        return wb_fail(e, "expression plan: %d columns with %d operators (at most %d, and at most %d column leaves)",
                       columns, ops, WB_EXPR_MAX_COLUMNS, wb_expr_column_leaves(ops));
    memset(p, 0, sizeof *p);
    p->type = type;
    p->shape = shape;
    p->n_columns = columns;
    p->n_literals = wb_expr_literals(ops);
    uint64_t s = seed;
    for (int i = 0; i < p->n_literals; i++) p->literal[i] = draw_literal(type, &s);
    builder b;
    memset(&b, 0, sizeof b);
    b.p = p;
    b.ops = ops;
    b.columns = columns;
    emit(&b, ops, 0, 0);
    if (b.broken || p->n_ops != ops) return wb_fail(e, "expression plan: internal limit hit for %d operators", ops);
    return WB_OK;
}

/* ---- fills ---------------------------------------------------------------------- */

typedef struct fill_ctx {
    int type;
    void *x;
    int64_t n;
    uint64_t seed;
} fill_ctx;

static void fill_chunk(void *arg, int worker, int64_t chunk, int64_t lo, int64_t end) {
    const fill_ctx *f = arg;
    (void)worker;
    int64_t len = end - lo;
    uint64_t s = derive(f->seed, (uint64_t)chunk + 1);
    if (f->type == WB_EXPR_INT32) {
        wb_fill_i32((int32_t *)f->x + lo, (size_t)len, WB_EXPR_I32_LO, WB_EXPR_I32_HI, s);
    } else if (f->type == WB_EXPR_F64) {
        wb_fill_f64((double *)f->x + lo, (size_t)len, WB_EXPR_F64_LO, WB_EXPR_F64_HI, s);
    } else { /* data.h has no 64-bit integer fill */
        int64_t *x = (int64_t *)f->x + lo;
        for (int64_t i = 0; i < len; i++) x[i] = WB_EXPR_I64_LO + (int64_t)wb_rng_below(&s, WB_EXPR_I64_SPAN);
    }
}

void wb_expr_fill(int type, void *x, int64_t n, uint64_t seed) {
    fill_ctx f = {type, x, n, seed};
    wb_par_chunks(n, WB_EXPR_FILL_CHUNK, fill_chunk, &f);
}

/* ---- CPU reference ------------------------------------------------------------- */

typedef union block {
    int32_t i32[WB_EXPR_BLOCK];
    int64_t i64[WB_EXPR_BLOCK];
    double f64[WB_EXPR_BLOCK];
} block;

/* o may alias a or b (a slot read and rewritten by one operator): every loop
 * reads element r before writing it. The switch stays outside the loops so
 * that each loop vectorizes. */
static void apply_i32(int op, const int32_t *a, const int32_t *b, int32_t *o, int len) {
    switch (op) {
    case WB_EXPR_ADD: for (int r = 0; r < len; r++) o[r] = (int32_t)((uint32_t)a[r] + (uint32_t)b[r]); break;
    case WB_EXPR_SUB: for (int r = 0; r < len; r++) o[r] = (int32_t)((uint32_t)a[r] - (uint32_t)b[r]); break;
    case WB_EXPR_MUL: for (int r = 0; r < len; r++) o[r] = (int32_t)((uint32_t)a[r] * (uint32_t)b[r]); break;
    case WB_EXPR_MIN: for (int r = 0; r < len; r++) o[r] = b[r] < a[r] ? b[r] : a[r]; break;
    case WB_EXPR_MAX: for (int r = 0; r < len; r++) o[r] = a[r] < b[r] ? b[r] : a[r]; break;
    case WB_EXPR_LESS: for (int r = 0; r < len; r++) o[r] = a[r] < b[r]; break;
    default: for (int r = 0; r < len; r++) o[r] = b[r] < a[r]; break;
    }
}

static void apply_i64(int op, const int64_t *a, const int64_t *b, int64_t *o, int len) {
    switch (op) {
    case WB_EXPR_ADD: for (int r = 0; r < len; r++) o[r] = (int64_t)((uint64_t)a[r] + (uint64_t)b[r]); break;
    case WB_EXPR_SUB: for (int r = 0; r < len; r++) o[r] = (int64_t)((uint64_t)a[r] - (uint64_t)b[r]); break;
    case WB_EXPR_MUL: for (int r = 0; r < len; r++) o[r] = (int64_t)((uint64_t)a[r] * (uint64_t)b[r]); break;
    case WB_EXPR_MIN: for (int r = 0; r < len; r++) o[r] = b[r] < a[r] ? b[r] : a[r]; break;
    case WB_EXPR_MAX: for (int r = 0; r < len; r++) o[r] = a[r] < b[r] ? b[r] : a[r]; break;
    case WB_EXPR_LESS: for (int r = 0; r < len; r++) o[r] = a[r] < b[r]; break;
    default: for (int r = 0; r < len; r++) o[r] = b[r] < a[r]; break;
    }
}

/* One rounded operation per element and per operator pass: nothing for the
 * compiler to contract into an FMA, matching the device's __d*_rn. */
static void apply_f64(int op, const double *a, const double *b, double *o, int len) {
    switch (op) {
    case WB_EXPR_ADD: for (int r = 0; r < len; r++) o[r] = a[r] + b[r]; break;
    case WB_EXPR_SUB: for (int r = 0; r < len; r++) o[r] = a[r] - b[r]; break;
    case WB_EXPR_MUL: for (int r = 0; r < len; r++) o[r] = a[r] * b[r]; break;
    case WB_EXPR_MIN: for (int r = 0; r < len; r++) o[r] = b[r] < a[r] ? b[r] : a[r]; break;
    case WB_EXPR_MAX: for (int r = 0; r < len; r++) o[r] = a[r] < b[r] ? b[r] : a[r]; break;
    case WB_EXPR_LESS: for (int r = 0; r < len; r++) o[r] = a[r] < b[r] ? 1.0 : 0.0; break;
    default: for (int r = 0; r < len; r++) o[r] = b[r] < a[r] ? 1.0 : 0.0; break;
    }
}

/* Literal blocks: each literal repeated over a block of rows. */
static void literal_blocks(const wb_expr_plan *p, block *lits) {
    for (int i = 0; i < p->n_literals; i++)
        for (int r = 0; r < WB_EXPR_BLOCK; r++) {
            if (p->type == WB_EXPR_INT32) lits[i].i32[r] = p->literal[i].i32;
            else if (p->type == WB_EXPR_INT64) lits[i].i64[r] = p->literal[i].i64;
            else lits[i].f64[r] = p->literal[i].f64;
        }
}

static void *operand(wb_expr_ref r, const void *const *cols, void *out, block *slots, block *lits) {
    switch (r.kind) {
    case WB_EXPR_REF_COLUMN: return (void *)(uintptr_t)cols[r.index];
    case WB_EXPR_REF_LITERAL: return &lits[r.index];
    case WB_EXPR_REF_SLOT: return &slots[r.index];
    default: return out;
    }
}

/* len (<= WB_EXPR_BLOCK) rows: cols[c] and out point at the first of them. */
static void eval_rows(const wb_expr_plan *p, const void *const *cols, void *out, int len, block *slots, block *lits) {
    for (int i = 0; i < p->n_ops; i++) {
        void *a = operand(p->ref[p->src[3 * i]], cols, out, slots, lits);
        void *b = operand(p->ref[p->src[3 * i + 1]], cols, out, slots, lits);
        void *o = operand(p->ref[p->src[3 * i + 2]], cols, out, slots, lits);
        if (p->type == WB_EXPR_INT32) apply_i32(p->op[i], a, b, o, len);
        else if (p->type == WB_EXPR_INT64) apply_i64(p->op[i], a, b, o, len);
        else apply_f64(p->op[i], a, b, o, len);
    }
}

typedef struct eval_ctx {
    const wb_expr_plan *p;
    const void *const *columns;
    void *out;
    int64_t n;
} eval_ctx;

static void eval_chunk(void *arg, int worker, int64_t chunk, int64_t begin, int64_t end) {
    const eval_ctx *c = arg;
    (void)worker, (void)chunk;
    const wb_expr_plan *p = c->p;
    const size_t elem = (size_t)wb_expr_type_bytes(p->type);
    block slots[WB_EXPR_MAX_OPS], lits[WB_EXPR_MAX_LITERALS];
    literal_blocks(p, lits);
    for (int64_t row0 = begin; row0 < end; row0 += WB_EXPR_BLOCK) {
        int len = end - row0 < WB_EXPR_BLOCK ? (int)(end - row0) : WB_EXPR_BLOCK;
        const void *cols[WB_EXPR_MAX_COLUMNS];
        for (int k = 0; k < p->n_columns; k++) cols[k] = (const char *)c->columns[k] + (size_t)row0 * elem;
        eval_rows(p, cols, (char *)c->out + (size_t)row0 * elem, len, slots, lits);
    }
}

void wb_expr_eval(const wb_expr_plan *p, const void *const *columns, void *out, int64_t n) {
    eval_ctx c = {p, columns, out, n};
    wb_par_chunks(n, WB_EXPR_EVAL_CHUNK, eval_chunk, &c);
}

void wb_expr_fill_spec(int type, uint64_t seed, wb_fill_spec *f) {
    memset(f, 0, sizeof *f);
    f->seed = seed;
    f->chunk = WB_EXPR_FILL_CHUNK;
    f->chunk_salt = 1; /* fill_chunk's derive(seed, chunk + 1) */
    if (type == WB_EXPR_INT32) {
        f->type = WB_FILL_I32;
        f->lo = WB_EXPR_I32_LO;
        f->span = (uint64_t)((int64_t)WB_EXPR_I32_HI - WB_EXPR_I32_LO) + 1;
    } else if (type == WB_EXPR_INT64) {
        f->type = WB_FILL_I64;
        f->lo = WB_EXPR_I64_LO;
        f->span = WB_EXPR_I64_SPAN;
    } else {
        f->type = WB_FILL_F64;
        f->dlo = WB_EXPR_F64_LO;
        f->dhi = WB_EXPR_F64_HI;
    }
}

/* ---- comparison --------------------------------------------------------------- */

typedef struct compare_ctx {
    int type;
    size_t elem;
    const unsigned char *got, *expected;
    int64_t first;
} compare_ctx;

/* Element i of got and expected differ: adds it to m at index at. */
static void add_mismatch(int type, size_t elem, const unsigned char *g, const unsigned char *x, int64_t at,
                         wb_mismatches *m) {
    if (type == WB_EXPR_INT32) {
        int32_t a, b;
        memcpy(&a, g, elem);
        memcpy(&b, x, elem);
        wb_mismatch_add_i64(m, at, a, b);
    } else if (type == WB_EXPR_INT64) {
        int64_t a, b;
        memcpy(&a, g, elem);
        memcpy(&b, x, elem);
        wb_mismatch_add_i64(m, at, (long long)a, (long long)b);
    } else {
        double a, b;
        memcpy(&a, g, elem);
        memcpy(&b, x, elem);
        wb_mismatch_add_f64(m, at, a, b);
    }
}

/* Elements [begin, end), in index order; a memcmp first, since a correct
 * output is the rule. */
static void compare_range(void *arg, int64_t begin, int64_t end, wb_mismatches *m) {
    const compare_ctx *c = arg;
    const size_t elem = c->elem;
    const unsigned char *g = c->got, *x = c->expected;
    if (memcmp(g + begin * elem, x + begin * elem, (size_t)(end - begin) * elem) == 0) return;
    for (int64_t i = begin; i < end; i++)
        if (memcmp(g + i * elem, x + i * elem, elem) != 0) add_mismatch(c->type, elem, g + i * elem, x + i * elem, c->first + i, m);
}

int64_t wb_expr_compare(int type, const void *got, const void *expected, int64_t n, int64_t first, wb_mismatches *m) {
    compare_ctx c = {type, (size_t)wb_expr_type_bytes(type), got, expected, first};
    const int64_t before = m->total;
    wb_par_check(n, WB_EXPR_CHECK_CHUNK, compare_range, &c, m);
    return m->total - before;
}

/* ---- the streamed check: inputs rebuilt from their fill specs ------------------ */

typedef struct stream_ctx {
    const wb_expr_plan *p;
    const wb_fill_spec *cols;
    const unsigned char *got;
    int64_t first;
    _Atomic uint64_t *print; /* NULL: no fingerprint */
} stream_ctx;

/* Rows first + [begin, end): each block of rows drawn from the specs,
 * evaluated and compared, so that no column is ever held whole. */
static void stream_range(void *arg, int64_t begin, int64_t end, wb_mismatches *m) {
    const stream_ctx *c = arg;
    const wb_expr_plan *p = c->p;
    const size_t elem = (size_t)wb_expr_type_bytes(p->type);
    block in[WB_EXPR_MAX_COLUMNS], out, slots[WB_EXPR_MAX_OPS], lits[WB_EXPR_MAX_LITERALS];
    const void *cols[WB_EXPR_MAX_COLUMNS];
    literal_blocks(p, lits);
    for (int k = 0; k < p->n_columns; k++) cols[k] = &in[k];
    for (int64_t row0 = begin; row0 < end; row0 += WB_EXPR_BLOCK) {
        const int len = end - row0 < WB_EXPR_BLOCK ? (int)(end - row0) : WB_EXPR_BLOCK;
        for (int k = 0; k < p->n_columns; k++) wb_fill_host_range(&c->cols[k], &in[k], c->first + row0, len);
        eval_rows(p, cols, &out, len, slots, lits);
        const unsigned char *g = c->got + (size_t)row0 * elem, *x = (const unsigned char *)&out;
        if (c->print) {
            uint64_t sum = 0;
            for (int r = 0; r < len; r++) {
                uint64_t bits = 0;
                if (elem == 4) {
                    uint32_t v;
                    memcpy(&v, x + r * elem, 4);
                    bits = v;
                } else {
                    memcpy(&bits, x + r * elem, 8);
                }
                sum += wb_print_term((uint64_t)(c->first + row0 + r), bits);
            }
            atomic_fetch_add_explicit(c->print, sum, memory_order_relaxed);
        }
        if (memcmp(g, x, (size_t)len * elem) == 0) continue;
        for (int r = 0; r < len; r++)
            if (memcmp(g + r * elem, x + r * elem, elem) != 0)
                add_mismatch(p->type, elem, g + r * elem, x + r * elem, c->first + row0 + r, m);
    }
}

int64_t wb_expr_check_stream(const wb_expr_plan *p, const wb_fill_spec *cols, const void *got, int64_t first, int64_t n,
                             wb_mismatches *m, uint64_t *print) {
    _Atomic uint64_t sum;
    atomic_init(&sum, 0);
    stream_ctx c = {p, cols, got, first, print ? &sum : NULL};
    const int64_t before = m->total;
    wb_par_check(n, WB_EXPR_CHECK_CHUNK, stream_range, &c, m);
    if (print) *print += atomic_load(&sum);
    return m->total - before;
}

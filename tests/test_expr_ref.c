/* test_expr_ref.c - the expression family's host side: plan structure
 * (chain vs tree, operand counts, slot reuse, determinism), the CPU
 * reference on hand-checked values (int32/int64 wrap, doubles), agreement
 * with an independent row-by-row recursive evaluator, fills, and the
 * comparison catching a wrong element. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "micro/exact.h"
#include "micro/expr_plan.h"
#include "tests/check.h"

/* ---- an independent evaluator: the tree walked recursively, one row ---------- */

typedef struct walk {
    const wb_expr_plan *p;
    const void *const *cols;
    int64_t row;
} walk;

static wb_expr_literal apply(int type, int op, wb_expr_literal a, wb_expr_literal b) {
    wb_expr_literal v;
    memset(&v, 0, sizeof v);
    if (type == WB_EXPR_INT32) {
        int32_t x = a.i32, y = b.i32;
        v.i32 = op == WB_EXPR_ADD ? (int32_t)((uint32_t)x + (uint32_t)y)
              : op == WB_EXPR_SUB ? (int32_t)((uint32_t)x - (uint32_t)y)
              : op == WB_EXPR_MUL ? (int32_t)((uint32_t)x * (uint32_t)y)
              : op == WB_EXPR_MIN ? (x < y ? x : y)
              : op == WB_EXPR_MAX ? (x > y ? x : y)
              : op == WB_EXPR_LESS ? (x < y) : (x > y);
    } else if (type == WB_EXPR_INT64) {
        int64_t x = a.i64, y = b.i64;
        v.i64 = op == WB_EXPR_ADD ? (int64_t)((uint64_t)x + (uint64_t)y)
              : op == WB_EXPR_SUB ? (int64_t)((uint64_t)x - (uint64_t)y)
              : op == WB_EXPR_MUL ? (int64_t)((uint64_t)x * (uint64_t)y)
              : op == WB_EXPR_MIN ? (x < y ? x : y)
              : op == WB_EXPR_MAX ? (x > y ? x : y)
              : op == WB_EXPR_LESS ? (x < y) : (x > y);
    } else {
        double x = a.f64, y = b.f64;
        v.f64 = op == WB_EXPR_ADD ? x + y
              : op == WB_EXPR_SUB ? x - y
              : op == WB_EXPR_MUL ? x * y
              : op == WB_EXPR_MIN ? (y < x ? y : x)
              : op == WB_EXPR_MAX ? (x < y ? y : x)
              : op == WB_EXPR_LESS ? (x < y ? 1.0 : 0.0) : (x > y ? 1.0 : 0.0);
    }
    return v;
}

static wb_expr_literal node(const walk *w, int k, int leaf, int op0) {
    const wb_expr_plan *p = w->p;
    if (k == 0) {
        if (wb_expr_leaf_is_literal(leaf)) return p->literal[wb_expr_leaf_literal(leaf)];
        wb_expr_literal v;
        memset(&v, 0, sizeof v);
        const void *c = w->cols[wb_expr_leaf_column(leaf, p->n_columns)];
        if (p->type == WB_EXPR_INT32) v.i32 = ((const int32_t *)c)[w->row];
        else if (p->type == WB_EXPR_INT64) v.i64 = ((const int64_t *)c)[w->row];
        else v.f64 = ((const double *)c)[w->row];
        return v;
    }
    int l = wb_expr_left_ops(p->shape, k), r = k - 1 - l;
    wb_expr_literal a = node(w, l, leaf, op0), b = node(w, r, leaf + l + 1, op0 + l);
    return apply(p->type, wb_expr_op_kind(op0 + l + r, l, r), a, b);
}

/* ---- helpers -------------------------------------------------------------------- */

static wb_expr_plan build(int type, int shape, int ops, int columns, uint64_t seed) {
    wb_expr_plan p;
    wb_err e;
    int rc = wb_expr_plan_build(&p, type, shape, ops, columns, seed, &e);
    CHECK(rc == WB_OK);
    if (rc != WB_OK) fprintf(stderr, "%s\n", e.msg);
    return p;
}

static wb_expr_ref src(const wb_expr_plan *p, int op, int which) { return p->ref[p->src[3 * op + which]]; }

static int is_ref(wb_expr_ref r, int kind, int index) { return r.kind == kind && r.index == index; }

/* ---- structure ------------------------------------------------------------------ */

static void test_chain_of_four(void) {
    /* (((c0 + c1) * c0) < lit0) - c1, one slot reused throughout */
    wb_expr_plan p = build(WB_EXPR_INT32, WB_EXPR_CHAIN, 4, 2, 1);
    const int kinds[] = {WB_EXPR_ADD, WB_EXPR_MUL, WB_EXPR_LESS, WB_EXPR_SUB};
    CHECK(p.n_ops == 4 && p.n_slots == 1 && p.n_literals == 1 && p.n_refs == 5);
    for (int i = 0; i < 4; i++) CHECK(p.op[i] == kinds[i]);
    CHECK(is_ref(src(&p, 0, 0), WB_EXPR_REF_COLUMN, 0) && is_ref(src(&p, 0, 1), WB_EXPR_REF_COLUMN, 1));
    CHECK(is_ref(src(&p, 0, 2), WB_EXPR_REF_SLOT, 0));
    CHECK(is_ref(src(&p, 1, 0), WB_EXPR_REF_SLOT, 0) && is_ref(src(&p, 1, 1), WB_EXPR_REF_COLUMN, 0));
    CHECK(is_ref(src(&p, 2, 1), WB_EXPR_REF_LITERAL, 0) && is_ref(src(&p, 2, 2), WB_EXPR_REF_SLOT, 0));
    CHECK(is_ref(src(&p, 3, 1), WB_EXPR_REF_COLUMN, 1) && src(&p, 3, 2).kind == WB_EXPR_REF_OUTPUT);
    for (int r = 0; r < p.n_refs; r++) CHECK(p.ref[r].type == WB_EXPR_INT32);
}

static void test_tree_of_four(void) {
    /* (c0 + c1) - (c0 < (lit0 * c1)): the right subtree needs a second slot */
    wb_expr_plan p = build(WB_EXPR_F64, WB_EXPR_TREE, 4, 2, 1);
    CHECK(p.n_ops == 4 && p.n_slots == 2);
    CHECK(p.op[0] == WB_EXPR_ADD && is_ref(src(&p, 0, 2), WB_EXPR_REF_SLOT, 0));
    CHECK(p.op[1] == WB_EXPR_MUL && is_ref(src(&p, 1, 0), WB_EXPR_REF_LITERAL, 0));
    CHECK(is_ref(src(&p, 1, 1), WB_EXPR_REF_COLUMN, 1) && is_ref(src(&p, 1, 2), WB_EXPR_REF_SLOT, 1));
    CHECK(p.op[2] == WB_EXPR_LESS && is_ref(src(&p, 2, 0), WB_EXPR_REF_COLUMN, 0));
    CHECK(is_ref(src(&p, 2, 1), WB_EXPR_REF_SLOT, 1) && is_ref(src(&p, 2, 2), WB_EXPR_REF_SLOT, 1));
    CHECK(p.op[3] == WB_EXPR_SUB && is_ref(src(&p, 3, 0), WB_EXPR_REF_SLOT, 0));
    CHECK(is_ref(src(&p, 3, 1), WB_EXPR_REF_SLOT, 1) && src(&p, 3, 2).kind == WB_EXPR_REF_OUTPUT);
}

/* Every plan: ops operators, ops + 1 leaf operands of which the expected
 * number are literals, every column read, each intermediate written before
 * it is read, read exactly once, never overwritten while live; one output. */
static void check_plan(const wb_expr_plan *p, int shape, int ops, int columns) {
    int leaves = 0, literals = 0, outputs = 0, bad = 0, read[WB_EXPR_MAX_COLUMNS] = {0};
    unsigned char live[WB_EXPR_MAX_OPS] = {0};
    for (int i = 0; i < p->n_ops; i++) {
        for (int s = 0; s < 2; s++) {
            wb_expr_ref r = src(p, i, s);
            if (r.kind == WB_EXPR_REF_COLUMN) leaves++, read[r.index] = 1;
            else if (r.kind == WB_EXPR_REF_LITERAL) leaves++, literals++;
            else if (r.kind == WB_EXPR_REF_SLOT && live[r.index]) live[r.index] = 0;
            else bad++;
        }
        wb_expr_ref o = src(p, i, 2);
        if (o.kind == WB_EXPR_REF_OUTPUT) outputs += i == ops - 1 ? 1 : 100;
        else if (o.kind == WB_EXPR_REF_SLOT && !live[o.index] && o.index < p->n_slots) live[o.index] = 1;
        else bad++;
    }
    for (int s = 0; s < WB_EXPR_MAX_OPS; s++) bad += live[s];
    for (int c = 0; c < columns; c++) bad += !read[c];
    CHECK(p->n_ops == ops && leaves == ops + 1 && literals == wb_expr_literals(ops) && outputs == 1 && bad == 0);
    CHECK(p->n_literals == wb_expr_literals(ops) && p->n_columns == columns && p->shape == shape);
    if (shape == WB_EXPR_CHAIN) CHECK(p->n_slots == (ops > 1));
}

static void test_all_plans(void) {
    for (int type = 0; type < 3; type++)
        for (int shape = 0; shape < 2; shape++)
            for (int ops = 1; ops <= WB_EXPR_MAX_OPS; ops++)
                for (int columns = 1; columns <= WB_EXPR_MAX_COLUMNS && columns <= wb_expr_column_leaves(ops); columns++) {
                    wb_expr_plan p = build(type, shape, ops, columns, 7);
                    check_plan(&p, shape, ops, columns);
                }
    wb_expr_plan tree = build(WB_EXPR_INT32, WB_EXPR_TREE, 32, 2, 7);
    CHECK(tree.n_slots == 5); /* left result held while the 16-operator right subtree needs 4 */
}

static void test_deterministic_and_invalid(void) {
    wb_expr_plan a = build(WB_EXPR_INT64, WB_EXPR_TREE, 32, 4, 99), b = build(WB_EXPR_INT64, WB_EXPR_TREE, 32, 4, 99);
    CHECK(memcmp(&a, &b, sizeof a) == 0);
    wb_expr_plan c = build(WB_EXPR_INT64, WB_EXPR_TREE, 32, 4, 100);
    CHECK(memcmp(a.op, c.op, sizeof a.op) == 0 && memcmp(a.src, c.src, sizeof a.src) == 0);
    CHECK(memcmp(a.literal, c.literal, sizeof a.literal) != 0); /* the seed picks literal values */
    for (int i = 0; i < a.n_literals; i++) CHECK(a.literal[i].i64 >= -((int64_t)1 << 40) && a.literal[i].i64 <= (int64_t)1 << 40);
    wb_expr_plan p;
    wb_err e;
    CHECK(wb_expr_plan_build(&p, WB_EXPR_INT32, WB_EXPR_CHAIN, 0, 1, 1, &e) == WB_ERR);
    CHECK(wb_expr_plan_build(&p, WB_EXPR_INT32, WB_EXPR_CHAIN, 33, 1, 1, &e) == WB_ERR);
    CHECK(wb_expr_plan_build(&p, WB_EXPR_INT32, WB_EXPR_CHAIN, 2, 4, 1, &e) == WB_ERR); /* 3 column leaves */
    CHECK(wb_expr_plan_build(&p, WB_EXPR_INT32, WB_EXPR_TREE, 8, 5, 1, &e) == WB_ERR);
    CHECK(wb_expr_plan_build(&p, WB_EXPR_INT32, WB_EXPR_TREE, 8, 0, 1, &e) == WB_ERR);
    CHECK(wb_expr_plan_build(&p, 3, WB_EXPR_TREE, 8, 1, 1, &e) == WB_ERR);
    CHECK(wb_expr_compiled_has(8, 2, 4) && !wb_expr_compiled_has(2, 4, 4) && !wb_expr_compiled_has(3, 1, 1));
    CHECK(!wb_expr_compiled_has(8, 3, 4) && !wb_expr_compiled_has(8, 2, 32));
}

/* ---- CPU reference on hand-checked values ---------------------------------------- */

static void test_hand_int(void) {
    /* (c0 + c1) * c0 with 32-bit wrap */
    int32_t c0[] = {INT32_MAX, 3, -5, 65536, 46341}, c1[] = {1, 4, 2, 0, 0}, out[5];
    const int32_t want[] = {INT32_MIN, 21, 15, 0, -2147479015};
    const void *cols[] = {c0, c1};
    wb_expr_plan p = build(WB_EXPR_INT32, WB_EXPR_CHAIN, 2, 2, 1);
    wb_expr_eval(&p, cols, out, 5);
    for (int i = 0; i < 5; i++) CHECK(out[i] == want[i]);

    /* ((((((((c0 + c1) * c0) < 100) - c1) max c0) > c1) min 0) + c0 */
    int32_t d0[] = {2, -7}, d1[] = {-3, 4}, o8[2];
    const void *dcols[] = {d0, d1};
    wb_expr_plan q = build(WB_EXPR_INT32, WB_EXPR_CHAIN, 8, 2, 1);
    q.literal[0].i32 = 100;
    q.literal[1].i32 = 0;
    wb_expr_eval(&q, dcols, o8, 2);
    CHECK(o8[0] == 2);  /* -1, -2, 1, 4, 4, 1, 0, 2 */
    CHECK(o8[1] == -7); /* -3, 21, 1, -3, -3, 0, 0, -7 */

    /* int64: c0 + c1 wraps; (c0 + c1) - (c0 < (3 * c1)) */
    int64_t e0[] = {INT64_MAX, -7, 10, 5, INT64_MIN}, e1[] = {1, 3, 2, 2, -1}, o64[5];
    const void *ecols[] = {e0, e1};
    wb_expr_plan r = build(WB_EXPR_INT64, WB_EXPR_CHAIN, 1, 2, 1);
    wb_expr_eval(&r, ecols, o64, 2);
    CHECK(o64[0] == INT64_MIN && o64[1] == -4);
    wb_expr_plan t = build(WB_EXPR_INT64, WB_EXPR_TREE, 4, 2, 1);
    t.literal[0].i64 = 3;
    wb_expr_eval(&t, ecols, o64, 5);
    CHECK(o64[2] == 12 && o64[3] == 6 && o64[4] == INT64_MAX - 1);
}

static void test_hand_double(void) {
    /* (((c0 + c1) * c0) < 2.5) - c1 */
    double c0[] = {1.5, 0.5, 0.1}, c1[] = {2.25, -1.0, 0.2}, out[3];
    const void *cols[] = {c0, c1};
    wb_expr_plan p = build(WB_EXPR_F64, WB_EXPR_CHAIN, 4, 2, 1);
    p.literal[0].f64 = 2.5;
    wb_expr_eval(&p, cols, out, 3);
    CHECK(out[0] == -2.25 && out[1] == 2.0);
    CHECK(out[2] == 0.8); /* 1 - 0.2 rounds to the double nearest 0.8 */

    /* the chain of 8 with 100 and 0.5: 2.5 */
    double d0[] = {2.0}, d1[] = {-3.0}, o8[1];
    const void *dcols[] = {d0, d1};
    wb_expr_plan q = build(WB_EXPR_F64, WB_EXPR_CHAIN, 8, 2, 1);
    q.literal[0].f64 = 100.0;
    q.literal[1].f64 = 0.5;
    wb_expr_eval(&q, dcols, o8, 1);
    CHECK(o8[0] == 2.5);
}

/* ---- the plan evaluator against the recursive walk -------------------------------- */

static int64_t disagreements(int type, int shape, int ops, int columns, int64_t n, int64_t *distinct) {
    wb_expr_plan p = build(type, shape, ops, columns, 1234 + (uint64_t)ops);
    size_t elem = (size_t)wb_expr_type_bytes(type);
    void *cols[WB_EXPR_MAX_COLUMNS] = {NULL};
    unsigned char *out = malloc((size_t)n * elem);
    int64_t bad = n;
    *distinct = 0;
    for (int c = 0; c < columns; c++) {
        if (!(cols[c] = malloc((size_t)n * elem))) goto done;
        wb_expr_fill(type, cols[c], n, 77 + (uint64_t)c);
    }
    if (!out) goto done;
    wb_expr_eval(&p, (const void *const *)cols, out, n);
    bad = 0;
    for (int64_t i = 0; i < n; i++) {
        walk w = {&p, (const void *const *)cols, i};
        wb_expr_literal v = node(&w, ops, 0, 0);
        bad += memcmp(out + i * elem, &v, elem) != 0;
        *distinct += memcmp(out + i * elem, out, elem) != 0;
    }
done:
    for (int c = 0; c < columns; c++) free(cols[c]);
    free(out);
    return bad;
}

static void test_against_walk(void) {
    static const int ops_list[] = {1, 2, 3, 4, 5, 8, 16, 31, 32};
    int64_t distinct;
    for (int type = 0; type < 3; type++)
        for (int shape = 0; shape < 2; shape++)
            for (int o = 0; o < 9; o++)
                for (int columns = 1; columns <= 4 && columns <= wb_expr_column_leaves(ops_list[o]); columns *= 2)
                    CHECK(disagreements(type, shape, ops_list[o], columns, 3001, &distinct) == 0);
    /* past one evaluation chunk (65536 rows), so several threads take part;
     * the result is not constant */
    for (int type = 0; type < 3; type++) {
        CHECK(disagreements(type, WB_EXPR_TREE, 32, 4, 140001, &distinct) == 0);
        CHECK(distinct > 140001 / 2);
    }
}

/* ---- fills and comparison ------------------------------------------------------- */

static void test_fill(void) {
    const int64_t n = 2500001; /* three fill chunks, the last partial */
    int32_t *a = malloc(sizeof *a * (size_t)n), *b = malloc(sizeof *b * (size_t)n);
    double *d = malloc(sizeof *d * (size_t)n);
    int64_t *l = malloc(sizeof *l * 1000);
    CHECK(a && b && d && l);
    if (!a || !b || !d || !l) goto done;
    wb_par_set_workers(1);
    wb_expr_fill(WB_EXPR_INT32, a, n, 5);
    wb_par_set_workers(3);
    wb_expr_fill(WB_EXPR_INT32, b, n, 5);
    wb_par_set_workers(0);
    CHECK(memcmp(a, b, sizeof *a * (size_t)n) == 0); /* the same on 1 or 3 threads */
    int64_t out_of_range = 0, same_as_first = 0;
    for (int64_t i = 0; i < n; i++) {
        out_of_range += a[i] < -100000 || a[i] > 100000;
        same_as_first += a[i] == a[0];
    }
    CHECK(out_of_range == 0 && same_as_first < 100);
    CHECK(a[(1 << 20) + 5] != a[5] || a[(1 << 20) + 6] != a[6]); /* chunks differ */
    wb_expr_fill(WB_EXPR_INT32, b, n, 6);
    CHECK(memcmp(a, b, sizeof *a * 1000) != 0);
    wb_expr_fill(WB_EXPR_F64, d, n, 5);
    out_of_range = 0;
    for (int64_t i = 0; i < n; i++) out_of_range += !(d[i] >= -100.0 && d[i] < 100.0);
    CHECK(out_of_range == 0 && d[0] != d[1]);
    wb_expr_fill(WB_EXPR_INT64, l, 1000, 5);
    int wide = 0;
    for (int i = 0; i < 1000; i++) {
        CHECK(l[i] >= -((int64_t)1 << 40) && l[i] <= (int64_t)1 << 40);
        wide += l[i] > INT32_MAX || l[i] < INT32_MIN;
    }
    CHECK(wide > 900);
done:
    free(a);
    free(b);
    free(d);
    free(l);
}

static void test_compare(void) {
    enum { N = 5000 };
    static int32_t x[N], y[N];
    static double f[N], g[N];
    for (int i = 0; i < N; i++) x[i] = y[i] = i * 7 - 3, f[i] = g[i] = i * 0.25;
    wb_mismatches m;
    wb_err e;
    wb_mismatch_init(&m);
    CHECK(wb_expr_compare(WB_EXPR_INT32, y, x, N, 0, &m) == 0 && wb_mismatch_finish(&m, N, "t", &e) == WB_OK);
    y[4321]++;
    wb_mismatch_init(&m);
    CHECK(wb_expr_compare(WB_EXPR_INT32, y, x, N, 0, &m) == 1 && m.total == 1);
    CHECK(wb_mismatch_finish(&m, N, "t", &e) == WB_ERR && strstr(e.msg, "[4321]") != NULL);
    wb_mismatch_init(&m); /* a later chunk reports its own indices */
    CHECK(wb_expr_compare(WB_EXPR_INT32, y + 4000, x + 4000, N - 4000, 4000, &m) == 1);
    CHECK(wb_mismatch_finish(&m, N, "t", &e) == WB_ERR && strstr(e.msg, "[4321] got 30245 expected 30244") != NULL);
    g[0] = -0.0; /* == 0.0, but not the same bits */
    g[N - 1] = 1e300;
    wb_mismatch_init(&m);
    CHECK(wb_expr_compare(WB_EXPR_F64, g, f, N, 0, &m) == 2 && m.total == 2);
    wb_mismatch_init(&m);
    CHECK(wb_expr_compare(WB_EXPR_INT64, x, y, N / 2, 0, &m) == 1); /* 4321 is in word 2160 */
}

/* Over many comparison chunks and stages, on 1 or many threads: the report
 * (total, first mismatches in index order) of an element by element pass. */
static void test_compare_parallel(void) {
    const int64_t n = 3000017, stage = 1 << 20;
    double *x = malloc(sizeof *x * (size_t)n), *y = malloc(sizeof *y * (size_t)n);
    CHECK(x && y);
    if (!x || !y) goto done;
    wb_expr_fill(WB_EXPR_F64, x, n, 9);
    memcpy(y, x, sizeof *x * (size_t)n);
    int64_t planted = 0;
    for (int64_t i = n - 2; i > 0; i -= 190027, planted++) y[i] = -y[i];
    y[1] = x[1] + 1.0, planted++; /* two in the first chunk */
    wb_mismatches plain, par;
    wb_mismatch_init(&plain);
    for (int64_t i = 0; i < n; i++) wb_expr_compare(WB_EXPR_F64, y + i, x + i, 1, i, &plain);
    CHECK(plain.total == planted && plain.shown == WB_MISMATCH_SHOW);
    static const int workers[] = {1, 2, 6};
    for (int w = 0; w < 3; w++) {
        wb_par_set_workers(workers[w]);
        wb_mismatch_init(&par);
        int64_t found = 0;
        for (int64_t lo = 0; lo < n; lo += stage) /* as expr_verify: stage by stage */
            found += wb_expr_compare(WB_EXPR_F64, y + lo, x + lo, n - lo < stage ? n - lo : stage, lo, &par);
        CHECK(found == planted && par.total == plain.total && strcmp(par.text, plain.text) == 0);
    }
    wb_par_set_workers(0);
done:
    free(x);
    free(y);
}

int main(void) {
    test_chain_of_four();
    test_tree_of_four();
    test_all_plans();
    test_deterministic_and_invalid();
    test_hand_int();
    test_hand_double();
    test_against_walk();
    test_fill();
    test_compare();
    test_compare_parallel();
    return TEST_DONE();
}

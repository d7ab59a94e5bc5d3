/* expr.h - the expression family's plan format and kernels (seed 000 §7,
 * cuDF's compute_column_kernel): one arithmetic/comparison expression over
 * int32, int64 or double columns, evaluated into one output column.
 *
 * The plan is cuDF's AST linearization: operators in evaluation (post-order)
 * order, each naming its operands and its result by index into a table of
 * data references (input column, literal, intermediate slot, output column);
 * intermediate slots are reused as soon as their value is consumed.
 *
 * The expression's structure (operator kinds, which leaf reads which column
 * or literal) is a fixed function of (shape, ops, columns), written once
 * below so that C (plan builder, CPU reference) and the compiled kernels
 * (as constant expressions) cannot disagree; the seed picks literal values
 * and the data. The structure cannot follow the run's seed because the
 * compiled variant is compiled ahead of time. */
#ifndef WB_KERNELS_EXPR_H
#define WB_KERNELS_EXPR_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#include "kernels/launch.h"
#include "kernels/variant_list.h"

#define WB_EXPR_MAX_OPS 32
#define WB_EXPR_MAX_COLUMNS 4
#define WB_EXPR_MAX_LITERALS ((WB_EXPR_MAX_OPS + 1) / 4)
#define WB_EXPR_MAX_REFS 64

/* Variants, in run order; names as in point names and the variant column. */
#define WB_EXPR_VARIANT_LIST(X) \
    /* cuDF-style interpreter: plan in device memory, per row a loop with a switch
     * on type and operator, intermediates in shared memory; instruction-bound as
     * the expression grows (right of the GH200 ridge) */ \
    X(WB_EXPR_INTERP, "interp", "cuDF-style interpreter: a switch per operator and row") \
    /* the same expression as straight-line code, intermediates in registers,
     * 16-byte loads; should stay on the DRAM roof */ \
    X(WB_EXPR_COMPILED, "compiled", "straight-line code, intermediates in registers")
enum { WB_EXPR_VARIANT_LIST(WB_VARIANT_ENUM) WB_EXPR_VARIANTS };

enum { WB_EXPR_CHAIN, WB_EXPR_TREE };               /* left-deep chain, balanced tree */
enum { WB_EXPR_INT32, WB_EXPR_INT64, WB_EXPR_F64 }; /* element types */
enum { WB_EXPR_ADD, WB_EXPR_SUB, WB_EXPR_MUL, WB_EXPR_MIN, WB_EXPR_MAX, WB_EXPR_LESS, WB_EXPR_GREATER };
enum { WB_EXPR_REF_COLUMN, WB_EXPR_REF_LITERAL, WB_EXPR_REF_SLOT, WB_EXPR_REF_OUTPUT };

typedef struct wb_expr_ref {
    int8_t kind;   /* WB_EXPR_REF_* */
    int8_t type;   /* WB_EXPR_INT32 ... */
    int16_t index; /* column, literal or slot number; 0 for the output */
} wb_expr_ref;

typedef union wb_expr_literal {
    int32_t i32;
    int64_t i64;
    double f64;
} wb_expr_literal;

typedef struct wb_expr_plan {
    int type, shape, n_ops, n_columns; /* what built it */
    int n_literals, n_slots, n_refs;
    int32_t op[WB_EXPR_MAX_OPS];       /* operator kinds, evaluation order */
    int32_t src[3 * WB_EXPR_MAX_OPS];  /* per operator: lhs, rhs, result, as indices into ref */
    wb_expr_ref ref[WB_EXPR_MAX_REFS];
    wb_expr_literal literal[WB_EXPR_MAX_LITERALS];
} wb_expr_plan;

/* The structure, shared by C and the compiled kernels' templates. */
#ifdef __cplusplus
#define WB_EXPR_STRUCTURE constexpr inline
#else
#define WB_EXPR_STRUCTURE static inline
#endif

/* Kind of the i-th operator in evaluation order, whose subtrees hold l and
 * r operators. The cycle puts arithmetic at every chain root (positions 0,
 * 1, 3, 7, 15, 31 for 1..32 operators). Comparisons (0/1) only where an
 * operand is a leaf, ADD elsewhere: comparing two subtrees made balanced
 * trees collapse (32 operators gave 2 distinct values in 1000 rows). */
WB_EXPR_STRUCTURE int wb_expr_op_cycle(int i) {
    switch (i % 8) {
    case 0: return WB_EXPR_ADD;
    case 1: return WB_EXPR_MUL;
    case 2: return WB_EXPR_LESS;
    case 3: return WB_EXPR_SUB;
    case 4: return WB_EXPR_MAX;
    case 5: return WB_EXPR_GREATER;
    case 6: return WB_EXPR_MIN;
    default: return WB_EXPR_ADD;
    }
}
WB_EXPR_STRUCTURE int wb_expr_op_kind(int i, int l, int r) {
    return (wb_expr_op_cycle(i) == WB_EXPR_LESS || wb_expr_op_cycle(i) == WB_EXPR_GREATER) && l > 0 && r > 0
               ? WB_EXPR_ADD
               : wb_expr_op_cycle(i);
}
/* Operators in the left subtree of a node with k operators. */
WB_EXPR_STRUCTURE int wb_expr_left_ops(int shape, int k) { return shape == WB_EXPR_CHAIN ? k - 1 : (k - 1) / 2; }
/* Leaves are numbered left to right; every fourth one is a literal. */
WB_EXPR_STRUCTURE int wb_expr_leaf_is_literal(int leaf) { return leaf % 4 == 3; }
WB_EXPR_STRUCTURE int wb_expr_leaf_literal(int leaf) { return leaf / 4; }
/* Column leaves take the columns round-robin. */
WB_EXPR_STRUCTURE int wb_expr_leaf_column(int leaf, int columns) { return (leaf - leaf / 4) % columns; }
WB_EXPR_STRUCTURE int wb_expr_literals(int ops) { return (ops + 1) / 4; }
WB_EXPR_STRUCTURE int wb_expr_column_leaves(int ops) { return ops + 1 - wb_expr_literals(ops); }
/* 1 if the compiled variant was instantiated for this combination: ops a
 * power of two up to 32, columns 1/2/4 with every column read, ILP 1..16. */
WB_EXPR_STRUCTURE int wb_expr_compiled_has(int ops, int columns, int ilp) {
    return ops >= 1 && ops <= WB_EXPR_MAX_OPS && (ops & (ops - 1)) == 0 &&
           (columns == 1 || columns == 2 || columns == 4) && columns <= wb_expr_column_leaves(ops) &&
           ilp >= 1 && ilp <= 16 && (ilp & (ilp - 1)) == 0;
}

#ifdef __cplusplus
extern "C" {
#endif

/* What one launch evaluates. */
typedef struct wb_expr_job {
    int variant;                                /* WB_EXPR_INTERP or WB_EXPR_COMPILED */
    const wb_expr_plan *plan;                   /* host copy: the compiled variant's literals */
    const wb_expr_plan *plan_dev;               /* device copy: read per row by the interpreter */
    const void *const *columns_dev;             /* device array of the column pointers (interpreter) */
    const void *columns[WB_EXPR_MAX_COLUMNS];   /* the same pointers by value (compiled) */
    void *out;
    int64_t n;
} wb_expr_job;

/* Fills l (grid, smem, regs, occupancy) for the job's kernel; the
 * interpreter's dynamic shared memory is slots x l->block x element size.
 * cudaErrorNotSupported when the compiled variant has no instantiation for
 * the plan and l->ilp (wb_expr_compiled_has). */
cudaError_t wb_expr_plan_launch(const wb_expr_job *j, wb_launch *l);
/* Enqueues the job's kernel on s; nothing when n == 0. */
cudaError_t wb_expr_launch(const wb_expr_job *j, const wb_launch *l, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif

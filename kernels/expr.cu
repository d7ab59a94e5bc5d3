// expr.cu - interpreter vs compiled evaluation of one expression (expr.h).
// Layers: element operators (shared by both variants, so the arithmetic is
// identical), cuDF's evaluator, the compiled expression templates, the two
// kernels, and the extern "C" plan/launch functions on top.
//
// Exactness: integer operators work on the unsigned type (wrapping, no UB),
// double operators use __dadd_rn/__dsub_rn/__dmul_rn, which the compiler
// never fuses into an FMA; the CPU reference (micro/expr_plan.c) does the
// same, so results are compared bit for bit.
#include <cstdint>
#include <type_traits>

#include "kernels/expr.h"
#include "kernels/launch.cuh"
#include "kernels/tile_dispatch.cuh"
#include "kernels/tile_loop.cuh"

// ---- element operators -------------------------------------------------------

template <typename T> __device__ __forceinline__ T wb_expr_add(T a, T b) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
}
template <typename T> __device__ __forceinline__ T wb_expr_sub(T a, T b) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) - static_cast<U>(b));
}
template <typename T> __device__ __forceinline__ T wb_expr_mul(T a, T b) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
}
__device__ __forceinline__ double wb_expr_add(double a, double b) { return __dadd_rn(a, b); }
__device__ __forceinline__ double wb_expr_sub(double a, double b) { return __dsub_rn(a, b); }
__device__ __forceinline__ double wb_expr_mul(double a, double b) { return __dmul_rn(a, b); }

// Comparisons yield 0/1 in the operand type so that chains can go on.
template <int Op, typename T> __device__ __forceinline__ T wb_expr_apply(T a, T b) {
    if constexpr (Op == WB_EXPR_ADD) return wb_expr_add(a, b);
    else if constexpr (Op == WB_EXPR_SUB) return wb_expr_sub(a, b);
    else if constexpr (Op == WB_EXPR_MUL) return wb_expr_mul(a, b);
    else if constexpr (Op == WB_EXPR_MIN) return b < a ? b : a;
    else if constexpr (Op == WB_EXPR_MAX) return a < b ? b : a;
    else if constexpr (Op == WB_EXPR_LESS) return a < b ? T(1) : T(0);
    else return b < a ? T(1) : T(0);
}

template <typename T> __host__ __device__ __forceinline__ T wb_expr_literal_value(const wb_expr_literal &l);
template <> __host__ __device__ __forceinline__ int32_t wb_expr_literal_value<int32_t>(const wb_expr_literal &l) { return l.i32; }
template <> __host__ __device__ __forceinline__ int64_t wb_expr_literal_value<int64_t>(const wb_expr_literal &l) { return l.i64; }
template <> __host__ __device__ __forceinline__ double wb_expr_literal_value<double>(const wb_expr_literal &l) { return l.f64; }

// ---- interp: cuDF's expression_evaluator --------------------------------------
// Mirrors cudf/ast/detail/expression_evaluator.cuh: the plan lives in device
// memory (spans passed by value, as expression_device_view), every operator
// loads its kind and three data references, dispatches on the operand type,
// resolves both inputs (column element, literal or intermediate), dispatches
// on the operator and resolves the output (intermediate or output column).

struct wb_expr_view {
    const int32_t *op, *src;
    const wb_expr_ref *ref;
    const wb_expr_literal *literal;
    const void *const *columns;
    void *out;
    int n_ops, n_slots, elem_bytes;
};

template <typename T>
__device__ __forceinline__ T wb_expr_resolve_input(const wb_expr_view &v, wb_expr_ref r, int64_t row, char *storage) {
    if (r.kind == WB_EXPR_REF_COLUMN) return static_cast<const T *>(v.columns[r.index])[row];
    if (r.kind == WB_EXPR_REF_LITERAL) return wb_expr_literal_value<T>(v.literal[r.index]);
    return reinterpret_cast<const T *>(storage)[r.index];
}

template <typename T>
__device__ __forceinline__ void wb_expr_resolve_output(const wb_expr_view &v, wb_expr_ref r, int64_t row, char *storage,
                                                       T value) {
    if (r.kind == WB_EXPR_REF_OUTPUT) static_cast<T *>(v.out)[row] = value;
    else reinterpret_cast<T *>(storage)[r.index] = value;
}

template <typename T>
__device__ __forceinline__ void wb_expr_binary(const wb_expr_view &v, int op, wb_expr_ref lhs, wb_expr_ref rhs,
                                               wb_expr_ref out, int64_t row, char *storage) {
    const T a = wb_expr_resolve_input<T>(v, lhs, row, storage);
    const T b = wb_expr_resolve_input<T>(v, rhs, row, storage);
    T r;
    switch (op) {
    case WB_EXPR_ADD: r = wb_expr_apply<WB_EXPR_ADD>(a, b); break;
    case WB_EXPR_SUB: r = wb_expr_apply<WB_EXPR_SUB>(a, b); break;
    case WB_EXPR_MUL: r = wb_expr_apply<WB_EXPR_MUL>(a, b); break;
    case WB_EXPR_MIN: r = wb_expr_apply<WB_EXPR_MIN>(a, b); break;
    case WB_EXPR_MAX: r = wb_expr_apply<WB_EXPR_MAX>(a, b); break;
    case WB_EXPR_LESS: r = wb_expr_apply<WB_EXPR_LESS>(a, b); break;
    default: r = wb_expr_apply<WB_EXPR_GREATER>(a, b); break;
    }
    wb_expr_resolve_output<T>(v, out, row, storage, r);
}

__device__ __forceinline__ void wb_expr_evaluate(const wb_expr_view &v, int64_t row, char *storage) {
    for (int i = 0; i < v.n_ops; ++i) {
        const int op = v.op[i];
        const wb_expr_ref lhs = v.ref[v.src[3 * i]];
        const wb_expr_ref rhs = v.ref[v.src[3 * i + 1]];
        const wb_expr_ref out = v.ref[v.src[3 * i + 2]];
        switch (lhs.type) {
        case WB_EXPR_INT32: wb_expr_binary<int32_t>(v, op, lhs, rhs, out, row, storage); break;
        case WB_EXPR_INT64: wb_expr_binary<int64_t>(v, op, lhs, rhs, out, row, storage); break;
        default: wb_expr_binary<double>(v, op, lhs, rhs, out, row, storage); break;
        }
    }
}

// cuDF's compute_column_kernel: grid-stride, one row per thread per trip, each
// thread's intermediates contiguous in shared memory. Ilp rows per trip are
// evaluated one after the other by the one evaluator, each exactly as cuDF
// does (Ilp = 1 is cuDF): ILP changes the rows per thread, not the per-row
// code, which unrolling would copy Ilp times.
template <int Ilp> __global__ void wb_expr_interp_kernel(const wb_expr_view v, int64_t n) {
    extern __shared__ __align__(16) char wb_expr_intermediates[];
    char *storage = wb_expr_intermediates + (size_t)threadIdx.x * v.n_slots * v.elem_bytes;
    wb_for_tiles_tested(n, (int64_t)blockDim.x * Ilp, [&](int64_t base, bool) {
        wb_tile_items<Ilp, true>(base, n, wb_full<false>{}, [&](int, int64_t row) { wb_expr_evaluate(v, row, storage); });
    });
}

// ---- compiled: the expression as templates -------------------------------------

template <typename T> struct wb_expr_args {
    const T *col[WB_EXPR_MAX_COLUMNS];
    T lit[WB_EXPR_MAX_LITERALS];
    T *out;
    int64_t n;
};

// Value of the subtree with K operators whose first leaf is Leaf and whose
// first operator (evaluation order) is Op; the same recursion as the plan
// builder's, so operator kinds, leaves and evaluation order match interp.
template <typename T, int Shape, int Cols, int K, int Leaf, int Op>
__device__ __forceinline__ T wb_expr_node(const T (&in)[Cols], const wb_expr_args<T> &a) {
    if constexpr (K == 0) {
        if constexpr (wb_expr_leaf_is_literal(Leaf)) return a.lit[wb_expr_leaf_literal(Leaf)];
        else return in[wb_expr_leaf_column(Leaf, Cols)];
    } else {
        constexpr int L = wb_expr_left_ops(Shape, K);
        constexpr int R = K - 1 - L;
        const T lhs = wb_expr_node<T, Shape, Cols, L, Leaf, Op>(in, a);
        const T rhs = wb_expr_node<T, Shape, Cols, R, Leaf + L + 1, Op + L>(in, a);
        return wb_expr_apply<wb_expr_op_kind(Op + L + R, L, R)>(lhs, rhs);
    }
}

// N elements moved by one load/store of at most 16 bytes, accessed through
// the word member. Stores go through __stwb (st.global.wb, the default
// policy): a plain store of the word came out element by element in nvcc
// 13.0's PTX for some instantiations.
template <int Bytes> struct wb_expr_word;
template <> struct wb_expr_word<4> { using type = unsigned int; };
template <> struct wb_expr_word<8> { using type = unsigned long long; };
template <> struct wb_expr_word<16> { using type = uint4; };
template <typename T, int N> union wb_expr_pack {
    using word = typename wb_expr_word<sizeof(T) * N>::type;
    T v[N];
    word w;
};

// A tile is block x Ilp rows; a thread holds Ilp rows as Ilp / Vec packs
// striped across the block, so each warp access is contiguous. Full tiles load
// every column for all Ilp rows before computing; the last tile is guarded.
template <typename T, int Shape, int Ops, int Cols, int Ilp>
__global__ void wb_expr_compiled_kernel(const wb_expr_args<T> a) {
    constexpr int Vec = Ilp * (int)sizeof(T) >= 16 ? 16 / (int)sizeof(T) : Ilp;
    constexpr int Packs = Ilp / Vec;
    using P = wb_expr_pack<T, Vec>;
    wb_for_tiles_tested(a.n, (int64_t)blockDim.x * Ilp, [&](int64_t base, bool full) {
        if (full) {
            T x[Ilp][Cols];
#pragma unroll
            for (int c = 0; c < Cols; ++c)
#pragma unroll
                for (int q = 0; q < Packs; ++q) {
                    P in;
                    in.w = *reinterpret_cast<const typename P::word *>(a.col[c] + base +
                                                                       ((int64_t)q * blockDim.x + threadIdx.x) * Vec);
#pragma unroll
                    for (int e = 0; e < Vec; ++e) x[q * Vec + e][c] = in.v[e];
                }
#pragma unroll
            for (int q = 0; q < Packs; ++q) {
                P r;
#pragma unroll
                for (int e = 0; e < Vec; ++e) r.v[e] = wb_expr_node<T, Shape, Cols, Ops, 0, 0>(x[q * Vec + e], a);
                __stwb(reinterpret_cast<typename P::word *>(a.out + base + ((int64_t)q * blockDim.x + threadIdx.x) * Vec),
                       r.w);
            }
        } else {
#pragma unroll 1
            for (int k = 0; k < Ilp; ++k) {
                const int64_t at = base + ((int64_t)(k / Vec) * blockDim.x + threadIdx.x) * Vec + k % Vec;
                if (at >= a.n) continue;
                T x[Cols];
#pragma unroll
                for (int c = 0; c < Cols; ++c) x[c] = a.col[c][at];
                a.out[at] = wb_expr_node<T, Shape, Cols, Ops, 0, 0>(x, a);
            }
        }
    });
}

// ---- dispatch: run-time (shape, ops, columns, ILP) to an instantiation ----------

template <typename T> using wb_expr_compiled_fn = void (*)(wb_expr_args<T>);

template <typename T, int S, int K, int C> static wb_expr_compiled_fn<T> wb_expr_pick_ilp(int ilp) {
    return wb_with_ilp(ilp, (wb_expr_compiled_fn<T>)nullptr, [](auto i) -> wb_expr_compiled_fn<T> {
        return wb_expr_compiled_kernel<T, S, K, C, decltype(i)::value>;
    });
}

// Only combinations where every column is read are instantiated (expr.h).
template <typename T, int S, int K> static wb_expr_compiled_fn<T> wb_expr_pick_cols(int cols, int ilp) {
    if (cols == 1) return wb_expr_pick_ilp<T, S, K, 1>(ilp);
    if constexpr (wb_expr_column_leaves(K) >= 2)
        if (cols == 2) return wb_expr_pick_ilp<T, S, K, 2>(ilp);
    if constexpr (wb_expr_column_leaves(K) >= 4)
        if (cols == 4) return wb_expr_pick_ilp<T, S, K, 4>(ilp);
    return nullptr;
}

template <typename T, int S> static wb_expr_compiled_fn<T> wb_expr_pick_ops(int ops, int cols, int ilp) {
    switch (ops) {
    case 1: return wb_expr_pick_cols<T, S, 1>(cols, ilp);
    case 2: return wb_expr_pick_cols<T, S, 2>(cols, ilp);
    case 4: return wb_expr_pick_cols<T, S, 4>(cols, ilp);
    case 8: return wb_expr_pick_cols<T, S, 8>(cols, ilp);
    case 16: return wb_expr_pick_cols<T, S, 16>(cols, ilp);
    case 32: return wb_expr_pick_cols<T, S, 32>(cols, ilp);
    default: return nullptr;
    }
}

template <typename T> static wb_expr_args<T> wb_expr_args_of(const wb_expr_job *j) {
    wb_expr_args<T> a{};
    for (int c = 0; c < j->plan->n_columns && c < WB_EXPR_MAX_COLUMNS; ++c) a.col[c] = static_cast<const T *>(j->columns[c]);
    for (int i = 0; i < j->plan->n_literals && i < WB_EXPR_MAX_LITERALS; ++i)
        a.lit[i] = wb_expr_literal_value<T>(j->plan->literal[i]);
    a.out = static_cast<T *>(j->out);
    a.n = j->n;
    return a;
}

template <typename T, typename Fn> static cudaError_t wb_expr_with_compiled(const wb_expr_job *j, int ilp, Fn fn) {
    const wb_expr_plan *p = j->plan;
    if (!wb_expr_compiled_has(p->n_ops, p->n_columns, ilp)) return cudaErrorNotSupported;
    wb_expr_compiled_fn<T> k = p->shape == WB_EXPR_CHAIN
                                   ? wb_expr_pick_ops<T, WB_EXPR_CHAIN>(p->n_ops, p->n_columns, ilp)
                                   : wb_expr_pick_ops<T, WB_EXPR_TREE>(p->n_ops, p->n_columns, ilp);
    if (!k) return cudaErrorNotSupported;
    return fn(k, wb_expr_args_of<T>(j), 0);
}

static int wb_expr_elem_bytes(int type) { return type == WB_EXPR_INT32 ? 4 : 8; }

// Calls fn(kernel, argument, dynamic shared memory the kernel needs per block
// at this block size) for the job's kernel.
template <typename Fn> static cudaError_t wb_expr_with_kernel(const wb_expr_job *j, const wb_launch *l, Fn fn) {
    const wb_expr_plan *p = j->plan;
    if (j->variant == WB_EXPR_INTERP) {
        wb_expr_view v;
        v.op = &j->plan_dev->op[0];
        v.src = &j->plan_dev->src[0];
        v.ref = &j->plan_dev->ref[0];
        v.literal = &j->plan_dev->literal[0];
        v.columns = j->columns_dev;
        v.out = j->out;
        v.n_ops = p->n_ops;
        v.n_slots = p->n_slots;
        v.elem_bytes = wb_expr_elem_bytes(p->type);
        const int smem = p->n_slots * l->block * v.elem_bytes;
        return wb_with_ilp(l->ilp, cudaErrorNotSupported,
                           [&](auto i) -> cudaError_t { return fn(wb_expr_interp_kernel<decltype(i)::value>, v, smem); });
    }
    switch (p->type) {
    case WB_EXPR_INT32: return wb_expr_with_compiled<int32_t>(j, l->ilp, fn);
    case WB_EXPR_INT64: return wb_expr_with_compiled<int64_t>(j, l->ilp, fn);
    default: return wb_expr_with_compiled<double>(j, l->ilp, fn);
    }
}

// ---- extern "C" ------------------------------------------------------------------

extern "C" cudaError_t wb_expr_plan_launch(const wb_expr_job *j, wb_launch *l) {
    if (l->block < 1 || l->ilp < 1) return cudaErrorInvalidValue;
    return wb_expr_with_kernel(j, l, [&](auto kernel, auto, int smem) {
        return wb_plan_kernel(kernel, l, j->n, (int64_t)l->block * l->ilp, wb_grid_mode::cover, smem);
    });
}

extern "C" cudaError_t wb_expr_launch(const wb_expr_job *j, const wb_launch *l, cudaStream_t s) {
    if (j->n == 0) return cudaSuccess;
    if (l->grid < 1) return cudaErrorInvalidConfiguration;
    return wb_expr_with_kernel(j, l, [&](auto kernel, auto arg, int) {
        if constexpr (std::is_same_v<decltype(arg), wb_expr_view>)
            kernel<<<l->grid, l->block, l->smem_bytes, s>>>(arg, j->n);
        else
            kernel<<<l->grid, l->block, l->smem_bytes, s>>>(arg);
        return wb_launched();
    });
}

/* transform.h - the transform family's kernels (seed 000 section 7: cuDF's
 * transform_kernel, the most expensive TPC-H kernel, applies a functor
 * element-wise with an unrolled loop but without vector loads). One
 * operation, out[i] = a * x + b with x = in[i] (or in[map[i]]), on int32
 * (wrapping) and double (one fused multiply-add), written so that the CPU
 * reference and the kernels share it. */
#ifndef WB_KERNELS_TRANSFORM_H
#define WB_KERNELS_TRANSFORM_H

#include <math.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#include "kernels/launch.h"

#include "kernels/variant_list.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Variants, in run order; names as in point names. All but cub and memcpy take the
 * ILP (items per thread) and occupancy axes, and are grid-stride, so a
 * persistent grid (wb_launch.sm_limit) works for every one of them. */
#define WB_TRANSFORM_VARIANT_LIST(X) \
    /* element-size loads/stores (4 B int32, 8 B double), ILP unrolled: cuDF's
     * backbone; expected below the DRAM copy roof on H200-class GPUs, where too
     * few bytes are in flight per instruction */ \
    X(WB_TRANSFORM_SCALAR, "scalar", "element-size loads and stores") \
    /* 8-byte accesses (int2; for double the same code as scalar), head and tail
     * peeled to alignment: between scalar and vec16 */ \
    X(WB_TRANSFORM_VEC8, "vec8", "8-byte accesses, head and tail peeled") \
    /* 16-byte accesses (int4 / double2), ILP vectors in flight per thread:
     * should reach the DRAM copy roof (>= 98% of cudaMemcpy D2D) */ \
    X(WB_TRANSFORM_VEC16, "vec16", "16-byte accesses, ILP vectors in flight") \
    /* out[i] = f(in[map[i]]), map = identity: the indirection's cost (map read,
     * dependent load) with coalesced accesses; DRAM roof with 4 B/item more */ \
    X(WB_TRANSFORM_GATHER_SEQ, "gather_seq", "out[i] = f(in[map[i]]), map = identity") \
    /* the same with a random permutation: one 32-byte sector per element read,
     * so far below the copy roof in useful bytes */ \
    X(WB_TRANSFORM_GATHER_RAND, "gather_rand", "out[i] = f(in[map[i]]), map a random permutation") \
    /* cub::DeviceTransform (CCCL), the peer a user would pick; its own tuning,
     * no ILP/occupancy axes */ \
    X(WB_TRANSFORM_CUB, "cub", "cub::DeviceTransform (library peer)") \
    /* cudaMemcpyAsync device to device of the same bytes (out = in, no
     * operation): the copy roof at this size, which the variants above are
     * held to size by size (the ceiling family's memcpy is one 2 GiB copy,
     * and a launch of 0.1 ms pays its ramp in a way a 2 GiB one does not) */ \
    X(WB_TRANSFORM_MEMCPY, "memcpy", "cudaMemcpyAsync device to device of the same bytes (out = in)")
typedef enum wb_transform_variant { WB_TRANSFORM_VARIANT_LIST(WB_VARIANT_ENUM) WB_TRANSFORM_VARIANTS } wb_transform_variant;

typedef enum wb_transform_dtype { WB_TRANSFORM_I32, WB_TRANSFORM_F64 } wb_transform_dtype;

typedef struct wb_transform_args {
    wb_transform_variant variant;
    wb_transform_dtype dtype;
    const void *in;     /* n elements, aligned to the element size (any 16-byte misalignment) */
    void *out;          /* n elements, same alignment rule; must not overlap in */
    const int32_t *map; /* n indices into in (gather variants), else NULL */
    int64_t n;
    int32_t a_i32, b_i32; /* the operation's constants for WB_TRANSFORM_I32 */
    double a_f64, b_f64;  /* ... for WB_TRANSFORM_F64 */
} wb_transform_args;

/* Completes l (block, ilp, occupancy_target and sm_limit set by the caller)
 * through wb_plan_kernel: cover grid, or persistent when l->sm_limit > 0.
 * For cub and memcpy it changes nothing (they size their own launch). Returns
 * cudaErrorInvalidValue for an ILP outside {1, 2, 4, 8, 16}. */
cudaError_t wb_transform_plan(const wb_transform_args *t, wb_launch *l);

/* Enqueues the variant on s and returns the launch error. Nothing else: no
 * allocation, no synchronisation. A planned grid of 0 (n == 0) launches
 * nothing. */
cudaError_t wb_transform_launch(const wb_transform_args *t, const wb_launch *l, cudaStream_t s);

#ifdef __cplusplus
}
#endif

/* The operation, shared by the kernels and the CPU reference. int32 wraps
 * (unsigned arithmetic: no signed overflow); double is one correctly rounded
 * fma, so GPU and CPU agree bit for bit. */
#ifdef __CUDACC__
#define WB_TRANSFORM_HD static __host__ __device__ __forceinline__
#else
#define WB_TRANSFORM_HD static inline
#endif

WB_TRANSFORM_HD int32_t wb_transform_op_i32(int32_t x, int32_t a, int32_t b) {
    return (int32_t)((uint32_t)a * (uint32_t)x + (uint32_t)b);
}
WB_TRANSFORM_HD double wb_transform_op_f64(double x, double a, double b) { return fma(a, x, b); }

#endif

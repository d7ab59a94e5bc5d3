// transform.cu - out = a * x + b, element-wise, in the ways transform.h lists.
// Layers: the per-tile bodies (stream, gather) over tile_loop.cuh's tile walk,
// one __global__ kernel choosing its body by access width at compile time,
// and the extern "C" plan/launch that pick the instantiation at run time.
#include <cub/device/device_transform.cuh>

#include "kernels/launch.cuh"
#include "kernels/tile_dispatch.cuh"
#include "kernels/tile_loop.cuh"
#include "kernels/transform.h"

namespace {

// The operation on one element and on each lane of a vector access.
__device__ __forceinline__ int32_t op(int32_t x, int32_t a, int32_t b) { return wb_transform_op_i32(x, a, b); }
__device__ __forceinline__ double op(double x, double a, double b) { return wb_transform_op_f64(x, a, b); }
__device__ __forceinline__ int2 op(int2 v, int32_t a, int32_t b) { return make_int2(op(v.x, a, b), op(v.y, a, b)); }
__device__ __forceinline__ int4 op(int4 v, int32_t a, int32_t b) {
    return make_int4(op(v.x, a, b), op(v.y, a, b), op(v.z, a, b), op(v.w, a, b));
}
__device__ __forceinline__ double2 op(double2 v, double a, double b) { return make_double2(op(v.x, a, b), op(v.y, a, b)); }

// The register type of one WIDTH-byte access to T elements.
template <typename T, int WIDTH> struct access;
template <> struct access<int32_t, 4> { using type = int32_t; };
template <> struct access<int32_t, 8> { using type = int2; };
template <> struct access<int32_t, 16> { using type = int4; };
template <> struct access<double, 8> { using type = double; };
template <> struct access<double, 16> { using type = double2; };

// Every load of a tile is issued before the first store: ILP accesses in
// flight per thread, which is what the ILP axis measures. The pointers are
// deliberately not __restrict__: with it, ptxas moved loads after the first
// stores to save registers (3 of 4 loads in flight at vec16 ILP 4), and a
// possible alias is what keeps the source order.
template <int ILP, typename V, typename T>
__device__ __forceinline__ void stream_tiles(const V *in, V *out, int64_t n, T a, T b) {
    wb_for_tiles<ILP>(n, [&](int64_t base, auto full) {
        V v[ILP];
        wb_tile_items<ILP>(base, n, full, [&](int k, int64_t i) { v[k] = in[i]; });
        wb_tile_items<ILP>(base, n, full, [&](int k, int64_t i) { out[i] = op(v[k], a, b); });
    });
}

// Map loads, then the dependent gathers, then the stores: the indirection
// cuDF's transform_kernel implements for materialisation. Not __restrict__,
// for the same reason as stream_tiles.
template <int ILP, typename T>
__device__ __forceinline__ void gather_tiles(const T *in, T *out, const int32_t *map, int64_t n, T a, T b) {
    wb_for_tiles<ILP>(n, [&](int64_t base, auto full) {
        int32_t j[ILP];
        T v[ILP];
        wb_tile_items<ILP>(base, n, full, [&](int k, int64_t i) { j[k] = map[i]; });
        wb_tile_items<ILP>(base, n, full, [&](int k, int64_t) { v[k] = in[j[k]]; });
        wb_tile_items<ILP>(base, n, full, [&](int k, int64_t i) { out[i] = op(v[k], a, b); });
    });
}

// What a launch passes, by value: the kernel reads every field from the
// parameter bank, so the vector body's pointers and count cost no registers
// (computing in + head inside the kernel cost 8 more, and occupancy with them).
template <typename T>
struct params {
    const T *in;
    T *out;
    const int32_t *map;
    int64_t n;
    T a, b;
    const void *in_body; // vector kernels: in + head, WIDTH-aligned
    void *out_body;      // out + head, WIDTH-aligned
    int64_t head;        // elements before the body
    int64_t body;        // whole vectors in the body; the rest after it is the tail
};

// WIDTH: bytes per access (sizeof(T): scalar; 8, 16: vector), 0: gather.
// A vector kernel runs only where in and out are equally misaligned (the
// launch picks the scalar kernel otherwise): the head before the first
// aligned element and the tail after the last whole vector (fewer than
// WIDTH / sizeof(T) elements each) are done by block 0, the body by all.
template <typename T, int WIDTH, int ILP>
__global__ void transform_kernel(const params<T> p) {
    if constexpr (WIDTH == 0) {
        gather_tiles<ILP>(p.in, p.out, p.map, p.n, p.a, p.b);
    } else if constexpr (WIDTH == (int)sizeof(T)) {
        stream_tiles<ILP>(p.in, p.out, p.n, p.a, p.b);
    } else {
        using V = typename access<T, WIDTH>::type;
        constexpr int VEC = WIDTH / (int)sizeof(T);
        stream_tiles<ILP>(static_cast<const V *>(p.in_body), static_cast<V *>(p.out_body), p.body, p.a, p.b);
        if (blockIdx.x == 0)
            for (int64_t k = threadIdx.x; k < VEC; k += blockDim.x) {
                const int64_t tail = p.head + p.body * VEC + k;
                if (k < p.head) p.out[k] = op(p.in[k], p.a, p.b);
                if (tail < p.n) p.out[tail] = op(p.in[tail], p.a, p.b);
            }
    }
}

template <typename T>
using kernel_fn = void (*)(params<T>);

template <typename T, int WIDTH>
kernel_fn<T> by_ilp(int ilp) {
    return wb_with_ilp(ilp, (kernel_fn<T>)nullptr,
                       [](auto i) -> kernel_fn<T> { return transform_kernel<T, WIDTH, decltype(i)::value>; });
}

// Bytes per access of a variant; 0 for the gathers.
template <typename T>
constexpr int width_of(wb_transform_variant v) {
    return v == WB_TRANSFORM_SCALAR ? (int)sizeof(T) : v == WB_TRANSFORM_VEC8 ? 8 : v == WB_TRANSFORM_VEC16 ? 16 : 0;
}

// The kernel a launch runs and its parameters: vector variants whose in and
// out are misaligned to each other run the scalar kernel. Plan and launch
// both come through here, so they always agree.
template <typename T>
kernel_fn<T> pick(const wb_transform_args *t, int ilp, params<T> *p, int *width) {
    *p = params<T>{static_cast<const T *>(t->in), static_cast<T *>(t->out), t->map, t->n, T{}, T{}, nullptr, nullptr, 0, 0};
    int w = width_of<T>(t->variant);
    if (w > (int)sizeof(T)) {
        const uintptr_t in_mis = (uintptr_t)t->in % w, out_mis = (uintptr_t)t->out % w;
        if (in_mis != out_mis) {
            w = (int)sizeof(T);
        } else {
            const int64_t head = (int64_t)((w - out_mis) % w / sizeof(T));
            p->head = head < t->n ? head : t->n;
            p->body = (t->n - p->head) / (w / (int)sizeof(T));
            p->in_body = p->in + p->head;
            p->out_body = p->out + p->head;
        }
    }
    *width = w;
    switch (w) {
    case 0: return by_ilp<T, 0>(ilp);
    case 8: return by_ilp<T, 8>(ilp);
    case 16: return by_ilp<T, 16>(ilp);
    default: return by_ilp<T, (int)sizeof(T)>(ilp);
    }
}

template <typename T>
struct affine {
    T a, b;
    __device__ T operator()(T x) const { return op(x, a, b); }
};

template <typename T>
cudaError_t plan(const wb_transform_args *t, wb_launch *l) {
    if (t->variant == WB_TRANSFORM_CUB || t->variant == WB_TRANSFORM_MEMCPY) return cudaSuccess;
    params<T> p;
    int width = 0;
    kernel_fn<T> k = pick<T>(t, l->ilp, &p, &width);
    if (!k) return cudaErrorInvalidValue;
    const int64_t per_access = width > (int)sizeof(T) ? width / (int)sizeof(T) : 1;
    const int64_t per_block = (int64_t)l->block * l->ilp * per_access;
    return wb_plan_kernel(k, l, t->n, per_block, l->sm_limit > 0 ? wb_grid_mode::persistent : wb_grid_mode::cover, 0);
}

template <typename T>
cudaError_t launch(const wb_transform_args *t, const wb_launch *l, cudaStream_t s, T a, T b) {
    if (t->variant == WB_TRANSFORM_MEMCPY)
        return t->n > 0 ? cudaMemcpyAsync(t->out, t->in, (size_t)t->n * sizeof(T), cudaMemcpyDeviceToDevice, s)
                        : cudaSuccess;
    if (t->variant == WB_TRANSFORM_CUB)
        return cub::DeviceTransform::Transform(static_cast<const T *>(t->in), static_cast<T *>(t->out), t->n,
                                               affine<T>{a, b}, s);
    params<T> p;
    int width = 0;
    kernel_fn<T> k = pick<T>(t, l->ilp, &p, &width);
    if (!k) return cudaErrorInvalidValue;
    if (l->grid == 0) return cudaSuccess;
    p.a = a, p.b = b;
    k<<<l->grid, l->block, l->smem_bytes, s>>>(p);
    return wb_launched();
}

}  // namespace

extern "C" cudaError_t wb_transform_plan(const wb_transform_args *t, wb_launch *l) {
    return t->dtype == WB_TRANSFORM_I32 ? plan<int32_t>(t, l) : plan<double>(t, l);
}

extern "C" cudaError_t wb_transform_launch(const wb_transform_args *t, const wb_launch *l, cudaStream_t s) {
    return t->dtype == WB_TRANSFORM_I32 ? launch<int32_t>(t, l, s, t->a_i32, t->b_i32)
                                        : launch<double>(t, l, s, t->a_f64, t->b_f64);
}

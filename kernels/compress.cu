// compress.cu - the compress family's kernels (compress.h): one warp decodes
// one tile of 4096 rows in registers and hands each row's value to the
// operator (a predicated sum, or the selection's flag words) as it comes out
// of the bits; no row is ever written back decoded. Layers: the tile decoders
// (plain, for, delta, dict) -> the operators -> one __global__ kernel per
// (form, operator) over tile_loop.cuh's tile walk -> extern "C" plan/launch.
#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>

#include "kernels/compress.h"
#include "kernels/launch.cuh"
#include "kernels/tile_loop.cuh"

#include <type_traits>

namespace {

constexpr int TILE = WB_COMPRESS_TILE;
constexpr int LANE_ROWS = WB_COMPRESS_LANE_ROWS;
constexpr int DICT_MAX = 1 << WB_COMPRESS_DICT_BITS_MAX;

template <int W>
using width_c = std::integral_constant<int, W>;

// Calls f(width_c<W>{}) for the run-time width w in [LO, HI]: a warp-uniform
// chain of compares once a tile, so that each width's unpacking is unrolled
// with its shifts and masks as constants.
template <int LO, int HI, typename F>
__device__ __forceinline__ void with_width(unsigned w, F &&f) {
    if constexpr (LO <= HI) {
        if (w == (unsigned)LO) f(width_c<LO>{});
        else with_width<LO + 1, HI>(w, f);
    }
}

// Value j of a stream of width W from the lane's W words: one funnel or
// plain shift and one mask, W and j constants.
template <int W>
__device__ __forceinline__ uint32_t unpack(const uint32_t (&words)[W > 0 ? W : 1], int j) {
    if constexpr (W == 0) {
        return 0;
    } else {
        const int bit = j * W, k = bit >> 5, sh = bit & 31;
        uint32_t x;
        if (sh + W > 32) x = __funnelshift_r(words[k], words[k + 1], sh);
        else x = words[k] >> sh;
        if constexpr (W == 32) return x;
        else return x & ((1u << W) - 1u);
    }
}

// ---- the operators: item(v, j) for value j (0..31) of the lane's current
// stream where its row exists, stream_end() after each of the lane's 4
// streams, tile_end(row0, row_of(m, j)) once a tile (all lanes), done()
// once at the end. ----

// The code-domain items (for; dict's selection): code c < tc says v < t,
// since v = ref + c (for) or the dictionary is sorted (dict). At W <= 16 a
// count bit K = 2^21 is or-ed into each code by the unpacking's mask
// instruction, so that one add sums the codes (< 2^21 for 32 of them) and
// counts them (above bit 21); a stream's sum is folded into the int64 total
// as csum + ref * count. Four ALU instructions a row: shift, mask, compare,
// add (the ALU pipe, half the issue rate, is what binds).
template <int W>
constexpr uint32_t count_bit() { return W <= 16 ? 1u << 21 : 0u; }

// Code j of a stream with the count bit, kbit = count_bit<W>() held in a
// register (1 from a kernel argument, shifted): ptxas cannot fold it, so
// the mask and the or stay one LOP3 ((x & mask) | kbit), where with both as
// immediates it emitted two (5.5 ALU instructions a row at W = 4, H200).
template <int W>
__device__ __forceinline__ uint32_t code_of(const uint32_t (&words)[W > 0 ? W : 1], int j, uint32_t kbit) {
    if constexpr (W == 0 || W > 16) {
        return unpack<W>(words, j) | count_bit<W>();
    } else {
        const int bit = j * W, k = bit >> 5, sh = bit & 31;
        uint32_t x, d;
        if (sh + W > 32) x = __funnelshift_r(words[k], words[k + 1], sh);
        else x = words[k] >> sh;
        asm("lop3.b32 %0, %1, %2, %3, 0xEA;" : "=r"(d) : "r"(x), "n"((1u << W) - 1u), "r"(kbit));
        return d;
    }
}

// The threshold in the code domain of a tile: codes below it qualify (with
// count_bit<W>() added where the codes carry it).
template <int W>
__device__ __forceinline__ uint32_t code_threshold(long long tc) {
    if (tc <= 0) return count_bit<W>();
    if constexpr (W < 32) {
        if (tc > (1ll << W)) tc = 1ll << W;
    }
    return (uint32_t)tc + count_bit<W>();
}

struct sum_op {
    int32_t t;
    uint32_t one; // 1, from a kernel argument (see code())
    long long acc = 0;
    uint32_t part = 0, cnt = 0;
    unsigned long long wide = 0;
    __device__ __forceinline__ sum_op(int32_t t_, uint32_t one_, unsigned long long *, int32_t *) : t(t_), one(one_) {}
    __device__ __forceinline__ void item(int32_t v, int) { acc += v < t ? (long long)v : 0LL; }
    template <int W>
    __device__ __forceinline__ void code(uint32_t c, uint32_t tc, int) {
        if constexpr (W <= 16) {
            // a compare (ALU) and a predicated multiply-add by 1 (the FMA pipe; one is opaque to
            // ptxas, which otherwise made SEL + IADD3: 1.5 more ALU instructions a row, and the
            // ALU pipe, half the issue rate, is what bound the narrow widths)
            asm("{\n .reg .pred q;\n setp.lt.u32 q, %1, %2;\n @q mad.lo.u32 %0, %1, %3, %0;\n}"
                : "+r"(part) : "r"(c), "r"(tc), "r"(one));
        } else if constexpr (W <= 26) {
            if (c < tc) part += c, cnt++;
        } else {
            if (c < tc) wide += c, cnt++;
        }
    }
    template <int W>
    __device__ __forceinline__ void fold(int32_t ref) {
        if constexpr (W <= 16) {
            acc += (long long)(part & ((1u << 21) - 1)) + (long long)ref * (long long)(part >> 21);
        } else if constexpr (W <= 26) {
            acc += (long long)part + (long long)ref * (long long)cnt;
        } else {
            acc += (long long)wide + (long long)ref * (long long)cnt;
            wide = 0;
        }
        part = cnt = 0;
    }
    __device__ __forceinline__ void stream_end() {}
    template <typename RowOf>
    __device__ __forceinline__ void tile_end(int64_t, RowOf &&) {}
    __device__ __forceinline__ void done(unsigned long long *sum) {
        const long long s = wb_warp_sum(acc);
        if ((threadIdx.x & 31) == 0 && s != 0) atomicAdd(sum, (unsigned long long)s);
    }
};

// A lane's 128 rows as 4 flag words (the current stream's in f, moved on
// to a, b, c, d as streams end, so that no word is indexed at run time); at
// the tile's end one atomic a warp reserves the tile's run, and each of the
// 128 slots is written by a ballot: the lanes whose row of that slot
// qualifies store side by side (coalesced). Writing each lane's own run
// instead (stores 32 runs apart) took 2.8-3.2 ms at 2^28 rows, s = 0.5,
// against 0.25 ms for the sum (0a5345e, H200).
struct select_op {
    int32_t t;
    unsigned long long *count;
    int32_t *out;
    uint32_t f = 0, a = 0, b = 0, c = 0, d = 0;
    uint32_t one;
    __device__ __forceinline__ select_op(int32_t t_, uint32_t one_, unsigned long long *cu, int32_t *o)
        : t(t_), count(cu), out(o), one(one_) {}
    __device__ __forceinline__ void item(int32_t v, int j) {
        if (v < t) f |= 1u << j;
    }
    template <int W>
    __device__ __forceinline__ void code(uint32_t cd, uint32_t tc, int j) {
        if (cd < tc) f |= 1u << j;
    }
    template <int W>
    __device__ __forceinline__ void fold(int32_t) {}
    __device__ __forceinline__ void stream_end() { d = c, c = b, b = a, a = f, f = 0; }
    template <typename RowOf>
    __device__ __forceinline__ void tile_end(int64_t row0, RowOf &&row_of) {
        const int lane = threadIdx.x & 31;
        const int total = wb_warp_sum(__popc(a) + __popc(b) + __popc(c) + __popc(d));
        if (total) { // warp-uniform
            unsigned long long base = 0;
            if (lane == 0) base = atomicAdd(count, (unsigned long long)total);
            base = __shfl_sync(0xffffffffu, base, 0);
            const uint32_t below = (1u << lane) - 1u;
            const uint32_t words[4] = {d, c, b, a}; /* streams 0..3 */
#pragma unroll
            for (int m = 0; m < 4; m++) {
#pragma unroll 4
                for (int j = 0; j < 32; j++) {
                    const bool mine = (words[m] >> j) & 1u;
                    const uint32_t ballot = __ballot_sync(0xffffffffu, mine);
                    if (mine) out[base + __popc(ballot & below)] = (int32_t)(row0 + row_of(m, j));
                    base += __popc(ballot);
                }
            }
        }
        a = b = c = d = f = 0;
    }
    __device__ __forceinline__ void done(unsigned long long *) {}
};

// ---- the tile decoders: one warp, one tile, FULL: all 4096 rows exist. ----

// Plain: 32 loads of 16 bytes a lane, 8 in flight at a time (one "stream"
// of 32 values); load k of a lane is rows (k*32 + lane)*4 .. +3, every warp
// access 512 contiguous bytes.
template <bool FULL, typename Op>
__device__ __forceinline__ void plain_tile(const int32_t *in, int64_t row0, int valid, Op &op) {
    const int lane = threadIdx.x & 31;
    auto row_of = [lane](int m, int j) { return ((m * 8 + (j >> 2)) * 32 + lane) * 4 + (j & 3); };
    // Not unrolled: unrolled, ptxas hoisted all 32 loads (166 registers,
    // 8 warps an SM).
#pragma unroll 1
    for (int m = 0; m < 4; m++) {
        int4 v[8];
#pragma unroll
        for (int a = 0; a < 8; a++) {
            const int r = row_of(m, a * 4);
            if (FULL) {
                v[a] = __ldg(reinterpret_cast<const int4 *>(in + row0 + r));
            } else {
                v[a].x = r < valid ? in[row0 + r] : 0;
                v[a].y = r + 1 < valid ? in[row0 + r + 1] : 0;
                v[a].z = r + 2 < valid ? in[row0 + r + 2] : 0;
                v[a].w = r + 3 < valid ? in[row0 + r + 3] : 0;
            }
        }
#pragma unroll
        for (int a = 0; a < 8; a++) {
            const int r = row_of(m, a * 4);
            if (FULL || r < valid) op.item(v[a].x, a * 4);
            if (FULL || r + 1 < valid) op.item(v[a].y, a * 4 + 1);
            if (FULL || r + 2 < valid) op.item(v[a].z, a * 4 + 2);
            if (FULL || r + 3 < valid) op.item(v[a].w, a * 4 + 3);
        }
        op.stream_end();
    }
    op.tile_end(row0, row_of);
}

// The compressed forms: the header, then the lane's 4 streams in order, each
// its W coalesced loads and its 32 values. In the code domain (for; dict's
// selection: CODE) each code goes to op.code against the tile's threshold
// tc(ref) and each stream is folded with ref; otherwise value(m*32 + j,
// ref, code) makes the row's int32 (delta: a running sum; dict: a lookup)
// for op.item. The stream loop is not unrolled: one copy of each width's 32
// unpacks.
template <bool FULL, int WMAX, bool CODE, typename Value, typename Tc, typename Op>
__device__ __forceinline__ void packed_tile(const wb_compress_col &c, int64_t tile, int valid, Value &&value, Tc &&tc_of,
                                            Op &op) {
    const int lane = threadIdx.x & 31;
    const uint4 h = __ldg(reinterpret_cast<const uint4 *>(c.head + tile));
    const int32_t ref = (int32_t)h.x;
    const uint32_t *p = c.payload + h.y;
    with_width<0, WMAX>(h.z, [&](auto wc) {
        constexpr int W = decltype(wc)::value;
        const uint32_t tc = CODE ? code_threshold<W>(tc_of(ref)) : 0u;
        const uint32_t kbit = count_bit<W>() ? op.one << 21 : 0u;
#pragma unroll 1
        for (int m = 0; m < 4; m++) {
            uint32_t words[W > 0 ? W : 1];
#pragma unroll
            for (int k = 0; k < W; k++) words[k] = __ldg(p + wb_compress_word_at(W, m, k, lane));
#pragma unroll
            for (int j = 0; j < 32; j++) {
                const bool here = FULL || wb_compress_row_at(lane, m * 32 + j) < valid;
                if constexpr (CODE) {
                    const uint32_t code = code_of<W>(words, j, kbit);
                    if (here) op.template code<W>(code, tc, j);
                } else {
                    const int32_t v = value(m * 32 + j, ref, unpack<W>(words, j));
                    if (here) op.item(v, j);
                }
            }
            if constexpr (CODE) op.template fold<W>(ref);
            op.stream_end();
        }
    });
    op.tile_end(tile * TILE, [lane](int m, int j) { return wb_compress_row_at(lane, m * 32 + j); });
}

struct kargs {
    const int32_t *plain;
    wb_compress_col col;
    int64_t n;
    int32_t t, rank_t;
    unsigned long long *sum, *count;
    int32_t *out;
    uint32_t one; // 1: an operand ptxas cannot fold (sum_op::code, code_of)
};

template <wb_compress_form F, typename Full, typename Op>
__device__ __forceinline__ void one_tile(const kargs &a, const int32_t *dict, int64_t tile, int valid, Full, Op &op) {
    constexpr bool FULL = Full::value, SELECT = std::is_same<Op, select_op>::value;
    const int lane = threadIdx.x & 31;
    const auto none = [](int32_t) { return 0ll; };
    if constexpr (F == WB_FORM_PLAIN) {
        plain_tile<FULL>(a.plain, tile * TILE, valid, op);
    } else if constexpr (F == WB_FORM_FOR) {
        const int32_t t = a.t;
        packed_tile<FULL, 32, true>(a.col, tile, valid, none, [t](int32_t ref) { return (long long)t - ref; }, op);
    } else if constexpr (F == WB_FORM_DELTA) {
        uint32_t run = (uint32_t)__ldg(a.col.base + tile * 32 + lane);
        packed_tile<FULL, 32, false>(a.col, tile, valid, [&run](int s, int32_t, uint32_t code) {
            if (s > 0) run += code;
            return (int32_t)run;
        }, none, op);
    } else {
        // the selection compares ranks (the dictionary is sorted: v < t iff
        // rank < rank_t); the sum needs the values
        const int32_t rank_t = a.rank_t;
        packed_tile<FULL, WB_COMPRESS_DICT_BITS_MAX, SELECT>(a.col, tile, valid, [dict](int, int32_t ref, uint32_t code) {
            return dict[ref + (int32_t)code];
        }, [rank_t](int32_t ref) { return (long long)rank_t - ref; }, op);
    }
}

// A block's tile of the walk is its warps' tiles of 4096 rows (ILP = 128
// rows a thread); warp w of the block takes the w-th of them.
template <wb_compress_form F, bool SELECT, int BT>
__global__ void __launch_bounds__(BT) compress_kernel(const kargs a) {
    __shared__ int32_t dict[F == WB_FORM_DICT ? DICT_MAX : 1];
    if constexpr (F == WB_FORM_DICT) {
        for (int i = threadIdx.x; i < a.col.dict_n; i += BT) dict[i] = a.col.dict[i];
        __syncthreads();
    }
    std::conditional_t<SELECT, select_op, sum_op> op(a.t, a.one, a.count, a.out);
    const int warp = threadIdx.x >> 5;
    wb_for_tiles<LANE_ROWS>(a.n, [&](int64_t base, auto) {
        const int64_t row0 = base + (int64_t)warp * TILE;
        if (row0 >= a.n) return; // warp-uniform
        const int64_t left = a.n - row0;
        if (left >= TILE) one_tile<F>(a, dict, row0 / TILE, TILE, wb_full<true>{}, op);
        else one_tile<F>(a, dict, row0 / TILE, (int)left, wb_full<false>{}, op);
    });
    op.done(a.sum);
}

// The one dispatch from the variant enum to (form, operator).
template <typename Fn>
cudaError_t with_variant(int variant, int block, Fn &&fn) {
    constexpr int BT = WB_COMPRESS_BLOCK;
    if (block != BT) return cudaErrorInvalidValue;
    switch (variant) {
    case WB_COMPRESS_PLAIN_SUM: return fn(compress_kernel<WB_FORM_PLAIN, false, BT>);
    case WB_COMPRESS_FOR_SUM: return fn(compress_kernel<WB_FORM_FOR, false, BT>);
    case WB_COMPRESS_DELTA_SUM: return fn(compress_kernel<WB_FORM_DELTA, false, BT>);
    case WB_COMPRESS_DICT_SUM: return fn(compress_kernel<WB_FORM_DICT, false, BT>);
    case WB_COMPRESS_PLAIN_SELECT: return fn(compress_kernel<WB_FORM_PLAIN, true, BT>);
    case WB_COMPRESS_FOR_SELECT: return fn(compress_kernel<WB_FORM_FOR, true, BT>);
    case WB_COMPRESS_DELTA_SELECT: return fn(compress_kernel<WB_FORM_DELTA, true, BT>);
    case WB_COMPRESS_DICT_SELECT: return fn(compress_kernel<WB_FORM_DICT, true, BT>);
    default: return cudaErrorInvalidValue;
    }
}

struct below_t {
    int32_t t;
    __host__ __device__ __forceinline__ long long operator()(int32_t v) const { return v < t ? (long long)v : 0LL; }
};

cudaError_t cub_sum(void *temp, size_t &bytes, const int32_t *in, unsigned long long *sum, int64_t n, int32_t t,
                    cudaStream_t s) {
    long long *out = reinterpret_cast<long long *>(sum);
    if (n <= 0x7fffffffLL)
        return cub::DeviceReduce::TransformReduce(temp, bytes, in, out, (int)n, ::cuda::std::plus<>{}, below_t{t}, 0LL, s);
    return cub::DeviceReduce::TransformReduce(temp, bytes, in, out, n, ::cuda::std::plus<>{}, below_t{t}, 0LL, s);
}

}  // namespace

extern "C" wb_compress_form wb_compress_form_of(int variant) {
    switch (variant) {
    case WB_COMPRESS_FOR_SUM: case WB_COMPRESS_FOR_SELECT: return WB_FORM_FOR;
    case WB_COMPRESS_DELTA_SUM: case WB_COMPRESS_DELTA_SELECT: return WB_FORM_DELTA;
    case WB_COMPRESS_DICT_SUM: case WB_COMPRESS_DICT_SELECT: return WB_FORM_DICT;
    default: return WB_FORM_PLAIN;
    }
}

extern "C" int wb_compress_is_select(int variant) {
    return variant >= WB_COMPRESS_PLAIN_SELECT && variant <= WB_COMPRESS_DICT_SELECT;
}

extern "C" cudaError_t wb_compress_plan(int variant, wb_launch *l, int64_t n) {
    l->temp_bytes = 0;
    if (variant == WB_COMPRESS_CUB_SUM) {
        size_t bytes = 0;
        cudaError_t e = cub_sum(nullptr, bytes, nullptr, nullptr, n, 0, 0);
        l->temp_bytes = bytes;
        return e;
    }
    const int64_t per_block = (int64_t)l->block * LANE_ROWS;
    return with_variant(variant, l->block, [&](auto k) {
        return wb_plan_kernel(k, l, n, per_block, wb_grid_mode::persistent, 0);
    });
}

extern "C" cudaError_t wb_compress_launch(int variant, const wb_launch *l, const wb_compress_io *io, cudaStream_t s) {
    if (io->n <= 0) return cudaSuccess;
    if (variant == WB_COMPRESS_CUB_SUM) {
        size_t bytes = io->temp_bytes;
        return cub_sum(io->temp, bytes, io->plain, io->sum, io->n, io->t, s);
    }
    const kargs a{io->plain, io->col, io->n, io->t, io->rank_t, io->sum, io->count, io->out, 1u};
    return with_variant(variant, l->block, [&](auto k) -> cudaError_t {
        if (l->grid == 0) return cudaSuccess;
        k<<<l->grid, l->block, l->smem_bytes, s>>>(a);
        return wb_launched();
    });
}

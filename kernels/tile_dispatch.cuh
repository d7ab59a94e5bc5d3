// tile_dispatch.cuh - turns the run-time ILP and block size of a wb_launch
// into the compile-time constants kernels are instantiated for: one switch
// each, so that no kernel file names the ILPs or block sizes. The compiled
// tile shapes are the ones wb_tile_shape_ok (tile_shape.h) accepts.
#pragma once

#include <cuda_runtime.h>
#include <type_traits>

// Returns f(std::integral_constant<int, ILP>{}) for the run-time ilp, one of
// the compiled ILPs 1, 2, 4, 8, 16; `otherwise` for any other value.
template <typename R, typename F>
R wb_with_ilp(int ilp, R otherwise, F &&f) {
    switch (ilp) {
    case 1: return f(std::integral_constant<int, 1>{});
    case 2: return f(std::integral_constant<int, 2>{});
    case 4: return f(std::integral_constant<int, 4>{});
    case 8: return f(std::integral_constant<int, 8>{});
    case 16: return f(std::integral_constant<int, 16>{});
    default: return otherwise;
    }
}

template <int BT, typename F>
cudaError_t wb_dispatch_ipt(int ipt, F &&f) {
    return wb_with_ilp(ipt, cudaErrorInvalidValue, [&](auto i) { return f(std::integral_constant<int, BT>{}, i); });
}

// Calls f(integral_constant<BT>, integral_constant<IPT>) and returns its
// result; cudaErrorInvalidValue for a shape that is not compiled.
template <typename F>
cudaError_t wb_dispatch_tile(int block, int ipt, F &&f) {
    switch (block) {
    case 128: return wb_dispatch_ipt<128>(ipt, f);
    case 256: return wb_dispatch_ipt<256>(ipt, f);
    case 512: return wb_dispatch_ipt<512>(ipt, f);
    default: return cudaErrorInvalidValue;
    }
}

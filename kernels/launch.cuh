// launch.cuh - plans a launch for one kernel: pads dynamic shared memory until
// no more than the target share of warps can be resident on an SM, then sizes
// the grid. Every family's plan function goes through here, so occupancy is
// enforced (and recorded) the same way for all of them.
#pragma once

#include <cuda_runtime.h>
#include <cstdio>
#include "kernels/launch.h"

enum class wb_grid_mode {
    cover,      // one block per tile of block * ilp items
    persistent  // blocks_per_sm * SMs blocks (or fewer for small inputs), grid-stride loop inside
};

struct wb_device_limits {
    int sms, max_threads_per_sm, smem_per_sm, smem_reserved_per_block, smem_optin_per_block;
};

inline cudaError_t wb_device_limits_get(wb_device_limits *d) {
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&d->sms, cudaDevAttrMultiProcessorCount, dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&d->max_threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&d->smem_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&d->smem_reserved_per_block, cudaDevAttrReservedSharedMemoryPerBlock, dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&d->smem_optin_per_block, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
    return e;
}

// Fills l->grid, smem_bytes, regs, blocks_per_sm, occupancy_theoretical, waves
// for `kernel` processing n_items, items_per_block at a time (cover mode).
// smem_needed is the dynamic shared memory the kernel itself uses; padding only
// ever raises it. Returns cudaErrorInvalidValue when the block cannot run at all
// (e.g. smem_needed above the per-block limit); l is then left with grid = 0.
template <typename Kernel>
cudaError_t wb_plan_kernel(Kernel kernel, wb_launch *l, int64_t n_items, int64_t items_per_block,
                           wb_grid_mode mode, int smem_needed) {
    wb_device_limits d;
    cudaError_t e = wb_device_limits_get(&d);
    if (e != cudaSuccess) return e;
    cudaFuncAttributes fa;
    if ((e = cudaFuncGetAttributes(&fa, kernel)) != cudaSuccess) return e;
    l->regs = fa.numRegs;
    l->grid = 0;

    int smem = smem_needed;
    double target = l->occupancy_target > 0 && l->occupancy_target <= 1 ? l->occupancy_target : 1.0;
    int target_blocks = (int)(target * d.max_threads_per_sm / l->block + 1e-9);
    if (target_blocks < 1) target_blocks = 1;
    if (l->sm_limit > 0) target_blocks = 1;  // one block per SM, so a grid of k lands on k SMs

    int unconstrained = 0;
    if (smem > 48 * 1024 &&
        (e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem)) != cudaSuccess)
        return e;
    if ((e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&unconstrained, kernel, l->block, smem)) != cudaSuccess)
        return e;
    if (unconstrained < 1) return cudaErrorInvalidValue;
    // The carveout is a per-kernel attribute: reset it when not padding, or a
    // padded point would leave a smaller L1 to the unpadded points after it.
    int carveout = target_blocks < unconstrained ? (int)cudaSharedmemCarveoutMaxShared
                                                 : (int)cudaSharedmemCarveoutDefault;
    if ((e = cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, carveout)) != cudaSuccess)
        return e;
    if (target_blocks < unconstrained) {
        // Shared memory is the one resource we can raise without changing the
        // code: (pad + reserved) * (target + 1) > smem_per_sm keeps one more block out.
        // Static shared memory counts against the same budget: leaving it out
        // made every padded launch of a kernel with a static reduction buffer
        // unlaunchable (dram_read on one block per SM, H200, 2026-11-29).
        int pad = d.smem_per_sm / target_blocks - d.smem_reserved_per_block - (int)fa.sharedSizeBytes;
        if (pad > d.smem_optin_per_block - (int)fa.sharedSizeBytes) pad = d.smem_optin_per_block - (int)fa.sharedSizeBytes;
        if (pad > smem) smem = pad;
    }
    if (smem > 48 * 1024 &&
        (e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem)) != cudaSuccess)
        return e;
    int bps = 0;
    if ((e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bps, kernel, l->block, smem)) != cudaSuccess) return e;
    if (bps < 1) return cudaErrorInvalidValue;

    int64_t cover = items_per_block > 0 ? (n_items + items_per_block - 1) / items_per_block : 0;
    int64_t grid = cover;
    if (mode == wb_grid_mode::persistent) {
        int64_t full = (int64_t)bps * d.sms;
        grid = cover < full ? cover : full;
    }
    if (l->sm_limit > 0 && grid > l->sm_limit) grid = l->sm_limit;
    if (grid > 0x7fffffff) return cudaErrorInvalidConfiguration;

    l->grid = (int)grid;
    l->smem_bytes = smem;
    l->blocks_per_sm = bps;
    l->occupancy_theoretical = (double)bps * l->block / d.max_threads_per_sm;
    l->waves = (double)grid / ((double)bps * d.sms);
    if (wb_launch_debug)
        fprintf(stderr, "launch: grid %d block %d ilp %d smem %d regs %d blocks/SM %d occupancy %.3f waves %.2f\n",
                l->grid, l->block, l->ilp, l->smem_bytes, l->regs, bps, l->occupancy_theoretical, l->waves);
    return cudaSuccess;
}

// Launch error of the kernel just enqueued (configuration errors surface here).
inline cudaError_t wb_launched() { return cudaGetLastError(); }

// The grid of a grid-stride helper kernel (input fills, GPU references and
// checks: not measured): enough blocks of `block` threads for `items`
// items, at most blocks_per_sm per SM, at least one. Returns the device
// query's error.
inline cudaError_t wb_helper_grid(int64_t items, int block, int blocks_per_sm, int *grid) {
    int dev = 0, sms = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (e != cudaSuccess) return e;
    const int64_t need = (items + block - 1) / block, most = (int64_t)sms * blocks_per_sm;
    *grid = (int)(need < 1 ? 1 : need < most ? need : most);
    return cudaSuccess;
}

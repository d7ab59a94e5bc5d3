/* counters_ref.h - three reference kernels with known counters, for the
 * counter check (tests/test_gpu_counters.c): a streaming copy (16-byte
 * accesses, DRAM sectors = bytes / 32), an instruction-heavy kernel (four
 * independent integer chains per element, 8 bytes of memory per element) and
 * a random gather (one 32-byte sector per 4-byte read). Grid-stride loops,
 * so any grid covers any n; n may exceed 2^31. */
#ifndef WB_KERNELS_COUNTERS_REF_H
#define WB_KERNELS_COUNTERS_REF_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* x[i] = hash(seed, i), reduced modulo mod when mod > 0 (random indices). */
cudaError_t wb_ref_fill(uint32_t *x, int64_t n, uint32_t mod, uint64_t seed, int grid, int block, cudaStream_t s);
/* What wb_ref_fill writes at i, on the host. */
uint32_t wb_ref_fill_value(int64_t i, uint32_t mod, uint64_t seed);

/* out[i] = in[i] for n16 16-byte words (in, out 16-byte aligned, as cudaMalloc returns). */
cudaError_t wb_ref_copy(const void *in, void *out, int64_t n16, int grid, int block, cudaStream_t s);

/* out[i] = wb_ref_inst_value(in[i], iters): 4 chains x iters x 2 dependent integer ops. */
cudaError_t wb_ref_inst(const uint32_t *in, uint32_t *out, int64_t n, int iters, int grid, int block, cudaStream_t s);
uint32_t wb_ref_inst_value(uint32_t x, int iters);

/* out[i] = in[idx[i]]; every idx[i] < the length of in. */
cudaError_t wb_ref_gather(const uint32_t *in, const uint32_t *idx, uint32_t *out, int64_t n, int grid, int block,
                          cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif

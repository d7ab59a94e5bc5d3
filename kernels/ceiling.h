/* ceiling.h - the ceiling family's kernels: what this GPU can do at best,
 * measured (DRAM, L2, L1, shared memory, interconnect bandwidth, and the
 * instruction issue rate), so that every other family is judged against
 * measured roofs rather than datasheet ones (issue 4, seed 000 Table 2).
 * The per-thread arithmetic of the instruction kernels and the write
 * pattern are defined here once, for the kernels and the CPU reference. */
#ifndef WB_KERNELS_CEILING_H
#define WB_KERNELS_CEILING_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cuda_runtime_api.h>

#include "kernels/launch.h"

#include "kernels/variant_list.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Variants, in run order; names as in point names. Memory variants move
 * 16-byte words; reads sum them (mod 2^32) into a checksum. */
#define WB_CEILING_VARIANT_LIST(X) \
    /* 16-byte loads of a buffer >> L2, persistent grid */ \
    X(WB_CEILING_DRAM_READ, "dram_read", "the DRAM read roof") \
    /* 16-byte stores of a seeded pattern */ \
    X(WB_CEILING_DRAM_WRITE, "dram_write", "the DRAM write roof") \
    /* 16-byte load + store */ \
    X(WB_CEILING_DRAM_COPY, "dram_copy", "the copy roof the transform family is judged against") \
    /* cudaMemcpyAsync device to device (bytes read + written) */ \
    X(WB_CEILING_MEMCPY, "memcpy", "the driver's copy") \
    /* an L2-resident set read again and again through ld.global.cg (L1 bypassed) */ \
    X(WB_CEILING_L2_READ, "l2_read", "the L2 roof") \
    /* one small set per SM read again and again through ld.global.nc */ \
    X(WB_CEILING_L1_READ, "l1_read", "the L1 roof") \
    /* ld.shared.v4 from a tile in shared memory */ \
    X(WB_CEILING_SMEM_READ, "smem_read", "the shared-memory roof") \
    /* IMAD chains (FMA-heavy pipe) and LOP3 + IADD3 chains (ALU pipe) in equal
     * numbers, several per thread: SMs x 4 SMSP x clock (each pipe alone takes a
     * warp instruction every other cycle) */ \
    X(WB_CEILING_INST_ISSUE, "inst_issue", "the warp-instruction issue limit") \
    /* LOP3 + IADD3 chains only */ \
    X(WB_CEILING_INT_ALU, "int_alu", "the ALU pipe, half the issue limit") \
    /* FFMA chains only: the FP32 pipes (heavy + lite) */ \
    X(WB_CEILING_FMA, "fma", "the FP32 pipes, the issue limit") \
    /* cudaMemcpyAsync from pinned host memory (Crystal regime A) */ \
    X(WB_CEILING_H2D, "h2d", "the interconnect, host to device") \
    /* cudaMemcpyAsync to pinned host memory */ \
    X(WB_CEILING_D2H, "d2h", "the interconnect, device to host") \
    /* cub::DeviceReduce::Sum over dram_read's words */ \
    X(WB_CEILING_CUB_REDUCE, "cub_reduce", "the library peer dram_read must beat")
typedef enum wb_ceiling_variant { WB_CEILING_VARIANT_LIST(WB_VARIANT_ENUM) WB_CEILING_VARIANTS } wb_ceiling_variant;

typedef struct wb_ceiling_args {
    wb_ceiling_variant variant;
    const void *src; /* words read: dram/l2/l1/smem source, copy source (device or pinned host) */
    void *dst;       /* words written: write/copy destination; inst: one uint32 per thread */
    int64_t n;       /* 16-byte words (memory variants), threads (inst variants) */
    int reps;        /* passes over the set (l2, l1, smem), loop turns per thread (inst) */
    uint32_t seed;   /* dram_write pattern, inst start state */
    uint32_t *sum;   /* device: checksum of the reads (l2/l1/smem/dram_read add to it, cub_reduce sets it) */
    void *temp;      /* cub_reduce scratch, l->temp_bytes */
} wb_ceiling_args;

/* Completes l for the kernel variants through wb_plan_kernel (reads,
 * l2/l1/smem and inst: persistent grid; write and copy: cover grid, or
 * persistent when l->sm_limit > 0); for cub_reduce sets l->temp_bytes only;
 * for the copies through the runtime changes nothing. cudaErrorInvalidValue:
 * ILP outside {1, 2, 4, 8, 16}, or for l1/smem a set of n words that is not a
 * multiple of block * ILP. */
cudaError_t wb_ceiling_plan(const wb_ceiling_args *c, wb_launch *l);

/* Enqueues the variant on s and returns the launch error; nothing else. A
 * planned grid of 0 launches nothing. */
cudaError_t wb_ceiling_launch(const wb_ceiling_args *c, const wb_launch *l, cudaStream_t s);

#ifdef __cplusplus
}
#endif

/* ---- arithmetic shared by kernels and CPU reference ---- */

#ifdef __CUDACC__
#define WB_CEILING_HD static __host__ __device__ __forceinline__
#else
#define WB_CEILING_HD static inline
#endif
#ifdef __CUDA_ARCH__
#define WB_CEILING_UNROLL _Pragma("unroll")
#else
#define WB_CEILING_UNROLL /* the host compilers unroll as they see fit */
#endif

/* Steps per loop turn of the instruction kernels: long enough that loop
 * control is ~3% of the instructions. */
#define WB_CEILING_INST_STEPS 8
/* Warp instructions per thread per turn, by design (loop control excluded):
 * inst_issue 8 x 4 x (IMAD + SHF); int_alu 8 x 4 x (LOP3 + IADD3); fma 8 x 8 FFMA. */
#define WB_CEILING_INST_ISSUE_OPS 64
#define WB_CEILING_INT_ALU_OPS 64
#define WB_CEILING_FMA_OPS 64

/* Word j of dram_write's pattern: odd for every j (even multiplier, odd
 * offset), so the even poison 0xAAAAAAAA is never a correct value. */
WB_CEILING_HD uint32_t wb_ceiling_pattern(uint64_t j, uint32_t seed) {
    return (uint32_t)j * 0x9E3779B2u + (seed | 1u);
}

/* The instruction kernels' steps are bijections of the chain state (an odd
 * multiply plus another chain's value; an xor plus another chain's value),
 * so no information is lost over thousands of steps: every thread id keeps
 * its own output, and an output stored at the wrong id is caught. Coupling
 * the chains also keeps the compiler from folding steps together. The adds
 * are three-input (IADD3): ptxas may turn a two-input add into IMAD.IADD,
 * which would move it from the ALU pipe to the FMA pipe. Outputs are odd,
 * never the even poison. */

/* x = x * m + (x >> 7): one IMAD (FMA-heavy pipe) and one SHF (ALU pipe) a
 * step, in four independent chains. The first version, six coupled chains of
 * IMAD, LOP3 and IADD3, issued only 2.6 warp instructions per SM-cycle on the
 * H200 (66% of the limit), while this mix, which the counter check's
 * reference kernel uses, issued 3.8 (95%) in the same run (2026-11-29).
 * Outputs are odd, never the even poison. */
WB_CEILING_HD uint32_t wb_ceiling_inst_issue(uint32_t tid, uint32_t seed, int turns) {
    uint32_t a = tid * 0x9E3779B1u + seed, b = a ^ 0x85EBCA6Bu, c = a + 0xC2B2AE35u, d = ~a;
    const uint32_t m = (seed * 0x27D4EB2Fu) | 1u;
    for (int t = 0; t < turns; t++) {
        WB_CEILING_UNROLL
        for (int s = 0; s < WB_CEILING_INST_STEPS; s++) {
            a = a * m + (a >> 7);
            b = b * m + (b >> 7);
            c = c * m + (c >> 7);
            d = d * m + (d >> 7);
        }
    }
    return (a ^ b ^ c ^ d ^ tid) | 1u;
}

/* y_i = (y_i ^ k_i) + y_(i+1) + c_i: LOP3 + IADD3, ALU pipe only. */
WB_CEILING_HD uint32_t wb_ceiling_int_alu(uint32_t tid, uint32_t seed, int turns) {
    uint32_t y0 = tid ^ seed, y1 = tid + seed, y2 = ~tid ^ seed, y3 = tid * 0x9E3779B1u;
    const uint32_t k0 = seed | 1u, k1 = seed ^ 0x68E31DA4u, k2 = seed + 0xB5297A4Du, k3 = ~seed;
    for (int t = 0; t < turns; t++) {
        WB_CEILING_UNROLL
        for (int s = 0; s < WB_CEILING_INST_STEPS; s++) {
            y0 = (y0 ^ k0) + y1 + k1;
            y1 = (y1 ^ k1) + y2 + k2;
            y2 = (y2 ^ k2) + y3 + k3;
            y3 = (y3 ^ k3) + y0 + k0;
        }
    }
    return (y0 ^ y1 ^ y2 ^ y3) | 1u;
}

/* f_j = f_j * a + b_j (FFMA), a in [0.5, 0.75), b_j in (0, 1) from the id:
 * each chain converges to b_j / (1 - a), a normal float that depends on the
 * id. Scales are powers of two, so the set-up is exact whether or not a
 * compiler contracts it. */
WB_CEILING_HD uint32_t wb_ceiling_fma(uint32_t tid, uint32_t seed, int turns) {
    const float a = 0.5f + (float)(seed & 0xFFFFu) * 0x1p-18f;
    float f[8], b[8];
    WB_CEILING_UNROLL
    for (int j = 0; j < 8; j++) {
        const uint32_t u = (tid * 0x9E3779B1u + (uint32_t)j * 0x85EBCA6Bu + seed) >> 8;
        f[j] = (float)u * 0x1p-24f;
        b[j] = (float)(u | 1u) * 0x1p-24f;
    }
    for (int t = 0; t < turns; t++) {
        WB_CEILING_UNROLL
        for (int s = 0; s < WB_CEILING_INST_STEPS; s++) {
            WB_CEILING_UNROLL
            for (int j = 0; j < 8; j++) f[j] = fmaf(f[j], a, b[j]);
        }
    }
    uint32_t r = 0;
    WB_CEILING_UNROLL
    for (int j = 0; j < 8; j++) {
        uint32_t bits;
        memcpy(&bits, &f[j], sizeof bits);
        r ^= bits * (2u * (uint32_t)j + 1u);
    }
    return r | 1u;
}

#endif

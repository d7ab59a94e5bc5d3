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
    X(WB_CEILING_CUB_REDUCE, "cub_reduce", "the library peer dram_read must beat") \
    /* random 4-byte words of a table (16 MB to 16 GiB), ILP independent loads per
     * thread, indices hashed from the request number (no index array; issue 17) */ \
    X(WB_CEILING_GATHER_WORD, "gather_word", "the random-request ceiling the probes are judged against") \
    /* random aligned 32-byte sectors, two lanes per sector (16 B each, one request
     * per sector at the memory system) */ \
    X(WB_CEILING_GATHER_SECTOR, "gather_sector", "the same wall with whole sectors") \
    /* atomicAdd, return value unused (ptxas may issue RED), of a hashed word to a hashed
     * entry of a global table of 1 to 2^24 words: one word (every request contends), 32 words, or a
     * table far larger than the L2 holds lines for (uncontended: the L2's atomic rate) */ \
    X(WB_CEILING_ATOM_GLOBAL, "atom_global", "global atomics, contended to uncontended") \
    /* the same requests into a table of 1 to 4096 words in each block's shared
     * memory, reps passes; each block adds its table to the global one at the end */ \
    X(WB_CEILING_ATOM_SHARED, "atom_shared", "shared-memory atomics, contended to uncontended")
/* The largest shared atomic table, words: 16 KiB, so that several blocks fit an SM. */
#define WB_CEILING_ATOM_SHARED_MAX 4096

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
    uint64_t table_words; /* gathers: 4-byte words of the table src (a multiple of 8); n is the requests;
                             atomics: words of the table dst the requests add to (shared: per block) */
} wb_ceiling_args;

/* Completes l for the kernel variants through wb_plan_kernel (reads,
 * l2/l1/smem and inst: persistent grid; write and copy: cover grid, or
 * persistent when l->sm_limit > 0); for cub_reduce sets l->temp_bytes only;
 * for the copies through the runtime changes nothing. cudaErrorInvalidValue:
 * ILP outside {1, 2, 4, 8, 16}, for l1/smem a set of n words that is not a
 * multiple of block * ILP, for the atomics a table of 0 words (atom_shared:
 * or over WB_CEILING_ATOM_SHARED_MAX). The atomics run a persistent grid,
 * atom_shared with table_words x 4 bytes of shared memory per block. */
cudaError_t wb_ceiling_plan(const wb_ceiling_args *c, wb_launch *l);

/* Enqueues the variant on s and returns the launch error; nothing else. A
 * planned grid of 0 launches nothing. */
cudaError_t wb_ceiling_launch(const wb_ceiling_args *c, const wb_launch *l, cudaStream_t s);

/* Writes the gather table (word j = wb_ceiling_gather_word(j, seed)) on s:
 * a 16 GiB table is filled in milliseconds, with no host copy. */
cudaError_t wb_ceiling_gather_fill(uint32_t *table, uint64_t words, uint32_t seed, cudaStream_t s);

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

/* ---- gathers: table contents and request addresses, one definition for
 * the kernels and the CPU reference ---- */

WB_CEILING_HD uint64_t wb_ceiling_mix64(uint64_t x) { /* splitmix64's finalizer: a bijection */
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* Word j of a gather table: pseudo-random, any of 2^32 values. */
WB_CEILING_HD uint32_t wb_ceiling_gather_word(uint64_t j, uint32_t seed) {
    return (uint32_t)(wb_ceiling_mix64(j * 0x9E3779B97F4A7C15ull + seed) >> 16);
}

/* The slot (of count) request r reads: a hash of r, range-reduced by a
 * multiply-high, uniform over the table. About 20 integer instructions per
 * request, computed, not loaded: the ceiling reads nothing but the table. */
WB_CEILING_HD uint64_t wb_ceiling_gather_slot(uint64_t r, uint32_t seed, uint64_t count) {
    const uint64_t h = wb_ceiling_mix64(r + ((uint64_t)seed << 32 | 0x5BD1E995u));
#ifdef __CUDA_ARCH__
    return __umul64hi(h, count);
#else
    return (uint64_t)(((unsigned __int128)h * count) >> 64);
#endif
}

/* ---- atomics: request r adds wb_ceiling_atom_value(r) to entry
 * wb_ceiling_gather_slot(r, seed, entries); the table's check is the sum of
 * entry e times 2e + 1 (mod 2^32), which a value added to a wrong entry or
 * lost changes ---- */

WB_CEILING_HD uint32_t wb_ceiling_atom_value(uint64_t r, uint32_t seed) {
    return wb_ceiling_gather_word(r, ~seed);
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

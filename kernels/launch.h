/* launch.h - the launch shape every kernel family takes: the sweep chooses
 * block, ILP, occupancy and SM limit; a family's plan function fills the rest.
 * Plain C so that micro/ and harness/ can hold it. */
#ifndef WB_LAUNCH_H
#define WB_LAUNCH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wb_launch {
    /* chosen by the sweep */
    int block;                    /* threads per block */
    int ilp;                      /* items per thread (1, 2, 4, 8, 16): the ILP axis */
    double occupancy_target;      /* share of the SM's resident warps allowed, (0, 1]; 1 = no limit */
    int sm_limit;                 /* > 0: one block per SM on this many SMs (grid-stride kernels only) */
    /* filled by the family's plan (wb_plan_kernel in launch.cuh) */
    int grid;
    int smem_bytes;               /* dynamic shared memory per block, occupancy padding included */
    int regs;                     /* registers per thread of the main kernel */
    int blocks_per_sm;            /* resident blocks per SM the occupancy API allows */
    double occupancy_theoretical; /* blocks_per_sm * block / max threads per SM */
    double waves;                 /* grid / (blocks_per_sm * SMs) */
    size_t temp_bytes;            /* device scratch the caller allocates and passes to launch */
    /* asked by the family's plan, then replaced by the harness with the value in effect */
    int l2_fetch_bytes;           /* the L2's DRAM fetch granularity (cudaLimitMaxL2FetchGranularity, a
                                     per-context hint) the point runs with; 0 in a plan: the device's default */
} wb_launch;

/* Launch-shape debug log (grid, block, ILP, occupancy per launch) to stderr;
 * set by `wallbench run --debug-launch`. */
extern int wb_launch_debug;

#ifdef __cplusplus
}
#endif
#endif

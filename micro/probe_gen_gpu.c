/* probe_gen_gpu.c - the probe family's inputs made on the GPU: the host half
 * of kernels/probe_gen.h (see probe_gen.h, wb_probe_gen_gpu). Apart from
 * probe_gen.c so that the host generator builds without the kernels
 * (tests/hw/host_prep.c compiles it alone). */
#include <string.h>

#include "harness/gpu/cuda_check.h"
#include "kernels/probe_gen.h"
#include "micro/data.h"
#include "micro/probe_gen.h"

void wb_probe_gen_params_of(const wb_probe_gen *g, wb_probe_gen_params *p) {
    memset(p, 0, sizeof *p);
    p->n = g->n;
    p->dim_rows = g->dim_rows;
    p->passing = g->passing;
    p->hits = g->hits;
    p->seed = g->seed;
    p->dim_rank = g->dim_rank;
    p->row_rank = g->row_rank;
    p->chunk = WB_KEYS_CHUNK; /* fact_chunk's chunks: wb_par_chunks of WB_KEYS_CHUNK rows */
}

int wb_probe_gen_gpu(const wb_probe_gen *g, int32_t *dim_keys, int32_t *dim_vals, int32_t *fact, wb_probe_ref *ref,
                     wb_err *e) {
    wb_probe_gen_params p;
    wb_probe_gen_params_of(g, &p);
    unsigned long long *sums = NULL, got[WB_PROBE_GEN_SUMS];
    memset(ref, 0, sizeof *ref);
    int rc = wb_dev_alloc((void **)&sums, sizeof got, "probe reference sums", e);
    if (rc == WB_OK) rc = WB_CUDA(e, wb_probe_gen_dim_gpu(&p, dim_keys, dim_vals, 0));
    if (rc == WB_OK) rc = WB_CUDA(e, wb_probe_gen_fact_gpu(&p, fact, sums, 0));
    if (rc == WB_OK) rc = WB_CUDA(e, cudaDeviceSynchronize()); /* the kernels' errors land here, named */
    if (rc == WB_OK) rc = wb_download(got, sums, sizeof got, e);
    wb_dev_free(sums);
    if (rc != WB_OK) return rc;
    ref->sum = got[WB_PROBE_GEN_SUM];
    ref->packed_sum = got[WB_PROBE_GEN_PACKED_SUM];
    ref->matches = (int64_t)got[WB_PROBE_GEN_MATCHES];
    if (ref->matches != g->hits)
        return wb_fail(e, "probe data on the GPU: %lld fact rows matched, the generator makes exactly %lld",
                       (long long)ref->matches, (long long)g->hits);
    return WB_OK;
}

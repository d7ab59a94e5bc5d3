/* probe_gen_gpu.c - the probe family's inputs made on the GPU: the host half
 * of kernels/probe_gen.h (see probe_gen.h, wb_probe_gen_gpu). Apart from
 * probe_gen.c so that the host generator builds without the kernels
 * (tests/hw/host_prep.c compiles it alone). */
#include <stdlib.h>
#include <string.h>

#include "harness/gpu/cuda_check.h"
#include "kernels/probe_check.h"
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

int wb_probe_fine_gpu(const int32_t *keys, int64_t n, int shift, wb_probe_fine *fine, wb_err *e) {
    const int parts = WB_PROBE_PARTS_MAX;
    const size_t words = wb_probe_parts_summary_words(parts);
    int64_t *start = malloc(((size_t)parts + 1) * sizeof *start);
    uint64_t *summary = malloc(words * sizeof *summary);
    void *scratch = NULL;
    int rc = start && summary ? WB_OK : wb_fail(e, "fine buckets: out of host memory");
    if (rc == WB_OK) rc = wb_dev_alloc(&scratch, wb_probe_parts_check_bytes(parts), "fine buckets scratch", e);
    if (rc == WB_OK) {
        start[0] = 0; /* one run holds every key: the misplaced count is not used */
        for (int p = 1; p <= parts; p++) start[p] = n;
        rc = WB_CUDA(e, wb_probe_parts_check(keys, n, parts, shift, start, scratch, summary, 0));
    }
    if (rc == WB_OK) {
        memset(fine, 0, sizeof *fine);
        fine->shift = shift;
        int64_t inside = 0;
        for (int p = 0; p < parts; p++) {
            fine->count[p] = (int64_t)summary[2 + p];
            fine->print[p] = summary[2 + parts + p];
            inside += fine->count[p];
        }
        fine->outside = n - inside;
    }
    wb_dev_free(scratch);
    free(start), free(summary);
    return rc;
}

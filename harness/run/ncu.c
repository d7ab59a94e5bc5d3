/* ncu.c - the --ncu sample (see ncu.h). */
#include "harness/run/ncu.h"
#include "harness/gpu/cuda_check.h"

#include <nvtx3/nvToolsExt.h>

static wb_range_recorder recorder;
static void *recorder_ctx;

void wb_range_record(wb_range_recorder fn, void *ctx) {
    recorder = fn;
    recorder_ctx = ctx;
}

void wb_range_push(const char *name) {
    if (recorder) recorder(recorder_ctx, name);
    nvtxRangePushA(name);
}

void wb_range_pop(void) {
    if (recorder) recorder(recorder_ctx, NULL);
    nvtxRangePop();
}

int wb_ncu_sample_steps(const wb_ncu_steps *s, void *ctx, const char *name, double *ms, wb_err *e) {
    *ms = 0;
    if (s->prepare(ctx, e) != WB_OK) return WB_ERR;
    wb_range_push(name);
    int rc = s->timed_launch(ctx, e);
    wb_range_pop(); /* closed on failure too: a later point's range must not nest in it */
    return rc == WB_OK ? s->elapsed(ctx, ms, e) : WB_ERR;
}

typedef struct real {
    const wb_family *f;
    void *data;
    const wb_point *p;
    wb_timing *t;
} real;

static int real_prepare(void *ctx, wb_err *e) {
    real *r = ctx;
    return wb_timing_prepare(r->f, r->data, r->p, r->t, e);
}

static int real_launch(void *ctx, wb_err *e) {
    real *r = ctx;
    if (WB_CUDA(e, cudaEventRecord(r->t->start, r->t->stream)) ||
        r->f->launch(r->data, r->p, r->t->stream, e) != WB_OK || WB_CUDA(e, cudaGetLastError()))
        return WB_ERR;
    return WB_CUDA(e, cudaEventRecord(r->t->stop, r->t->stream));
}

static int real_elapsed(void *ctx, double *ms, wb_err *e) {
    real *r = ctx;
    float elapsed = 0;
    if (WB_CUDA(e, cudaEventSynchronize(r->t->stop)) ||
        WB_CUDA(e, cudaEventElapsedTime(&elapsed, r->t->start, r->t->stop)))
        return WB_ERR;
    *ms = elapsed;
    return WB_OK;
}

int wb_ncu_sample(const wb_family *f, void *data, const wb_point *p, wb_timing *t, const char *name, double *ms,
                  wb_err *e) {
    static const wb_ncu_steps steps = {real_prepare, real_launch, real_elapsed};
    real r = {f, data, p, t};
    return wb_ncu_sample_steps(&steps, &r, name, ms, e);
}

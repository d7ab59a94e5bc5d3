/* error.h - errors as values: every failing call fills a caller's wb_err with
 * what failed and why, and returns -1. The run loop prefixes the point.
 *
 * One policy per failure class: wb_cuda_check for CUDA runtime calls
 * (harness/gpu/cuda_check.h: the GPU floor), wb_fail for everything else.
 * The CUPTI and HDF5 helpers live in their modules (counters_cupti.c,
 * h5util.c) and end in the same wb_err. */
#ifndef WB_ERROR_H
#define WB_ERROR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wb_err {
    char msg[1024];
} wb_err;

/* Status codes shared by every callback: 0 ok, -1 error, WB_SKIP when the
 * point cannot run here (message says why; the run goes on). */
#define WB_OK 0
#define WB_ERR (-1)
#define WB_SKIP 1

/* Formats into e (if not NULL); returns WB_ERR. */
int wb_fail(wb_err *e, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Like wb_fail but returns WB_SKIP. */
int wb_skip(wb_err *e, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Prepends "prefix: " to e->msg (used to name the benchmark point). */
void wb_err_prefix(wb_err *e, const char *prefix);

#ifdef __cplusplus
}
#endif

#endif

/* error.c - formatting of wb_err (the CUDA policy, wb_cuda_check, lives in
 * harness/gpu/cuda_check.c: base links no CUDA library). */
#include "harness/base/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void vformat(wb_err *e, const char *fmt, va_list ap) {
    if (e) vsnprintf(e->msg, sizeof e->msg, fmt, ap);
}

int wb_fail(wb_err *e, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vformat(e, fmt, ap);
    va_end(ap);
    return WB_ERR;
}

int wb_skip(wb_err *e, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vformat(e, fmt, ap);
    va_end(ap);
    return WB_SKIP;
}

void wb_err_prefix(wb_err *e, const char *prefix) {
    if (!e) return;
    char tmp[sizeof e->msg];
    /* A message already near the buffer's size loses its end: say so with "..." rather than cut it
     * off silently. */
    if (snprintf(tmp, sizeof tmp, "%s: %s", prefix, e->msg) >= (int)sizeof tmp)
        memcpy(tmp + sizeof tmp - 4, "...", 4);
    memcpy(e->msg, tmp, sizeof tmp);
}

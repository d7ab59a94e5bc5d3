/* shard_spec.c - the I/N parser (see shard_spec.h). */
#include "harness/base/shard_spec.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int parse_count(const char *s, const char *end, long *v) {
    char *stop;
    if (s == end || *s < '0' || *s > '9') return -1;
    errno = 0;
    *v = strtol(s, &stop, 10);
    return stop == end && !errno ? 0 : -1;
}

int wb_shard_parse(const char *s, int *index, int *count, wb_err *e) {
    const char *slash = strchr(s, '/');
    long i = 0, n = 0;
    if (!slash || parse_count(s, slash, &i) || parse_count(slash + 1, slash + 1 + strlen(slash + 1), &n))
        return wb_fail(e, "bad --shard '%s': expected I/N, shard I of N, such as 1/4", s);
    if (n < 1 || n > WB_SHARD_MAX)
        return wb_fail(e, "bad --shard '%s': the shard count N must be 1..%d", s, WB_SHARD_MAX);
    if (i < 1 || i > n) return wb_fail(e, "bad --shard '%s': the shard index I must be 1..%ld", s, n);
    *index = (int)i;
    *count = (int)n;
    return WB_OK;
}

/* parse_int.c - see parse_int.h. */
#include "harness/base/parse_int.h"

#include <errno.h>
#include <stdlib.h>

int wb_parse_ll(const char *s, long long lo, long long hi, long long *out) {
    const char *digits = s + (*s == '-');
    if (*digits < '0' || *digits > '9') return -1; /* strtoll would take blanks and '+' first */
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (*end || errno == ERANGE || x < lo || x > hi) return -1;
    *out = x;
    return 0;
}

/* fingerprint.h - the host side of kernels/fingerprint.h: the fingerprint a
 * reference's elements must have, summed on every core. */
#ifndef WB_MICRO_FINGERPRINT_H
#define WB_MICRO_FINGERPRINT_H

#include <stdint.h>

#include "kernels/fingerprint.h"

/* The fingerprint of x[0, n) (elem 4 or 8 bytes) at positions first + i. */
uint64_t wb_print_host(const void *x, int64_t n, int elem, int64_t first);
/* The fingerprint of n elements at positions first + i that all hold the
 * byte `byte` (poison). */
uint64_t wb_print_fill(int64_t n, int elem, int byte, int64_t first);

#endif

/* grow.c - see grow.h. */
#include "harness/base/grow.h"

#include <stdlib.h>
#include <string.h>

int wb_grow(void *items_ptr, int n, int *cap, size_t elem, int first) {
    if (n < *cap) return 0;
    void *items;
    memcpy(&items, items_ptr, sizeof items); /* items_ptr is a T **, whatever T */
    int ncap = *cap ? 2 * *cap : first;
    void *grown = realloc(items, (size_t)ncap * elem);
    if (!grown) return -1;
    memcpy(items_ptr, &grown, sizeof grown);
    *cap = ncap;
    return 0;
}

/* grow.h - the one growable array: room for one more element, doubling. */
#ifndef WB_GROW_H
#define WB_GROW_H

#include <stddef.h>

/* items_ptr is the address of the array pointer (T **), n the elements in
 * use, *cap the elements allocated, elem the element size, first the
 * capacity of the first allocation. Returns 0 when element n fits (after
 * doubling *cap if needed), -1 when out of memory (the array is kept). */
int wb_grow(void *items_ptr, int n, int *cap, size_t elem, int first);

#endif

/* compress_ref.h - the compress family's host side: the columns (one per
 * layout and bit width), the encoders of the three compressed forms
 * (kernels/compress.h holds the format), the CPU decoder that reads the
 * encoded bytes back without the GPU's code, and the reference answers. Plain
 * C with no GPU calls, so tests/test_compress_ref.c exercises all of it. */
#ifndef WB_COMPRESS_REF_H
#define WB_COMPRESS_REF_H

#include <stdint.h>

#include "harness/base/error.h"
#include "kernels/compress.h"

/* The data layouts (the layout axis), each drawn to fill bit width w:
 * uniform: lo + [0, 2^w), lo random (the frame-of-reference case);
 * skewed: uniform at w, and one row in 2^16 an outlier anywhere in int32
 *         (the per-tile width keeps the other tiles narrow);
 * sorted: a running sum of gaps uniform in [0, 2^w), wrapping in uint32
 *         (the delta case: sorted between wraps);
 * dict: draws of a sorted dictionary of 2^w distinct values spread over
 *       int32 (w <= WB_COMPRESS_DICT_BITS_MAX; the dictionary case). */
typedef enum { WB_CLAYOUT_UNIFORM, WB_CLAYOUT_SKEWED, WB_CLAYOUT_SORTED, WB_CLAYOUT_DICT, WB_CLAYOUTS } wb_clayout;
#define WB_COMPRESS_OUTLIER_BITS 16

/* The layout's name (the layout axis), and back (-1: none). */
const char *wb_clayout_name(wb_clayout l);
int wb_clayout_of(const char *name);

/* A column: x[0, n) and, for the dict layout, its dictionary. */
typedef struct wb_ccolumn {
    int64_t n;
    int32_t *x;
    int32_t *dict; /* sorted, distinct; NULL but for dict */
    int32_t dict_n;
} wb_ccolumn;

/* Fills c for the layout at width w (1..32; dict: 1..12) from seed, on every
 * CPU (the values do not depend on the worker count). WB_ERR with e (bad
 * width, out of memory). */
int wb_ccolumn_make(wb_ccolumn *c, wb_clayout layout, int w, int64_t n, uint64_t seed, wb_err *e);
void wb_ccolumn_free(wb_ccolumn *c);

/* An encoded column in host memory (the device copy has the same arrays). */
typedef struct wb_cenc {
    wb_compress_form form;
    int64_t n, tiles, words;
    wb_compress_tile *head;
    uint32_t *payload;
    int32_t *base;  /* delta: 32 a tile */
    int32_t *dict;  /* dict: a copy of the column's dictionary */
    int32_t dict_n;
} wb_cenc;

/* Encodes x[0, n) in the form (for, delta; dict with the sorted distinct
 * dictionary dict[0, dict_n), every x in it). Tiles are independent and
 * encoded on every CPU. WB_ERR with e: out of memory, a value missing from
 * the dictionary, a dictionary above 2^12 entries or not sorted. */
int wb_cenc_make(wb_cenc *enc, wb_compress_form form, const int32_t *x, int64_t n, const int32_t *dict,
                 int32_t dict_n, wb_err *e);
void wb_cenc_free(wb_cenc *enc);
/* The bytes a scan of the encoded column reads: payload, headers, lane
 * bases, dictionary. */
double wb_cenc_bytes(const wb_cenc *enc);
/* Mean bits a row of the payload holds (the tiles' widths, averaged). */
double wb_cenc_mean_width(const wb_cenc *enc);
/* Decodes row i from the encoded bytes alone (the CPU decoder). */
int32_t wb_cenc_at(const wb_cenc *enc, int64_t i);

/* The threshold t of a selectivity s: the s-quantile of 4097 rows drawn
 * from x (seeded), so that about a share s of the rows is below it. */
int32_t wb_compress_threshold(const int32_t *x, int64_t n, double s, uint64_t seed);

/* The reference: the sum of the rows below t (int64, wrapping as the
 * kernels' unsigned atomics do) and their count. */
typedef struct wb_cref {
    uint64_t sum;
    int64_t count;
} wb_cref;
wb_cref wb_compress_reference(const int32_t *x, int64_t n, int32_t t);

/* Checks a selection's output: got[0, n) as downloaded (poisoned with -1
 * before the run), count the cursor. Exact: count equals ref, every index of
 * got[0, count) is in range, below t in x and seen once, every slot from
 * count on still -1. WB_OK, or WB_ERR with the first mismatches in e. */
int wb_compress_check_select(const int32_t *got, int64_t count, const int32_t *x, int64_t n, int32_t t,
                             int64_t ref_count, wb_err *e);
/* The same check on every CPU, got read in pieces of piece_rows rows as
 * fetch brings them (a download from the device: no n-row copy on the host,
 * whose first touch alone took 0.8-1.2 s a GiB on one core of the 2-core
 * build machine). Whether every
 * condition holds does not depend on the order (rows are marked seen with
 * atomic ORs); on a mismatch, got is fetched whole and e is what
 * wb_compress_check_select reports. fetch copies got[k0, k0 + rows) into dst,
 * WB_ERR with e on failure. */
typedef int (*wb_csel_fetch)(void *ctx, int32_t *dst, int64_t k0, int64_t rows, wb_err *e);
int wb_compress_check_select_pieces(wb_csel_fetch fetch, void *ctx, int64_t piece_rows, int64_t count, const int32_t *x,
                                 int64_t n, int32_t t, int64_t ref_count, wb_err *e);

#endif

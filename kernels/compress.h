/* compress.h - the compress family (issue 51): an int32 column scanned by a
 * predicated sum (SUM(v) WHERE v < t) and by a selection (the row indices
 * where v < t), read plain or compressed, the compressed forms decoded in
 * registers inline with the operator (no decompression pass): GPU-FOR's
 * tile-based frame of reference + bit-packing (Shanbhag et al., SIGMOD'22),
 * its delta form for sorted columns, and dictionary codes. The point is the
 * trade the issue measures: instructions spent decoding for bytes not read.
 *
 * The compressed format (one for the three forms; micro/compress_ref.c is
 * the encoder and the CPU decoder, these kernels the GPU decoder):
 * - a tile is WB_COMPRESS_TILE = 4096 rows, decoded by one warp: lane l
 *   holds rows l*128 .. l*128+127 as 4 streams of 32 (stream m: rows
 *   l*128 + m*32 + j, j = 0..31), each packed LSB first at w bits a value
 *   into w 32-bit words; w (0..32) is the tile's own width;
 * - word k of lane l's stream m sits at payload[off + (m*w + k)*32 + l], so
 *   a warp reads a stream of its tile as w loads of 128 contiguous bytes:
 *   128 * w words a tile;
 * - the tile header (16 bytes): ref, the payload offset off (words), w;
 * - for: code = v - ref (ref the tile's minimum, uint32 arithmetic);
 *   delta: code = v[r] - v[r-1] within a lane's 128 rows (0 for its first),
 *   base[tile*32 + l] = the lane's first value, decoded by a running sum;
 *   dict: code = the rank of v in the column's sorted dictionary minus the
 *   tile's smallest rank ref; v = dict[ref + code];
 * - rows past n in the last tile hold code 0 and are never read back.
 * Bytes read: payload + 16 per tile (+ 128 per tile of lane bases for
 * delta, + 4 per entry of the dictionary). */
#ifndef WB_KERNELS_COMPRESS_H
#define WB_KERNELS_COMPRESS_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#include "kernels/launch.h"
#include "kernels/variant_list.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WB_COMPRESS_TILE 4096
#define WB_COMPRESS_LANE_ROWS 128
#define WB_COMPRESS_STREAM 32
/* The dictionary lives in shared memory: at most 2^12 entries (16 KiB). */
#define WB_COMPRESS_DICT_BITS_MAX 12

/* Variants, in run order: op x form, and CUB as the library peer of the sum. */
#define WB_COMPRESS_VARIANT_LIST(X) \
    /* 16-byte loads of the plain column, a warp a tile of 4096 rows: the
     * DRAM read roof over 4 bytes a row */ \
    X(WB_COMPRESS_PLAIN_SUM, "plain_sum", "predicated sum over the plain int32 column") \
    /* per-tile width, decoded in registers: the read roof over w/8 bytes a
     * row until decoding's instructions bind */ \
    X(WB_COMPRESS_FOR_SUM, "for_sum", "predicated sum over frame of reference + bit-packing, a width per tile") \
    X(WB_COMPRESS_DELTA_SUM, "delta_sum", "predicated sum over delta + bit-packing (sorted columns)") \
    X(WB_COMPRESS_DICT_SUM, "dict_sum", "predicated sum over bit-packed dictionary codes, dictionary in shared memory") \
    /* the selection: a lane's qualifying row indices as flag words, one
     * warp scan and one atomic a tile, each lane's run written at its offset */ \
    X(WB_COMPRESS_PLAIN_SELECT, "plain_select", "row indices where v < t, plain column") \
    X(WB_COMPRESS_FOR_SELECT, "for_select", "row indices where v < t, frame of reference + bit-packing") \
    X(WB_COMPRESS_DELTA_SELECT, "delta_select", "row indices where v < t, delta + bit-packing") \
    X(WB_COMPRESS_DICT_SELECT, "dict_select", "row indices where v < t, dictionary codes") \
    /* cub::DeviceReduce::TransformReduce over the plain column */ \
    X(WB_COMPRESS_CUB_SUM, "cub_sum", "cub::DeviceReduce::TransformReduce of the plain column (library peer)")
typedef enum wb_compress_variant { WB_COMPRESS_VARIANT_LIST(WB_VARIANT_ENUM) WB_COMPRESS_VARIANTS } wb_compress_variant;

typedef enum wb_compress_form { WB_FORM_PLAIN, WB_FORM_FOR, WB_FORM_DELTA, WB_FORM_DICT } wb_compress_form;

/* A tile's header; 16 bytes, one load. */
typedef struct wb_compress_tile {
    int32_t ref;   /* for: the tile's minimum; dict: its smallest rank; delta: unused (0) */
    uint32_t off;  /* first payload word of the tile */
    uint32_t width;
    uint32_t pad;  /* 0 */
} wb_compress_tile;

/* An encoded column (device pointers in a launch, host ones in the reference). */
typedef struct wb_compress_col {
    wb_compress_form form;
    int64_t n, tiles;
    const wb_compress_tile *head; /* tiles entries */
    const uint32_t *payload;      /* 16-byte aligned */
    int64_t words;                /* payload words */
    const int32_t *base;          /* delta: 32 a tile; else NULL */
    const int32_t *dict;          /* dict: sorted, distinct; else NULL */
    int32_t dict_n;
} wb_compress_col;

/* What a launch reads and writes. */
typedef struct wb_compress_io {
    const int32_t *plain;          /* the plain column (plain and cub variants) */
    wb_compress_col col;           /* the encoded column (the others) */
    int64_t n;
    int32_t t;                     /* v < t qualifies */
    int32_t rank_t;                /* dict: the dictionary's entries below t */
    unsigned long long *sum;       /* sum variants: += the qualifying values (two's complement int64) */
    unsigned long long *count;     /* select variants: the cursor, 0 before the launch */
    int32_t *out;                  /* select variants: n slots */
    void *temp;                    /* cub's scratch */
    size_t temp_bytes;
} wb_compress_io;

wb_compress_form wb_compress_form_of(int variant);
int wb_compress_is_select(int variant);

/* The one block size the kernels are compiled for (a tile is a warp's, so
 * the block sets only how many tiles share a block's shared dictionary). */
#define WB_COMPRESS_BLOCK 256

/* Completes l (block WB_COMPRESS_BLOCK; ILP is the tile's 128 rows a lane,
 * not an axis) and l->temp_bytes (cub). Returns the first CUDA error;
 * cudaErrorInvalidValue for another block size. */
cudaError_t wb_compress_plan(int variant, wb_launch *l, int64_t n);

/* Enqueues the variant on s; nothing when n is 0. */
cudaError_t wb_compress_launch(int variant, const wb_launch *l, const wb_compress_io *io, cudaStream_t s);

#ifdef __cplusplus
}
#endif

/* Where a lane's item sits: payload word k of lane l's stream m in a tile
 * of width w (relative to its off), and the row of a lane's slot s = m*32 + j. Shared
 * by the encoder and both decoders. */
#ifdef __CUDACC__
#define WB_COMPRESS_HD static __host__ __device__ __forceinline__
#else
#define WB_COMPRESS_HD static inline
#endif
WB_COMPRESS_HD int64_t wb_compress_word_at(int w, int m, int k, int lane) { return ((int64_t)m * w + k) * 32 + lane; }
WB_COMPRESS_HD int wb_compress_row_at(int lane, int slot) { return lane * WB_COMPRESS_LANE_ROWS + slot; }
/* Value j (0..31) of a stream of width w from its words (w of them). */
WB_COMPRESS_HD uint32_t wb_compress_unpack(const uint32_t *words, int w, int j) {
    if (w == 0) return 0;
    const int bit = j * w, k = bit >> 5, sh = bit & 31;
    uint64_t x = words[k] >> sh;
    if (sh + w > 32) x |= (uint64_t)words[k + 1] << (32 - sh);
    return w == 32 ? (uint32_t)x : (uint32_t)x & ((1u << w) - 1u);
}

#endif

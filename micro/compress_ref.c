/* compress_ref.c - the compress family's columns, encoders, CPU decoder and
 * reference (compress_ref.h). Every row is a function of (seed, row) or a
 * prefix of such, so the parallel loops give the same data on any number of
 * workers. */
#include "micro/compress_ref.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "micro/data.h"
#include "micro/parallel.h"

#define CHUNK_TILES 64
#define CHUNK ((int64_t)CHUNK_TILES * WB_COMPRESS_TILE)

static const char *const layout_names[WB_CLAYOUTS] = {"uniform", "skewed", "sorted", "dict"};

const char *wb_clayout_name(wb_clayout l) { return l >= 0 && l < WB_CLAYOUTS ? layout_names[l] : "?"; }
int wb_clayout_of(const char *name) {
    for (int l = 0; l < WB_CLAYOUTS; l++)
        if (strcmp(name, layout_names[l]) == 0) return l;
    return -1;
}

static uint32_t low_bits(uint64_t r, int w) { return w >= 32 ? (uint32_t)r : (uint32_t)(r & ((1ull << w) - 1)); }

typedef struct fill_job {
    const wb_ccolumn *c;
    wb_clayout layout;
    int w;
    uint64_t seed;
    int32_t lo;
    uint32_t *chunk_sums; /* sorted: the gaps of each chunk, summed */
} fill_job;

/* uniform, skewed, dict: each row on its own; sorted: the gaps, summed up
 * within the chunk (the chunks' prefix is added by offset_chunk). */
static void fill_chunk(void *ctx, int worker, int64_t chunk, int64_t begin, int64_t end) {
    const fill_job *j = ctx;
    (void)worker;
    int32_t *x = j->c->x;
    uint32_t run = 0;
    for (int64_t i = begin; i < end; i++) {
        const uint64_t r = wb_rng_at(j->seed, (uint64_t)i);
        switch (j->layout) {
        case WB_CLAYOUT_UNIFORM: x[i] = (int32_t)((uint32_t)j->lo + low_bits(r, j->w)); break;
        case WB_CLAYOUT_SKEWED:
            x[i] = (r >> 48) < (1ull << (16 - WB_COMPRESS_OUTLIER_BITS)) ? (int32_t)(uint32_t)(r >> 16)
                                                                          : (int32_t)((uint32_t)j->lo + low_bits(r, j->w));
            break;
        case WB_CLAYOUT_SORTED: run += low_bits(r, j->w), x[i] = (int32_t)run; break;
        default: x[i] = j->c->dict[wb_mulhi(r, (uint64_t)j->c->dict_n)]; break;
        }
    }
    if (j->layout == WB_CLAYOUT_SORTED) j->chunk_sums[chunk] = run;
}

static void offset_chunk(void *ctx, int worker, int64_t chunk, int64_t begin, int64_t end) {
    const fill_job *j = ctx;
    (void)worker;
    const uint32_t add = j->chunk_sums[chunk];
    for (int64_t i = begin; i < end; i++) j->c->x[i] = (int32_t)((uint32_t)j->c->x[i] + add);
}

static int cmp_i32(const void *a, const void *b) {
    const int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* 2^w distinct values spread over int32, sorted: draws, sorted, and each
 * duplicate replaced by the next free value (at most 4096 of them). */
static int make_dict(wb_ccolumn *c, int w, uint64_t seed, wb_err *e) {
    c->dict_n = (int32_t)1 << w;
    c->dict = wb_host_alloc((size_t)c->dict_n * sizeof(int32_t), "compress dictionary", e);
    if (!c->dict) return WB_ERR;
    uint64_t s = seed ^ 0xD1C7D1C7D1C7D1C7ull;
    for (int32_t i = 0; i < c->dict_n; i++) c->dict[i] = (int32_t)(uint32_t)wb_rng_next(&s);
    qsort(c->dict, (size_t)c->dict_n, sizeof(int32_t), cmp_i32);
    for (int32_t i = 1; i < c->dict_n; i++)
        if (c->dict[i] <= c->dict[i - 1]) {
            if (c->dict[i - 1] == INT32_MAX) return wb_fail(e, "compress dictionary: no room above %d", INT32_MAX);
            c->dict[i] = c->dict[i - 1] + 1;
        }
    return WB_OK;
}

int wb_ccolumn_make(wb_ccolumn *c, wb_clayout layout, int w, int64_t n, uint64_t seed, wb_err *e) {
    memset(c, 0, sizeof *c);
    if (layout < 0 || layout >= WB_CLAYOUTS) return wb_fail(e, "compress: no layout %d", (int)layout);
    const int most = layout == WB_CLAYOUT_DICT ? WB_COMPRESS_DICT_BITS_MAX : 32;
    if (w < 1 || w > most)
        return wb_fail(e, "compress: bit width %d outside 1..%d for the %s layout", w, most, wb_clayout_name(layout));
    if (n < 0) return wb_fail(e, "compress: %lld rows", (long long)n);
    c->n = n;
    c->x = wb_host_alloc((size_t)(n ? n : 1) * sizeof(int32_t), "compress column", e);
    if (!c->x || (layout == WB_CLAYOUT_DICT && make_dict(c, w, seed, e) != WB_OK)) return wb_ccolumn_free(c), WB_ERR;
    uint64_t s = seed;
    const uint32_t span = w >= 32 ? 0 : 1u << w; /* lo + [0, 2^w) stays in int32 */
    const int32_t lo = w >= 32 ? INT32_MIN : (int32_t)((uint32_t)INT32_MIN + (uint32_t)wb_rng_below(&s, (1ull << 32) - span + 1));
    const int64_t chunks = (n + CHUNK - 1) / CHUNK;
    fill_job j = {c, layout, w, wb_rng_next(&s), lo, NULL};
    if (layout == WB_CLAYOUT_SORTED &&
        !(j.chunk_sums = wb_host_alloc((size_t)(chunks ? chunks : 1) * sizeof(uint32_t), "compress prefix", e)))
        return wb_ccolumn_free(c), WB_ERR;
    wb_par_chunks(n, CHUNK, fill_chunk, &j);
    if (layout == WB_CLAYOUT_SORTED) {
        uint32_t prefix = (uint32_t)lo; /* the column starts at lo */
        for (int64_t k = 0; k < chunks; k++) {
            const uint32_t sum = j.chunk_sums[k];
            j.chunk_sums[k] = prefix;
            prefix += sum;
        }
        wb_par_chunks(n, CHUNK, offset_chunk, &j);
        free(j.chunk_sums);
    }
    return WB_OK;
}

void wb_ccolumn_free(wb_ccolumn *c) {
    free(c->x);
    free(c->dict);
    memset(c, 0, sizeof *c);
}

/* ---- the encoders ---- */

static int bits_of(uint32_t v) { return v ? 32 - __builtin_clz(v) : 0; }

/* The dictionary's ranks by value, for the encoder's lookup of every row: open
 * addressing, linear probing, at most half full (so a probe always ends at an
 * empty slot). With a binary search per row, in both passes, the encoder took
 * 21.5 s on one core for 2^28 rows at 2^8 entries; with this, once per row,
 * 1.7-2.3 s. */
typedef struct rank_slot {
    int32_t value, rank; /* rank -1: empty */
} rank_slot;

typedef struct rank_table {
    rank_slot *slot;
    uint32_t mask;
    int shift;
} rank_table;

static uint32_t rank_hash(const rank_table *h, int32_t v) { return ((uint32_t)v * 0x9E3779B1u) >> h->shift; }

static int rank_table_make(rank_table *h, const int32_t *dict, int32_t dict_n, wb_err *e) {
    int bits = 1;
    while (((int64_t)1 << bits) < 2 * (int64_t)dict_n) bits++;
    h->mask = (1u << bits) - 1, h->shift = 32 - bits;
    if (!(h->slot = wb_host_alloc(((size_t)h->mask + 1) * sizeof *h->slot, "compress dictionary ranks", e))) return WB_ERR;
    for (uint32_t i = 0; i <= h->mask; i++) h->slot[i] = (rank_slot){0, -1};
    for (int32_t k = 0; k < dict_n; k++) {
        uint32_t i = rank_hash(h, dict[k]);
        while (h->slot[i].rank >= 0) i = (i + 1) & h->mask;
        h->slot[i] = (rank_slot){dict[k], k};
    }
    return WB_OK;
}

/* The rank of v in the dictionary, or -1. */
static int32_t rank_of(const rank_table *h, int32_t v) {
    for (uint32_t i = rank_hash(h, v);; i = (i + 1) & h->mask) {
        const rank_slot s = h->slot[i];
        if (s.rank < 0 || s.value == v) return s.rank;
    }
}

typedef struct enc_job {
    wb_cenc *enc;
    const int32_t *x;
    rank_table ranks;        /* dict */
    _Atomic int64_t missing; /* tiles with a value missing from the dictionary */
} enc_job;

/* A tile's rows [0, valid) (the last tile is short). */
static int tile_rows(const enc_job *j, int64_t tile, const int32_t **x) {
    const int64_t row0 = tile * WB_COMPRESS_TILE, n = j->enc->n;
    *x = j->x + row0;
    return n - row0 < WB_COMPRESS_TILE ? (int)(n - row0) : WB_COMPRESS_TILE;
}

/* Pass 1: a tile's header but its offset: ref and the width of its largest
 * code. FOR and dict need no codes for it: ranks keep the values' order, so
 * the largest code is max - min (of values, or of their ranks). A value
 * missing from the dictionary is found by pass 2 (every row's rank); the
 * width it gives here is still in 0..32. */
static void tile_head(const enc_job *j, int64_t tile, wb_compress_tile *h) {
    const int32_t *x;
    const int valid = tile_rows(j, tile, &x);
    uint32_t most = 0;
    h->ref = 0, h->pad = 0;
    if (j->enc->form == WB_FORM_DELTA) { /* the OR of the gaps within each lane has the largest's top bit */
        for (int r0 = 0; r0 < valid; r0 += WB_COMPRESS_LANE_ROWS) {
            const int end = valid - r0 < WB_COMPRESS_LANE_ROWS ? valid : r0 + WB_COMPRESS_LANE_ROWS;
            for (int r = r0 + 1; r < end; r++) most |= (uint32_t)x[r] - (uint32_t)x[r - 1];
        }
    } else {
        int32_t lo = x[0], hi = x[0];
        for (int r = 1; r < valid; r++) lo = x[r] < lo ? x[r] : lo, hi = x[r] > hi ? x[r] : hi;
        if (j->enc->form == WB_FORM_DICT) lo = rank_of(&j->ranks, lo), hi = rank_of(&j->ranks, hi);
        h->ref = lo, most = (uint32_t)hi - (uint32_t)lo;
    }
    h->width = (uint32_t)bits_of(most);
}

/* Pass 2: row r of a tile's codes, code[lane*128 + slot] (0 past n), and the
 * lane bases (delta); bad: a value missing from the dictionary. */
static void tile_codes(const enc_job *j, int64_t tile, int32_t ref, uint32_t *code, int32_t *base, int *bad) {
    const int32_t *x;
    const int valid = tile_rows(j, tile, &x);
    *bad = 0;
    switch (j->enc->form) {
    case WB_FORM_DELTA: /* a lane's first row is its base, code 0 */
        for (int r = 1; r < valid; r++) code[r] = (uint32_t)x[r] - (uint32_t)x[r - 1];
        for (int l = 0; l < 32; l++) {
            const int r0 = l * WB_COMPRESS_LANE_ROWS;
            base[l] = r0 < valid ? x[r0] : 0;
            code[r0] = 0;
        }
        break;
    case WB_FORM_DICT:
        for (int r = 0; r < valid; r++) {
            const int32_t k = rank_of(&j->ranks, x[r]);
            *bad |= k < 0;
            code[r] = (uint32_t)k - (uint32_t)ref;
        }
        break;
    default:
        for (int r = 0; r < valid; r++) code[r] = (uint32_t)x[r] - (uint32_t)ref;
    }
    /* in a loop of its own, so that the compiler vectorizes the ones above */
    for (int r = valid; r < WB_COMPRESS_TILE; r++) code[r] = 0;
}

/* One stream: its 32 codes (each below 2^w), LSB first into w words, word k
 * at out[k * 32] (compress.h: a stream's words are 32 apart, one per lane).
 * All 32 * w bits are the codes', so every word is written whole. */
static void pack_stream(const uint32_t *v, int w, uint32_t *out) {
    uint64_t acc = 0;
    int have = 0;
    for (int jv = 0; jv < 32; jv++) {
        acc |= (uint64_t)v[jv] << have;
        if ((have += w) >= 32) *out = (uint32_t)acc, out += 32, acc >>= 32, have -= 32;
    }
}

/* Pass 1 (pack = 0): the tiles' headers; pass 2: their words and lane bases. */
static void tiles_pass(enc_job *j, int64_t first, int64_t last, int pack) {
    uint32_t code[WB_COMPRESS_TILE];
    int32_t base[32];
    wb_cenc *enc = j->enc;
    for (int64_t t = first; t < last; t++) {
        wb_compress_tile *h = &enc->head[t];
        if (!pack) {
            tile_head(j, t, h);
            continue;
        }
        int bad;
        tile_codes(j, t, h->ref, code, base, &bad);
        if (bad) {
            j->missing++;
            continue;
        }
        if (enc->base) memcpy(enc->base + t * 32, base, sizeof base);
        const int w = (int)h->width;
        for (int l = 0; l < 32 && w > 0; l++)
            for (int m = 0; m < 4; m++)
                pack_stream(code + wb_compress_row_at(l, m * 32), w, enc->payload + h->off + wb_compress_word_at(w, m, 0, l));
    }
}

static void widths_chunk(void *ctx, int worker, int64_t chunk, int64_t begin, int64_t end) {
    (void)worker, (void)chunk;
    tiles_pass(ctx, begin, end, 0);
}
static void pack_chunk(void *ctx, int worker, int64_t chunk, int64_t begin, int64_t end) {
    (void)worker, (void)chunk;
    tiles_pass(ctx, begin, end, 1);
}

/* The two passes over the tiles and, between them, the tiles' offsets and the
 * payload's allocation. WB_ERR with e; the caller frees. */
static int encode_tiles(enc_job *j, wb_err *e) {
    wb_cenc *enc = j->enc;
    wb_par_chunks(enc->tiles, CHUNK_TILES, widths_chunk, j);
    uint64_t off = 0;
    for (int64_t t = 0; t < enc->tiles; t++) {
        if (off > UINT32_MAX) return wb_fail(e, "compress: payload above 2^32 words");
        enc->head[t].off = (uint32_t)off;
        off += 128u * enc->head[t].width;
    }
    enc->words = (int64_t)off;
    /* 4 words more than the payload, so that a 16-byte copy never ends short */
    if (!(enc->payload = wb_host_alloc((size_t)(off + 4) * sizeof(uint32_t), "compress payload", e))) return WB_ERR;
    memset(enc->payload + off, 0, 4 * sizeof(uint32_t));
    wb_par_chunks(enc->tiles, CHUNK_TILES, pack_chunk, j);
    if (j->missing) return wb_fail(e, "compress: %lld tile(s) hold a value missing from the dictionary", (long long)j->missing);
    return WB_OK;
}

int wb_cenc_make(wb_cenc *enc, wb_compress_form form, const int32_t *x, int64_t n, const int32_t *dict,
                 int32_t dict_n, wb_err *e) {
    memset(enc, 0, sizeof *enc);
    if (form != WB_FORM_FOR && form != WB_FORM_DELTA && form != WB_FORM_DICT)
        return wb_fail(e, "compress: form %d is not an encoding", (int)form);
    if (form == WB_FORM_DICT) {
        if (!dict || dict_n < 1 || dict_n > (1 << WB_COMPRESS_DICT_BITS_MAX))
            return wb_fail(e, "compress: a dictionary of %d entries (1..%d)", (int)dict_n, 1 << WB_COMPRESS_DICT_BITS_MAX);
        for (int32_t i = 1; i < dict_n; i++)
            if (dict[i] <= dict[i - 1]) return wb_fail(e, "compress: dictionary not sorted and distinct at %d", (int)i);
    }
    enc->form = form, enc->n = n;
    enc->tiles = (n + WB_COMPRESS_TILE - 1) / WB_COMPRESS_TILE;
    const size_t tiles = (size_t)(enc->tiles ? enc->tiles : 1);
    enc->head = wb_host_alloc(tiles * sizeof *enc->head, "compress tile headers", e);
    if (!enc->head) return WB_ERR;
    if (form == WB_FORM_DELTA && !(enc->base = wb_host_alloc(tiles * 32 * sizeof(int32_t), "compress lane bases", e)))
        return wb_cenc_free(enc), WB_ERR;
    if (form == WB_FORM_DICT) {
        if (!(enc->dict = wb_host_alloc((size_t)dict_n * sizeof(int32_t), "compress dictionary copy", e)))
            return wb_cenc_free(enc), WB_ERR;
        memcpy(enc->dict, dict, (size_t)dict_n * sizeof(int32_t));
        enc->dict_n = dict_n;
    }
    enc_job j = {enc, x, {NULL, 0, 0}, 0};
    if (form == WB_FORM_DICT && rank_table_make(&j.ranks, dict, dict_n, e) != WB_OK) return wb_cenc_free(enc), WB_ERR;
    const int rc = encode_tiles(&j, e);
    free(j.ranks.slot);
    if (rc != WB_OK) wb_cenc_free(enc);
    return rc;
}

void wb_cenc_free(wb_cenc *enc) {
    free(enc->head);
    free(enc->payload);
    free(enc->base);
    free(enc->dict);
    memset(enc, 0, sizeof *enc);
}

double wb_cenc_bytes(const wb_cenc *enc) {
    return 4.0 * (double)enc->words + (double)sizeof(wb_compress_tile) * (double)enc->tiles +
           (enc->base ? 128.0 * (double)enc->tiles : 0) + 4.0 * (double)enc->dict_n;
}

double wb_cenc_mean_width(const wb_cenc *enc) {
    return enc->tiles ? (double)enc->words / (128.0 * (double)enc->tiles) : 0;
}

/* ---- the CPU decoder: row i from the bytes, as compress.h lays them ---- */

int32_t wb_cenc_at(const wb_cenc *enc, int64_t i) {
    const int64_t t = i / WB_COMPRESS_TILE;
    const int r = (int)(i % WB_COMPRESS_TILE), lane = r / WB_COMPRESS_LANE_ROWS, slot = r % WB_COMPRESS_LANE_ROWS;
    const wb_compress_tile *h = &enc->head[t];
    const int w = (int)h->width;
    uint32_t words[33], run = 0;
    for (int m = 0; m <= slot / 32; m++) {
        /* the stream's words, then its values: delta sums every slot before this one */
        for (int k = 0; k < w; k++) words[k] = enc->payload[h->off + wb_compress_word_at(w, m, k, lane)];
        words[w] = 0;
        if (enc->form != WB_FORM_DELTA && m < slot / 32) continue;
        if (enc->form == WB_FORM_FOR) return (int32_t)((uint32_t)h->ref + wb_compress_unpack(words, w, slot % 32));
        if (enc->form == WB_FORM_DICT) return enc->dict[h->ref + (int32_t)wb_compress_unpack(words, w, slot % 32)];
        if (m == 0) run = (uint32_t)enc->base[t * 32 + lane];
        const int last = m < slot / 32 ? 31 : slot % 32;
        for (int jv = m == 0 ? 1 : 0; jv <= last; jv++) run += wb_compress_unpack(words, w, jv);
        if (m == slot / 32) return (int32_t)run;
    }
    return 0; /* not reached */
}

/* ---- threshold, reference, the selection's check ---- */

int32_t wb_compress_threshold(const int32_t *x, int64_t n, double s, uint64_t seed) {
    enum { SAMPLE = 4097 };
    if (n <= 0) return 0;
    int32_t v[SAMPLE];
    for (int i = 0; i < SAMPLE; i++) v[i] = x[wb_mulhi(wb_rng_at(seed, (uint64_t)i), (uint64_t)n)];
    qsort(v, SAMPLE, sizeof v[0], cmp_i32);
    const int k = (int)(s * (SAMPLE - 1) + 0.5);
    return v[k < 0 ? 0 : k >= SAMPLE ? SAMPLE - 1 : k];
}

typedef struct ref_job {
    const int32_t *x;
    int32_t t;
    uint64_t sum[WB_PAR_MAX];
    int64_t count[WB_PAR_MAX];
} ref_job;

static void ref_chunk(void *ctx, int worker, int64_t chunk, int64_t begin, int64_t end) {
    ref_job *j = ctx;
    (void)chunk;
    uint64_t sum = 0;
    int64_t count = 0;
    for (int64_t i = begin; i < end; i++)
        if (j->x[i] < j->t) sum += (uint64_t)(int64_t)j->x[i], count++;
    j->sum[worker] += sum, j->count[worker] += count;
}

wb_cref wb_compress_reference(const int32_t *x, int64_t n, int32_t t) {
    ref_job j = {x, t, {0}, {0}};
    wb_par_chunks(n, CHUNK, ref_chunk, &j);
    wb_cref r = {0, 0};
    for (int w = 0; w < WB_PAR_MAX; w++) r.sum += j.sum[w], r.count += j.count[w];
    return r;
}

/* The checks of the count alone (both checks below start with them). */
static int check_count(int64_t count, int64_t n, int64_t ref_count, wb_err *e) {
    if (count != ref_count)
        return wb_fail(e, "compress selection: %lld rows selected, the reference selects %lld", (long long)count,
                       (long long)ref_count);
    if (count < 0 || count > n) return wb_fail(e, "compress selection: count %lld of %lld rows", (long long)count, (long long)n);
    return WB_OK;
}

int wb_compress_check_select(const int32_t *got, int64_t count, const int32_t *x, int64_t n, int32_t t,
                             int64_t ref_count, wb_err *e) {
    if (check_count(count, n, ref_count, e) != WB_OK) return WB_ERR;
    uint64_t *seen = calloc((size_t)(n / 64 + 1), sizeof(uint64_t));
    if (!seen) return wb_fail(e, "compress selection check: out of host memory");
    wb_mismatches m;
    wb_mismatch_init(&m);
    for (int64_t k = 0; k < count; k++) {
        const int64_t i = got[k];
        if (i < 0 || i >= n) {
            wb_mismatch_add(&m, k, "an index out of range", "a row index");
        } else if (seen[i / 64] >> (i % 64) & 1) {
            wb_mismatch_add(&m, k, "a row twice", "each row once");
        } else {
            seen[i / 64] |= 1ull << (i % 64);
            if (x[i] >= t) wb_mismatch_add(&m, k, "a row not below t", "a row below t");
        }
    }
    for (int64_t k = count; k < n; k++)
        if (got[k] != -1) wb_mismatch_add_i64(&m, k, got[k], -1);
    free(seen);
    return wb_mismatch_finish(&m, n, "compress selection", e);
}

/* ---- the same check on every CPU, got fetched in pieces ---- */

typedef struct sel_job {
    const int32_t *piece; /* got[k0, k0 + rows) */
    int64_t k0, count, n;
    const int32_t *x;
    int32_t t;
    _Atomic uint64_t *seen; /* the rows seen, a bit each */
    atomic_int bad;
} sel_job;

/* got[k0 + begin, k0 + end): rows in range, below t, each seen once (a row
 * set again in this loop's word or before it in the bitmap), -1 from count
 * on. The bitmap's word is ORed once per run of rows in it: a selection is
 * mostly ascending, so ~n/64 atomics instead of n. */
static void sel_chunk(void *ctx, int worker, int64_t chunk, int64_t begin, int64_t end) {
    sel_job *j = ctx;
    (void)worker, (void)chunk;
    if (atomic_load_explicit(&j->bad, memory_order_relaxed)) return;
    const int32_t *got = j->piece - j->k0;
    const int64_t lo = j->k0 + begin, hi = j->k0 + end, split = hi < j->count ? hi : j->count;
    int bad = 0;
    int64_t word = -1;
    uint64_t mask = 0;
    for (int64_t k = lo; k < split && !bad; k++) {
        const int64_t i = got[k];
        if (i < 0 || i >= j->n || j->x[i] >= j->t) {
            bad = 1;
            break;
        }
        const uint64_t bit = 1ull << (i % 64);
        if (i / 64 != word) {
            if (mask) bad |= (atomic_fetch_or_explicit(&j->seen[word], mask, memory_order_relaxed) & mask) != 0;
            word = i / 64, mask = 0;
        }
        bad |= (mask & bit) != 0;
        mask |= bit;
    }
    if (mask && !bad) bad |= (atomic_fetch_or_explicit(&j->seen[word], mask, memory_order_relaxed) & mask) != 0;
    for (int64_t k = split > lo ? split : lo; k < hi; k++) bad |= got[k] != -1;
    if (bad) atomic_store_explicit(&j->bad, 1, memory_order_relaxed);
}

int wb_compress_check_select_pieces(wb_csel_fetch fetch, void *ctx, int64_t piece_rows, int64_t count, const int32_t *x,
                                 int64_t n, int32_t t, int64_t ref_count, wb_err *e) {
    if (check_count(count, n, ref_count, e) != WB_OK) return WB_ERR;
    if (piece_rows < 1) return wb_fail(e, "compress selection check: pieces of %lld rows", (long long)piece_rows);
    const int64_t rows = n < piece_rows ? n : piece_rows;
    sel_job j = {.count = count, .n = n, .x = x, .t = t};
    atomic_init(&j.bad, 0);
    int32_t *stage = wb_host_alloc((size_t)(rows ? rows : 1) * sizeof(int32_t), "compress selection piece", e);
    if (!stage || !(j.seen = calloc((size_t)(n / 64 + 1), sizeof *j.seen))) {
        free(stage);
        return stage ? wb_fail(e, "compress selection check: out of host memory") : WB_ERR;
    }
    int rc = WB_OK;
    for (int64_t k0 = 0; k0 < n && rc == WB_OK && !atomic_load(&j.bad); k0 += rows) {
        const int64_t m = n - k0 < rows ? n - k0 : rows;
        if ((rc = fetch(ctx, stage, k0, m, e)) != WB_OK) break;
        j.piece = stage, j.k0 = k0;
        wb_par_chunks(m, CHUNK, sel_chunk, &j);
    }
    free(stage);
    free((void *)j.seen);
    if (rc != WB_OK || !atomic_load(&j.bad)) return rc;
    /* A mismatch: the report is the serial check's, on got fetched whole. */
    int32_t *got = wb_host_alloc((size_t)n * sizeof(int32_t), "compress selection copy", e);
    if (!got || fetch(ctx, got, 0, n, e) != WB_OK) return free(got), WB_ERR;
    rc = wb_compress_check_select(got, count, x, n, t, ref_count, e);
    free(got);
    return rc == WB_OK ? wb_fail(e, "compress selection: the check in pieces found a mismatch, the serial check none") : WB_ERR;
}

/* test_compress_ref.c - the compress family's host side without a GPU: every
 * layout's column fills its bit width, each encoder round-trips through the
 * CPU decoder at every width (sizes of one row, a partial tile, several
 * chunks), the tile widths are the ones the data needs (a per-tile width
 * pays on the skewed column), the packing is LSB first as the kernels read
 * it, a value missing from the dictionary is refused, the reference counts
 * and sums what it should, and the selection's check catches a missing, a
 * repeated, a wrong and a stray index. At 1000003 rows, every host step gives
 * the same bytes on 1 and 4 workers, each encoding is the format's definition
 * bit for bit, and the check in pieces (on every CPU) passes and fails where
 * the serial one does, with its report. */
#include <stdlib.h>
#include <string.h>

#include "micro/compress_ref.h"
#include "micro/parallel.h"
#include "tests/check.h"

static int bits(uint32_t v) { return v ? 32 - __builtin_clz(v) : 0; }

static int cmp_i32(const void *a, const void *b) {
    const int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Encode, decode every row, compare; returns the encoding's mean width. */
static double round_trip(const wb_ccolumn *c, wb_compress_form form, const char *what) {
    wb_cenc enc;
    wb_err e = {""};
    if (wb_cenc_make(&enc, form, c->x, c->n, c->dict, c->dict_n, &e) != WB_OK) {
        fprintf(stderr, "%s: %s\n", what, e.msg);
        wb_test_failures++;
        return -1;
    }
    int64_t bad = 0;
    for (int64_t i = 0; i < c->n; i++)
        if (wb_cenc_at(&enc, i) != c->x[i] && bad++ < 3)
            fprintf(stderr, "%s: row %lld decodes to %d, holds %d\n", what, (long long)i, wb_cenc_at(&enc, i), c->x[i]);
    CHECK(bad == 0);
    CHECK(enc.tiles == (c->n + WB_COMPRESS_TILE - 1) / WB_COMPRESS_TILE);
    int64_t words = 0;
    for (int64_t t = 0; t < enc.tiles; t++) {
        CHECK(enc.head[t].off == (uint32_t)words && enc.head[t].width <= 32);
        words += 128 * (int64_t)enc.head[t].width;
    }
    CHECK(words == enc.words);
    const double mean = wb_cenc_mean_width(&enc);
    wb_cenc_free(&enc);
    return mean;
}

static void test_round_trips(void) {
    static const int64_t sizes[] = {1, 4097, 3 * 64 * WB_COMPRESS_TILE + 129};
    for (int l = 0; l < WB_CLAYOUTS; l++)
        for (int w = 1; w <= 32; w++) {
            if (l == WB_CLAYOUT_DICT && w > WB_COMPRESS_DICT_BITS_MAX) continue;
            for (int s = 0; s < 3; s++) {
                const int64_t n = sizes[s];
                if (n > 4097 && w % 5 != 1 && w != 32) continue; /* the big size at a few widths */
                wb_ccolumn c;
                wb_err e = {""};
                CHECK(wb_ccolumn_make(&c, l, w, n, 1000 + (uint64_t)w, &e) == WB_OK);
                if (!c.x) continue;
                char what[64];
                snprintf(what, sizeof what, "%s w %d n %lld", wb_clayout_name(l), w, (long long)n);
                /* the column fills its width: the largest code of a tile needs w bits (uniform) */
                const double fw = round_trip(&c, WB_FORM_FOR, what);
                if (l == WB_CLAYOUT_UNIFORM && n > 4097) CHECK(fw > w - 0.01 && fw <= w);
                if (l == WB_CLAYOUT_SKEWED && n > 4097 && w <= 16) CHECK(fw < 0.5 * 32 + 0.5 * w); /* most tiles narrow */
                if (l == WB_CLAYOUT_SORTED || l == WB_CLAYOUT_UNIFORM) { /* delta: any column round-trips */
                    const double dw = round_trip(&c, WB_FORM_DELTA, what);
                    if (l == WB_CLAYOUT_SORTED && n > 4097) CHECK(dw > w - 0.01 && dw <= w);
                }
                if (l == WB_CLAYOUT_DICT) {
                    const double cw = round_trip(&c, WB_FORM_DICT, what);
                    if (n > 4097) CHECK(cw > w - 0.01 && cw <= w);
                    if (n > 4097 && w <= 8) CHECK(fw > 24); /* spread over int32: FOR cannot narrow it */
                }
                wb_ccolumn_free(&c);
            }
        }
}

/* The bits sit where compress.h says: a known column by hand. */
static void test_layout(void) {
    int32_t x[WB_COMPRESS_TILE];
    for (int r = 0; r < WB_COMPRESS_TILE; r++) x[r] = 100 + (r % 5); /* ref 100, codes 0..4: width 3 */
    wb_cenc enc;
    wb_err e = {""};
    CHECK(wb_cenc_make(&enc, WB_FORM_FOR, x, WB_COMPRESS_TILE, NULL, 0, &e) == WB_OK);
    CHECK(enc.head[0].ref == 100 && enc.head[0].width == 3 && enc.words == 128 * 3);
    /* lane 1, stream 2, value 11 is row 1*128 + 2*32 + 11 = 203, code 203 % 5 = 3, bits 33..35: word 1, bit 1 */
    CHECK((enc.payload[wb_compress_word_at(3, 2, 1, 1)] >> 1 & 7) == 3);
    /* value 10 straddles words 0 and 1 (bits 30..32): row 202, code 2 = 0b010 */
    CHECK((enc.payload[wb_compress_word_at(3, 2, 0, 1)] >> 30) == 2 && (enc.payload[wb_compress_word_at(3, 2, 1, 1)] & 1) == 0);
    wb_cenc_free(&enc);
    /* a constant column: width 0, no payload */
    for (int r = 0; r < WB_COMPRESS_TILE; r++) x[r] = -7;
    CHECK(wb_cenc_make(&enc, WB_FORM_FOR, x, 100, NULL, 0, &e) == WB_OK);
    CHECK(enc.words == 0 && enc.head[0].width == 0 && wb_cenc_at(&enc, 99) == -7);
    CHECK(wb_cenc_bytes(&enc) == 16);
    wb_cenc_free(&enc);
    /* the extremes: INT32_MIN and INT32_MAX in one tile take 32 bits */
    x[0] = INT32_MIN, x[1] = INT32_MAX;
    CHECK(wb_cenc_make(&enc, WB_FORM_FOR, x, 2, NULL, 0, &e) == WB_OK);
    CHECK(enc.head[0].width == 32 && wb_cenc_at(&enc, 0) == INT32_MIN && wb_cenc_at(&enc, 1) == INT32_MAX);
    wb_cenc_free(&enc);
}

static void test_refusals(void) {
    wb_ccolumn c;
    wb_err e = {""};
    CHECK(wb_ccolumn_make(&c, WB_CLAYOUT_UNIFORM, 0, 10, 1, &e) == WB_ERR && strstr(e.msg, "bit width 0"));
    CHECK(wb_ccolumn_make(&c, WB_CLAYOUT_DICT, 13, 10, 1, &e) == WB_ERR && strstr(e.msg, "1..12"));
    const int32_t dict[3] = {1, 5, 9}, x[4] = {1, 9, 4, 5};
    wb_cenc enc;
    CHECK(wb_cenc_make(&enc, WB_FORM_DICT, x, 4, dict, 3, &e) == WB_ERR && strstr(e.msg, "missing from the dictionary"));
    const int32_t unsorted[3] = {5, 1, 9};
    CHECK(wb_cenc_make(&enc, WB_FORM_DICT, x, 2, unsorted, 3, &e) == WB_ERR && strstr(e.msg, "not sorted"));
    CHECK(wb_cenc_make(&enc, WB_FORM_DICT, x, 2, dict, 3, &e) == WB_OK && enc.head[0].ref == 0 && enc.head[0].width == 2);
    wb_cenc_free(&enc);
    CHECK(wb_clayout_of("sorted") == WB_CLAYOUT_SORTED && wb_clayout_of("zipf") == -1);
}

/* The column is the same on 1 and 4 workers, its widths are what the data
 * needs, and the reference counts and sums the rows below t. */
static void test_columns_and_reference(void) {
    const int64_t n = 5 * 64 * WB_COMPRESS_TILE + 17;
    wb_ccolumn a, b;
    wb_err e = {""};
    wb_par_set_workers(1);
    CHECK(wb_ccolumn_make(&a, WB_CLAYOUT_SORTED, 6, n, 77, &e) == WB_OK);
    wb_par_set_workers(4);
    CHECK(wb_ccolumn_make(&b, WB_CLAYOUT_SORTED, 6, n, 77, &e) == WB_OK);
    wb_par_set_workers(0);
    CHECK(memcmp(a.x, b.x, (size_t)n * 4) == 0);
    uint32_t most = 0;
    for (int64_t i = 1; i < n; i++) {
        const uint32_t d = (uint32_t)a.x[i] - (uint32_t)a.x[i - 1];
        if (d > most) most = d;
    }
    CHECK(bits(most) == 6);
    const int32_t t = wb_compress_threshold(a.x, n, 0.5, 3);
    uint64_t sum = 0;
    int64_t count = 0;
    for (int64_t i = 0; i < n; i++)
        if (a.x[i] < t) sum += (uint64_t)(int64_t)a.x[i], count++;
    const wb_cref r = wb_compress_reference(a.x, n, t);
    CHECK(r.sum == sum && r.count == count);
    CHECK(count > n / 2 - n / 20 && count < n / 2 + n / 20); /* the threshold's quantile */
    wb_ccolumn_free(&a);
    wb_ccolumn_free(&b);
    /* skewed: the outliers are rare, but there */
    CHECK(wb_ccolumn_make(&a, WB_CLAYOUT_SKEWED, 4, n, 5, &e) == WB_OK);
    int64_t wide = 0;
    for (int64_t i = 0; i < n; i++) wide += (uint32_t)a.x[i] - (uint32_t)a.x[0] + 16u > 32u; /* not within 15 of row 0 */
    CHECK(wide > 0 && wide < n / 10000);
    wb_ccolumn_free(&a);
}

static void test_check_select(void) {
    const int32_t x[8] = {5, 1, 7, 2, 9, 0, 3, 8}; /* below 4: rows 1, 3, 5, 6 */
    int32_t got[8] = {6, 1, 5, 3, -1, -1, -1, -1};
    wb_err e = {""};
    CHECK(wb_compress_check_select(got, 4, x, 8, 4, 4, &e) == WB_OK);
    CHECK(wb_compress_check_select(got, 3, x, 8, 4, 4, &e) == WB_ERR); /* one missing */
    got[2] = 1;
    CHECK(wb_compress_check_select(got, 4, x, 8, 4, 4, &e) == WB_ERR && strstr(e.msg, "twice"));
    got[2] = 2;
    CHECK(wb_compress_check_select(got, 4, x, 8, 4, 4, &e) == WB_ERR && strstr(e.msg, "not below"));
    got[2] = 5, got[7] = 0;
    CHECK(wb_compress_check_select(got, 4, x, 8, 4, 4, &e) == WB_ERR); /* a stray write past the count */
    got[7] = -1, got[0] = 8;
    CHECK(wb_compress_check_select(got, 4, x, 8, 4, 4, &e) == WB_ERR && strstr(e.msg, "out of range"));
}

/* The format by its definition, row by row (compress.h): ref the tile's
 * smallest value (rank for dict; 0 for delta), width the bits of its largest
 * code, code r's bits at bit (slot % 32) * w of its lane's stream slot / 32.
 * The encoder builds each stream in a register; this sets bit by bit. */
static int spec_rank(const wb_ccolumn *c, int32_t v) {
    const int32_t *at = bsearch(&v, c->dict, (size_t)c->dict_n, sizeof v, cmp_i32);
    return at ? (int)(at - c->dict) : -1;
}

static uint32_t spec_code(const wb_ccolumn *c, wb_compress_form form, int64_t i, int32_t ref) {
    if (form == WB_FORM_DICT) return (uint32_t)spec_rank(c, c->x[i]) - (uint32_t)ref;
    if (form == WB_FORM_FOR) return (uint32_t)c->x[i] - (uint32_t)ref;
    return i % WB_COMPRESS_LANE_ROWS ? (uint32_t)c->x[i] - (uint32_t)c->x[i - 1] : 0; /* a lane's first row: its base */
}

static int64_t spec_mismatches(const wb_ccolumn *c, wb_compress_form form, const wb_cenc *enc) {
    int64_t bad = 0;
    uint32_t *words = calloc((size_t)enc->words + 1, sizeof *words);
    if (!words) return -1;
    for (int64_t t = 0; t < enc->tiles; t++) {
        const int64_t row0 = t * WB_COMPRESS_TILE, rows = c->n - row0 < WB_COMPRESS_TILE ? c->n - row0 : WB_COMPRESS_TILE;
        int32_t ref = form == WB_FORM_DELTA ? 0 : INT32_MAX;
        for (int64_t i = row0; i < row0 + rows && form != WB_FORM_DELTA; i++) {
            const int32_t v = form == WB_FORM_DICT ? spec_rank(c, c->x[i]) : c->x[i];
            if (v < ref) ref = v;
        }
        uint32_t most = 0;
        for (int64_t i = row0; i < row0 + rows; i++)
            if (spec_code(c, form, i, ref) > most) most = spec_code(c, form, i, ref);
        const int w = bits(most);
        bad += enc->head[t].ref != ref || (int)enc->head[t].width != w;
        for (int64_t i = row0; i < row0 + rows; i++) {
            const int r = (int)(i - row0), lane = r / WB_COMPRESS_LANE_ROWS, slot = r % WB_COMPRESS_LANE_ROWS;
            const uint32_t code = spec_code(c, form, i, ref);
            for (int b = 0; b < w; b++) {
                const int bit = (slot % 32) * w + b;
                const int64_t at = enc->head[t].off + wb_compress_word_at(w, slot / 32, bit / 32, lane);
                if (at < enc->words) words[at] |= (code >> b & 1u) << (bit % 32);
            }
            if (form == WB_FORM_DELTA && slot == 0) bad += enc->base[t * 32 + lane] != c->x[i];
        }
    }
    bad += memcmp(words, enc->payload, (size_t)enc->words * sizeof *words) != 0;
    free(words);
    return bad;
}

/* An encoding made on 1 and on 4 workers, the same bytes. */
static int same_enc(const wb_cenc *a, const wb_cenc *b) {
    return a->tiles == b->tiles && a->words == b->words &&
           memcmp(a->head, b->head, (size_t)a->tiles * sizeof *a->head) == 0 &&
           memcmp(a->payload, b->payload, (size_t)(a->words + 4) * sizeof *a->payload) == 0 &&
           (!a->base || memcmp(a->base, b->base, (size_t)a->tiles * 32 * sizeof *a->base) == 0);
}

/* Every host step of a data set, on 1 worker and on 4, at a size that is
 * neither a whole tile nor a whole chunk (64 tiles): the same column,
 * encodings, threshold and reference, and each encoding the format's
 * definition (spec_mismatches). */
static void test_workers_same(void) {
    const int64_t n = 1000003;
    static const int widths[WB_CLAYOUTS] = {13, 9, 7, 10};
    for (int l = 0; l < WB_CLAYOUTS; l++) {
        wb_ccolumn c[2];
        wb_cenc enc[2][4];
        int32_t t[2];
        wb_cref r[2];
        wb_err e = {""};
        memset(enc, 0, sizeof enc);
        for (int k = 0; k < 2; k++) {
            wb_par_set_workers(k ? 4 : 1);
            CHECK(wb_ccolumn_make(&c[k], l, widths[l], n, 4242 + (uint64_t)l, &e) == WB_OK);
            for (int f = WB_FORM_FOR; f <= WB_FORM_DICT; f++)
                if (f == WB_FORM_FOR || (f == WB_FORM_DELTA && l != WB_CLAYOUT_DICT) || (f == WB_FORM_DICT && l == WB_CLAYOUT_DICT))
                    CHECK(wb_cenc_make(&enc[k][f], f, c[k].x, n, c[k].dict, c[k].dict_n, &e) == WB_OK);
            t[k] = wb_compress_threshold(c[k].x, n, 0.5, 11);
            r[k] = wb_compress_reference(c[k].x, n, t[k]);
        }
        wb_par_set_workers(0);
        CHECK(c[0].x && c[1].x && memcmp(c[0].x, c[1].x, (size_t)n * sizeof(int32_t)) == 0);
        CHECK(c[0].dict_n == c[1].dict_n && (!c[0].dict || memcmp(c[0].dict, c[1].dict, (size_t)c[0].dict_n * 4) == 0));
        CHECK(t[0] == t[1] && r[0].sum == r[1].sum && r[0].count == r[1].count && r[0].count > 0);
        for (int f = WB_FORM_FOR; f <= WB_FORM_DICT; f++) {
            if (!enc[0][f].head) continue;
            CHECK(same_enc(&enc[0][f], &enc[1][f]));
            const int64_t bad = spec_mismatches(&c[0], f, &enc[0][f]);
            if (bad) fprintf(stderr, "%s form %d: %lld mismatches with the format's definition\n", wb_clayout_name(l), f, (long long)bad);
            CHECK(bad == 0);
            for (int k = 0; k < 2; k++) wb_cenc_free(&enc[k][f]);
        }
        for (int k = 0; k < 2; k++) wb_ccolumn_free(&c[k]);
    }
}

typedef struct host_got {
    const int32_t *got;
    int64_t fetched; /* rows */
} host_got;

static int fetch_host(void *ctx, int32_t *dst, int64_t k0, int64_t rows, wb_err *e) {
    host_got *h = ctx;
    (void)e;
    memcpy(dst, h->got + k0, (size_t)rows * sizeof *dst);
    h->fetched += rows;
    return WB_OK;
}

/* The check in pieces on 1 and 4 workers: a right selection (in blocks out of
 * order, as a GPU's blocks append) passes, and each wrong one fails with the
 * serial check's report, a repeated row in another piece than its first. */
static void test_check_select_pieces(void) {
    const int64_t n = 1000003, piece = 65537;
    wb_ccolumn c;
    wb_err e = {""}, es = {""};
    CHECK(wb_ccolumn_make(&c, WB_CLAYOUT_UNIFORM, 11, n, 99, &e) == WB_OK);
    const int32_t t = wb_compress_threshold(c.x, n, 0.5, 5);
    const wb_cref r = wb_compress_reference(c.x, n, t);
    int32_t *got = malloc((size_t)n * sizeof *got);
    CHECK(got != NULL && r.count > 2 * piece);
    if (!got || !c.x) return;
    int64_t k = 0;
    for (int64_t b = (n - 1) / 1000; b >= 0; b--) /* blocks of 1000 rows, last first */
        for (int64_t i = b * 1000; i < n && i < (b + 1) * 1000; i++)
            if (c.x[i] < t) got[k++] = (int32_t)i;
    for (int64_t i = k; i < n; i++) got[i] = -1;
    CHECK(k == r.count);
    int64_t above = 0;
    while (c.x[above] < t) above++;
    /* the mutations: {slot, value}; -2: the count one short */
    const int64_t cases[][2] = {{-1, 0}, {3 * piece + 5, got[7]}, {2 * piece, (int32_t)above}, {piece + 1, (int32_t)n},
                                {n - 1, 0}, {-2, 0}};
    for (int w = 1; w <= 4; w += 3) {
        wb_par_set_workers(w);
        for (int m = 0; m < 6; m++) {
            const int64_t at = cases[m][0];
            const int32_t keep = at >= 0 ? got[at] : 0;
            if (at >= 0) got[at] = (int32_t)cases[m][1];
            const int64_t count = at == -2 ? r.count - 1 : r.count;
            host_got h = {got, 0};
            e.msg[0] = es.msg[0] = '\0';
            const int par = wb_compress_check_select_pieces(fetch_host, &h, piece, count, c.x, n, t, r.count, &e);
            const int ser = wb_compress_check_select(got, count, c.x, n, t, r.count, &es);
            CHECK(par == (m == 0 ? WB_OK : WB_ERR) && ser == par && strcmp(e.msg, es.msg) == 0);
            if (m == 0) CHECK(h.fetched == n); /* once, in pieces */
            if (at >= 0) got[at] = keep;
        }
    }
    wb_par_set_workers(0);
    free(got);
    wb_ccolumn_free(&c);
}

int main(void) {
    test_layout();
    test_refusals();
    test_round_trips();
    test_columns_and_reference();
    test_check_select();
    test_workers_same();
    test_check_select_pieces();
    return TEST_DONE();
}

/* ssb_query.c - the 13 SSB queries as data and what follows from them (see
 * ssb_query.h). Codes are the dense ints of ssb_gen.h: region 1 AMERICA, 2
 * ASIA, 3 EUROPE; nation 24 UNITED STATES; city 231 'UNITED KI1', 235 'UNITED
 * KI5'; category 1 'MFGR#12', 3 'MFGR#14'; brand 260..267 'MFGR#2221'..'MFGR#2228',
 * 278 'MFGR#2239'; mfgr 0, 1 'MFGR#1', 'MFGR#2'.
 *
 * Selectivities (share of lineorder rows in the answer; order dates uniform
 * over 2,406 days, 1998 has 214 of them):
 *   Q1.1 365/2406 x 3/11 x 24/50 = 1.99e-2   Q1.2 31/2406 x 3/11 x 10/50 = 7.03e-4
 *   Q1.3 7/2406 x 3/11 x 10/50 = 1.59e-4     Q2.1 1/25 x 1/5 = 8.0e-3
 *   Q2.2 8/1000 x 1/5 = 1.6e-3               Q2.3 1/1000 x 1/5 = 2.0e-4
 *   Q3.1 1/5 x 1/5 x 2192/2406 = 3.64e-2     Q3.2 1/25 x 1/25 x 2192/2406 = 1.46e-3
 *   Q3.3 1/125 x 1/125 x 2192/2406 = 5.83e-5 Q3.4 1/125 x 1/125 x 31/2406 = 8.25e-7
 *   Q4.1 1/5 x 1/5 x 2/5 = 1.6e-2            Q4.2 1/5 x 1/5 x 2/5 x 579/2406 = 3.85e-3
 *   Q4.3 1/5 x 1/25 x 1/25 x 579/2406 = 7.70e-5
 * (wb_ssb_expected_selectivity computes them; tests/test_ssb_ref.c checks the
 * generated data against them.) */
#include "micro/ssb_query.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NO_DIM {0, -1, 0, 0, -1, -1}
#define DATE_GROUPED {1, -1, 0, 0, -1, WB_SSB_FINE}
#define DIM(flevel, lo, hi, alt, glevel) {1, flevel, lo, hi, alt, glevel}
#define ALL_DATES 19920101, 19981231
#define NO_RANGES 0, -1, 0, -1

#define Q1_SQL(where)                                                                                               \
    "SELECT SUM(lo_extendedprice * lo_discount) FROM lineorder, dwdate WHERE lo_orderdate = d_datekey AND " where
#define Q2_SQL(where)                                                                                               \
    "SELECT d_year, p_brand1, SUM(lo_revenue) FROM lineorder, dwdate, part, supplier WHERE lo_orderdate = "       \
    "d_datekey AND lo_partkey = p_partkey AND lo_suppkey = s_suppkey AND " where                                   \
    " GROUP BY d_year, p_brand1 ORDER BY d_year, p_brand1"
#define Q3_SQL(cols, where)                                                                                         \
    "SELECT d_year, " cols ", SUM(lo_revenue) FROM customer, lineorder, supplier, dwdate WHERE lo_custkey = "     \
    "c_custkey AND lo_suppkey = s_suppkey AND lo_orderdate = d_datekey AND " where " GROUP BY d_year, " cols     \
    " ORDER BY d_year, " cols
#define Q4_SQL(cols, where)                                                                                         \
    "SELECT d_year, " cols ", SUM(lo_revenue - lo_supplycost) FROM dwdate, customer, supplier, part, lineorder "  \
    "WHERE lo_custkey = c_custkey AND lo_suppkey = s_suppkey AND lo_partkey = p_partkey AND lo_orderdate = "      \
    "d_datekey AND " where " GROUP BY d_year, " cols " ORDER BY d_year, " cols

const wb_ssb_spec wb_ssb_specs[WB_SSB_QUERIES] = {
    {"q1.1", 1, 19930101, 19931231, 1, 24, 1, 3, {NO_DIM, NO_DIM, NO_DIM, NO_DIM}, 0, {0},
     Q1_SQL("d_year = 1993 AND lo_discount BETWEEN 1 AND 3 AND lo_quantity < 25")},
    {"q1.2", 1, 19940101, 19940131, 26, 35, 4, 6, {NO_DIM, NO_DIM, NO_DIM, NO_DIM}, 0, {0},
     Q1_SQL("d_yearmonthnum = 199401 AND lo_discount BETWEEN 4 AND 6 AND lo_quantity BETWEEN 26 AND 35")},
    {"q1.3", 1, 19940204, 19940210, 26, 35, 5, 7, {NO_DIM, NO_DIM, NO_DIM, NO_DIM}, 0, {0},
     Q1_SQL("d_weeknuminyear = 6 AND d_year = 1994 AND lo_discount BETWEEN 5 AND 7 AND lo_quantity BETWEEN 26 AND 35")},
    {"q2.1", 2, ALL_DATES, NO_RANGES,
     {DATE_GROUPED, NO_DIM, DIM(WB_SSB_TOP, 1, 1, -1, -1), DIM(WB_SSB_MID, 1, 1, -1, WB_SSB_FINE)}, 3,
     {WB_SSB_PART, WB_SSB_SUPP, WB_SSB_DATE}, Q2_SQL("p_category = 1 AND s_region = 1")},
    {"q2.2", 2, ALL_DATES, NO_RANGES,
     {DATE_GROUPED, NO_DIM, DIM(WB_SSB_TOP, 2, 2, -1, -1), DIM(WB_SSB_FINE, 260, 267, -1, WB_SSB_FINE)}, 3,
     {WB_SSB_PART, WB_SSB_SUPP, WB_SSB_DATE}, Q2_SQL("p_brand1 BETWEEN 260 AND 267 AND s_region = 2")},
    {"q2.3", 2, ALL_DATES, NO_RANGES,
     {DATE_GROUPED, NO_DIM, DIM(WB_SSB_TOP, 3, 3, -1, -1), DIM(WB_SSB_FINE, 278, 278, -1, WB_SSB_FINE)}, 3,
     {WB_SSB_PART, WB_SSB_SUPP, WB_SSB_DATE}, Q2_SQL("p_brand1 = 278 AND s_region = 3")},
    {"q3.1", 3, 19920101, 19971231, NO_RANGES,
     {DATE_GROUPED, DIM(WB_SSB_TOP, 2, 2, -1, WB_SSB_MID), DIM(WB_SSB_TOP, 2, 2, -1, WB_SSB_MID), NO_DIM}, 3,
     {WB_SSB_CUST, WB_SSB_SUPP, WB_SSB_DATE},
     Q3_SQL("c_nation, s_nation", "c_region = 2 AND s_region = 2 AND d_year >= 1992 AND d_year <= 1997")},
    {"q3.2", 3, 19920101, 19971231, NO_RANGES,
     {DATE_GROUPED, DIM(WB_SSB_MID, 24, 24, -1, WB_SSB_FINE), DIM(WB_SSB_MID, 24, 24, -1, WB_SSB_FINE), NO_DIM}, 3,
     {WB_SSB_CUST, WB_SSB_SUPP, WB_SSB_DATE},
     Q3_SQL("c_city, s_city", "c_nation = 24 AND s_nation = 24 AND d_year >= 1992 AND d_year <= 1997")},
    {"q3.3", 3, 19920101, 19971231, NO_RANGES,
     {DATE_GROUPED, DIM(WB_SSB_FINE, 231, 231, 235, WB_SSB_FINE), DIM(WB_SSB_FINE, 231, 231, 235, WB_SSB_FINE),
      NO_DIM},
     3, {WB_SSB_CUST, WB_SSB_SUPP, WB_SSB_DATE},
     Q3_SQL("c_city, s_city", "(c_city = 231 OR c_city = 235) AND (s_city = 231 OR s_city = 235) AND d_year >= 1992 "
                              "AND d_year <= 1997")},
    {"q3.4", 3, 19971201, 19971231, NO_RANGES,
     {DATE_GROUPED, DIM(WB_SSB_FINE, 231, 231, 235, WB_SSB_FINE), DIM(WB_SSB_FINE, 231, 231, 235, WB_SSB_FINE),
      NO_DIM},
     3, {WB_SSB_CUST, WB_SSB_SUPP, WB_SSB_DATE},
     Q3_SQL("c_city, s_city",
            "(c_city = 231 OR c_city = 235) AND (s_city = 231 OR s_city = 235) AND d_yearmonthnum = 199712")},
    {"q4.1", 4, ALL_DATES, NO_RANGES,
     {DATE_GROUPED, DIM(WB_SSB_TOP, 1, 1, -1, WB_SSB_MID), DIM(WB_SSB_TOP, 1, 1, -1, -1),
      DIM(WB_SSB_TOP, 0, 1, -1, -1)},
     4, {WB_SSB_CUST, WB_SSB_SUPP, WB_SSB_PART, WB_SSB_DATE},
     Q4_SQL("c_nation", "c_region = 1 AND s_region = 1 AND (p_mfgr = 0 OR p_mfgr = 1)")},
    {"q4.2", 4, 19970101, 19981231, NO_RANGES,
     {DATE_GROUPED, DIM(WB_SSB_TOP, 1, 1, -1, -1), DIM(WB_SSB_TOP, 1, 1, -1, WB_SSB_MID),
      DIM(WB_SSB_TOP, 0, 1, -1, WB_SSB_MID)},
     4, {WB_SSB_CUST, WB_SSB_SUPP, WB_SSB_DATE, WB_SSB_PART},
     Q4_SQL("s_nation, p_category",
            "c_region = 1 AND s_region = 1 AND (d_year = 1997 OR d_year = 1998) AND (p_mfgr = 0 OR p_mfgr = 1)")},
    {"q4.3", 4, 19970101, 19981231, NO_RANGES,
     {DATE_GROUPED, DIM(WB_SSB_TOP, 1, 1, -1, -1), DIM(WB_SSB_MID, 24, 24, -1, WB_SSB_FINE),
      DIM(WB_SSB_MID, 3, 3, -1, WB_SSB_FINE)},
     4, {WB_SSB_SUPP, WB_SSB_PART, WB_SSB_CUST, WB_SSB_DATE},
     Q4_SQL("s_city, p_brand1", "c_region = 1 AND s_nation = 24 AND (d_year = 1997 OR d_year = 1998) AND p_category = 3")},
};

wb_ssb_sizes wb_ssb_sizes_of(int64_t rows) {
    const double sf = (double)rows / WB_SSB_ROWS_PER_SF;
    wb_ssb_sizes z;
    z.lineorder = rows;
    z.customer = (int64_t)llround(30000 * sf);
    z.supplier = (int64_t)llround(2000 * sf);
    z.part = sf >= 1 ? 200000 * (1 + (int64_t)floor(log2(sf) + 1e-9)) : (int64_t)llround(200000 * sf);
    if (z.customer < 1) z.customer = 1;
    if (z.supplier < 1) z.supplier = 1;
    if (z.part < 1) z.part = 1;
    return z;
}

static int fine_values(int dim) { return dim == WB_SSB_PART ? WB_SSB_BRANDS : WB_SSB_CITIES; }

int32_t wb_ssb_level(int dim, int32_t fine, int level) {
    if (level == WB_SSB_FINE) return fine;
    if (dim == WB_SSB_PART) return level == WB_SSB_MID ? fine / 40 : fine / 200;
    return level == WB_SSB_MID ? fine / 10 : wb_ssb_region_of(fine / 10);
}

int wb_ssb_dim_passes(const wb_ssb_dim_spec *d, int dim, int32_t fine) {
    if (d->filter_level < 0) return 1;
    int32_t v = wb_ssb_level(dim, fine, d->filter_level);
    return (v >= d->lo && v <= d->hi) || v == d->alt;
}

/* Years and order days of a date range. */
static int order_days_in(int32_t lo, int32_t hi) {
    int days = 0;
    for (int d = 0; d < WB_SSB_ORDER_DAYS; d++) {
        int32_t k = wb_ssb_datekey(d, NULL);
        days += k >= lo && k <= hi;
    }
    return days;
}

void wb_ssb_layout_of(const wb_ssb_spec *q, wb_ssb_layout *l) {
    memset(l, 0, sizeof *l);
    for (int dim = 0; dim < WB_SSB_DIMS; dim++) {
        const wb_ssb_dim_spec *d = &q->dim[dim];
        l->base[dim] = 0, l->count[dim] = 1;
        if (!d->joined || d->group_level < 0) continue;
        if (dim == WB_SSB_DATE) {
            l->base[dim] = q->date_lo / 10000;
            l->count[dim] = q->date_hi / 10000 - l->base[dim] + 1;
            continue;
        }
        int32_t lo = INT32_MAX, hi = -1;
        for (int32_t f = 0; f < fine_values(dim); f++) {
            if (!wb_ssb_dim_passes(d, dim, f)) continue;
            int32_t g = wb_ssb_level(dim, f, d->group_level);
            if (g < lo) lo = g;
            if (g > hi) hi = g;
        }
        l->base[dim] = lo;
        l->count[dim] = hi - lo + 1;
    }
    int64_t stride = 1;
    for (int dim = WB_SSB_DIMS - 1; dim >= 0; dim--) {
        l->stride[dim] = (int32_t)stride;
        stride *= l->count[dim];
    }
    l->groups = stride;
}

double wb_ssb_dim_share(const wb_ssb_spec *q, int dim) {
    if (dim == WB_SSB_DATE) return (double)order_days_in(q->date_lo, q->date_hi) / WB_SSB_ORDER_DAYS;
    if (!q->dim[dim].joined) return 1;
    int pass = 0;
    for (int32_t f = 0; f < fine_values(dim); f++) pass += wb_ssb_dim_passes(&q->dim[dim], dim, f);
    return (double)pass / fine_values(dim);
}

double wb_ssb_expected_selectivity(const wb_ssb_spec *q) {
    double s = wb_ssb_dim_share(q, WB_SSB_DATE);
    if (q->flight == 1) return s * (q->qty_hi - q->qty_lo + 1) / 50.0 * (q->disc_hi - q->disc_lo + 1) / 11.0;
    for (int dim = WB_SSB_CUST; dim < WB_SSB_DIMS; dim++) s *= wb_ssb_dim_share(q, dim);
    return s;
}

int64_t wb_ssb_map_entries(int dim, const wb_ssb_sizes *z) {
    switch (dim) {
    case WB_SSB_DATE: return WB_SSB_DATE_SPAN;
    case WB_SSB_CUST: return z->customer + 1;
    case WB_SSB_SUPP: return z->supplier + 1;
    default: return z->part + 1;
    }
}

static int32_t fine_of(int dim, uint64_t seed, int32_t key) {
    return dim == WB_SSB_CUST ? wb_ssb_c_city(seed, key)
           : dim == WB_SSB_SUPP ? wb_ssb_s_city(seed, key)
                                : wb_ssb_p_brand(seed, key);
}

void wb_ssb_map_fill(const wb_ssb_spec *q, const wb_ssb_layout *l, int dim, const wb_ssb_sizes *z, uint64_t seed,
                     int32_t *map) {
    const int64_t entries = wb_ssb_map_entries(dim, z);
    for (int64_t i = 0; i < entries; i++) map[i] = -1;
    const wb_ssb_dim_spec *d = &q->dim[dim];
    if (dim == WB_SSB_DATE) {
        for (int day = 0; day < WB_SSB_DAYS; day++) {
            int32_t k = wb_ssb_datekey(day, NULL);
            if (k >= q->date_lo && k <= q->date_hi)
                map[k - WB_SSB_FIRST_DATE] = (k / 10000 - l->base[dim]) * l->stride[dim];
        }
        return;
    }
    for (int64_t key = 1; key < entries; key++) {
        int32_t f = fine_of(dim, seed, (int32_t)key);
        if (!wb_ssb_dim_passes(d, dim, f)) continue;
        map[key] = d->group_level < 0 ? 0 : (wb_ssb_level(dim, f, d->group_level) - l->base[dim]) * l->stride[dim];
    }
}

int wb_ssb_pack_map(const int32_t *map, int64_t entries, int32_t stride, uint8_t *bytes) {
    for (int64_t k = 0; k < entries; k++) {
        const int32_t code = map[k] < 0 ? WB_SSB_PACKED_NONE : map[k] / stride;
        if (map[k] >= 0 && (code >= WB_SSB_PACKED_NONE || code * stride != map[k])) return WB_ERR;
        bytes[k] = (uint8_t)code;
    }
    return WB_OK;
}

int64_t wb_ssb_bitmap_words(int64_t entries) {
    const int64_t a = 32 * WB_SSB_BITMAP_ALIGN;
    return (entries + a - 1) / a * WB_SSB_BITMAP_ALIGN;
}

void wb_ssb_bitmap_of(const int32_t *map, int64_t entries, uint32_t *bits) {
    memset(bits, 0, (size_t)wb_ssb_bitmap_words(entries) * sizeof(uint32_t));
    for (int64_t k = 0; k < entries; k++)
        if (map[k] >= 0) bits[k >> 5] |= 1u << (k & 31);
}

int64_t wb_ssb_code_words(int64_t entries) { return wb_ssb_bitmap_words(4 * entries); }

int wb_ssb_codes_of(const uint8_t *packed, int64_t entries, uint32_t *words) {
    memset(words, 0, (size_t)wb_ssb_code_words(entries) * sizeof(uint32_t));
    for (int64_t k = 0; k < entries; k++) {
        const uint32_t code = packed[k] == WB_SSB_PACKED_NONE ? WB_SSB_CODE_NONE : packed[k];
        if (packed[k] != WB_SSB_PACKED_NONE && code >= WB_SSB_CODE_NONE) return WB_ERR;
        words[k >> 3] |= code << (4 * (k & 7));
    }
    return WB_OK;
}

static int64_t bitmap_bytes(int dim, const wb_ssb_sizes *z) { return 4 * wb_ssb_bitmap_words(wb_ssb_map_entries(dim, z)); }

/* Sorts dims by their share of rows passing q's filter, ascending; ties keep their order. */
static void sort_by_share(const wb_ssb_spec *q, int *dims, int n) {
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && wb_ssb_dim_share(q, dims[j]) < wb_ssb_dim_share(q, dims[j - 1]); j--) {
            const int t = dims[j];
            dims[j] = dims[j - 1], dims[j - 1] = t;
        }
}

/* Where the query groups by the first bitmap's dimension in at most 14
 * codes and that filter passes at least CODES_MIN_SHARE of the rows: that
 * bitmap holds the codes instead (its rows carry them through the queues,
 * instead of reading their keys and the packed map again after every
 * filter), if they fit beside the queues' codes, later bitmaps dropped from
 * the least selective on to make room. Reading a code costs the scan about
 * five instructions a row: on the H200 at SF 100 codes made Q3.1 (1/5 pass
 * supplier) 11% faster, Q3.2 and Q4.3 (1/25) 2%, and Q3.3 and Q3.4 (1/125)
 * 19-33% slower (results/h200-issue31/, in history: results/HISTORY.md). */
#define CODES_MIN_SHARE 0.03
static void plan_codes(const wb_ssb_spec *q, const wb_ssb_sizes *z, int64_t max_bytes, int64_t code_queue_bytes,
                       const int *cand, int nc, wb_ssb_bitmap_plan *p) {
    int first = 0;
    while (first < nc && !p->bits[cand[first]]) first++;
    if (first == nc) return;
    const int dim = cand[first];
    wb_ssb_layout l;
    wb_ssb_layout_of(q, &l);
    if (q->dim[dim].group_level < 0 || l.count[dim] >= WB_SSB_CODE_NONE || wb_ssb_dim_share(q, dim) < CODES_MIN_SHARE)
        return;
    int bits[WB_SSB_DIMS];
    memcpy(bits, p->bits, sizeof bits);
    int64_t bytes = p->bytes - bitmap_bytes(dim, z) + 4 * wb_ssb_code_words(wb_ssb_map_entries(dim, z));
    for (int i = nc - 1; i > first && bytes + code_queue_bytes > max_bytes; i--)
        if (bits[cand[i]]) bits[cand[i]] = 0, bytes -= bitmap_bytes(cand[i], z);
    if (bytes + code_queue_bytes > max_bytes) return;
    memcpy(p->bits, bits, sizeof bits);
    p->nbits = 0;
    for (int d = 0; d < WB_SSB_DIMS; d++) p->nbits += bits[d];
    p->bytes = bytes;
    p->codes = 1;
}

/* Whether the date goes among the bitmaps, by share: it passes under half
 * the rows (a date passing more waits for the measures: date_last) and
 * every probe more selective than it is a bitmap. The date is arithmetic on
 * lo_orderdate, no lookup; ahead of a less selective bitmap it spares that
 * bitmap's key reads and tests (H200, SF 100: Q4.2 in clusters of 4, its
 * date's 2/7 before part's 2/5, 2.16-2.18 -> 2.14 ms; ahead of a more
 * selective packed map, Q3.1's 6/7 before customer's 1/5, 1.82 -> 2.33 ms:
 * results/h200-issue31/ssb-order-cf852a9.tgz, in history: results/HISTORY.md). */
static int date_early(const wb_ssb_spec *q, const int *cand, int nc, const wb_ssb_bitmap_plan *p) {
    for (int i = 0; i < nc; i++) {
        if (cand[i] == WB_SSB_DATE) return wb_ssb_dim_share(q, WB_SSB_DATE) < 0.5;
        if (!p->bits[cand[i]]) return 0;
    }
    return 0;
}

/* The probe order: `first` (a bitmap dimension; -1: the first bitmap in
 * cand's order), the other bitmaps (and the date where date_early), then
 * the rest, each group in cand's order (by share). */
static void plan_order(const wb_ssb_spec *q, const int *cand, int nc, int first, wb_ssb_bitmap_plan *p) {
    const int early = date_early(q, cand, nc, p);
    int k = 0;
    for (int i = 0; i < nc && first < 0; i++)
        if (p->bits[cand[i]]) first = cand[i];
    if (first >= 0) p->order[k++] = first;
    for (int pass = 1; pass >= 0; pass--)
        for (int i = 0; i < nc; i++) {
            const int in_first_pass = p->bits[cand[i]] || (cand[i] == WB_SSB_DATE && early);
            if (in_first_pass == pass && cand[i] != first) p->order[k++] = cand[i];
        }
    p->date_last = nc > 0 && p->order[nc - 1] == WB_SSB_DATE && wb_ssb_dim_share(q, WB_SSB_DATE) >= 0.5;
}

static int sorted_candidates(const wb_ssb_spec *q, int *cand) {
    int nc = 0;
    for (int i = 0; i < q->nprobe; i++) cand[nc++] = q->order[i];
    sort_by_share(q, cand, nc);
    return nc;
}

void wb_ssb_bitmap_plan_of(const wb_ssb_spec *q, const wb_ssb_sizes *z, int64_t max_bytes, int64_t code_queue_bytes,
                           wb_ssb_bitmap_plan *p) {
    memset(p, 0, sizeof *p);
    p->cluster = 1;
    int cand[WB_SSB_DIMS];
    const int nc = sorted_candidates(q, cand);
    for (int i = 0; i < nc; i++) {
        const int64_t bytes = bitmap_bytes(cand[i], z);
        if (cand[i] == WB_SSB_DATE || p->bytes + bytes > max_bytes) continue;
        p->bits[cand[i]] = 1, p->nbits++, p->bytes += bytes;
    }
    plan_codes(q, z, max_bytes, code_queue_bytes, cand, nc, p);
    plan_order(q, cand, nc, -1, p);
}

/* A block's part of a bitmap spread over `cluster` blocks (the kernel's layout). */
static int64_t spread_bytes(int dim, const wb_ssb_sizes *z, int cluster) {
    const int32_t words = (int32_t)wb_ssb_bitmap_words(wb_ssb_map_entries(dim, z));
    return (int64_t)sizeof(uint32_t) * wb_ssb_spread_words(words, wb_ssb_cluster_lg(cluster));
}

void wb_ssb_bitmap_plan_cluster(const wb_ssb_spec *q, const wb_ssb_sizes *z, int64_t max_bytes,
                                int64_t code_queue_bytes, int cluster, int always, wb_ssb_bitmap_plan *p) {
    wb_ssb_bitmap_plan_of(q, z, max_bytes, code_queue_bytes, p);
    if (cluster < 2) return;
    wb_ssb_bitmap_plan c;
    memset(&c, 0, sizeof c);
    c.cluster = cluster;
    int cand[WB_SSB_DIMS];
    const int nc = sorted_candidates(q, cand);
    int first = -1;
    for (int i = 0; i < nc && first < 0; i++)
        if (cand[i] != WB_SSB_DATE && bitmap_bytes(cand[i], z) <= max_bytes) first = cand[i];
    if (first < 0) return;
    c.bits[first] = 1, c.nbits = 1, c.bytes = bitmap_bytes(first, z);
    for (int i = 0; i < nc; i++) {
        const int64_t bytes = spread_bytes(cand[i], z, cluster);
        if (cand[i] == WB_SSB_DATE || cand[i] == first || c.bytes + bytes > max_bytes) continue;
        c.bits[cand[i]] = 1, c.nbits++, c.bytes += bytes;
    }
    if (always ? c.nbits < 2 : c.nbits <= p->nbits) return;
    plan_order(q, cand, nc, first, &c);
    *p = c;
}

/* When a cluster pays (H200, SF 100, results/h200-issue31/ssb-cluster-14ea724, in history: results/HISTORY.md):
 * - where many rows pass the first filter, the later filters' lookups move
 *   from the L2 to the SM-to-SM network: Q4.1 and Q4.2 (supplier passes 1/5,
 *   customer becomes a bitmap) ran 12% and 10% faster with clusters of 4;
 * - where few pass (Q3.3, Q3.4: 1/125), the scan of the first filter bounds
 *   the query and a cluster only costs: 24% slower with clusters of 4;
 * - a cluster of 4 or 8 leaves 12 of the H200's 132 SMs idle (whole clusters
 *   per GPC), which Q3.1 and Q3.2 paid on top of their first bitmap's codes
 *   (21% and 6% slower); a cluster of 2 keeps every SM: Q4.3 (supplier's
 *   codes without part's bitmap, or supplier's bitmap and half of part's)
 *   ran 10% faster with it. */
#define CLUSTER_MIN_SHARE 0.03
void wb_ssb_bitmap_plan_auto(const wb_ssb_spec *q, const wb_ssb_sizes *z, int64_t max_bytes, int64_t code_queue_bytes,
                             int max_cluster, wb_ssb_bitmap_plan *p) {
    wb_ssb_bitmap_plan_of(q, z, max_bytes, code_queue_bytes, p);
    for (int cluster = 2; cluster <= max_cluster && cluster <= 4; cluster *= 2) {
        wb_ssb_bitmap_plan c;
        wb_ssb_bitmap_plan_cluster(q, z, max_bytes, code_queue_bytes, cluster, 0, &c);
        if (c.cluster == 1) continue;
        if (wb_ssb_dim_share(q, c.order[0]) < CLUSTER_MIN_SHARE) return;
        if (cluster > 2 && p->codes) return;
        *p = c;
        return;
    }
}

int wb_ssb_plan_holds_codes(const wb_ssb_bitmap_plan *p, int dim) { return p->codes && p->order[0] == dim; }

/* Compacted batches (wb_ssb_query.compact) where the second probe is a
 * bitmap tested in a batch and another probe's stage follows it. H200,
 * SF 100, two boards (results/h200-issue31/ssb-compact-*.tgz, session 20; in history: results/HISTORY.md):
 * Q4.1-Q4.3 ran 5-13% faster compacted at their best shape (Q4.2 2.12 ->
 * 1.85 ms, 1,279 -> 1,101 M instructions); Q2.1 and Q2.2, whose batches hold
 * only the measures and a late code after that bitmap, ran 5% and 6.5%
 * slower, so a stage must follow. */
int wb_ssb_plan_compacts(const wb_ssb_spec *q, const wb_ssb_bitmap_plan *p) {
    const int staged = q->nprobe - (p->date_last ? 1 : 0);
    return q->flight != 1 && staged >= 3 && p->bits[p->order[1]];
}

int wb_ssb_key_column(int dim) {
    static const int key_of[WB_SSB_DIMS] = {WB_SSB_LO_ORDERDATE, WB_SSB_LO_CUSTKEY, WB_SSB_LO_SUPPKEY,
                                            WB_SSB_LO_PARTKEY};
    return key_of[dim];
}

/* Share of 32-byte sectors holding at least one row that survived the
 * stages before a column, for independent rows, at `bits` a row (32: 8 rows
 * a sector; a packed column: 256 / bits rows). */
static double sector_share(double s, int bits) { return s >= 1 ? 1 : 1 - pow(1 - s, 256.0 / bits); }

/* The lineorder column stage k of the query reads (flight 1: date,
 * quantity, discount; the others: the key of the k-th probe in the
 * specification's order). */
static int stage_column(const wb_ssb_spec *q, int k) {
    static const int flight1[3] = {WB_SSB_LO_ORDERDATE, WB_SSB_LO_QUANTITY, WB_SSB_LO_DISCOUNT};
    return q->flight == 1 ? flight1[k] : wb_ssb_key_column(q->order[k]);
}

/* The bytes model: each lineorder column at the sectors its readers need
 * (the first column whole; a later one at sector_share of the rows still
 * passing: short-circuited loads fetch no other sector), the customer,
 * supplier and part maps at the distinct sectors their lookups hit
 * (S (1 - (1 - 1/S)^m) of S sectors for m random lookups), and the group
 * array written once. The date join costs nothing: it is arithmetic on
 * lo_orderdate (the tiled form's 245 KB date map stays in L2). bits: each
 * column's bits a row (wb_ssb_bytes_model: 32 each). */
double wb_ssb_bytes_model_bits(const wb_ssb_spec *q, const wb_ssb_answer *a, const wb_ssb_sizes *z,
                               const int bits[WB_SSB_LO_COLUMNS], double *lookups) {
    const double n = (double)a->stage[0];
    const int filters = a->nstages - 1;
    double bytes = 0;
    *lookups = 0;
    if (n <= 0) return 8.0 * (double)a->layout.groups;
    for (int k = 0; k < filters; k++) {
        const int b = bits[stage_column(q, k)];
        bytes += b / 8.0 * n * sector_share((double)a->stage[k] / n, b);
        int dim = q->flight == 1 ? WB_SSB_DATE : q->order[k];
        if (dim == WB_SSB_DATE) continue;
        double m = (double)a->stage[k], sectors = ceil((double)wb_ssb_map_entries(dim, z) / 8);
        bytes += 32 * sectors * (1 - pow(1 - 1 / sectors, m));
        *lookups += m;
    }
    /* flight 1: the price (discount was a filter); 4: revenue and supplycost; 2, 3: revenue */
    const int measure[2] = {q->flight == 1 ? WB_SSB_LO_EXTENDEDPRICE : WB_SSB_LO_REVENUE, WB_SSB_LO_SUPPLYCOST};
    for (int i = 0; i < (q->flight == 4 ? 2 : 1); i++) {
        const int b = bits[measure[i]];
        bytes += b / 8.0 * n * sector_share((double)a->stage[filters] / n, b);
    }
    return bytes + 8.0 * (double)a->layout.groups;
}

double wb_ssb_bytes_model(const wb_ssb_spec *q, const wb_ssb_answer *a, const wb_ssb_sizes *z, double *lookups) {
    int bits[WB_SSB_LO_COLUMNS];
    for (int c = 0; c < WB_SSB_LO_COLUMNS; c++) bits[c] = 32;
    return wb_ssb_bytes_model_bits(q, a, z, bits, lookups);
}

int wb_ssb_group_values(const wb_ssb_spec *q, const wb_ssb_layout *l, int64_t g, int32_t *values) {
    int k = 0;
    for (int dim = 0; dim < WB_SSB_DIMS; dim++) {
        if (!q->dim[dim].joined || q->dim[dim].group_level < 0) continue;
        values[k++] = l->base[dim] + (int32_t)((g / l->stride[dim]) % l->count[dim]);
    }
    return k;
}

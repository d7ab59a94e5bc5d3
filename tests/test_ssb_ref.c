/* test_ssb_ref.c - the SSB generator and CPU reference (micro/ssb_query.h):
 * cardinalities, dates, the specification's selectivities on generated data,
 * group layouts, answers independent of the worker count.
 *
 * `test_ssb_ref --csv DIR ROWS SEED` instead writes the five tables (the
 * columns the queries use, dense ints), the 13 queries' SQL (queries.sql, one
 * a line) and the reference answers (answers.csv: query, group values...,
 * sum; nonzero groups in group order) for tests/sh_ssb_duckdb.sh. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check.h"
#include "micro/exact.h"
#include "micro/ssb_query.h"

static void test_sizes(void) {
    wb_ssb_sizes z = wb_ssb_sizes_of(6000000);
    CHECK(z.customer == 30000 && z.supplier == 2000 && z.part == 200000);
    z = wb_ssb_sizes_of(60000000);
    CHECK(z.customer == 300000 && z.supplier == 20000 && z.part == 800000);
    z = wb_ssb_sizes_of(600000000);
    CHECK(z.customer == 3000000 && z.supplier == 200000 && z.part == 1400000);
    z = wb_ssb_sizes_of(60011);
    CHECK(z.lineorder == 60011 && z.customer == 300 && z.supplier == 20 && z.part == 2000);
    z = wb_ssb_sizes_of(1);
    CHECK(z.customer == 1 && z.supplier == 1 && z.part == 1);
}

static void test_dates(void) {
    int doy = 0;
    CHECK(wb_ssb_datekey(0, &doy) == 19920101 && doy == 1);
    CHECK(wb_ssb_datekey(59, NULL) == 19920229); /* 1992 is a leap year */
    CHECK(wb_ssb_datekey(WB_SSB_ORDER_DAYS - 1, NULL) == 19980802);
    CHECK(wb_ssb_datekey(WB_SSB_DAYS - 1, NULL) == 19981230);
    /* Q1.3's range is week 6 of 1994 in the date table. */
    int32_t lo = INT32_MAX, hi = 0;
    for (int d = 0; d < WB_SSB_DAYS; d++) {
        int32_t k = wb_ssb_datekey(d, &doy);
        if (k / 10000 == 1994 && wb_ssb_week(doy) == 6) lo = k < lo ? k : lo, hi = k > hi ? k : hi;
    }
    CHECK(lo == wb_ssb_specs[2].date_lo && hi == wb_ssb_specs[2].date_hi);
}

static void test_layouts(void) {
    static const int64_t groups[WB_SSB_QUERIES] = {1, 1, 1, 7 * 40, 7 * 8, 7, 6 * 14 * 14, 6 * 10 * 10, 6 * 5 * 5,
                                                   5 * 5, 7 * 24, 2 * 24 * 10, 2 * 10 * 40};
    static const double sel[WB_SSB_QUERIES] = {365.0 / 2406 * 3 / 11 * 24 / 50, 31.0 / 2406 * 3 / 11 * 10 / 50,
                                               7.0 / 2406 * 3 / 11 * 10 / 50, 1.0 / 125, 8.0 / 5000, 1.0 / 5000,
                                               2192.0 / 2406 / 25, 2192.0 / 2406 / 625, 2192.0 / 2406 / 15625,
                                               31.0 / 2406 / 15625, 2.0 / 125, 2.0 / 125 * 579 / 2406,
                                               579.0 / 2406 / 3125};
    for (int qi = 0; qi < WB_SSB_QUERIES; qi++) {
        wb_ssb_layout l;
        wb_ssb_layout_of(&wb_ssb_specs[qi], &l);
        CHECK(l.groups == groups[qi]);
        CHECK_NEAR(wb_ssb_expected_selectivity(&wb_ssb_specs[qi]) / sel[qi], 1, 1e-9);
        /* The last group decodes to the largest value of each grouped level. */
        int32_t v[WB_SSB_DIMS];
        int k = wb_ssb_group_values(&wb_ssb_specs[qi], &l, l.groups - 1, v);
        CHECK(k == (wb_ssb_specs[qi].flight == 1 ? 0 : k));
        if (qi == 12) CHECK(k == 3 && v[0] == 1998 && v[1] == 249 && v[2] == 159);
    }
}

/* Share of a dimension's keys that pass the query's filter, through its map. */
static double dim_share(int qi, int dim, const wb_ssb_sizes *z, uint64_t seed, double *spec) {
    const wb_ssb_spec *q = &wb_ssb_specs[qi];
    wb_ssb_layout l;
    wb_ssb_layout_of(q, &l);
    const int64_t entries = wb_ssb_map_entries(dim, z);
    int32_t *map = malloc((size_t)entries * sizeof(int32_t));
    wb_ssb_map_fill(q, &l, dim, z, seed, map);
    int64_t pass = 0;
    for (int64_t k = 1; k < entries; k++) pass += map[k] >= 0;
    CHECK(map[0] == -1);
    free(map);
    const int fine = dim == WB_SSB_PART ? WB_SSB_BRANDS : WB_SSB_CITIES;
    int spec_pass = 0;
    for (int f = 0; f < fine; f++) spec_pass += wb_ssb_dim_passes(&q->dim[dim], dim, f);
    *spec = (double)spec_pass / fine;
    return (double)pass / (double)(entries - 1);
}

/* Survivors against the specification within 5 standard deviations, in two
 * steps: each dimension's passing keys against the specification's share
 * (binomial over its rows), then the fact rows against the date share times
 * the dimensions' realized shares (binomial over lineorder rows). */
static void test_selectivities(void) {
    const int64_t n = 600011;
    const uint64_t seed = 42;
    wb_ssb_sizes z = wb_ssb_sizes_of(n);
    wb_ssb_answer a[WB_SSB_QUERIES], b[WB_SSB_QUERIES];
    wb_err e = {0};
    CHECK(wb_ssb_reference(seed, &z, a, &e) == WB_OK);
    for (int qi = 0; qi < WB_SSB_QUERIES; qi++) {
        const wb_ssb_spec *q = &wb_ssb_specs[qi];
        double s = wb_ssb_expected_selectivity(q);
        for (int dim = WB_SSB_CUST; dim < WB_SSB_DIMS; dim++) {
            if (!q->dim[dim].joined) continue;
            double spec, got = dim_share(qi, dim, &z, seed, &spec);
            const double keys = (double)(wb_ssb_map_entries(dim, &z) - 1);
            CHECK(fabs(got - spec) * keys <= 5 * sqrt(keys * spec * (1 - spec)) + 1);
            s = s / spec * got;
        }
        const double got = (double)a[qi].stage[a[qi].nstages - 1], want = s * (double)n;
        if (fabs(got - want) > 5 * sqrt(want * (1 - s)) + 1)
            fprintf(stderr, "%s: %g rows pass, expected %g\n", q->name, got, want);
        CHECK(fabs(got - want) <= 5 * sqrt(want * (1 - s)) + 1);
        CHECK(a[qi].stage[0] == n);
        int64_t nonzero = 0;
        for (int64_t g = 0; g < a[qi].layout.groups; g++) nonzero += a[qi].sums[g] != 0;
        CHECK(got == 0 || nonzero > 0);
    }
    /* Every group of Q2.1 (7 years x 40 brands, ~17 rows each) is present. */
    int64_t present = 0;
    for (int64_t g = 0; g < a[3].layout.groups; g++) present += a[3].sums[g] > 0;
    CHECK(present == a[3].layout.groups);
    /* One worker gives the same answers. */
    wb_par_set_workers(1);
    CHECK(wb_ssb_reference(42, &z, b, &e) == WB_OK);
    wb_par_set_workers(0);
    for (int qi = 0; qi < WB_SSB_QUERIES; qi++)
        CHECK(memcmp(a[qi].sums, b[qi].sums, (size_t)a[qi].layout.groups * sizeof(int64_t)) == 0);
    /* The bytes model lies between the key column alone and all columns read whole. */
    double lookups;
    for (int qi = 0; qi < WB_SSB_QUERIES; qi++) {
        double bm = wb_ssb_bytes_model(&wb_ssb_specs[qi], &a[qi], &z, &lookups);
        CHECK(bm >= 4.0 * (double)n && bm <= 4.0 * 9 * (double)n + 4.0 * 4e6);
    }
    wb_ssb_answers_free(a);
    wb_ssb_answers_free(b);
}

/* The kernels' view, emulated: every form's probes through the maps the
 * family uploads (int32 with the date map, int32 with date arithmetic,
 * packed codes; bitmap: its plan's order, a bit for each bitmap dimension and
 * its packed code only for rows that passed every filter, or the first
 * bitmap's 4-bit code) must give the reference. */
enum { FORM_TILED, FORM_DIRECT, FORM_PACKED, FORM_BITMAP, NFORMS };

typedef struct query_maps {
    int32_t *map[WB_SSB_DIMS];
    uint8_t *packed[WB_SSB_DIMS];
    uint32_t *bits[WB_SSB_DIMS];
    wb_ssb_bitmap_plan plan;
} query_maps;

/* A dimension's share of the row's group; bitmap dimensions: 0 for a row
 * that passes (the code comes later), -1 otherwise. */
static int holds_codes(const query_maps *m, int dim) { return wb_ssb_plan_holds_codes(&m->plan, dim); }

static int32_t share_of(int form, const wb_ssb_spec *q, const wb_ssb_layout *l, const query_maps *m, int dim,
                        int32_t key) {
    if (form == FORM_BITMAP && holds_codes(m, dim)) {
        const uint32_t code = (m->bits[dim][key >> 3] >> (4 * (key & 7))) & 15u;
        return code == WB_SSB_CODE_NONE ? -1 : (int32_t)code * l->stride[dim];
    }
    if (form == FORM_BITMAP && m->plan.bits[dim]) return (m->bits[dim][key >> 5] >> (key & 31)) & 1u ? 0 : -1;
    if (dim == WB_SSB_DATE && form != FORM_TILED)
        return key >= q->date_lo && key <= q->date_hi ? (key / 10000 - l->base[dim]) * l->stride[dim] : -1;
    if (dim == WB_SSB_DATE) return m->map[dim][key - WB_SSB_FIRST_DATE];
    if (form == FORM_TILED || form == FORM_DIRECT) return m->map[dim][key];
    return m->packed[dim][key] == WB_SSB_PACKED_NONE ? -1 : m->packed[dim][key] * l->stride[dim];
}

/* The bitmaps (or the first's codes) of m's plan, from its maps. */
static void fill_bits(query_maps *m, const wb_ssb_spec *q, const wb_ssb_sizes *z) {
    for (int dim = 0; dim < WB_SSB_DIMS; dim++) {
        free(m->bits[dim]);
        m->bits[dim] = NULL;
        if (!q->dim[dim].joined) continue;
        const int64_t entries = wb_ssb_map_entries(dim, z);
        if (holds_codes(m, dim)) {
            m->bits[dim] = malloc((size_t)wb_ssb_code_words(entries) * sizeof(uint32_t));
            CHECK(wb_ssb_codes_of(m->packed[dim], entries, m->bits[dim]) == WB_OK);
        } else if (m->plan.bits[dim]) {
            m->bits[dim] = malloc((size_t)wb_ssb_bitmap_words(entries) * sizeof(uint32_t));
            wb_ssb_bitmap_of(m->map[dim], entries, m->bits[dim]);
        }
    }
}

/* Whether the form's probes through m's maps (the bitmap form in its plan's
 * order, late codes from the packed maps) give the reference's answer. */
static int answers_equal(int form, const wb_ssb_spec *q, const wb_ssb_layout *l, const query_maps *m,
                         const wb_ssb_sizes *z, uint64_t seed, int64_t n, const wb_ssb_answer *a) {
    const int *order = form == FORM_BITMAP ? m->plan.order : q->order;
    int64_t *sums = calloc((size_t)l->groups, sizeof(int64_t));
    for (int64_t r = 0; r < n; r++) {
        const wb_ssb_line ln = wb_ssb_line_at(seed, z, r);
        const int32_t keys[WB_SSB_DIMS] = {ln.orderdate, ln.custkey, ln.suppkey, ln.partkey};
        int32_t group = 0;
        for (int p = 0; p < q->nprobe && group >= 0; p++) {
            int32_t sh = share_of(form, q, l, m, order[p], keys[order[p]]);
            group = sh < 0 ? -1 : group + sh;
        }
        for (int dim = WB_SSB_CUST; form == FORM_BITMAP && group >= 0 && dim < WB_SSB_DIMS; dim++)
            if (m->plan.bits[dim] && q->dim[dim].group_level >= 0 && !holds_codes(m, dim)) {
                CHECK(m->packed[dim][keys[dim]] != WB_SSB_PACKED_NONE);
                group += m->packed[dim][keys[dim]] * l->stride[dim];
            }
        if (group >= 0 && group < l->groups) sums[group] += q->flight == 4 ? ln.revenue - ln.supplycost : ln.revenue;
        else CHECK(group < 0);
    }
    const int same = memcmp(sums, a->sums, (size_t)l->groups * sizeof(int64_t)) == 0;
    if (!same) fprintf(stderr, "%s form %d: the maps' answer differs from the reference\n", q->name, form);
    free(sums);
    return same;
}

static void test_maps(void) {
    const int64_t n = 200003;
    const uint64_t seed = 5;
    const wb_ssb_sizes z = wb_ssb_sizes_of(n);
    wb_ssb_answer a[WB_SSB_QUERIES];
    wb_err e = {0};
    CHECK(wb_ssb_reference(seed, &z, a, &e) == WB_OK);
    int bitmap_queries = 0, codes_queries = 0;
    for (int qi = 3; qi < WB_SSB_QUERIES; qi++) {
        const wb_ssb_spec *q = &wb_ssb_specs[qi];
        const wb_ssb_layout *l = &a[qi].layout;
        query_maps m = {{0}, {0}, {0}, {{0}}};
        /* 512 bytes: at this size (SF 0.033) customer (128) and supplier (16) fit, part (848) does not;
         * codes need no room for queues here */
        wb_ssb_bitmap_plan_of(q, &z, 512, 0, &m.plan);
        codes_queries += m.plan.codes;
        for (int dim = 0; dim < WB_SSB_DIMS; dim++) {
            if (!q->dim[dim].joined) continue;
            const int64_t entries = wb_ssb_map_entries(dim, &z);
            m.map[dim] = malloc((size_t)entries * sizeof(int32_t));
            m.packed[dim] = malloc((size_t)entries);
            wb_ssb_map_fill(q, l, dim, &z, seed, m.map[dim]);
            CHECK(dim == WB_SSB_DATE || wb_ssb_pack_map(m.map[dim], entries, l->stride[dim], m.packed[dim]) == WB_OK);
        }
        fill_bits(&m, q, &z);
        CHECK(m.plan.nbits > 0 && m.plan.bytes <= 512 && !m.plan.bits[WB_SSB_DATE]);
        bitmap_queries += m.plan.nbits < q->nprobe - 1; /* some dimension left to its packed map */
        for (int form = 0; form < NFORMS; form++) CHECK(answers_equal(form, q, l, &m, &z, seed, n, &a[qi]));
        /* The bitmap form with its later bitmaps spread over clusters of 4 (every filter that fits a quarter
         * of the budget a bitmap, no codes, in its order); the spread itself lives in the GPU kernel. */
        wb_ssb_bitmap_plan_cluster(q, &z, 512, 0, 4, 1, &m.plan);
        CHECK(m.plan.cluster == 4 && !m.plan.codes && m.plan.nbits >= 2);
        fill_bits(&m, q, &z);
        CHECK(answers_equal(FORM_BITMAP, q, l, &m, &z, seed, n, &a[qi]));
        for (int dim = 0; dim < WB_SSB_DIMS; dim++) free(m.map[dim]), free(m.packed[dim]), free(m.bits[dim]);
    }
    CHECK(bitmap_queries > 0 && codes_queries > 0 && codes_queries < WB_SSB_QUERIES - 3);
    wb_ssb_answers_free(a);
}

/* The bitmap form's plan at SF 100 in an H200 block (227 KB less the group
 * table): supplier and part fit (25 + 175 KB), customer (366 KB) does not;
 * bitmaps go first, most selective first, then the rest by share; the first
 * holds codes where the query groups by it in at most 14 and it passes 3%
 * of the rows or more (Q3.1, Q3.2: supplier's nations or cities; Q4.3: its
 * cities, and part's bitmap makes room), with
 * 24 KB for the queues' codes (4-byte entries instead of 2). */
static void test_bitmap_plan(void) {
    const wb_ssb_sizes big = wb_ssb_sizes_of(600000000), sf10 = wb_ssb_sizes_of(60000000);
    CHECK(wb_ssb_bitmap_words(1) == WB_SSB_BITMAP_ALIGN && wb_ssb_bitmap_words(128) == 4 && wb_ssb_bitmap_words(129) == 8);
    CHECK(wb_ssb_code_words(1) == WB_SSB_BITMAP_ALIGN && wb_ssb_code_words(32) == 4 && wb_ssb_code_words(33) == 8);
    /* codes: the packed code in nibble k, WB_SSB_CODE_NONE where filtered; a code of 15 or more is refused */
    const uint8_t packed[10] = {WB_SSB_PACKED_NONE, 0, 1, 14, WB_SSB_PACKED_NONE, 2, 1, 0, 13, 3}, bad[2] = {0, 15};
    uint32_t words[WB_SSB_BITMAP_ALIGN];
    CHECK(wb_ssb_codes_of(packed, 10, words) == WB_OK);
    for (int k = 0; k < 10; k++)
        CHECK(((words[k >> 3] >> (4 * (k & 7))) & 15u) ==
              (packed[k] == WB_SSB_PACKED_NONE ? WB_SSB_CODE_NONE : packed[k]));
    CHECK(words[1] >> 8 == 0 && wb_ssb_codes_of(bad, 2, words) == WB_ERR);
    const int64_t budget = 227 * 1024 - 8 * 1000, code_queues = 32 * 384 * 2;
    /* Part's codes (Q2.x) do not fit; Q3.3 and Q3.4's supplier filter passes 1/125 of the rows;
     * Q4.1 does not group by supplier, Q4.2's nations of AMERICA span 24 codes. */
    static const int codes[WB_SSB_QUERIES] = {0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1};
    for (int qi = 3; qi < WB_SSB_QUERIES; qi++) {
        const wb_ssb_spec *q = &wb_ssb_specs[qi];
        wb_ssb_bitmap_plan p;
        wb_ssb_bitmap_plan_of(q, &big, budget, code_queues, &p);
        CHECK(!p.bits[WB_SSB_CUST] && !p.bits[WB_SSB_DATE] && p.bits[WB_SSB_SUPP] == 1);
        CHECK(p.codes == codes[qi] && (!p.codes || p.order[0] == WB_SSB_SUPP));
        CHECK(p.bits[WB_SSB_PART] == (q->dim[WB_SSB_PART].joined && !p.codes));
        CHECK(p.bytes + (p.codes ? code_queues : 0) <= budget && p.nbits == 1 + p.bits[WB_SSB_PART]);
        int seen[WB_SSB_DIMS] = {0};
        for (int i = 0; i < q->nprobe; i++) {
            CHECK(q->dim[p.order[i]].joined && !seen[p.order[i]]);
            seen[p.order[i]] = 1;
            CHECK(p.bits[p.order[i]] == (i < p.nbits));
            if (i > 0 && p.bits[p.order[i]] == p.bits[p.order[i - 1]])
                CHECK(wb_ssb_dim_share(q, p.order[i - 1]) <= wb_ssb_dim_share(q, p.order[i]));
        }
        /* At SF 10 customer's 37.5 KB fits too (without codes, all the filters). */
        wb_ssb_bitmap_plan_of(q, &sf10, budget, 0, &p);
        CHECK(p.bits[WB_SSB_CUST] == q->dim[WB_SSB_CUST].joined);
        wb_ssb_bitmap_plan_of(q, &sf10, budget, budget, &p);
        CHECK(!p.codes && p.nbits == q->nprobe - 1);
    }
    /* Q2.1: part (1/25) before supplier (1/5), then date; Q4.3: supplier's 1/25 before part's 1/25 (order kept). */
    wb_ssb_bitmap_plan p;
    wb_ssb_bitmap_plan_of(&wb_ssb_specs[3], &big, budget, code_queues, &p);
    CHECK(p.order[0] == WB_SSB_PART && p.order[1] == WB_SSB_SUPP && p.order[2] == WB_SSB_DATE);
    /* The date goes to the final stage where it is last and passes most rows: Q2.x and Q4.1 (every
     * date), Q3.1-Q3.3 (91%); not Q3.4 (1.3%), Q4.2 and Q4.3 (24%, and not last). */
    static const int date_last[WB_SSB_QUERIES] = {0, 0, 0, 1, 1, 1, 1, 1, 1, 0, 1, 0, 0};
    for (int qi = 3; qi < WB_SSB_QUERIES; qi++) {
        wb_ssb_bitmap_plan_of(&wb_ssb_specs[qi], &big, budget, code_queues, &p);
        CHECK(p.date_last == date_last[qi]);
    }
    /* Q4.2: supplier's and part's bitmaps, customer's packed map, the date; Q4.3: supplier's codes,
     * then part's packed map (its bitmap made room) before customer's. */
    wb_ssb_bitmap_plan_of(&wb_ssb_specs[11], &big, budget, code_queues, &p);
    CHECK(p.order[0] == WB_SSB_SUPP && p.order[1] == WB_SSB_PART && p.order[2] == WB_SSB_CUST &&
          p.order[3] == WB_SSB_DATE && !p.codes && p.bits[WB_SSB_PART]);
    wb_ssb_bitmap_plan_of(&wb_ssb_specs[12], &big, budget, code_queues, &p);
    CHECK(p.order[0] == WB_SSB_SUPP && p.order[1] == WB_SSB_PART && p.order[2] == WB_SSB_CUST && p.codes &&
          !p.bits[WB_SSB_PART]);
    /* Nothing fits: no bitmap, the order by share. */
    wb_ssb_bitmap_plan_of(&wb_ssb_specs[3], &big, 1024, code_queues, &p);
    CHECK(p.nbits == 0 && p.bytes == 0 && p.order[0] == WB_SSB_PART && p.cluster == 1);
    /* Clusters of 4 at SF 100: where customer joins, supplier's bitmap first (customer's alone does not fit
     * a block), then every other filter spread over the cluster, most selective first, no codes; Q2.x
     * (both filters fit a block) keep the plain plan. Clusters of 2: customer's half fits beside
     * supplier, not both halves; Q4.1 and Q4.2 would trade part for customer (no more bitmaps) and keep
     * the plain plan, the others (one plain bitmap) take it (Q4.3 with part's half). */
    for (int qi = 3; qi < WB_SSB_QUERIES; qi++) {
        const wb_ssb_spec *q = &wb_ssb_specs[qi];
        wb_ssb_bitmap_plan plain, c4, c2;
        wb_ssb_bitmap_plan_of(q, &big, budget, code_queues, &plain);
        wb_ssb_bitmap_plan_cluster(q, &big, budget, code_queues, 4, 0, &c4);
        wb_ssb_bitmap_plan_cluster(q, &big, budget, code_queues, 2, 0, &c2);
        if (!q->dim[WB_SSB_CUST].joined) {
            CHECK(memcmp(&c4, &plain, sizeof plain) == 0 && memcmp(&c2, &plain, sizeof plain) == 0);
            continue;
        }
        CHECK(c4.cluster == 4 && !c4.codes && c4.bits[WB_SSB_CUST] && c4.order[0] == WB_SSB_SUPP);
        CHECK(c4.nbits == q->nprobe - 1 && !c4.bits[WB_SSB_DATE] && c4.bytes <= budget);
        /* after the first, by share: every other probe is a spread bitmap or the date, and the date
         * is the least selective but in Q4.2, whose date (2/7) goes before part's bitmap (2/5) */
        for (int i = 2; i < q->nprobe; i++)
            CHECK(wb_ssb_dim_share(q, c4.order[i - 1]) <= wb_ssb_dim_share(q, c4.order[i]));
        CHECK(c4.order[q->nprobe - 1] == (qi == 11 ? WB_SSB_PART : WB_SSB_DATE));
        CHECK(plain.nbits == 1 ? c2.cluster == 2 && c2.nbits == 2 && c2.bits[q->flight == 3 ? WB_SSB_CUST : WB_SSB_PART]
                               : memcmp(&c2, &plain, sizeof plain) == 0 && qi >= 10);
    }
    wb_ssb_bitmap_plan_cluster(&wb_ssb_specs[10], &big, budget, code_queues, 4, 0, &p);
    CHECK(p.order[0] == WB_SSB_SUPP && p.order[1] == WB_SSB_CUST && p.order[2] == WB_SSB_PART && p.date_last);
    wb_ssb_bitmap_plan_cluster(&wb_ssb_specs[11], &big, budget, code_queues, 4, 0, &p);
    CHECK(p.order[0] == WB_SSB_SUPP && p.order[1] == WB_SSB_CUST && p.order[2] == WB_SSB_DATE &&
          p.order[3] == WB_SSB_PART && !p.date_last);
    /* The family's choice (wb_ssb_bitmap_plan_auto, up to clusters of 4): Q4.1 and Q4.2 in clusters of 4
     * (supplier passes 1/5, no codes held), Q4.3 in clusters of 2 (supplier's bitmap and half of part's);
     * Q2.x gain no bitmap, Q3.1 and Q3.2 hold codes, Q3.3 and Q3.4's first filter passes 1/125. Without
     * clusters (max 1), the plain plan.
     * The budget as micro/ssb.c's on the H200: 227 KB less the group table and ILP 16's queues (2-byte
     * entries; codes double them). */
    static const int auto_cluster[WB_SSB_QUERIES] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 4, 4, 2};
    for (int qi = 3; qi < WB_SSB_QUERIES; qi++) {
        wb_ssb_layout lay;
        wb_ssb_layout_of(&wb_ssb_specs[qi], &lay);
        const int64_t queues = 32 * 384 * 2, h200 = 232448 - 8 * lay.groups - queues;
        wb_ssb_bitmap_plan plain, chosen, none;
        wb_ssb_bitmap_plan_of(&wb_ssb_specs[qi], &big, h200, queues, &plain);
        wb_ssb_bitmap_plan_auto(&wb_ssb_specs[qi], &big, h200, queues, 4, &chosen);
        wb_ssb_bitmap_plan_auto(&wb_ssb_specs[qi], &big, h200, queues, 1, &none);
        CHECK(chosen.cluster == auto_cluster[qi] && memcmp(&none, &plain, sizeof plain) == 0);
        CHECK(chosen.cluster > 1 ? chosen.nbits > plain.nbits && !chosen.codes : memcmp(&chosen, &plain, sizeof plain) == 0);
        /* Compacted batches (wb_ssb_plan_compacts): in the family's plans Q4.1-Q4.3 only, whose second
         * probe is a bitmap with another probe's stage after it; not Q2.x (nothing but the measures after
         * supplier's bitmap), not Q3.x (customer's packed map second). Without clusters Q4.1 and Q4.2
         * compact after part's bitmap; Q4.3's plain plan holds supplier's codes and probes part's packed
         * map, so it does not. */
        CHECK(wb_ssb_plan_compacts(&wb_ssb_specs[qi], &chosen) == (qi >= 10));
        CHECK(wb_ssb_plan_compacts(&wb_ssb_specs[qi], &plain) == (qi == 10 || qi == 11));
    }
    for (int qi = 0; qi < 3; qi++) CHECK(!wb_ssb_plan_compacts(&wb_ssb_specs[qi], &p)); /* flight 1: no probes */
    /* `always` (the family's tests at small SF, where every filter fits a block): Q2.1 spread too. */
    wb_ssb_bitmap_plan_cluster(&wb_ssb_specs[3], &big, budget, code_queues, 4, 1, &p);
    CHECK(p.cluster == 4 && p.nbits == 2 && p.order[0] == WB_SSB_PART && p.bytes < 200016);
}

/* ---- --csv ---- */

static FILE *open_in(const char *dir, const char *name) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) fprintf(stderr, "test_ssb_ref: cannot write %s\n", path);
    return f;
}

static int write_csv(const char *dir, int64_t rows, uint64_t seed) {
    const wb_ssb_sizes z = wb_ssb_sizes_of(rows);
    FILE *f = open_in(dir, "lineorder.csv");
    if (!f) return 1;
    fprintf(f, "lo_orderdate,lo_custkey,lo_partkey,lo_suppkey,lo_quantity,lo_extendedprice,lo_discount,lo_revenue,"
               "lo_supplycost\n");
    for (int64_t r = 0; r < rows; r++) {
        wb_ssb_line l = wb_ssb_line_at(seed, &z, r);
        fprintf(f, "%d,%d,%d,%d,%d,%d,%d,%d,%d\n", l.orderdate, l.custkey, l.partkey, l.suppkey, l.quantity,
                l.extendedprice, l.discount, l.revenue, l.supplycost);
    }
    fclose(f);
    if (!(f = open_in(dir, "dwdate.csv"))) return 1;
    fprintf(f, "d_datekey,d_year,d_yearmonthnum,d_weeknuminyear\n");
    for (int d = 0; d < WB_SSB_DAYS; d++) {
        int doy;
        int32_t k = wb_ssb_datekey(d, &doy);
        fprintf(f, "%d,%d,%d,%d\n", k, k / 10000, k / 100, wb_ssb_week(doy));
    }
    fclose(f);
    static const char *const names[] = {"", "customer.csv", "supplier.csv", "part.csv"};
    static const char *const heads[] = {"", "c_custkey,c_city,c_nation,c_region", "s_suppkey,s_city,s_nation,s_region",
                                        "p_partkey,p_brand1,p_category,p_mfgr"};
    const int64_t counts[] = {0, z.customer, z.supplier, z.part};
    for (int dim = WB_SSB_CUST; dim < WB_SSB_DIMS; dim++) {
        if (!(f = open_in(dir, names[dim]))) return 1;
        fprintf(f, "%s\n", heads[dim]);
        for (int32_t key = 1; key <= counts[dim]; key++) {
            int32_t v = dim == WB_SSB_CUST ? wb_ssb_c_city(seed, key)
                        : dim == WB_SSB_SUPP ? wb_ssb_s_city(seed, key)
                                             : wb_ssb_p_brand(seed, key);
            fprintf(f, "%d,%d,%d,%d\n", key, v, wb_ssb_level(dim, v, WB_SSB_MID), wb_ssb_level(dim, v, WB_SSB_TOP));
        }
        fclose(f);
    }
    if (!(f = open_in(dir, "queries.sql"))) return 1;
    for (int qi = 0; qi < WB_SSB_QUERIES; qi++) fprintf(f, "%s\n", wb_ssb_specs[qi].sql);
    fclose(f);
    wb_ssb_answer a[WB_SSB_QUERIES];
    wb_err e = {0};
    if (wb_ssb_reference(seed, &z, a, &e) != WB_OK) {
        fprintf(stderr, "test_ssb_ref: %s\n", e.msg);
        return 1;
    }
    if (!(f = open_in(dir, "answers.csv"))) return 1;
    for (int qi = 0; qi < WB_SSB_QUERIES; qi++)
        for (int64_t g = 0; g < a[qi].layout.groups; g++) {
            if (a[qi].sums[g] == 0) continue;
            int32_t v[WB_SSB_DIMS];
            int k = wb_ssb_group_values(&wb_ssb_specs[qi], &a[qi].layout, g, v);
            fprintf(f, "%s", wb_ssb_specs[qi].name);
            for (int i = 0; i < k; i++) fprintf(f, ",%d", v[i]);
            fprintf(f, ",%lld\n", (long long)a[qi].sums[g]);
        }
    fclose(f);
    wb_ssb_answers_free(a);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 5 && strcmp(argv[1], "--csv") == 0) {
        char *end1, *end2;
        long long rows = strtoll(argv[3], &end1, 10);
        unsigned long long seed = strtoull(argv[4], &end2, 10);
        if (*end1 || *end2 || rows < 1) {
            fprintf(stderr, "test_ssb_ref --csv DIR ROWS SEED: ROWS a positive integer, SEED an integer\n");
            return 2;
        }
        return write_csv(argv[2], rows, seed);
    }
    test_sizes();
    test_dates();
    test_layouts();
    test_selectivities();
    test_maps();
    test_bitmap_plan();
    return TEST_DONE();
}

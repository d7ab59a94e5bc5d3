/* ssb_query.h - the 13 Star Schema Benchmark queries as data (filters, group
 * levels, probe order, SQL text), what follows from them (group layout,
 * direct-mapped dimension maps, the specification's selectivity, the bytes
 * model) and the CPU reference that answers all 13 in one pass over the
 * generated rows (ssb_gen.h). Shared by micro/ssb.c and the tests. */
#ifndef WB_MICRO_SSB_QUERY_H
#define WB_MICRO_SSB_QUERY_H

#include <stdint.h>

#include "harness/base/error.h"
#include "kernels/ssb.h"

#define WB_SSB_QUERIES 13

/* Levels of the customer / supplier (city, nation, region) and part (brand,
 * category, mfgr) hierarchies. */
enum { WB_SSB_FINE, WB_SSB_MID, WB_SSB_TOP };

typedef struct wb_ssb_dim_spec {
    int joined;          /* 0: the query does not touch the dimension */
    int filter_level;    /* -1: no filter */
    int32_t lo, hi, alt; /* keep attribute in [lo, hi] or == alt (alt -1: none) */
    int group_level;     /* -1: not grouped */
} wb_ssb_dim_spec;

typedef struct wb_ssb_spec {
    const char *name; /* "q1.1" */
    int flight;
    int32_t date_lo, date_hi; /* lo_orderdate = d_datekey range of the date filter */
    int32_t qty_lo, qty_hi, disc_lo, disc_hi;
    wb_ssb_dim_spec dim[WB_SSB_DIMS]; /* [WB_SSB_DATE]: grouped by year or not, no other fields */
    int nprobe, order[WB_SSB_DIMS];   /* probe order: most selective first */
    const char *sql;                  /* the query over the dense-int tables (DuckDB oracle) */
} wb_ssb_spec;

extern const wb_ssb_spec wb_ssb_specs[WB_SSB_QUERIES];

/* Dense group index: ((year * C_c + c) * C_s + s) * C_p + p over the codes
 * (value - base) of the grouped levels; an ungrouped dimension has count 1. */
typedef struct wb_ssb_layout {
    int32_t base[WB_SSB_DIMS], count[WB_SSB_DIMS], stride[WB_SSB_DIMS];
    int64_t groups;
} wb_ssb_layout;

wb_ssb_sizes wb_ssb_sizes_of(int64_t lineorder_rows);
void wb_ssb_layout_of(const wb_ssb_spec *q, wb_ssb_layout *l);
/* Attribute at `level` of a fine value (city 0..249 or brand 0..999). */
int32_t wb_ssb_level(int dim, int32_t fine, int level);
int wb_ssb_dim_passes(const wb_ssb_dim_spec *d, int dim, int32_t fine);
/* The specification's expected share of lineorder rows passing, from the
 * value distributions (ssb_gen.h). */
double wb_ssb_expected_selectivity(const wb_ssb_spec *q);
/* The specification's share of a dimension's rows (date: of the order days)
 * passing the query's filter; 1 for a dimension the query does not join. */
double wb_ssb_dim_share(const wb_ssb_spec *q, int dim);

/* Entries of a dimension's direct map (keys are 1-based: entry 0 is unused;
 * date: WB_SSB_DATE_SPAN), and the map itself (-1 or code x stride). */
int64_t wb_ssb_map_entries(int dim, const wb_ssb_sizes *z);
void wb_ssb_map_fill(const wb_ssb_spec *q, const wb_ssb_layout *l, int dim, const wb_ssb_sizes *z, uint64_t seed,
                     int32_t *map);

/* The packed form's map from the int32 one: code = share / stride, or
 * WB_SSB_PACKED_NONE; WB_ERR when a code does not fit a byte. */
int wb_ssb_pack_map(const int32_t *map, int64_t entries, int32_t stride, uint8_t *bytes);
/* Words of the bitmap form's filter over `entries` keys, padded to
 * WB_SSB_BITMAP_ALIGN; and the filter: bit k of word k / 32 set iff map[k] >= 0. */
int64_t wb_ssb_bitmap_words(int64_t entries);
void wb_ssb_bitmap_of(const int32_t *map, int64_t entries, uint32_t *bits);
/* A packed map (wb_ssb_pack_map) as 4-bit group codes (WB_SSB_CODE_NONE
 * where filtered out), nibble k % 8 of word k / 8, in
 * wb_ssb_code_words(entries) words; WB_ERR if a code does not fit below
 * WB_SSB_CODE_NONE. */
int64_t wb_ssb_code_words(int64_t entries);
int wb_ssb_codes_of(const uint8_t *packed, int64_t entries, uint32_t *words);

/* The bitmap form's plan: the joined dimensions whose filters become
 * shared-memory bitmaps (the most selective first, while their bitmaps fit
 * max_bytes together), and its probe order: the bitmaps by share, then the
 * rest (date arithmetic, packed maps) by share; a date passing under half
 * the rows goes among the bitmaps by share where every probe more
 * selective than it is a bitmap. Where the query
 * groups by the first bitmap's dimension in at most 14 codes and that
 * filter passes at least 3% of the rows, the first
 * bitmap holds the codes instead if they fit beside code_queue_bytes (the
 * queues' codes), later bitmaps dropped from the least selective on. */
typedef struct wb_ssb_bitmap_plan {
    int order[WB_SSB_DIMS]; /* q->nprobe dimensions */
    int bits[WB_SSB_DIMS];  /* per dimension: 1 when its filter is a bitmap */
    int nbits;
    int64_t bytes;          /* the bitmaps together */
    int codes;              /* the first bitmap holds 4-bit group codes (wb_ssb_codes_of), carried by the
                               rows that pass it through the queues */
    int date_last;          /* the date is probed last and passes at least half the rows: the kernel
                               tests it in the final stage, beside the measures' loads */
    int cluster;            /* blocks per cluster over which every bitmap after the first is spread
                               (wb_ssb_query.cluster); 1: none */
} wb_ssb_bitmap_plan;
void wb_ssb_bitmap_plan_of(const wb_ssb_spec *q, const wb_ssb_sizes *z, int64_t max_bytes, int64_t code_queue_bytes,
                           wb_ssb_bitmap_plan *p);
/* Whether the plan's bitmap of dim holds 4-bit codes (it is the first and the plan says codes). */
int wb_ssb_plan_holds_codes(const wb_ssb_bitmap_plan *p, int dim);
/* Whether the bitmap form's batches under plan p compact the rows that pass
 * its second probe (wb_ssb_query.compact). */
int wb_ssb_plan_compacts(const wb_ssb_spec *q, const wb_ssb_bitmap_plan *p);
/* The same with clusters of `cluster` blocks (2, 4 or 8): where spreading
 * the bitmaps after the first over a cluster (each block holds 1/cluster
 * of them) makes more dimensions bitmaps than wb_ssb_bitmap_plan_of (or,
 * when `always`, at least two), the first is the most selective bitmap
 * that fits a block alone, the others follow by share while the block's
 * part fits, and no bitmap holds codes; otherwise wb_ssb_bitmap_plan_of's
 * plan (cluster 1). */
void wb_ssb_bitmap_plan_cluster(const wb_ssb_spec *q, const wb_ssb_sizes *z, int64_t max_bytes,
                                int64_t code_queue_bytes, int cluster, int always, wb_ssb_bitmap_plan *p);
/* The plan the family runs: wb_ssb_bitmap_plan_cluster's with the smallest
 * cluster (2, then 4, up to max_cluster; 1: none) that makes more filters
 * bitmaps, where the first filter passes at least 3% of the rows and, for a
 * cluster of more than 2, the plain plan holds no codes; otherwise the
 * plain plan. */
void wb_ssb_bitmap_plan_auto(const wb_ssb_spec *q, const wb_ssb_sizes *z, int64_t max_bytes, int64_t code_queue_bytes,
                             int max_cluster, wb_ssb_bitmap_plan *p);

/* The lineorder column a dimension joins on (WB_SSB_LO_*). */
int wb_ssb_key_column(int dim);

/* The CPU answer of every query on the rows of (seed, sizes): dense group
 * sums, and rows surviving each probe stage (stage[0] = n, stage[k] after k
 * predicates or probes in the kernels' order; flight 1: date, quantity,
 * discount). */
typedef struct wb_ssb_answer {
    wb_ssb_layout layout;
    int64_t *sums; /* layout.groups */
    int64_t stage[WB_SSB_DIMS + 1];
    int nstages;
} wb_ssb_answer;

/* Runs on wb_par_chunks's workers (exact.h): the answers do not depend on their count. */
int wb_ssb_reference(uint64_t seed, const wb_ssb_sizes *z, wb_ssb_answer ans[WB_SSB_QUERIES], wb_err *e);
void wb_ssb_answers_free(wb_ssb_answer ans[WB_SSB_QUERIES]);

/* The bytes the query must read (see ssb_query.c) at its measured stage
 * survivals, and the dimension map lookups it makes. */
double wb_ssb_bytes_model(const wb_ssb_spec *q, const wb_ssb_answer *a, const wb_ssb_sizes *z, double *lookups);
/* The same over columns of bits[c] bits a row (the compressed form's packed
 * columns: a 32-byte sector holds 256 / bits rows). */
double wb_ssb_bytes_model_bits(const wb_ssb_spec *q, const wb_ssb_answer *a, const wb_ssb_sizes *z,
                               const int bits[WB_SSB_LO_COLUMNS], double *lookups);

/* Decodes group g into the values of its grouped columns (year, then c, s,
 * p in that order, only those grouped); returns how many. */
int wb_ssb_group_values(const wb_ssb_spec *q, const wb_ssb_layout *l, int64_t g, int32_t *values);

#endif

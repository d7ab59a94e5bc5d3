/* ceilings.h - what a results file says about its GPU: the measured
 * ceilings (rows of WB_CEILING_FAMILY, file attributes ceiling_<variant>_gbps
 * / _gips as fallback), the SM clock the instruction ceiling ran at, the
 * reference row of harness/gpus.tsv that matches the GPU, and the measured
 * roof (inst_issue G inst/s over dram_read GB/s) that the roofline table,
 * the report and every roofline figure draw. Read-only over wb_results. */
#ifndef WB_CEILINGS_H
#define WB_CEILINGS_H

#include <stddef.h>

#include "harness/base/gpus.h"
#include "harness/base/roof.h"
#include "harness/base/wall.h"
#include "harness/store/store_h5.h"

typedef struct wb_gpu_view {
    char gpu_name[96];        /* attribute gpu_name; "" when absent */
    char label[20];           /* short name for legends ("H200"); "GPU" when unknown */
    char kind[12];            /* "measured", or "projected" (attribute projected = 1) */
    const wb_gpu_ref *ref;    /* gpus.tsv row whose match occurs in gpu_name (any row), or NULL */
    int sms, smsp_per_sm, threads_per_sm; /* -1 unknown */
    int smsp_assumed;         /* 1: smsp_per_sm = 4 assumed because the GPU is not in gpus.tsv */
    double clock_ghz;         /* SM clock of the inst_issue ceiling (counters, else NVML); NaN */
    double inst_theory_gips;  /* sms * smsp_per_sm * clock_ghz */
    double inst_gips;         /* inst_issue ceiling, measured */
    double dram_read_gbps, dram_write_gbps, dram_copy_gbps, memcpy_gbps, l2_read_gbps;
    double l2_mib, mem_gib;   /* attributes l2_bytes / mem_total_bytes, else the reference row */
    double gather_word_1g, gather_sector_1g; /* random-request ceilings at a 1 GiB table, G req/s; NaN */
    double atomic_greqs;      /* global atomics at the atom_global ceiling's fastest table (the L2's atomic rate), G req/s; NaN */
    int atomic_counted;       /* 1: atomic_greqs counts the L2's ATOM + RED requests, as kernels' counters do; 0: adds */
    wb_roof roof;             /* name "<label> measured|projected": inst_gips over dram_read_gbps */
} wb_gpu_view;

/* Best value of a ceiling variant: what = "gbps" (max gbps_model over its ok
 * rows) or "gips" (max counter gips); falls back to the attribute
 * ceiling_<variant>_<what>. NaN when neither exists. */
double wb_ceiling_value(const wb_results *r, const char *variant, const char *what);

/* The random-access wall of a gather ceiling variant (gather_word,
 * gather_sector), or the rates of any sized ceiling (atom_global): its best
 * rate (items per second, G) per table size over the file's ok rows. */
void wb_gather_wall(const wb_results *r, const char *variant, wb_wall *w);

/* Fills v from the file (r may be NULL: everything unknown). Never fails:
 * what the file lacks stays NaN / -1, and callers print "-". */
void wb_gpu_view_init(const wb_results *r, const wb_gpu_table *t, wb_gpu_view *v);

/* A sized ceiling (atomics) at its fastest table, G req/s: the file's rows, else its /ceilings
 * rows, else the attribute ceiling_<variant>_greqs (a profile's); NaN without one. The fastest,
 * not the largest: atom_global's largest table outgrows the L2, so its atomics miss and wait on
 * DRAM (1,312 GB/s of it on the H200): 36.6 G adds/s into 2^24 words, 105.5 into 2^20 (record 4531e1f). */
double wb_ceiling_fastest(const wb_results *r, const char *variant);

/* The atomics ceiling as the limiter and fig-hierarchical read it, G/s: the L2's ATOM + RED requests a
 * second of the fastest atom_global row whose counter pass counted them, the unit of a kernel's
 * l2_atom_requests + l2_red_requests (the L2 counts 1.5 RED requests per add into 2^20 words on the
 * H200: record 4531e1f); else wb_ceiling_fastest's value, adds a second from rows, or a profile's copy
 * (its attribute ceiling_atom_global_counted says which). *counted (may be NULL) says which. */
double wb_ceiling_atomics(const wb_results *r, int *counted);

/* Short legend name from a model or device name: "NVIDIA H200 SXM" -> "H200". */
const char *wb_gpu_label(const char *name, char *buf, size_t len);

/* Reference rows the paper compares against (seed 000 Table 2); NULL when
 * the table lacks them. */
const wb_gpu_ref *wb_gpu_ref_l4(const wb_gpu_table *t);
const wb_gpu_ref *wb_gpu_ref_gh200(const wb_gpu_table *t);
/* A reference row as a roof (its inst_gips over dram_gbps), named label. */
wb_roof wb_gpu_ref_roof(const wb_gpu_ref *g);

#endif

/* merge.c - `wallbench merge A.h5 B.h5 ... -o ALL.h5`: the shards of one
 * sweep (`wallbench run --shard I/N`) on one GPU model as one results file.
 * Refuses, naming the files and the reason, shards of different schema
 * versions, GPU models, builds (git revision), sweeps (fingerprint, sweep
 * kind, seed, reps, shard count) and shards that overlap in a non-ceiling point. Every shard ran the
 * ceilings: the merge keeps the lowest shard's set and records the others'
 * ceiling attributes with the rest of their provenance (attributes
 * shard<I>_<name>). Missing shards or points are named; the merge is still
 * written (no finished point is lost) and the exit code is 1. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness/commands.h"
#include "harness/base/shard_spec.h"
#include "harness/store/schema.h"
#include "harness/store/store_h5.h"
#include "harness/tools/match.h"

static int usage(FILE *f) {
    fprintf(f, "usage: wallbench merge SHARD.h5 [SHARD.h5 ...] -o ALL.h5\n"
               "  combines the shards of one sweep on one GPU model (wallbench run --shard I/N) into one\n"
               "  results file: every shard's points once, the ceilings of the lowest shard (each shard\n"
               "  measured them; the others' stay in attributes shard<I>_ceiling_*), every shard's\n"
               "  provenance as attributes shard<I>_<name>. Refuses other schema versions, GPU models,\n"
               "  sweeps and overlapping points. Missing shards or points are named and exit 1.\n"
               "  Results files only: a profile file (wallbench profile -- CMD) has no shards; report,\n"
               "  roofline, export, compare and project read both kinds.\n"
               "exit codes: 0 complete, 1 written but incomplete (or a write failed), 2 bad input\n");
    return f == stdout ? 0 : 2;
}

typedef struct shard_file {
    const char *path;
    wb_results r;
    int index, count;
} shard_file;

static int is_ceiling(const wb_row *r) {
    return strcmp(r->p.family, WB_SHARD_CEILING_FAMILY) == 0;
}

static const char *attr_or(const wb_results *r, const char *name, const char *dflt) {
    const char *v = wb_results_attr(r, name);
    return v ? v : dflt;
}

static int open_shard(shard_file *f, wb_err *e) {
    if (wb_results_open(f->path, &f->r, e) != WB_OK) return WB_ERR;
    const char *spec = wb_results_attr(&f->r, "shard");
    wb_err pe;
    if (!spec) return wb_fail(e, "%s is not a shard (it was not run with --shard I/N): nothing to merge", f->path);
    if (wb_shard_parse(spec, &f->index, &f->count, &pe) != WB_OK)
        return wb_fail(e, "%s: its shard attribute '%s' is not I/N", f->path, spec);
    return WB_OK;
}

/* The attributes two shards of one sweep must agree on, with what a
 * difference means. */
static const struct {
    const char *name, *meaning;
} same_attrs[] = {
    {"schema_version", "different schema versions"},
    {"gpu_name", "different GPU models (compare them with wallbench compare instead)"},
    {"git_revision", "different builds"},
    {"kernel_code", "different kernel code (another CUDA_ARCHS build)"},
    {"profile", "different GPU profiles"},
    {"sweep", "different sweeps"},
    {"sweep_fingerprint", "different sweeps (other families, variants, sizes or build)"},
    {"seed", "different input seeds"},
    {"reps", "different --reps"},
    {"shard_count", "different shard counts"},
};

static int check_same(const shard_file *a, const shard_file *b, wb_err *e) {
    for (size_t k = 0; k < sizeof same_attrs / sizeof same_attrs[0]; k++) {
        const char *va = attr_or(&a->r, same_attrs[k].name, "(none)"), *vb = attr_or(&b->r, same_attrs[k].name, "(none)");
        if (strcmp(va, vb) != 0)
            return wb_fail(e, "%s and %s are of %s: %s is '%s' and '%s'", a->path, b->path, same_attrs[k].meaning,
                           same_attrs[k].name, va, vb);
    }
    if (a->index == b->index)
        return wb_fail(e, "%s and %s are both shard %d/%d", a->path, b->path, a->index, a->count);
    return WB_OK;
}

/* A non-ceiling point measured in two shards. */
static int check_disjoint(const shard_file *a, const shard_file *b, wb_err *e) {
    wb_match m;
    if (wb_match_files(&a->r, &b->r, &m, e) != WB_OK) return WB_ERR;
    int rc = WB_OK;
    for (int64_t i = 0; i < a->r.nrows && rc == WB_OK; i++)
        if (m.a_to_b[i] >= 0 && !is_ceiling(&a->r.rows[i])) {
            char label[320];
            rc = wb_fail(e, "%s and %s overlap: both hold point %s (shards of different assignments?)", a->path, b->path,
                         wb_match_label(&a->r.rows[i], label, sizeof label));
        }
    wb_match_free(&m);
    return rc;
}

/* The distinct gpu_uuid of the shards, in shard order, comma-separated:
 * one sweep may be spread over boards of one model, which agree in
 * bandwidth but not always in random reads (11% apart on two H200s). */
static int board_list(const shard_file *f, int nf, char *out, size_t len) {
    int boards = 0;
    out[0] = '\0';
    for (int i = 0; i < nf; i++) {
        const char *u = attr_or(&f[i].r, "gpu_uuid", "?");
        int seen = 0;
        for (int j = 0; j < i && !seen; j++) seen = !strcmp(u, attr_or(&f[j].r, "gpu_uuid", "?"));
        if (seen) continue;
        size_t at = strlen(out);
        snprintf(out + at, len - at, "%s%s", boards ? "," : "", u);
        boards++;
    }
    return boards;
}

/* Per shard: its GPU, how long it ran and two of its ceilings, then how
 * far apart the GPUs were (max / min - 1): the spread between the GPUs
 * that one sweep was spread over. */
static void shard_table(const shard_file *f, int nf) {
    static const char *const cols[] = {"run_wall_s", "ceiling_dram_read_gbps", "ceiling_inst_issue_gips"};
    static const char *const names[] = {"run time", "DRAM read", "inst"};
    double lo[3], hi[3];
    for (int c = 0; c < 3; c++) lo[c] = INFINITY, hi[c] = -INFINITY;
    printf("  shard  points  run s  DRAM read GB/s  inst G/s  GPU\n");
    for (int i = 0; i < nf; i++) {
        char cell[3][32];
        for (int c = 0; c < 3; c++) {
            double v = wb_results_attr_f64(&f[i].r, cols[c]);
            snprintf(cell[c], sizeof cell[c], isfinite(v) ? "%.0f" : "-", v);
            if (isfinite(v)) lo[c] = fmin(lo[c], v), hi[c] = fmax(hi[c], v);
        }
        printf("  %2d/%-2d  %6lld  %5s  %14s  %8s  %s\n", f[i].index, f[i].count, (long long)f[i].r.nrows, cell[0], cell[1],
               cell[2], attr_or(&f[i].r, "gpu_uuid", "?"));
    }
    if (nf < 2) return;
    char boards[1024];
    const int nb = board_list(f, nf, boards, sizeof boards);
    if (nb > 1)
        printf("  NOTE: the shards ran on %d GPUs (%s): the merged file's ceilings are shard %d's; compare\n"
               "  points within one gpu_uuid (attributes shard<I>_gpu_uuid, merged_gpu_uuids)\n",
               nb, boards, f[0].index);
    printf("  spread between the shards' GPUs (max / min - 1):");
    for (int c = 0; c < 3; c++)
        if (hi[c] > 0 && lo[c] > 0) printf("%s %s %.1f%%", c ? "," : "", names[c], (hi[c] / lo[c] - 1) * 100);
        else printf("%s %s -", c ? "," : "", names[c]);
    printf("\n");
}

static int by_index(const void *x, const void *y) {
    return ((const shard_file *)x)->index - ((const shard_file *)y)->index;
}

/* Shard-specific attributes that the merged file states differently. */
static int shard_only(const char *name) {
    return !strncmp(name, "shard", 5);
}

static int write_attrs(wb_store *s, const shard_file *f, int nf, const char *cmdline, wb_err *e) {
    if (wb_store_attr_str(s, "command_line", cmdline, e) != WB_OK) return WB_ERR;
    char boards[1024];
    board_list(f, nf, boards, sizeof boards);
    if (wb_store_attr_str(s, "merged_gpu_uuids", boards, e) != WB_OK) return WB_ERR;
    for (int k = 0; k < f[0].r.nattrs; k++) {
        const wb_attr *a = &f[0].r.attrs[k];
        wb_ceiling_entry c;
        if (shard_only(a->name) || !strcmp(a->name, "schema_version") || !strcmp(a->name, "command_line") ||
            wb_ceiling_from_attr(a->name, &c)) /* ceilings: copied whole below */
            continue;
        int rc = a->is_number ? wb_store_attr_f64(s, a->name, strtod(a->value, NULL), e)
                              : wb_store_attr_str(s, a->name, a->value, e);
        if (rc != WB_OK) return WB_ERR;
    }
    for (int k = 0; k < f[0].r.nceilings; k++)
        if (wb_store_ceiling(s, &f[0].r.ceilings[k], e) != WB_OK) return WB_ERR;
    for (int i = 0; i < nf; i++)
        for (int k = 0; k < f[i].r.nattrs; k++) {
            const wb_attr *a = &f[i].r.attrs[k];
            char name[96];
            snprintf(name, sizeof name, "shard%d_%s", f[i].index, a->name);
            int rc = a->is_number ? wb_store_attr_f64(s, name, strtod(a->value, NULL), e)
                                  : wb_store_attr_str(s, name, a->value, e);
            if (rc != WB_OK) return WB_ERR;
        }
    return WB_OK;
}

static int append_rows(wb_store *s, const shard_file *f, int with_ceilings, int64_t *out, wb_err *e) {
    for (int64_t i = 0; i < f->r.nrows; i++) {
        wb_row row = f->r.rows[i];
        if (is_ceiling(&row) != with_ceilings) continue;
        const double *samples = f->r.sample_ms ? f->r.sample_ms + f->r.sample_start[i] : NULL;
        if (wb_store_append(s, &row, samples, f->r.sample_count ? f->r.sample_count[i] : 0, e) != WB_OK) return WB_ERR;
        (*out)++;
    }
    return WB_OK;
}

/* Points a shard holds (repetition 0, ceilings left out) against what its
 * run planned (shard_counts); appends one line per gap to gaps. */
static int shard_gaps(const shard_file *f, int nf, char *gaps, size_t len) {
    const char *counts = attr_or(&f[0].r, "shard_counts", "");
    int missing = 0, count = f[0].count;
    size_t at = strlen(gaps);
    const char *c = counts;
    for (int s = 1; s <= count; s++) {
        long want = c && *c ? strtol(c, (char **)&c, 10) : -1;
        if (c && *c == ',') c++;
        const shard_file *have = NULL;
        for (int i = 0; i < nf; i++)
            if (f[i].index == s) have = &f[i];
        long got = 0, ok = 0;
        if (have)
            for (int64_t i = 0; i < have->r.nrows; i++)
                if (!is_ceiling(&have->r.rows[i]) && have->r.rows[i].m.repetition == 0) {
                    got++;
                    ok += !strcmp(have->r.rows[i].m.status, "ok");
                }
        if (!have) {
            missing++;
            at += (size_t)snprintf(gaps + at, at < len ? len - at : 0, "  shard %d/%d missing: its %ld points are not in the merge\n", s,
                                   count, want);
        } else if (want >= 0 && got < want) {
            missing++;
            at += (size_t)snprintf(gaps + at, at < len ? len - at : 0,
                                   "  shard %d/%d (%s) holds %ld of its %ld points (the run stopped early?)\n", s, count,
                                   have->path, got, want);
        }
        (void)ok;
    }
    return missing;
}

int wb_cmd_merge(int argc, char **argv) {
    const char *out = NULL;
    int nf = 0, rc = 2;
    shard_file *f = calloc((size_t)(argc > 1 ? argc : 1), sizeof *f);
    if (!f) return fprintf(stderr, "wallbench merge: out of host memory\n"), 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            free(f);
            return usage(stdout);
        }
        if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
            if (i + 1 >= argc) return free(f), fprintf(stderr, "wallbench merge: %s needs a file name\n", a), 2;
            out = argv[++i];
        } else if (!strncmp(a, "--output=", 9)) out = a + 9;
        else if (!strcmp(a, "--out") || !strncmp(a, "--out=", 6))
            return free(f), fprintf(stderr, "wallbench merge: --out is a folder in every command; the merged file is "
                                            "-o/--output ALL.h5\n"), 2;
        else if (a[0] == '-') return free(f), fprintf(stderr, "wallbench merge: unknown option '%s'\n", a), usage(stderr);
        else f[nf++].path = a;
    }
    wb_err e = {""};
    wb_store *s = NULL;
    int opened = 0;
    if (!out) {
        wb_fail(&e, "give the merged file with -o ALL.h5");
        goto done;
    }
    if (!nf) {
        wb_fail(&e, "give the shard files to merge");
        goto done;
    }
    /* bad input like any other (exit 2, as project says it), said before any shard is read */
    struct stat st;
    if (stat(out, &st) == 0) {
        wb_fail(&e, "%s: already exists; a results file is never overwritten (give a new name to -o)", out);
        goto done;
    }
    for (; opened < nf; opened++)
        if (open_shard(&f[opened], &e) != WB_OK) {
            opened++;
            goto done;
        }
    for (int i = 1; i < nf; i++)
        if (check_same(&f[0], &f[i], &e) != WB_OK) goto done;
    for (int i = 0; i < nf; i++)
        for (int j = i + 1; j < nf; j++)
            if (check_same(&f[i], &f[j], &e) != WB_OK || check_disjoint(&f[i], &f[j], &e) != WB_OK) goto done;
    qsort(f, (size_t)nf, sizeof *f, by_index);
    char gaps[8192] = "";
    int missing = shard_gaps(f, nf, gaps, sizeof gaps);

    rc = 1;
    char cmdline[4096];
    size_t at0 = (size_t)snprintf(cmdline, sizeof cmdline, "wallbench");
    for (int i = 0; i < argc && at0 < sizeof cmdline; i++)
        at0 += (size_t)snprintf(cmdline + at0, sizeof cmdline - at0, " %s", argv[i]);
    if (wb_store_create(out, &s, &e) != WB_OK || write_attrs(s, f, nf, cmdline, &e) != WB_OK) goto done;
    char merged[2048], note[512];
    size_t at = 0;
    for (int i = 0; i < nf && at < sizeof merged; i++)
        at += (size_t)snprintf(merged + at, sizeof merged - at, "%s%d/%d", i ? " " : "", f[i].index, f[i].count);
    int64_t ceilings = 0, points = 0, dropped = 0;
    if (append_rows(s, &f[0], 1, &ceilings, &e) != WB_OK) goto done;
    for (int i = 1; i < nf; i++)
        for (int64_t k = 0; k < f[i].r.nrows; k++) dropped += is_ceiling(&f[i].r.rows[k]);
    for (int i = 0; i < nf; i++)
        if (append_rows(s, &f[i], 0, &points, &e) != WB_OK) goto done;
    snprintf(note, sizeof note,
             "kept the %lld ceiling rows of shard %d/%d (%s); dropped %lld duplicate ceiling rows of the other shards, "
             "whose values stay in attributes shard<I>_ceiling_*; points keep the bound and roof columns derived "
             "against their own shard's ceilings",
             (long long)ceilings, f[0].index, f[0].count, attr_or(&f[0].r, "gpu_uuid", "?"), (long long)dropped);
    if (wb_store_attr_str(s, "merged_shards", merged, &e) != WB_OK ||
        wb_store_attr_f64(s, "shard_count", f[0].count, &e) != WB_OK ||
        wb_store_attr_str(s, "merge_ceilings", note, &e) != WB_OK ||
        wb_store_attr_str(s, "merge_missing", missing ? gaps : "", &e) != WB_OK)
        goto done;
    wb_store *closing = s;
    s = NULL;
    if (wb_store_close(closing, &e) != WB_OK) goto done;
    printf("wallbench merge: %s: %lld points of %d shard(s) of %d, %lld ceiling rows (%s)\n", out, (long long)points, nf,
           f[0].count, (long long)ceilings, note);
    shard_table(f, nf);
    if (missing) {
        fprintf(stderr, "wallbench merge: %s is incomplete:\n%s", out, gaps);
        rc = 1;
    } else {
        rc = 0;
    }
done:
    if (e.msg[0]) fprintf(stderr, "wallbench merge: %s\n", e.msg);
    if (s) {
        wb_err ignored;
        wb_store_close(s, &ignored);
    }
    for (int i = 0; i < opened; i++) wb_results_free(&f[i].r);
    free(f);
    return rc;
}

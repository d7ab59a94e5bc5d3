/* sides.c - what two results files are and where they differ (see sides.h). */
#include "harness/tools/sides.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/json.h"

static const char *const kind_names[WB_SIDE_KINDS] = {"schema", "sweep", "board", "GPU model", "GPU profile", "build",
                                                       "command"};

static const char *attr(const wb_results *r, const char *name) {
    const char *v = wb_results_attr(r, name);
    return v && *v && strcmp(v, "unknown") != 0 ? v : NULL;
}

const char *wb_side_boards(const wb_results *r) {
    const char *m = attr(r, "merged_gpu_uuids");
    if (m) return m;
    const char *u = attr(r, "gpu_uuid");
    return u ? u : "?";
}

/* Drops "FLAG VALUE" (or FLAG=VALUE) from a command line: the flags that
 * name where a run wrote or which shard it was, not what it measured. */
static int skip_flag(const char **p, const char *flag) {
    const size_t n = strlen(flag);
    if (strncmp(*p, flag, n) != 0 || ((*p)[n] != ' ' && (*p)[n] != '=')) return 0;
    *p += n + 1;
    while (**p && **p != ' ') (*p)++;
    return 1;
}

void wb_side_command(const wb_results *r, char *out, size_t len) {
    const char *cmd = attr(r, "shard1_command_line");
    if (!cmd) cmd = attr(r, "command_line");
    size_t n = 0;
    for (const char *p = cmd ? cmd : ""; *p && n + 1 < len;) {
        const char *q = p + 1;
        if (*p == ' ' && (skip_flag(&q, "--out") || skip_flag(&q, "--shard") || skip_flag(&q, "--shard-cost") ||
                          skip_flag(&q, "--summary-json"))) {
            p = q;
            continue;
        }
        out[n++] = *p++;
    }
    if (len) out[n] = '\0';
}

/* The short board name: "GPU-4efdb731" of "GPU-4efdb731-3ff6-...", whole when merged. */
static void short_board(const char *uuid, char *out, size_t len) {
    if (strchr(uuid, ',') || strncmp(uuid, "GPU-", 4) != 0 || strlen(uuid) < 40) { /* not one whole UUID */
        snprintf(out, len, "%s", uuid);
        return;
    }
    const char *dash = strchr(uuid + 4, '-');
    snprintf(out, len, "%.*s", dash ? (int)(dash - uuid) : (int)strlen(uuid), uuid);
}

void wb_side_label(const wb_results *r, char *out, size_t len) {
    const char *gpu = attr(r, "gpu_name"), *rev = attr(r, "git_revision"), *sweep = attr(r, "sweep");
    char board[128];
    short_board(wb_side_boards(r), board, sizeof board);
    snprintf(out, len, "%s (%s, board %s, revision %.12s, sweep %s%s)", r->path, gpu ? gpu : "GPU unknown", board,
             rev ? rev : "?", sweep ? sweep : "?", wb_results_attr_f64(r, "projected") == 1 ? ", PROJECTED" : "");
}

static void put(wb_side_diff *d, int kind, const char *a, const char *b) {
    snprintf(d->a[kind], sizeof d->a[kind], "%s", a && *a ? a : "?");
    snprintf(d->b[kind], sizeof d->b[kind], "%s", b && *b ? b : "?");
    d->differs[kind] = a && *a && b && *b && strcmp(a, b) != 0;
    d->n += d->differs[kind];
}

/* "c2dfc31, archs 90": the revision and, where the file says (schema 2 on), the CUDA architectures built. */
static void build_of(const wb_results *r, char *out, size_t len) {
    const char *rev = attr(r, "git_revision"), *archs = attr(r, "cuda_archs");
    snprintf(out, len, "%.100s%s%.80s", rev ? rev : "", rev && archs ? ", archs " : "", rev && archs ? archs : "");
}

void wb_side_compare(const wb_results *a, const wb_results *b, wb_side_diff *d) {
    memset(d, 0, sizeof *d);
    put(d, WB_SIDE_SCHEMA, attr(a, "schema_version"), attr(b, "schema_version"));
    /* the sweep's name, and its fingerprint (every point name) where both have one */
    char sa[160], sb[160];
    const char *fa = attr(a, "sweep_fingerprint"), *fb = attr(b, "sweep_fingerprint");
    const char *na = attr(a, "sweep"), *nb = attr(b, "sweep");
    snprintf(sa, sizeof sa, "%s", na ? na : "");
    snprintf(sb, sizeof sb, "%s", nb ? nb : "");
    if (fa && fb && strcmp(fa, fb) != 0 && na && nb && !strcmp(na, nb)) { /* one name, other points */
        snprintf(sa, sizeof sa, "%s (points %.8s)", na, fa);
        snprintf(sb, sizeof sb, "%s (points %.8s)", nb, fb);
    }
    put(d, WB_SIDE_SWEEP, sa, sb);
    const char *ba = wb_side_boards(a), *bb = wb_side_boards(b);
    put(d, WB_SIDE_BOARD, strcmp(ba, "?") ? ba : NULL, strcmp(bb, "?") ? bb : NULL);
    put(d, WB_SIDE_MODEL, attr(a, "gpu_name"), attr(b, "gpu_name"));
    put(d, WB_SIDE_PROFILE, attr(a, "profile"), attr(b, "profile"));
    if (d->differs[WB_SIDE_MODEL] && d->differs[WB_SIDE_PROFILE]) d->differs[WB_SIDE_PROFILE] = 0, d->n--; /* the model says it */
    char build_a[200], build_b[200];
    build_of(a, build_a, sizeof build_a);
    build_of(b, build_b, sizeof build_b);
    put(d, WB_SIDE_BUILD, build_a, build_b);
    if (d->differs[WB_SIDE_BUILD] && !strchr(build_a, ',') != !strchr(build_b, ',')) { /* one file names no archs */
        const char *ra = attr(a, "git_revision"), *rb = attr(b, "git_revision");
        if (ra && rb && !strcmp(ra, rb)) d->differs[WB_SIDE_BUILD] = 0, d->n--;
    }
    char ca[256], cb[256];
    wb_side_command(a, ca, sizeof ca);
    wb_side_command(b, cb, sizeof cb);
    put(d, WB_SIDE_COMMAND, ca, cb);
}

void wb_side_points(wb_side_diff *d, const wb_results *a, const wb_results *b, int64_t only_a, int64_t only_b) {
    if (d->differs[WB_SIDE_SWEEP] || (!only_a && !only_b)) return;
    char sa[256], sb[256];
    snprintf(sa, sizeof sa, "%.180s (%lld points, %lld not in the other)", d->a[WB_SIDE_SWEEP], (long long)a->nrows,
             (long long)only_a);
    snprintf(sb, sizeof sb, "%.180s (%lld points, %lld not in the other)", d->b[WB_SIDE_SWEEP], (long long)b->nrows,
             (long long)only_b);
    memcpy(d->a[WB_SIDE_SWEEP], sa, sizeof sa);
    memcpy(d->b[WB_SIDE_SWEEP], sb, sizeof sb);
    d->differs[WB_SIDE_SWEEP] = 1;
    d->n++;
}

int wb_side_same_run(const wb_results *a, const wb_results *b, char *why, size_t len) {
    char ra[PATH_MAX], rb[PATH_MAX];
    if (realpath(a->path, ra) && realpath(b->path, rb) && !strcmp(ra, rb)) {
        snprintf(why, len, "one file (%s)", ra);
        return 1;
    }
    const char *ta = attr(a, "utc_time"), *tb = attr(b, "utc_time"), *ga = attr(a, "git_revision"),
               *gb = attr(b, "git_revision");
    int same = ta && tb && ga && gb && !strcmp(ta, tb) && !strcmp(ga, gb) &&
               !strcmp(wb_side_boards(a), wb_side_boards(b)) && a->nrows == b->nrows;
    for (int64_t i = 0; same && i < a->nrows; i++) { /* and the same times: an edited copy is another file */
        const double x = a->rows[i].m.time_median_ms, y = b->rows[i].m.time_median_ms;
        same = x == y || (x != x && y != y);
    }
    if (same) {
        snprintf(why, len, "copies of one run (both measured at %s on board %s at revision %s, %lld points)", ta,
                 wb_side_boards(a), ga, (long long)a->nrows);
        return 1;
    }
    return 0;
}

void wb_side_print(FILE *f, const wb_side_diff *d, const char *prefix, const char *tag_a, const char *tag_b,
                   const char *const consequence[WB_SIDE_KINDS]) {
    for (int k = 0; k < WB_SIDE_KINDS; k++) {
        if (!d->differs[k]) continue;
        fprintf(f, "%s%s differs: %s %s, %s %s", prefix, kind_names[k], tag_a, d->a[k], tag_b, d->b[k]);
        if (consequence && consequence[k]) fprintf(f, ": %s", consequence[k]);
        fprintf(f, "\n");
    }
}

void wb_side_json(FILE *f, const wb_results *r) {
    static const char *const keys[] = {"gpu_name", "gpu_uuid", "git_revision", "sweep", "profile", "cuda_archs",
                                       "utc_time"};
    fputc('{', f);
    wb_json_key(f, "file", 1);
    wb_json_str(f, r->path);
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const char *v = !strcmp(keys[i], "gpu_uuid") ? wb_side_boards(r) : attr(r, keys[i]);
        wb_json_kv_str(f, keys[i], v && strcmp(v, "?") != 0 ? v : NULL);
    }
    wb_json_kv_num(f, "schema_version", wb_results_attr_f64(r, "schema_version"));
    wb_json_kv_num(f, "points", (double)r->nrows);
    wb_json_key(f, "projected", 0);
    fputs(wb_results_attr_f64(r, "projected") == 1 ? "true" : "false", f);
    fputc('}', f);
}

void wb_side_diff_json(FILE *f, const wb_side_diff *d, const char *tag_a, const char *tag_b,
                       const char *const consequence[WB_SIDE_KINDS]) {
    fputc('[', f);
    int first = 1;
    for (int k = 0; k < WB_SIDE_KINDS; k++) {
        if (!d->differs[k]) continue;
        fputs(first ? "{" : ", {", f);
        first = 0;
        wb_json_key(f, "kind", 1);
        wb_json_str(f, kind_names[k]);
        wb_json_kv_str(f, tag_a, d->a[k]);
        wb_json_kv_str(f, tag_b, d->b[k]);
        wb_json_kv_str(f, "action", consequence ? consequence[k] : NULL);
        fputc('}', f);
    }
    fputc(']', f);
}

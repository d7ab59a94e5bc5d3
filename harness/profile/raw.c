/* raw.c - reads a raw pass file (raw.h). Names and NVTX paths repeat on
 * every launch: they are interned once (a small open-addressing table), so a
 * program of 10^5+ launches costs a few strings, not one per launch. */
#include "harness/profile/raw.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/grow.h"
#include "harness/base/metrics.h"
#include "harness/base/parse_int.h"

typedef struct intern {
    int *slot;  /* string index + 1, 0 empty */
    int cap;
} intern;

static uint64_t hash(const char *s) {
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static int add_string(wb_raw *r, intern *t, const char *s) {
    if (2 * (r->nstrings + 1) > t->cap) { /* rehash at half full */
        int cap = t->cap ? 2 * t->cap : 256;
        int *slot = calloc((size_t)cap, sizeof *slot);
        if (!slot) return -1;
        for (int i = 0; i < r->nstrings; i++) {
            uint64_t h = hash(r->strings[i]);
            while (slot[h & (uint64_t)(cap - 1)]) h++;
            slot[h & (uint64_t)(cap - 1)] = i + 1;
        }
        free(t->slot);
        t->slot = slot, t->cap = cap;
    }
    for (uint64_t h = hash(s);; h++) {
        int *p = &t->slot[h & (uint64_t)(t->cap - 1)];
        if (!*p) {
            if (wb_grow(&r->strings, r->nstrings, &r->cap_strings, sizeof *r->strings, 256) != 0) return -1;
            if (!(r->strings[r->nstrings] = strdup(s))) return -1;
            *p = ++r->nstrings;
            return r->nstrings - 1;
        }
        if (!strcmp(r->strings[*p - 1], s)) return *p - 1;
    }
}

const char *wb_raw_str(const wb_raw *r, int i) { return i >= 0 && i < r->nstrings ? r->strings[i] : ""; }

/* Splits line at tabs into at most max fields; the last field keeps any rest. */
static int split(char *line, char **f, int max) {
    int n = 0;
    f[n++] = line;
    for (char *p = line; *p && n < max; p++)
        if (*p == '\t') *p = '\0', f[n++] = p + 1;
    return n;
}

static int header(wb_raw *r, char *line) {
    char *f[WB_METRICS_MAX + 2];
    if (!strncmp(line, "# wallbench-raw ", 16)) {
        int version = 0;
        if (sscanf(line + 16, "%d pass=%15s pid=%d ppid=%d", &version, r->pass, &r->pid, &r->ppid) != 4) return -1;
        return version == 1 ? 0 : -2;
    }
    if (!strncmp(line, "# metrics", 9)) {
        int n = split(line, f, WB_METRICS_MAX + 1);
        r->nmetrics = 0;
        for (int k = 1; k < n; k++) {
            int i = wb_metric_index(f[k]);
            if (i < 0) return -1;
            r->metric_col[r->nmetrics++] = i;
        }
        return 0;
    }
    if (!strncmp(line, "# passes ", 9)) {
        if (sscanf(line + 9, "%d\tbatch %*d\tcache %15s", &r->passes, r->cache) < 1) return -1;
        return 0;
    }
    if (!strncmp(line, "# mode\t", 7)) {
        snprintf(r->mode, sizeof r->mode, "%s", line + 7);
        for (char *p = r->mode; *p; p++)
            if (*p == '\t') *p = ' ';
        return 0;
    }
    if (!strncmp(line, "# sampling\t", 11)) {
        if (sscanf(line + 11, "interval_ns %lld", &r->sample_ns) != 1) return -1;
        return 0;
    }
    if (!strncmp(line, "# device ", 9)) {
        snprintf(r->device, sizeof r->device, "%s", line + 9);
        return 0;
    }
    if (!strncmp(line, "# rotation\t", 11)) {
        int at = 0;
        if (sscanf(line + 11, "groups %lld\treplayed %lld\tone_pass %lld\tshapes %lld%n", &r->rotation[0], &r->rotation[1],
                   &r->rotation[2], &r->rotation[3], &at) != 4)
            return -1;
        /* changes, hold, new_objects and new_object_s since 2026-12-05: older files end here */
        if (line[11 + at] && sscanf(line + 11 + at, "\tchanges %lld\thold %lld\tnew_objects %lld\tnew_object_s %lf",
                                    &r->rotation[4], &r->rotation[5], &r->rotation[6], &r->rotation_new_object_s) != 4)
            return -1;
        return 0;
    }
    if (!strncmp(line, "# groups\t", 9)) { /* per "# metrics" column, in its order (either line may come first) */
        int n = split(line, f, WB_METRICS_MAX + 1);
        r->ngroup_cols = 0;
        for (int k = 1; k < n; k++) {
            long long g;
            if (wb_parse_ll(f[k], -2, 63, &g) != 0) return -1;
            r->col_group[r->ngroup_cols++] = (int)g;
        }
        return 0;
    }
    if (!strncmp(line, "# batch\t", 8)) { /* the C lines after it, to the next one, held this group */
        long long g;
        if (strncmp(line + 8, "group ", 6) != 0 || wb_parse_ll(line + 14, -1, 63, &g) != 0) return -1;
        r->batch_group = (int)g;
        return 0;
    }
    if (!strncmp(line, "# cost\t", 7)) {
        /* config_s and start_s since 2026-12-04: older files have three */
        if (sscanf(line + 7, "counted %*d\tlaunch_s %lf\tbatch_s %lf\tflush_s %lf\tconfig_s %lf\tstart_s %lf", &r->cost[0],
                   &r->cost[1], &r->cost[2], &r->cost[3], &r->cost[4]) < 3)
            return -1;
        return 0;
    }
    if (!strncmp(line, "# waited\t", 9)) {
        if (sscanf(line + 9, "%lf", &r->go_wait_s) != 1) return -1;
        return 0;
    }
    if (!strncmp(line, "# signal ", 9)) r->signal = atoi(line + 9);
    if (!strcmp(line, "# end")) r->ended = 1;
    return 0; /* other comments: ignored */
}

static int field_i32(const char *s, int32_t *v) {
    long long x;
    if (wb_parse_ll(s, INT32_MIN, INT32_MAX, &x) != 0) return -1;
    *v = (int32_t)x;
    return 0;
}

static int launch_line(wb_raw *r, intern *t, char *line) {
    char *f[14];
    if (split(line, f, 14) != 14) return -1;
    if (wb_grow(&r->launches, r->nlaunches, &r->cap_launches, sizeof *r->launches, 1024) != 0) return -3;
    wb_raw_launch *l = &r->launches[r->nlaunches];
    memset(l, 0, sizeof *l);
    long long seq, corr;
    int32_t api, selected;
    if (wb_parse_ll(f[1], 0, INT64_MAX, &seq) != 0 || wb_parse_ll(f[2], 0, UINT32_MAX, &corr) != 0 ||
        field_i32(f[3], &api) != 0 || field_i32(f[4], &selected) != 0 || field_i32(f[11], &l->smem_dynamic) != 0)
        return -1;
    for (int d = 0; d < 3; d++)
        if (field_i32(f[5 + d], &l->grid[d]) != 0 || field_i32(f[8 + d], &l->block[d]) != 0) return -1;
    l->seq = seq, l->corr = (uint32_t)corr, l->api = api, l->selected = selected;
    if ((l->nvtx = add_string(r, t, f[12])) < 0 || (l->name = add_string(r, t, f[13])) < 0) return -3;
    l->kernel_rec = -1;
    l->not_counted_why = -1;
    l->flush_writes = l->written_after = NAN;
    l->group = WB_RAW_GROUP_UNKNOWN;
    for (int k = 0; k < WB_METRICS_MAX; k++) l->v[k] = NAN;
    /* Launches of one process come in seq order since the injection writes each L line under the
     * lock that numbers it; files of older builds may hold several threads' launches a few places
     * out of order: each moves back to its place (the array stays sorted; a seq twice is malformed). */
    int at = r->nlaunches++;
    for (; at > 0 && r->launches[at - 1].seq > seq; at--) {
        wb_raw_launch tmp = r->launches[at - 1];
        r->launches[at - 1] = r->launches[at], r->launches[at] = tmp;
    }
    return at > 0 && r->launches[at - 1].seq == seq ? -1 : 0;
}

static int kernel_line(wb_raw *r, intern *t, char *line) {
    char *f[17];
    if (split(line, f, 17) != 17) return -1;
    if (wb_grow(&r->kernels, r->nkernels, &r->cap_kernels, sizeof *r->kernels, 1024) != 0) return -3;
    wb_raw_kernel *k = &r->kernels[r->nkernels];
    memset(k, 0, sizeof *k);
    long long corr, start, end, stream;
    char *tail;
    if (wb_parse_ll(f[1], 0, UINT32_MAX, &corr) != 0 || wb_parse_ll(f[2], INT64_MIN, INT64_MAX, &start) != 0 ||
        wb_parse_ll(f[3], INT64_MIN, INT64_MAX, &end) != 0 || wb_parse_ll(f[5], INT64_MIN, INT64_MAX, &stream) != 0 ||
        field_i32(f[4], &k->device) != 0 || field_i32(f[6], &k->registers) != 0 ||
        field_i32(f[7], &k->smem_static) != 0 || field_i32(f[8], &k->smem_dynamic) != 0)
        return -1;
    for (int d = 0; d < 3; d++)
        if (field_i32(f[9 + d], &k->grid[d]) != 0 || field_i32(f[12 + d], &k->block[d]) != 0) return -1;
    k->graph_node = strtoull(f[15], &tail, 10);
    if (!*f[15] || *tail) return -1;
    /* CUPTI's record of a kernel cut off (at a fault, a forced flush: a kernel still running has no
     * timestamps, 0): no time to keep */
    if (end < start || start <= 0) {
        r->untimed_records++;
        return 0;
    }
    k->corr = (uint32_t)corr, k->start_ns = start, k->end_ns = end, k->stream = stream;
    if ((k->name = add_string(r, t, f[16])) < 0) return -3;
    k->launch = -1;
    r->nkernels++;
    return 0;
}

/* A C/N/F line's launch by binary search (NULL: no L line of that seq). */
static wb_raw_launch *find_seq(wb_raw *r, const char *field) {
    long long seq;
    if (wb_parse_ll(field, 0, INT64_MAX, &seq) != 0) return NULL;
    int lo = 0, hi = r->nlaunches - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (r->launches[mid].seq == seq) return &r->launches[mid];
        if (r->launches[mid].seq < seq) lo = mid + 1;
        else hi = mid - 1;
    }
    return NULL;
}

/* Values k of a C or U line into v (scaled as wb_metrics[] says). */
static int values(const wb_raw *r, char **f, double *v) {
    for (int k = 0; k < WB_METRICS_MAX; k++) v[k] = NAN;
    for (int k = 0; k < r->nmetrics; k++) {
        char *end;
        double x = strtod(f[k], &end);
        if (*end || end == f[k]) return -1;
        v[r->metric_col[k]] = x * wb_metrics[r->metric_col[k]].scale;
    }
    return 0;
}

static int counter_line(wb_raw *r, char *line) {
    char *f[WB_METRICS_MAX + 2];
    int n = split(line, f, WB_METRICS_MAX + 2);
    if (n != r->nmetrics + 2) return -1;
    wb_raw_launch *l = find_seq(r, f[1]);
    double v[WB_METRICS_MAX];
    if (!l || values(r, f + 2, v) != 0) return -1;
    for (int k = 0; k < r->nmetrics; k++) l->v[r->metric_col[k]] = v[r->metric_col[k]];
    l->counted = 1;
    l->group = r->batch_group;
    return 0;
}

static int user_range_line(wb_raw *r, intern *t, char *line) {
    char *f[WB_METRICS_MAX + 5];
    if (split(line, f, WB_METRICS_MAX + 5) != r->nmetrics + 5) return -1;
    if (wb_grow(&r->uranges, r->nuranges, &r->cap_uranges, sizeof *r->uranges, 64) != 0) return -3;
    wb_raw_urange *u = &r->uranges[r->nuranges];
    long long first, last, launches;
    if (wb_parse_ll(f[1], 0, INT64_MAX, &first) != 0 || wb_parse_ll(f[2], 0, INT64_MAX, &last) != 0 ||
        wb_parse_ll(f[3], 0, INT64_MAX, &launches) != 0)
        return -1;
    /* first..last: the launches' smallest and largest seq (older builds wrote them in the order
     * several threads entered the range, so last could come out below first) */
    u->first_seq = first < last ? first : last, u->last_seq = first < last ? last : first, u->launches = launches;
    if ((u->name = add_string(r, t, f[4])) < 0) return -3;
    if (values(r, f + 5, u->v) != 0) return -1;
    r->nuranges++;
    return 0;
}

/* F seq v...: our flush before launch seq (its DRAM writes: the dirty lines it found). */
static int flush_line(wb_raw *r, char *line) {
    char *f[WB_METRICS_MAX + 2];
    if (split(line, f, WB_METRICS_MAX + 2) != r->nmetrics + 2) return -1;
    wb_raw_launch *l = find_seq(r, f[1]);
    double v[WB_METRICS_MAX];
    if (!l || values(r, f + 2, v) != 0) return -1;
    l->flush_writes = v[wb_metric_index("dram_sectors_write")];
    return 0;
}

static int sample_line(wb_raw *r, char *line) {
    char *f[WB_METRICS_MAX + 3];
    if (split(line, f, WB_METRICS_MAX + 3) != r->nmetrics + 3) return -1;
    if (wb_grow(&r->samples, r->nsamples, &r->cap_samples, sizeof *r->samples, 1024) != 0) return -3;
    wb_raw_sample *x = &r->samples[r->nsamples];
    long long start, end;
    if (wb_parse_ll(f[1], INT64_MIN, INT64_MAX, &start) != 0 || wb_parse_ll(f[2], start, INT64_MAX, &end) != 0 ||
        values(r, f + 3, x->v) != 0)
        return -1;
    x->start_ns = start, x->end_ns = end;
    r->nsamples++;
    return 0;
}

static int uncounted_line(wb_raw *r, intern *t, char *line) {
    char *f[3];
    if (split(line, f, 3) != 3) return -1;
    wb_raw_launch *l = find_seq(r, f[1]);
    if (!l) return -1;
    return (l->not_counted_why = add_string(r, t, f[2])) < 0 ? -3 : 0;
}

static int error_line(wb_raw *r, const char *msg) {
    if (wb_grow(&r->errors, r->nerrors, &r->cap_errors, sizeof *r->errors, 8) != 0) return -3;
    return (r->errors[r->nerrors++] = strdup(msg)) ? 0 : -3;
}

/* Joins each K record to its L line by correlation id (sorted copy of the launches' ids, the
 * id in the high 32 bits; a graph launch's nodes share its id and stay unjoined). */
static int cmp_key(const void *a, const void *b) {
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int join(wb_raw *r) {
    if (!r->nkernels) return 0;
    uint64_t *keys = malloc((size_t)(r->nlaunches ? r->nlaunches : 1) * sizeof *keys);
    if (!keys) return -3;
    for (int i = 0; i < r->nlaunches; i++) keys[i] = ((uint64_t)r->launches[i].corr << 32) | (uint32_t)i;
    qsort(keys, (size_t)r->nlaunches, sizeof *keys, cmp_key);
    for (int k = 0; k < r->nkernels; k++) {
        int lo = 0, hi = r->nlaunches - 1, hit = -1;
        while (lo <= hi) {
            int mid = (lo + hi) / 2;
            uint32_t c = (uint32_t)(keys[mid] >> 32);
            if (c == r->kernels[k].corr) { hit = mid; break; }
            if (c < r->kernels[k].corr) lo = mid + 1;
            else hi = mid - 1;
        }
        if (hit < 0) continue;
        wb_raw_launch *l = &r->launches[keys[hit] & 0xffffffffu];
        if (l->api == 3 /* graph */) continue;
        if (l->kernel_rec < 0) l->kernel_rec = k, r->kernels[k].launch = (int)(l - r->launches);
    }
    free(keys);
    return 0;
}

/* Each counted launch's written_after: what the flush before the next counted launch (in seq order,
 * this process) wrote back. The L lines come in seq order (one critical section numbers and writes
 * each), and a flush runs only before a counted launch. */
static void written_after(wb_raw *r) {
    wb_raw_launch *prev = NULL;
    for (int i = 0; i < r->nlaunches; i++) {
        wb_raw_launch *l = &r->launches[i];
        if (!l->counted) continue;
        if (prev && !isnan(l->flush_writes)) prev->written_after = l->flush_writes;
        prev = l;
    }
}

int wb_raw_read(const char *path, wb_raw *r, wb_err *e) {
    memset(r, 0, sizeof *r);
    r->go_wait_s = -1;
    r->batch_group = WB_RAW_GROUP_UNKNOWN;
    snprintf(r->path, sizeof r->path, "%s", path);
    FILE *f = fopen(path, "r");
    if (!f) return wb_fail(e, "%s: cannot open the pass's raw file", path);
    intern t = {0};
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int lineno = 0, rc = 0;
    while (rc == 0 && (len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        if (len > 0 && line[len - 1] != '\n') { /* the last line, cut by a crash mid-write: not a record */
            r->ended = 0;
            break;
        }
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = '\0';
        if (!len) continue;
        switch (line[0]) {
        case '#': rc = header(r, line); break;
        case 'L': rc = launch_line(r, &t, line); break;
        case 'K': rc = kernel_line(r, &t, line); break;
        case 'C': rc = counter_line(r, line); break;
        case 'N': rc = uncounted_line(r, &t, line); break;
        case 'U': rc = user_range_line(r, &t, line); break;
        case 'F': rc = flush_line(r, line); break;
        case 'S': rc = sample_line(r, line); break;
        case 'E': rc = error_line(r, len > 2 ? line + 2 : ""); break;
        default: rc = -1;
        }
    }
    free(line);
    fclose(f);
    free(t.slot);
    if (rc == -2) return wb_fail(e, "%s: raw file of another version (this build reads version 1)", path);
    if (rc == -3) return wb_fail(e, "%s: out of host memory", path);
    if (rc == -1) return wb_fail(e, "%s:%d: malformed line", path, lineno);
    if (!r->pass[0]) return wb_fail(e, "%s: no '# wallbench-raw' header: not a pass file of wallbench profile", path);
    if (r->ngroup_cols && r->ngroup_cols != r->nmetrics)
        return wb_fail(e, "%s: '# groups' gives %d column(s) a group, '# metrics' names %d (damaged file?)", path,
                       r->ngroup_cols, r->nmetrics);
    if (join(r) != 0) return wb_fail(e, "%s: out of host memory", path);
    written_after(r);
    return WB_OK;
}

void wb_raw_free(wb_raw *r) {
    for (int i = 0; i < r->nstrings; i++) free(r->strings[i]);
    for (int i = 0; i < r->nerrors; i++) free(r->errors[i]);
    free(r->strings);
    free(r->errors);
    free(r->launches);
    free(r->kernels);
    free(r->uranges);
    free(r->samples);
    memset(r, 0, sizeof *r);
}

/* watch.c - the board while a pass runs (watch.h). A GPU's line is written when its state
 * (reasons, processes) changes and at the end, with how many samples it held: a program of
 * hours writes lines as its board changes, not ten a second. */
#include "harness/profile/watch.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness/base/clock.h"
#include "harness/base/stopping.h"
#include "harness/gpu/device.h"

#define WATCH_MAX_GPUS 16
#define STATE_LEN 900 /* a state: reasons, process count and up to 64 pids */

struct wb_watch {
    FILE *f;
    pthread_t thread;
    int running;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    int stop; /* the pass is over (under lock) */
    int ngpus;
    char uuid[WATCH_MAX_GPUS][96];
    char state[WATCH_MAX_GPUS][STATE_LEN]; /* the GPU's last state, "" before the first sample */
    double since[WATCH_MAX_GPUS];          /* when it began */
    long samples[WATCH_MAX_GPUS];          /* samples in it so far */
    long total;
    double t0;
};

static int cmp_unsigned(const void *a, const void *b) {
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return (x > y) - (x < y);
}

/* GPU g's state now: "<reasons>\t<processes>\t<pids>". */
static void read_state(const wb_watch *w, int g, char *out, size_t len) {
    wb_device d;
    memset(&d, 0, sizeof d);
    snprintf(d.uuid, sizeof d.uuid, "%s", w->uuid[g]);
    uint64_t bits = 0;
    int have_bits = wb_nvml_clock_events(&d, &bits);
    unsigned pids[64];
    int procs = wb_nvml_process_pids(&d, pids, 64, NULL, 0);
    int kept = procs < 0 ? 0 : procs < 64 ? procs : 64;
    qsort(pids, (size_t)kept, sizeof *pids, cmp_unsigned); /* NVML's order may change, the set not */
    int used = have_bits ? snprintf(out, len, "0x%" PRIx64 "\t%d\t", bits, procs) : snprintf(out, len, "-\t%d\t", procs);
    for (int i = 0; i < kept && used < (int)len; i++) used += snprintf(out + used, len - (size_t)used, "%s%u", i ? "," : "", pids[i]);
    if (!kept && used < (int)len) snprintf(out + used, len - (size_t)used, "-");
}

static void write_state(wb_watch *w, int g) {
    if (w->samples[g]) fprintf(w->f, "W\t%.3f\t%s\t%s\t%ld\n", w->since[g], w->uuid[g], w->state[g], w->samples[g]);
}

static void *watch_loop(void *arg) {
    wb_watch *w = arg;
    char now[STATE_LEN];
    pthread_mutex_lock(&w->lock);
    while (!w->stop) {
        pthread_mutex_unlock(&w->lock);
        double t = wb_clock_s() - w->t0;
        for (int g = 0; g < w->ngpus; g++) {
            read_state(w, g, now, sizeof now);
            if (w->samples[g] && !strcmp(now, w->state[g])) {
                w->samples[g]++;
                continue;
            }
            write_state(w, g);
            memcpy(w->state[g], now, sizeof now);
            w->since[g] = t, w->samples[g] = 1;
        }
        w->total++;
        fflush(w->f);
        pthread_mutex_lock(&w->lock);
        const struct timespec until = wb_deadline_after(WB_WATCH_PERIOD_MS / 1e3);
        while (!w->stop && pthread_cond_timedwait(&w->wake, &w->lock, &until) == 0) {}
    }
    pthread_mutex_unlock(&w->lock);
    for (int g = 0; g < w->ngpus; g++) write_state(w, g);
    fprintf(w->f, "# end %ld\n", w->total);
    return NULL;
}

wb_watch *wb_watch_start(const char *path, const char *pass, wb_err *e) {
    wb_watch *w = calloc(1, sizeof *w);
    if (!w) return wb_fail(e, "watch: out of host memory"), NULL;
    if (!(w->f = fopen(path, "we"))) {
        wb_fail(e, "watch: cannot write %s: %s", path, strerror(errno));
        free(w);
        return NULL;
    }
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->wake, NULL);
    fprintf(w->f, "# wallbench-watch 2 pass=%s period_ms=%d profiler_pid=%d\n", pass, WB_WATCH_PERIOD_MS, (int)getpid());
    char why[256] = "";
    w->ngpus = wb_nvml_uuids(w->uuid, WATCH_MAX_GPUS, why, sizeof why);
    if (w->ngpus <= 0) {
        fprintf(w->f, "# not watched: %s\n", w->ngpus < 0 ? why : why[0] ? why : "NVML lists no GPU");
        fflush(w->f);
        return w;
    }
    if (why[0]) fprintf(w->f, "# skipped: %s\n", why);
    w->t0 = wb_clock_s();
    int rc = pthread_create(&w->thread, NULL, watch_loop, w);
    if (rc != 0) fprintf(w->f, "# not watched: pthread_create: %s\n", strerror(rc));
    w->running = rc == 0;
    fflush(w->f);
    return w;
}

void wb_watch_stop(wb_watch *w) {
    if (!w) return;
    pthread_mutex_lock(&w->lock);
    w->stop = 1;
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->lock);
    if (w->running) {
        const struct timespec until = wb_deadline_after(2.0);
        if (pthread_timedjoin_np(w->thread, NULL, &until) != 0) { /* stuck in NVML: left behind, w with it */
            fprintf(stderr, "wallbench profile: warning: the board watch did not stop (NVML did not answer in 2 s)\n");
            pthread_detach(w->thread);
            return;
        }
    }
    fclose(w->f);
    pthread_mutex_destroy(&w->lock);
    pthread_cond_destroy(&w->wake);
    free(w);
}

/* What the lines of one GPU add up to. */
typedef struct tally {
    long samples, slowed, capped, reasons_unread, procs_unread;
    uint64_t slow_bits;
    int most;            /* most processes listed at once */
    int comparable;      /* some listed pid is the profile's own: pids share its namespace */
    int foreign[8], nforeign;
    long foreign_samples;
} tally;

static int known(unsigned pid, const int *pids, int npids, int profiler) {
    if ((int)pid == profiler) return 1;
    for (int i = 0; i < npids; i++)
        if ((int)pid == pids[i]) return 1;
    return 0;
}

/* One W line's fields into t (uuid matched). 0, or -1 malformed. */
static int add_line(tally *t, const char *reasons, int procs, char *pidlist, long n, const int *pids, int npids, int profiler) {
    char *end = NULL;
    uint64_t bits = 0;
    if (strcmp(reasons, "-")) {
        bits = strtoull(reasons, &end, 16);
        if (strncmp(reasons, "0x", 2) || !end || *end) return -1;
    } else {
        t->reasons_unread += n;
    }
    if (procs < -1 || n < 1) return -1;
    t->samples += n;
    const uint64_t hard = WB_THROTTLE_POWER_THERMAL & ~0x4ull; /* hardware, thermal, power brake */
    if (bits & hard) t->slowed += n, t->slow_bits |= bits & hard;
    else if (bits & 0x4ull) t->capped += n, t->slow_bits |= 0x4ull;
    if (procs < 0) {
        t->procs_unread += n;
        return strcmp(pidlist, "-") ? -1 : 0;
    }
    if (procs > t->most) t->most = procs;
    int foreign_here = 0;
    if (strcmp(pidlist, "-")) {
        for (char *s = strtok(pidlist, ","); s; s = strtok(NULL, ",")) {
            char *e2 = NULL;
            unsigned long pid = strtoul(s, &e2, 10);
            if (!*s || *e2) return -1;
            if (known((unsigned)pid, pids, npids, profiler)) {
                t->comparable = 1;
                continue;
            }
            foreign_here = 1;
            int seen = 0;
            for (int i = 0; i < t->nforeign && !seen; i++) seen = t->foreign[i] == (int)pid;
            if (!seen && t->nforeign < 8) t->foreign[t->nforeign++] = (int)pid;
        }
    }
    t->foreign_samples += foreign_here ? n : 0;
    return 0;
}

int wb_watch_verdict(const char *path, const char *uuid, const int *pids, int npids, int ours, char *msg, size_t len) {
    FILE *f = fopen(path, "r");
    if (!f) return snprintf(msg, len, "not checked: no watch file (%s)", strerror(errno)), -1;
    char line[1200];
    int lineno = 0, profiler = -1, rc = 0;
    tally t = {.most = -1};
    msg[0] = '\0';
    while (fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\n")] = '\0';
        if (!strncmp(line, "# not watched: ", 15)) {
            snprintf(msg, len, "not checked: %s", line + 15);
            rc = -1;
            break;
        }
        const char *pp = strstr(line, "profiler_pid=");
        if (lineno == 1 && pp) profiler = atoi(pp + 13);
        if (line[0] == '#' || !line[0]) continue;
        double at;
        char id[100], reasons[40], pidlist[1000];
        int procs, used = 0;
        long n;
        if (sscanf(line, "W\t%lf\t%99s\t%39s\t%d\t%999s\t%ld%n", &at, id, reasons, &procs, pidlist, &n, &used) != 6 ||
            line[used] || (strcmp(id, uuid) == 0 && add_line(&t, reasons, procs, pidlist, n, pids, npids, profiler) != 0)) {
            snprintf(msg, len, "not checked: %s line %d is malformed", path, lineno);
            rc = -1;
            break;
        }
    }
    fclose(f);
    if (rc) return rc;
    if (!t.samples) return snprintf(msg, len, "not checked: no sample of %s in %s", uuid, path), -1;
    if (t.reasons_unread == t.samples && t.procs_unread == t.samples)
        return snprintf(msg, len, "not checked: NVML answered none of %ld readings", t.samples), -1;
    const double cap_pct = 100.0 * (double)t.capped / (double)t.samples;
    const int slowed = t.slowed > 0, capped = cap_pct >= WB_WATCH_POWER_CAP_PCT;
    /* pids comparable: the foreign ones decide; else (a container's namespace) the count */
    const int beyond = t.comparable ? t.nforeign : t.most - ours;
    char part[3][300] = {"", "", ""};
    if (slowed || t.capped)
        snprintf(part[0], sizeof part[0], "%ld of %ld samples slowed (hardware, thermal or power brake) and %ld at the power "
                 "cap (reasons 0x%" PRIx64 ")", t.slowed, t.samples, t.capped, t.slow_bits);
    if (beyond > 0 && t.comparable)
        snprintf(part[1], sizeof part[1], "%d other process(es) held the GPU in %ld of %ld samples (pid %d%s)", t.nforeign,
                 t.foreign_samples, t.samples, t.foreign[0], t.nforeign > 1 ? ", ..." : "");
    else if (beyond > 0)
        snprintf(part[1], sizeof part[1], "up to %d process(es) beyond the profile's own %d held the GPU (NVML's pids are "
                 "not this namespace's: counted)", beyond, ours);
    else
        snprintf(part[1], sizeof part[1], "no other process on it (%s)", t.procs_unread == t.samples ? "not read"
                 : t.comparable ? "by pid" : "by count");
    if (t.reasons_unread == t.samples) snprintf(part[2], sizeof part[2], "clock reasons not read");
    const int disturbed = slowed || capped || beyond > 0;
    snprintf(msg, len, "%s: %ld samples; %s%s%s%s%s", disturbed ? "disturbed" : "undisturbed", t.samples,
             part[0][0] ? part[0] : "no slowdown", "; ", part[1], part[2][0] ? "; " : "", part[2]);
    return disturbed;
}

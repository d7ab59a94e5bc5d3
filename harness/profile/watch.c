/* watch.c - the board while a pass runs (watch.h). */
#include "harness/profile/watch.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness/base/clock.h"
#include "harness/base/stopping.h"
#include "harness/gpu/device.h"

#define WATCH_MAX_GPUS 16

struct wb_watch {
    FILE *f;
    pthread_t thread;
    int running;
    int stop; /* atomic: the pass is over */
    int ngpus;
    char uuid[WATCH_MAX_GPUS][48];
    double t0;
};

/* One line per GPU every period until stopped; a failed reading is a line's -1 (not judged). */
static void *watch_loop(void *arg) {
    wb_watch *w = arg;
    while (!__atomic_load_n(&w->stop, __ATOMIC_ACQUIRE)) {
        for (int g = 0; g < w->ngpus; g++) {
            wb_device d;
            memset(&d, 0, sizeof d);
            snprintf(d.uuid, sizeof d.uuid, "%s", w->uuid[g]);
            uint64_t bits = 0;
            int have_bits = wb_nvml_clock_events(&d, &bits);
            int procs = wb_nvml_compute_processes(&d, NULL, 0);
            fprintf(w->f, "W\t%.3f\t%s\t%s%" PRIx64 "\t%d\n", wb_clock_s() - w->t0, w->uuid[g], have_bits ? "0x" : "-",
                    have_bits ? bits : (uint64_t)0, procs);
        }
        fflush(w->f);
        struct timespec nap = {0, WB_WATCH_PERIOD_MS * 1000000L};
        while (nanosleep(&nap, &nap) != 0 && errno == EINTR) {}
    }
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
    fprintf(w->f, "# wallbench-watch 1 pass=%s period_ms=%d\n", pass, WB_WATCH_PERIOD_MS);
    char why[256] = "";
    w->ngpus = wb_nvml_uuids(w->uuid, WATCH_MAX_GPUS, why, sizeof why);
    if (w->ngpus <= 0) {
        fprintf(w->f, "# not watched: %s\n", w->ngpus < 0 ? why : "NVML lists no GPU");
        fflush(w->f);
        return w;
    }
    w->t0 = wb_clock_s();
    int rc = pthread_create(&w->thread, NULL, watch_loop, w);
    if (rc != 0) fprintf(w->f, "# not watched: pthread_create: %s\n", strerror(rc));
    w->running = rc == 0;
    fflush(w->f);
    return w;
}

void wb_watch_stop(wb_watch *w) {
    if (!w) return;
    __atomic_store_n(&w->stop, 1, __ATOMIC_RELEASE);
    if (w->running) pthread_join(w->thread, NULL);
    fclose(w->f);
    free(w);
}

int wb_watch_verdict(const char *path, const char *uuid, int ours, char *msg, size_t len) {
    FILE *f = fopen(path, "r");
    if (!f) return snprintf(msg, len, "not checked: no watch file (%s)", strerror(errno)), -1;
    char line[512];
    int samples = 0, throttled = 0, unread = 0, most = -1, lineno = 0, rc = 0;
    uint64_t seen = 0;
    msg[0] = '\0';
    while (fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\n")] = '\0';
        if (!strncmp(line, "# not watched: ", 15)) {
            snprintf(msg, len, "not checked: %s", line + 15);
            rc = -1;
            break;
        }
        if (line[0] == '#' || !line[0]) continue;
        double t;
        char id[64], reasons[32];
        int procs, used = 0;
        if (sscanf(line, "W\t%lf\t%63s\t%31s\t%d%n", &t, id, reasons, &procs, &used) != 4 || line[used]) {
            snprintf(msg, len, "not checked: %s line %d is malformed", path, lineno);
            rc = -1;
            break;
        }
        if (strcmp(id, uuid)) continue;
        samples++;
        char *end = NULL;
        uint64_t bits = strcmp(reasons, "-") ? strtoull(reasons, &end, 16) : 0;
        if (strcmp(reasons, "-") && (!end || *end)) {
            snprintf(msg, len, "not checked: %s line %d is malformed", path, lineno);
            rc = -1;
            break;
        }
        if (!strcmp(reasons, "-") || procs < 0) unread++;
        if (bits & WB_THROTTLE_POWER_THERMAL) throttled++, seen |= bits & WB_THROTTLE_POWER_THERMAL;
        if (procs > most) most = procs;
    }
    fclose(f);
    if (rc) return rc;
    if (!samples) return snprintf(msg, len, "not checked: no sample of %s in %s", uuid, path), -1;
    if (unread == samples) return snprintf(msg, len, "not checked: NVML answered none of %d readings", samples), -1;
    int beyond = most - ours;
    if (!throttled && beyond <= 0) {
        snprintf(msg, len, "undisturbed: %d samples of the GPU, none throttled for power or heat, at most %d process(es) "
                 "on it (the profile's own: %d)%s", samples, most, ours, unread ? "; some readings failed" : "");
        return 0;
    }
    int used = snprintf(msg, len, "disturbed:");
    if (throttled && used < (int)len)
        used += snprintf(msg + used, len - (size_t)used, " %d of %d samples throttled for power or heat (reasons 0x%" PRIx64 ")%s",
                         throttled, samples, seen, beyond > 0 ? ";" : "");
    if (beyond > 0 && used < (int)len)
        snprintf(msg + used, len - (size_t)used, " up to %d process(es) beyond the profile's own %d held the GPU", beyond, ours);
    return 1;
}

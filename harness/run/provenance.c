/* provenance.c - results file name and provenance attributes (see provenance.h). */
#include "harness/run/provenance.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* First line of a shell command's output, "" when it fails or prints nothing. */
static void first_line(const char *cmd, char *out, size_t len) {
    out[0] = '\0';
    FILE *f = popen(cmd, "r");
    if (!f) return;
    if (!fgets(out, (int)len, f)) out[0] = '\0';
    out[strcspn(out, "\r\n")] = '\0';
    if (pclose(f) != 0) out[0] = '\0';
}

static void git_revision(char *rev, size_t len) {
    const char *env = getenv("WB_GIT_REV");
    if (env && *env) {
        snprintf(rev, len, "%s", env);
        return;
    }
    const char *dir = WB_SOURCE_DIR;
    char cmd[1200], line[128];
    snprintf(rev, len, "unknown");
    if (strchr(dir, '\'')) return; /* cannot quote it for the shell */
    snprintf(cmd, sizeof cmd, "git -C '%s' rev-parse HEAD 2>/dev/null", dir);
    first_line(cmd, line, sizeof line);
    if (!line[0]) return;
    /* Result files written into results/ would make every later run "dirty". */
    snprintf(cmd, sizeof cmd, "git -C '%s' status --porcelain -- . ':!results' 2>/dev/null", dir);
    char dirty[256];
    first_line(cmd, dirty, sizeof dirty);
    snprintf(rev, len, "%.80s%s", line, dirty[0] ? "-dirty" : "");
}

void wb_provenance_init(wb_provenance *pv) {
    memset(pv, 0, sizeof *pv);
    git_revision(pv->git_revision, sizeof pv->git_revision);
    size_t i = 0;
    for (; i < 7 && pv->git_revision[i] && pv->git_revision[i] != '-'; i++) {
        char c = pv->git_revision[i];
        int ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' || c == '_';
        pv->short_rev[i] = ok ? c : '_';
    }
    pv->short_rev[i] = '\0';
    if (!i) snprintf(pv->short_rev, sizeof pv->short_rev, "unknown");
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(pv->utc_stamp, sizeof pv->utc_stamp, "%Y%m%dT%H%M%SZ", &tm);
    strftime(pv->utc_time, sizeof pv->utc_time, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static int attrs(wb_store *s, const wb_provenance *pv, const wb_device *d, const wb_provenance_run *run, wb_err *e) {
    char cc[16], seed[32];
    snprintf(cc, sizeof cc, "%d.%d", d->cc_major, d->cc_minor);
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)run->seed);
    const struct {
        const char *name, *value;
    } strs[] = {
        {"git_revision", pv->git_revision}, {"command_line", run->command_line}, {"utc_time", pv->utc_time},
        {"profile", run->profile},           {"profile_model", run->profile_model}, {"gpu_name", d->name},
        {"compute_capability", cc},           {"nvml_driver", d->driver_string[0] ? d->driver_string : "unknown"},   {"sweep", run->sweep},
        {"seed", seed},                       {"counters", run->counters},
        /* which physical GPU: two H200s of one model differed by 9% on random DRAM reads (2026-11-30) */
        {"gpu_uuid", d->uuid[0] ? d->uuid : "unknown"},
    };
    const struct {
        const char *name;
        double value;
    } nums[] = {
        {"sm_count", d->sms},
        {"l2_bytes", (double)d->l2_bytes},
        {"mem_total_bytes", (double)d->mem_total_bytes},
        {"max_threads_per_sm", d->max_threads_per_sm},
        {"smem_per_sm", d->smem_per_sm}, /* fig-probe draws the shared-memory regime from it */
        {"sm_clock_max_mhz", d->sm_clock_max_mhz},
        {"mem_clock_mhz", d->mem_clock_mhz},
        {"mem_bus_bits", d->mem_bus_bits},
        {"driver_version", d->driver_version},
        {"cuda_runtime_version", d->runtime_version},
        {"reps", run->reps},
        {"projected", 0},
    };
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
        if (wb_store_attr_str(s, strs[i].name, strs[i].value, e) != WB_OK) return WB_ERR;
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++)
        if (wb_store_attr_f64(s, nums[i].name, nums[i].value, e) != WB_OK) return WB_ERR;
    return WB_OK;
}

int wb_provenance_create(const char *dir, const wb_provenance *pv, const wb_device *d, const wb_provenance_run *run,
                         wb_store **s, char *path, size_t len, wb_err *e) {
    *s = NULL;
    for (int k = 1; k < 100; k++) {
        if (k == 1)
            snprintf(path, len, "%s/%s-%s.h5", dir, pv->utc_stamp, pv->short_rev);
        else
            snprintf(path, len, "%s/%s-%s-%d.h5", dir, pv->utc_stamp, pv->short_rev, k);
        if (access(path, F_OK) == 0) continue;
        if (wb_store_create(path, s, e) != WB_OK) {
            if (access(path, F_OK) == 0) continue; /* another run took the name meanwhile */
            return WB_ERR;
        }
        if (attrs(*s, pv, d, run, e) != WB_OK) {
            wb_err ignored;
            wb_store_close(*s, &ignored);
            *s = NULL;
            return WB_ERR;
        }
        return WB_OK;
    }
    return wb_fail(e, "%s: 99 results files named %s-%s already", dir, pv->utc_stamp, pv->short_rev);
}

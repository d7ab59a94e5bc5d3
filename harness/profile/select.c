/* select.c - launch selection of wallbench profile (select.h). */
#include "harness/profile/select.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int wb_select_init(wb_select *s, const char *kernel, const char *nvtx, int64_t skip, int64_t count, wb_err *e) {
    memset(s, 0, sizeof *s);
    if (kernel && strlen(kernel) >= sizeof s->kernel) return wb_fail(e, "--kernel-name: longer than %zu characters", sizeof s->kernel - 1);
    if (nvtx && strlen(nvtx) >= sizeof s->nvtx) return wb_fail(e, "--nvtx-include: longer than %zu characters", sizeof s->nvtx - 1);
    if (skip < 0) return wb_fail(e, "--launch-skip %" PRId64 ": must be >= 0", skip);
    snprintf(s->kernel, sizeof s->kernel, "%s", kernel ? kernel : "");
    snprintf(s->nvtx, sizeof s->nvtx, "%s", nvtx ? nvtx : "");
    /* A trailing '/' (ncu's spelling of a push/pop range) means the same path. */
    size_t n = strlen(s->nvtx);
    while (n > 0 && s->nvtx[n - 1] == '/') s->nvtx[--n] = '\0';
    s->skip = skip;
    s->count = count;
    if (!strncmp(s->kernel, "regex:", 6)) {
        int rc = regcomp(&s->re, s->kernel + 6, REG_EXTENDED | REG_NOSUB);
        if (rc != 0) {
            char why[128];
            regerror(rc, &s->re, why, sizeof why);
            return wb_fail(e, "--kernel-name %s: not a regular expression (%s)", s->kernel, why);
        }
        s->has_regex = 1;
    }
    return WB_OK;
}

static int64_t env_i64(const char *name, int64_t dflt, int *bad) {
    const char *v = getenv(name);
    if (!v || !*v) return dflt;
    char *end = NULL;
    long long x = strtoll(v, &end, 10);
    if (*end) *bad = 1;
    return (int64_t)x;
}

int wb_select_from_env(wb_select *s, wb_err *e) {
    int bad = 0;
    int64_t skip = env_i64("WB_PROFILE_SKIP", 0, &bad), count = env_i64("WB_PROFILE_COUNT", -1, &bad);
    if (bad) return wb_fail(e, "WB_PROFILE_SKIP/WB_PROFILE_COUNT: not integers");
    return wb_select_init(s, getenv("WB_PROFILE_KERNEL"), getenv("WB_PROFILE_NVTX"), skip, count, e);
}

int wb_select_env_set(const wb_select *s, wb_err *e) {
    char num[32];
    int rc = setenv("WB_PROFILE_KERNEL", s->kernel, 1) | setenv("WB_PROFILE_NVTX", s->nvtx, 1);
    snprintf(num, sizeof num, "%" PRId64, s->skip);
    rc |= setenv("WB_PROFILE_SKIP", num, 1);
    snprintf(num, sizeof num, "%" PRId64, s->count);
    rc |= setenv("WB_PROFILE_COUNT", num, 1);
    return rc ? wb_fail(e, "setenv: cannot pass the launch selection to the program") : WB_OK;
}

int wb_select_nvtx_match(const char *want, const char *path) {
    if (!*want) return 1;
    size_t n = strlen(want);
    return !strncmp(path, want, n) && (path[n] == '\0' || path[n] == '/');
}

int wb_select_take(wb_select *s, const char *name, const char *nvtx_path) {
    if (s->kernel[0]) {
        int hit = s->has_regex ? regexec(&s->re, name, 0, NULL, 0) == 0 : strstr(name, s->kernel) != NULL;
        if (!hit) return 0;
    }
    if (!wb_select_nvtx_match(s->nvtx, nvtx_path)) return 0;
    int64_t k = s->matched++;
    return k >= s->skip && (s->count < 0 || k < s->skip + s->count);
}

int wb_select_everything(const wb_select *s) {
    return !s->kernel[0] && !s->nvtx[0] && s->skip == 0 && s->count < 0;
}

int wb_ranges_parse(const char *text, wb_ranges *mode, int *every) {
    static const char *const names[] = {"kernel", "nvtx"};
    *every = 0;
    for (int i = 0; i < 2; i++)
        if (!strcmp(text, names[i])) return *mode = (wb_ranges)i, 0;
    char *end = NULL;
    long n = strncmp(text, "every:", 6) ? 0 : strtol(text + 6, &end, 10);
    if (n < 1 || n > 1000000 || !end || *end) return -1;
    *mode = WB_RANGES_EVERY, *every = (int)n;
    return 0;
}

int wb_select_done(const wb_select *s) { return s->count >= 0 && s->matched >= s->skip + s->count; }

void wb_select_free(wb_select *s) {
    if (s->has_regex) regfree(&s->re);
    s->has_regex = 0;
}

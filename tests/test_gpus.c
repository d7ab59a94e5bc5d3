/* test_gpus.c - profile resolution (harness/base/gpus.c): every (device name,
 * compute capability) pair of tests/gpu_row_cases.tsv resolves to its row or
 * to the generic profile named there; whole words only, never substrings. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check.h"
#include "harness/base/gpus.h"
#include "harness/gpu/code.h"

static void cases(const wb_gpu_table *t) {
    const char *src = getenv("WB_SOURCE_DIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/gpu_row_cases.tsv", src ? src : WB_SOURCE_DIR);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    if (!f) return;
    char line[512];
    int n = 0, generic = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '#' || !line[0] || strncmp(line, "name\t", 5) == 0) continue;
        char *name = strtok(line, "\t"), *cap = strtok(NULL, "\t"), *expect = strtok(NULL, "\t");
        CHECK(name && cap && expect);
        if (!name || !cap || !expect) continue;
        int cc = (int)lround(atof(cap) * 10);
        wb_gpu_ref g;
        const wb_gpu_ref *row = wb_gpu_resolve(t, name, cc, &g);
        int want_generic = strncmp(expect, "generic ", 8) == 0;
        const char *want = want_generic ? expect + 8 : expect;
        int ok = strcmp(g.profile, want) == 0 && g.generic == want_generic && (row != NULL) == !want_generic &&
                 g.arch == cc;
        if (!ok) fprintf(stderr, "'%s' %s: got %s%s (sm_%d), expected %s\n", name, cap, g.generic ? "generic " : "",
                         g.profile, g.arch, expect);
        CHECK(ok);
        if (want_generic) {
            /* A generic profile: no datasheet number, the note names the model. */
            CHECK(isnan(g.inst_gips) && isnan(g.dram_gbps) && g.sms == -1);
            CHECK(strstr(g.source, "no datasheet row for ") && strstr(g.source, name));
            CHECK(strcmp(g.model, name) == 0);
            generic++;
        }
        n++;
    }
    fclose(f);
    printf("%d device names resolved, %d to generic profiles\n", n, generic);
    CHECK(n >= 20 && generic >= 3);
}

static void whole_words(const wb_gpu_table *t) {
    const wb_gpu_ref *l4 = wb_gpu_table_find(t, "l4"), *h200 = wb_gpu_table_find(t, "h200");
    CHECK(l4 && h200);
    if (!l4 || !h200) return;
    CHECK(wb_gpu_names(l4, "NVIDIA L4") && !wb_gpu_names(l4, "NVIDIA L40S") && !wb_gpu_names(l4, "NVIDIA L40"));
    CHECK(wb_gpu_names(h200, "nvidia h200") && !wb_gpu_names(h200, "NVIDIA GH200 480GB"));
    CHECK(!wb_gpu_names(h200, "NVIDIA H200 NVL")); /* NVL is not a neutral word */
    CHECK(wb_gpu_names(h200, "NVIDIA H200 141GB HBM3e"));
    /* cc < 0: any row (a results file from an older build without the attribute) */
    const wb_gpu_ref *g = wb_gpu_table_match(t, "NVIDIA L40S", -1);
    CHECK(g && strcmp(g->profile, "l40s") == 0);
    CHECK(wb_gpu_table_match(t, "NVIDIA L40S", 90) == NULL);
    CHECK(wb_gpu_table_match(t, "", -1) == NULL);
}

/* Every row the issue names is there, with the numbers each one needs. */
static void rows(const wb_gpu_table *t) {
    static const char *const need[] = {"a100", "a100-sxm4-40gb", "a100-pcie-40gb", "a100-pcie-80gb", "a10", "a40",
                                       "l4", "l40s", "rtx3090", "rtx4090", "rtx6000ada", "h100", "h100-pcie",
                                       "h100-nvl", "h200", "h200-nvl", "gh200", "b200", "gb200", "rtx5090",
                                       "rtxpro6000"};
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++) {
        const wb_gpu_ref *g = wb_gpu_table_find(t, need[i]);
        int ok = g && g->arch >= 80 && g->sms > 0 && g->boost_clock_ghz > 0 && g->dram_gbps > 0 && g->l2_mib > 0 &&
                 g->smem_per_sm_kib > 0 && g->mem_gib > 0 && strlen(g->source) > 20;
        if (!ok) fprintf(stderr, "row %s missing or incomplete\n", need[i]);
        CHECK(ok);
    }
}

/* Which entries of a CMake architecture list carry SASS (code.c tells a JIT
 * run from a SASS run by it). */
static void sass_lists(void) {
    CHECK(wb_archs_have_sass("90", 90) && !wb_archs_have_sass("90", 80));
    CHECK(!wb_archs_have_sass("80-virtual", 80) && wb_archs_have_sass("80-real", 80));
    CHECK(wb_archs_have_sass("80;90;100;120", 100) && wb_archs_have_sass("80,90,100,120", 120));
    CHECK(!wb_archs_have_sass("80;90;100;120", 89) && wb_archs_have_sass("90a", 90));
    CHECK(!wb_archs_have_sass("100-virtual;90-virtual", 90) && !wb_archs_have_sass("", 90));
    CHECK(!wb_archs_have_sass("800", 80) && !wb_archs_have_sass("8", 80));
}

int main(void) {
    sass_lists();
    wb_gpu_table t;
    wb_err e;
    if (wb_gpu_table_load(NULL, &t, &e) != WB_OK) {
        fprintf(stderr, "%s\n", e.msg);
        return 1;
    }
    cases(&t);
    whole_words(&t);
    rows(&t);
    wb_gpu_table_free(&t);
    return TEST_DONE();
}

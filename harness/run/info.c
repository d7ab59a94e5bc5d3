/* info.c - `wallbench info`: the GPU the run would measure (harness/gpu/device.h),
 * its clocks, the profile it matches and the code this build holds for it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness/base/cli.h"
#include "harness/base/gpus.h"
#include "harness/commands.h"
#include "harness/gpu/code.h"
#include "harness/gpu/device.h"

static void info_usage(FILE *f) {
    fprintf(f,
            "usage: wallbench info [--device D] [--quiet]\n"
            "  The GPU wallbench would measure: name, compute capability, SMs, L2, memory,\n"
            "  clocks, driver and runtime versions, NVML status and the GPU profile it matches.\n"
            "  --device D  CUDA device ordinal (default 0)\n"
            "  --quiet     print nothing; exit 0 with a usable GPU, else 3 with a one-line reason\n"
            "exit codes: 0 ok, 2 bad input, 3 no usable GPU\n");
}

static void info_profile(const wb_device *d) {
    wb_gpu_table t;
    wb_err e;
    if (wb_gpu_table_load(NULL, &t, &e) != WB_OK) {
        printf("  profile:     unknown (%s)\n", e.msg);
        return;
    }
    int cc = d->cc_major * 10 + d->cc_minor;
    wb_gpu_ref g;
    char code[128];
    wb_gpu_resolve(&t, d->name, cc, &g);
    printf("  profile:     %s (%s, sm_%d)%s\n", g.profile, g.model, g.arch, g.generic ? ", generic: no datasheet row" : "");
    printf("  build:       CUDA_ARCHS=\"%s\", %s\n", wb_build_archs(),
           wb_device_code(d, code, sizeof code, &e) == WB_OK ? code : e.msg);
    wb_gpu_table_free(&t);
}

int wb_cmd_info(int argc, char **argv) {
    int quiet = 0, ordinal = 0, k, first = argc;
    static const struct option longs[] = {{"quiet", no_argument, NULL, 'q'}, {"device", required_argument, NULL, 'd'},
                                          {0, 0, 0, 0}};
    wb_cli cli = {"info", longs, 0};
    const char *arg;
    while ((k = wb_cli_next(&cli, argc, argv, &arg, &first)) != WB_CLI_END) {
        if (k == WB_CLI_HELP) return info_usage(stdout), 0;
        if (k == WB_CLI_BAD) return info_usage(stderr), 2;
        if (k == 'q') {
            quiet = 1;
            continue;
        }
        char *end;
        long v = strtol(arg, &end, 10);
        if (*end || end == arg || v < 0 || v > 1024) return wb_cli_bad("info", "bad --device '%s': expected a device ordinal", arg);
        ordinal = (int)v;
    }
    if (first < argc) return wb_cli_bad("info", "unexpected argument '%s'", argv[first]);
    wb_device d;
    wb_err e;
    if (wb_device_count(&e) <= 0) {
        fprintf(stderr, "no usable GPU: %s; %s\n", e.msg, WB_NO_GPU_HINT);
        return 3;
    }
    if (wb_device_open(ordinal, &d, &e) != WB_OK) {
        fprintf(stderr, "no usable GPU: %s\n", e.msg);
        return 3;
    }
    if (quiet) return 0;
    double now = wb_nvml_sm_clock_mhz(&d);
    int64_t free_b = wb_device_mem_free();
    printf("GPU %d: %s (%s)\n", d.ordinal, d.name, d.uuid);
    printf("  compute:     sm_%d%d, %d SMs, %d threads/SM, %d KiB shared memory/SM\n", d.cc_major, d.cc_minor, d.sms,
           d.max_threads_per_sm, d.smem_per_sm / 1024);
    printf("  L2:          %.1f MiB\n", d.l2_bytes / 1048576.0);
    printf("  memory:      %.1f GiB total, %.1f GiB free, %d-bit bus, %.0f MHz\n", d.mem_total_bytes / 1073741824.0,
           free_b < 0 ? NAN : free_b / 1073741824.0, d.mem_bus_bits, d.mem_clock_mhz);
    if (isnan(now))
        printf("  SM clock:    %.0f MHz max, now unknown (no NVML)\n", d.sm_clock_max_mhz);
    else
        printf("  SM clock:    %.0f MHz max, %.0f MHz now (NVML)\n", d.sm_clock_max_mhz, now);
    printf("  versions:    CUDA driver %d, runtime %d, driver %s\n", d.driver_version, d.runtime_version,
           d.driver_string[0] ? d.driver_string : "unknown (no NVML)");
    printf("  NVML:        %s\n", wb_nvml_status()[0] ? wb_nvml_status() : "ok");
    info_profile(&d);
    return 0;
}

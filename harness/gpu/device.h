/* device.h - what the run knows about the GPU: CUDA properties read once,
 * and the SM clock read through NVML, which is loaded at run time so that
 * the build never needs nvml.h. */
#ifndef WB_DEVICE_H
#define WB_DEVICE_H

#include <stddef.h>
#include <stdint.h>
#include "harness/base/error.h"
#include "harness/gpu/cuda_check.h"

typedef struct wb_device {
    int ordinal;
    char name[96];
    int cc_major, cc_minor;
    int sms;
    int64_t l2_bytes;
    int64_t mem_total_bytes;
    int max_threads_per_sm;
    int smem_per_sm;
    double sm_clock_max_mhz;     /* cudaDevAttrClockRate */
    double mem_clock_mhz;        /* cudaDevAttrMemoryClockRate */
    int mem_bus_bits;
    int driver_version;          /* cudaDriverGetVersion, e.g. 13000 */
    int runtime_version;
    char driver_string[32];      /* NVML's driver version, "" without NVML */
    char uuid[48];
} wb_device;

/* CUDA devices visible; -1 with the reason in e when the runtime cannot
 * answer (no driver, driver too old), 0 with the reason when there is none. */
int wb_device_count(wb_err *e);
/* What works without a GPU, said after "no usable GPU: ...". */
#define WB_NO_GPU_HINT                                                                                      \
    "without a GPU, wallbench list, report, roofline, compare, check, export, project and merge and make "  \
    "plots work on results files, e.g. results/h200/20261204T200319Z-4531e1f.h5, the record, and profile "  \
    "--from-raw on kept raw files (README: Without a GPU)"
/* 1 if a CUDA device can be used, 0 otherwise (no driver, no GPU). Never fails. */
int wb_device_present(void);
/* Reads the properties of device `ordinal` and makes it current. */
int wb_device_open(int ordinal, wb_device *d, wb_err *e);
/* Free device memory now, in bytes; -1 on error. */
int64_t wb_device_mem_free(void);
/* Puts the L2's DRAM fetch granularity at `bytes` (0: the default this
 * context started with) for the launches that follow, where it is not there
 * already, and returns the value in effect (the driver may clamp a hint) or
 * -1 with e set. A point's plan asks; the harness applies it before the
 * point's launches and restores the default for the next point that does
 * not ask. */
int wb_device_l2_fetch(int bytes, wb_err *e);
/* SM clock now, MHz, through NVML; NaN when NVML cannot be loaded or read. */
double wb_nvml_sm_clock_mhz(const wb_device *d);
/* NVML's current clock-event (throttle) reasons, nvmlClocksEventReasons
 * bits (harness/base/stopping.h names the power/thermal ones). Read only,
 * never set. 1 with *bits on success; 0 with *bits = 0 when NVML or the
 * call is unavailable (the failing call in wb_nvml_status()). */
int wb_nvml_clock_events(const wb_device *d, uint64_t *bits);
/* The board's state after a point's samples, read (never set) through NVML:
 * GPU and HBM temperature, power draw (NVML's own averaging window). NaN
 * for what the driver or board does not report. */
typedef struct wb_thermal {
    double gpu_temp_c, mem_temp_c, power_w;
} wb_thermal;
/* Fills t, each reading tried on its own; returns how many of the three
 * were read, with the first call that failed (and why) in why, "" when all
 * three were read. */
int wb_nvml_thermal(const wb_device *d, wb_thermal *t, char *why, size_t len);
/* How many CUDA (compute) processes besides this one hold the GPU now, read
 * (never set) through NVML's process list: -1 when NVML or the call is
 * unavailable (why says which). Inside a container NVML lists host pids,
 * so this process is found by pid where it can be and otherwise counted as
 * one of the list: it always holds a context while it measures. */
int wb_nvml_other_processes(const wb_device *d, char *why, size_t len);
/* The compute processes NVML lists on d's GPU now (only d->uuid is read): how many, their pids
 * (in NVML's namespace: a container's host pids) into pids[0..min(max, 64)); -1 when NVML or the
 * call is unavailable (why). */
int wb_nvml_process_pids(const wb_device *d, unsigned *pids, int max, char *why, size_t len);
/* The UUIDs ("GPU-...") of up to max GPUs NVML sees, in its order: how many, or -1 (why); a GPU
 * NVML counts but refuses is skipped, the first such said in why. */
int wb_nvml_uuids(char (*uuid)[96], int max, char *why, size_t len);
/* Why NVML is unavailable ("" when it works). */
const char *wb_nvml_status(void);

#endif

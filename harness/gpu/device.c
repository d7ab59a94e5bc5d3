/* device.c - the GPU the run measures: CUDA properties read once, the SM
 * clock through NVML loaded with dlopen (the CI toolkit has no nvml.h and
 * no libnvidia-ml; NVML is optional metadata). `wallbench info` prints them
 * (harness/run/info.c). */
#include "harness/gpu/device.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


/* The few NVML types and constants used, as nvml.h declares them. */
typedef int wb_nvml_return;                   /* nvmlReturn_t; NVML_SUCCESS = 0 */
typedef struct wb_nvml_device_st *wb_nvml_device; /* nvmlDevice_t */
#define WB_NVML_SUCCESS 0
#define WB_NVML_ERROR_FUNCTION_NOT_FOUND 13   /* what an unexported symbol amounts to */
#define WB_NVML_CLOCK_SM 1                    /* nvmlClockType_t NVML_CLOCK_SM */
#define WB_NVML_DRIVER_BUFFER 80              /* NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE */
#define WB_NVML_TEMPERATURE_GPU 0             /* nvmlTemperatureSensors_t NVML_TEMPERATURE_GPU */
#define WB_NVML_FI_DEV_MEMORY_TEMP 82         /* field ID NVML_FI_DEV_MEMORY_TEMP */
/* nvmlFieldValue_t as nvml.h lays it out (40 bytes on LP64); value_type is
 * nvmlValueType_t: 0 double, 1 unsigned, 2 unsigned long, 3 unsigned long
 * long, 4 long long, 5 int, 6 unsigned short. */
typedef struct wb_nvml_field_value {
    unsigned field_id, scope_id;
    long long timestamp, latency_usec;
    int value_type;                           /* nvmlValueType_t */
    wb_nvml_return nvml_return;
    union {
        double d;
        unsigned ui;
        unsigned long ul;
        unsigned long long ull;
        long long sll;
        int si;
        unsigned short us;
    } value;
} wb_nvml_field_value;

/* nvmlProcessInfo_t of the _v2 and _v3 calls (24 bytes on LP64). */
typedef struct wb_nvml_process {
    unsigned pid;
    unsigned long long used_gpu_memory;
    unsigned gpu_instance_id, compute_instance_id;
} wb_nvml_process;
#define WB_NVML_ERROR_INSUFFICIENT_SIZE 7

static struct {
    int tried, ok;
    void *lib;
    wb_nvml_return (*init)(void);
    wb_nvml_return (*by_uuid)(const char *uuid, wb_nvml_device *dev);
    wb_nvml_return (*clock)(wb_nvml_device dev, int type, unsigned *mhz);
    wb_nvml_return (*driver)(char *buf, unsigned len);
    wb_nvml_return (*reasons)(wb_nvml_device dev, unsigned long long *bits); /* NULL: driver has neither name */
    const char *(*error_string)(wb_nvml_return r);
    /* Optional: a driver without them leaves the thermal readings NaN. */
    wb_nvml_return (*temperature)(wb_nvml_device dev, int sensor, unsigned *celsius);
    wb_nvml_return (*power)(wb_nvml_device dev, unsigned *milliwatts);
    wb_nvml_return (*fields)(wb_nvml_device dev, int count, wb_nvml_field_value *values);
    wb_nvml_return (*processes)(wb_nvml_device dev, unsigned *count, struct wb_nvml_process *infos);
    /* Optional: every board NVML sees, for watching them while a profiled program runs. */
    wb_nvml_return (*count)(unsigned *n);
    wb_nvml_return (*by_index)(unsigned i, wb_nvml_device *dev);
    wb_nvml_return (*uuid)(wb_nvml_device dev, char *buf, unsigned len);
    wb_nvml_device dev;
    char dev_uuid[48];
    struct { char uuid[48]; wb_nvml_device dev; } known[16]; /* handles found, by UUID (several GPUs watched) */
    int nknown;
    char status[200];
} nv;

static const char *nvml_error(wb_nvml_return r) {
    static char buf[32];
    if (nv.error_string) return nv.error_string(r);
    snprintf(buf, sizeof buf, "NVML error %d", r);
    return buf;
}

static void *nvml_sym(const char *name) {
    void *f = dlsym(nv.lib, name);
    if (!f && !nv.status[0]) snprintf(nv.status, sizeof nv.status, "libnvidia-ml.so.1 lacks %s", name);
    return f;
}

/* Loads and initialises NVML once; 1 if usable, else 0 with nv.status set. */
static int nvml_load(void) {
    if (nv.tried) return nv.ok;
    nv.tried = 1;
    nv.lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!nv.lib) {
        const char *why = dlerror();
        snprintf(nv.status, sizeof nv.status, "dlopen(libnvidia-ml.so.1): %s", why ? why : "not found");
        return 0;
    }
    nv.init = (wb_nvml_return(*)(void))nvml_sym("nvmlInit_v2");
    nv.by_uuid = (wb_nvml_return(*)(const char *, wb_nvml_device *))nvml_sym("nvmlDeviceGetHandleByUUID");
    nv.clock = (wb_nvml_return(*)(wb_nvml_device, int, unsigned *))nvml_sym("nvmlDeviceGetClockInfo");
    nv.driver = (wb_nvml_return(*)(char *, unsigned))nvml_sym("nvmlSystemGetDriverVersion");
    nv.error_string = (const char *(*)(wb_nvml_return))dlsym(nv.lib, "nvmlErrorString");
    /* Renamed in driver 535 ("clock events"); the old name stays exported. */
    typedef wb_nvml_return (*reasons_fn)(wb_nvml_device, unsigned long long *);
    nv.reasons = (reasons_fn)dlsym(nv.lib, "nvmlDeviceGetCurrentClocksEventReasons");
    if (!nv.reasons) nv.reasons = (reasons_fn)dlsym(nv.lib, "nvmlDeviceGetCurrentClocksThrottleReasons");
    nv.temperature = (wb_nvml_return(*)(wb_nvml_device, int, unsigned *))dlsym(nv.lib, "nvmlDeviceGetTemperature");
    nv.power = (wb_nvml_return(*)(wb_nvml_device, unsigned *))dlsym(nv.lib, "nvmlDeviceGetPowerUsage");
    nv.fields = (wb_nvml_return(*)(wb_nvml_device, int, wb_nvml_field_value *))dlsym(nv.lib, "nvmlDeviceGetFieldValues");
    typedef wb_nvml_return (*processes_fn)(wb_nvml_device, unsigned *, wb_nvml_process *);
    /* _v2 first: its entries are 24 bytes in every driver (some R535 drivers' _v3 wrote 32) */
    nv.processes = (processes_fn)dlsym(nv.lib, "nvmlDeviceGetComputeRunningProcesses_v2");
    if (!nv.processes) nv.processes = (processes_fn)dlsym(nv.lib, "nvmlDeviceGetComputeRunningProcesses_v3");
    nv.count = (wb_nvml_return(*)(unsigned *))dlsym(nv.lib, "nvmlDeviceGetCount_v2");
    nv.by_index = (wb_nvml_return(*)(unsigned, wb_nvml_device *))dlsym(nv.lib, "nvmlDeviceGetHandleByIndex_v2");
    nv.uuid = (wb_nvml_return(*)(wb_nvml_device, char *, unsigned))dlsym(nv.lib, "nvmlDeviceGetUUID");
    if (!nv.init || !nv.by_uuid || !nv.clock || !nv.driver) return 0;
    wb_nvml_return r = nv.init();
    if (r != WB_NVML_SUCCESS) {
        snprintf(nv.status, sizeof nv.status, "nvmlInit_v2: %s", nvml_error(r));
        return 0;
    }
    nv.ok = 1;
    return 1;
}

/* The NVML handle of d, found by UUID: CUDA ordinals and NVML indices differ
 * under CUDA_VISIBLE_DEVICES. 1 if found, else 0 with nv.status set. */
static int nvml_device(const wb_device *d) {
    if (!nvml_load()) return 0;
    if (nv.dev && strcmp(nv.dev_uuid, d->uuid) == 0) return 1;
    for (int i = 0; i < nv.nknown; i++)
        if (!strcmp(nv.known[i].uuid, d->uuid)) {
            nv.dev = nv.known[i].dev;
            snprintf(nv.dev_uuid, sizeof nv.dev_uuid, "%s", d->uuid);
            return 1;
        }
    wb_nvml_return r = nv.by_uuid(d->uuid, &nv.dev);
    if (r != WB_NVML_SUCCESS) {
        nv.dev = NULL;
        snprintf(nv.status, sizeof nv.status, "nvmlDeviceGetHandleByUUID(%s): %s", d->uuid, nvml_error(r));
        return 0;
    }
    if (nv.nknown < 16) {
        snprintf(nv.known[nv.nknown].uuid, sizeof nv.known[0].uuid, "%s", d->uuid);
        nv.known[nv.nknown++].dev = nv.dev;
    }
    snprintf(nv.dev_uuid, sizeof nv.dev_uuid, "%s", d->uuid);
    nv.status[0] = '\0';
    return 1;
}

double wb_nvml_sm_clock_mhz(const wb_device *d) {
    if (!nvml_device(d)) return NAN;
    unsigned mhz = 0;
    wb_nvml_return r = nv.clock(nv.dev, WB_NVML_CLOCK_SM, &mhz);
    if (r != WB_NVML_SUCCESS) {
        snprintf(nv.status, sizeof nv.status, "nvmlDeviceGetClockInfo(SM): %s", nvml_error(r));
        return NAN;
    }
    return (double)mhz;
}

int wb_nvml_clock_events(const wb_device *d, uint64_t *bits) {
    *bits = 0;
    if (!nvml_device(d) || !nv.reasons) return 0;
    unsigned long long b = 0;
    wb_nvml_return r = nv.reasons(nv.dev, &b);
    if (r != WB_NVML_SUCCESS) {
        snprintf(nv.status, sizeof nv.status, "nvmlDeviceGetCurrentClocksEventReasons: %s", nvml_error(r));
        return 0;
    }
    *bits = (uint64_t)b;
    return 1;
}

/* A field value as a double; NaN unless NVML answered it with a number. */
static double field_number(const wb_nvml_field_value *f) {
    if (f->nvml_return != WB_NVML_SUCCESS) return NAN;
    switch (f->value_type) {
    case 0: return f->value.d;
    case 1: return (double)f->value.ui;
    case 2: return (double)f->value.ul;
    case 3: return (double)f->value.ull;
    case 4: return (double)f->value.sll;
    case 5: return (double)f->value.si;
    case 6: return (double)f->value.us;
    default: return NAN;
    }
}

/* Keeps the first failing call of a wb_nvml_thermal for its caller. */
static void first_failure(char *why, size_t len, const char *call, wb_nvml_return r) {
    if (why && len && !why[0])
        snprintf(why, len, "%s: %s", call, r != WB_NVML_SUCCESS ? nvml_error(r) : "no number in the answer");
}

int wb_nvml_thermal(const wb_device *d, wb_thermal *t, char *why, size_t len) {
    t->gpu_temp_c = t->mem_temp_c = t->power_w = NAN;
    if (why && len) why[0] = '\0';
    if (!nvml_device(d)) {
        if (why) snprintf(why, len, "%s", nv.status);
        return 0;
    }
    /* Each reading on its own: a board without one sensor still gives the others. */
    unsigned u = 0;
    wb_nvml_return r = WB_NVML_ERROR_FUNCTION_NOT_FOUND;
    if (nv.temperature && (r = nv.temperature(nv.dev, WB_NVML_TEMPERATURE_GPU, &u)) == WB_NVML_SUCCESS)
        t->gpu_temp_c = u;
    else
        first_failure(why, len, "nvmlDeviceGetTemperature(GPU)", r);
    r = WB_NVML_ERROR_FUNCTION_NOT_FOUND;
    if (nv.power && (r = nv.power(nv.dev, &u)) == WB_NVML_SUCCESS)
        t->power_w = u * 1e-3;
    else
        first_failure(why, len, "nvmlDeviceGetPowerUsage", r);
    wb_nvml_field_value f;
    memset(&f, 0, sizeof f);
    f.field_id = WB_NVML_FI_DEV_MEMORY_TEMP;
    r = WB_NVML_ERROR_FUNCTION_NOT_FOUND;
    if (nv.fields && (r = nv.fields(nv.dev, 1, &f)) == WB_NVML_SUCCESS && (r = f.nvml_return) == WB_NVML_SUCCESS)
        t->mem_temp_c = field_number(&f);
    if (isnan(t->mem_temp_c)) first_failure(why, len, "nvmlDeviceGetFieldValues(NVML_FI_DEV_MEMORY_TEMP)", r);
    return !isnan(t->gpu_temp_c) + !isnan(t->power_w) + !isnan(t->mem_temp_c);
}

/* NVML's compute processes on d's GPU into p[64]: how many it lists (more than 64: all counted,
 * 64 kept), or -1 with why. p has room for 64 entries of 32 bytes (an R535 _v3's), NVML is told 64
 * of 24. */
typedef union process_room { wb_nvml_process p[64]; char wide[64 * 32]; } process_room;
static int list_processes(const wb_device *d, wb_nvml_process *p, char *why, size_t len) {
    if (why && len) why[0] = '\0';
    if (!nvml_device(d)) {
        if (why) snprintf(why, len, "%s", nv.status);
        return -1;
    }
    if (!nv.processes) {
        if (why) snprintf(why, len, "libnvidia-ml.so.1 lacks nvmlDeviceGetComputeRunningProcesses_v2/_v3");
        return -1;
    }
    unsigned n = 64;
    wb_nvml_return r = nv.processes(nv.dev, &n, p);
    if (r == WB_NVML_ERROR_INSUFFICIENT_SIZE) return n > 64 ? (int)n : 65; /* more than it holds: many */
    if (r != WB_NVML_SUCCESS) {
        if (why) snprintf(why, len, "nvmlDeviceGetComputeRunningProcesses: %s", nvml_error(r));
        return -1;
    }
    return (int)n;
}

int wb_nvml_process_pids(const wb_device *d, unsigned *pids, int max, char *why, size_t len) {
    process_room room;
    int listed = list_processes(d, room.p, why, len);
    for (int i = 0; i < listed && i < max && i < 64; i++) pids[i] = room.p[i].pid;
    return listed;
}

int wb_nvml_uuids(char (*uuid)[96], int max, char *why, size_t len) {
    if (why && len) why[0] = '\0';
    if (!nvml_load()) {
        if (why) snprintf(why, len, "%s", nv.status);
        return -1;
    }
    if (!nv.count || !nv.by_index || !nv.uuid) {
        if (why) snprintf(why, len, "libnvidia-ml.so.1 lacks nvmlDeviceGetCount_v2, GetHandleByIndex_v2 or GetUUID");
        return -1;
    }
    unsigned n = 0;
    wb_nvml_return r = nv.count(&n);
    if (r != WB_NVML_SUCCESS) {
        if (why) snprintf(why, len, "nvmlDeviceGetCount_v2: %s", nvml_error(r));
        return -1;
    }
    int got = 0;
    for (unsigned i = 0; i < n && got < max; i++) {
        wb_nvml_device h; /* a GPU NVML counts but refuses (no permission, lost) is skipped, and said */
        if ((r = nv.by_index(i, &h)) != WB_NVML_SUCCESS || (r = nv.uuid(h, uuid[got], 96)) != WB_NVML_SUCCESS) {
            if (why && !why[0]) snprintf(why, len, "NVML device %u skipped (handle or UUID): %s", i, nvml_error(r));
            continue;
        }
        got++;
    }
    return got;
}

int wb_nvml_other_processes(const wb_device *d, char *why, size_t len) {
    process_room room;
    wb_nvml_process *p = room.p;
    int listed = list_processes(d, p, why, len);
    if (listed < 0) return -1;
    if (listed > 64) return listed - 1; /* more than it holds: many */
    unsigned n = (unsigned)listed;
    const unsigned self = (unsigned)getpid();
    int others = 0, mine = 0;
    for (unsigned i = 0; i < n && i < 64; i++) {
        if (p[i].pid == self) mine = 1;
        else others++;
    }
    /* Not found by pid: a container lists host pids, and this process, which
     * holds a context while it measures, is one of them. */
    return mine ? others : others > 0 ? others - 1 : 0;
}

const char *wb_nvml_status(void) {
    nvml_load();
    return nv.status;
}

/* 1 when the driver library loads: "insufficient driver" from the runtime
 * means no driver at all when it does not (a machine without a GPU). */
static int driver_present(void) {
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (h) dlclose(h);
    return h != NULL;
}

int wb_device_count(wb_err *e) {
    int n = 0;
    cudaError_t c = cudaGetDeviceCount(&n);
    if (c != cudaSuccess) {
        (void)cudaGetLastError();
        const char *vis = getenv("CUDA_VISIBLE_DEVICES");
        if (c == cudaErrorInsufficientDriver && !driver_present())
            wb_fail(e, "no NVIDIA driver on this machine (libcuda.so.1 not found)");
        else if (c == cudaErrorInsufficientDriver)
            wb_fail(e, "the NVIDIA driver is older than this build's CUDA runtime needs (cudaGetDeviceCount: %s): "
                       "update the driver or build with an older CUDA toolkit", cudaGetErrorName(c));
        else if (c == cudaErrorNoDevice)
            wb_fail(e, "no CUDA device visible (cudaGetDeviceCount: %s%s%s)", cudaGetErrorName(c),
                    vis ? "; CUDA_VISIBLE_DEVICES=" : "", vis ? vis : "");
        else wb_fail(e, "cudaGetDeviceCount: %s (%s)", cudaGetErrorName(c), cudaGetErrorString(c));
        return -1;
    }
    if (n == 0) wb_fail(e, "no CUDA device (cudaGetDeviceCount found none)");
    return n;
}

int wb_device_present(void) { return wb_device_count(NULL) > 0; }

static int attr(int *v, enum cudaDeviceAttr a, int dev, const char *name, wb_err *e) {
    cudaError_t c = cudaDeviceGetAttribute(v, a, dev);
    return c == cudaSuccess ? WB_OK : wb_fail(e, "cudaDeviceGetAttribute(%s): %s", name, cudaGetErrorName(c));
}

int wb_device_open(int ordinal, wb_device *d, wb_err *e) {
    memset(d, 0, sizeof *d);
    int n = wb_device_count(e);
    if (n <= 0) return WB_ERR;
    if (ordinal < 0 || ordinal >= n)
        return wb_fail(e, "device %d does not exist: %d CUDA device(s), ordinals 0..%d", ordinal, n, n - 1);
    WB_CUDA_TRY(e, cudaSetDevice(ordinal));
    struct cudaDeviceProp p;
    WB_CUDA_TRY(e, cudaGetDeviceProperties(&p, ordinal));
    d->ordinal = ordinal;
    snprintf(d->name, sizeof d->name, "%.*s", (int)sizeof d->name - 1, p.name);
    d->cc_major = p.major;
    d->cc_minor = p.minor;
    d->sms = p.multiProcessorCount;
    d->l2_bytes = p.l2CacheSize;
    d->mem_total_bytes = (int64_t)p.totalGlobalMem;
    const unsigned char *u = (const unsigned char *)p.uuid.bytes;
    snprintf(d->uuid, sizeof d->uuid, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0],
             u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
    int clock_khz = 0, mem_khz = 0;
    /* cudaDeviceProp lost its clock fields in CUDA 13: attributes instead. */
    if (attr(&d->max_threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, ordinal, "MaxThreadsPerSM", e) ||
        attr(&d->smem_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, ordinal, "MaxSharedMemoryPerSM", e) ||
        attr(&clock_khz, cudaDevAttrClockRate, ordinal, "ClockRate", e) ||
        attr(&mem_khz, cudaDevAttrMemoryClockRate, ordinal, "MemoryClockRate", e) ||
        attr(&d->mem_bus_bits, cudaDevAttrGlobalMemoryBusWidth, ordinal, "GlobalMemoryBusWidth", e))
        return WB_ERR;
    d->sm_clock_max_mhz = clock_khz / 1000.0;
    d->mem_clock_mhz = mem_khz / 1000.0;
    WB_CUDA_TRY(e, cudaDriverGetVersion(&d->driver_version));
    WB_CUDA_TRY(e, cudaRuntimeGetVersion(&d->runtime_version));
    if (nvml_load()) {
        char buf[WB_NVML_DRIVER_BUFFER] = "";
        wb_nvml_return r = nv.driver(buf, sizeof buf);
        if (r == WB_NVML_SUCCESS)
            snprintf(d->driver_string, sizeof d->driver_string, "%.*s", (int)sizeof d->driver_string - 1, buf);
        else
            snprintf(nv.status, sizeof nv.status, "nvmlSystemGetDriverVersion: %s", nvml_error(r));
    }
    return WB_OK;
}

int64_t wb_device_mem_free(void) {
    size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
        (void)cudaGetLastError();
        return -1;
    }
    return (int64_t)free_b;
}

/* ---- wallbench info ---- */

int wb_device_l2_fetch(int bytes, wb_err *e) {
    static int have_default;
    static size_t default_bytes;
    cudaError_t c;
    size_t now = 0;
    if (!have_default) {
        if ((c = cudaDeviceGetLimit(&default_bytes, cudaLimitMaxL2FetchGranularity)) != cudaSuccess)
            return wb_fail(e, "cudaDeviceGetLimit(cudaLimitMaxL2FetchGranularity): %s", cudaGetErrorString(c)), -1;
        have_default = 1;
    }
    if (bytes < 0 || bytes > 128) return wb_fail(e, "L2 fetch granularity %d bytes: not in 0..128", bytes), -1;
    const size_t want = bytes ? (size_t)bytes : default_bytes;
    if ((c = cudaDeviceGetLimit(&now, cudaLimitMaxL2FetchGranularity)) != cudaSuccess)
        return wb_fail(e, "cudaDeviceGetLimit(cudaLimitMaxL2FetchGranularity): %s", cudaGetErrorString(c)), -1;
    if (now != want) {
        if ((c = cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, want)) != cudaSuccess)
            return wb_fail(e, "cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, %zu): %s", want, cudaGetErrorString(c)), -1;
        if ((c = cudaDeviceGetLimit(&now, cudaLimitMaxL2FetchGranularity)) != cudaSuccess)
            return wb_fail(e, "cudaDeviceGetLimit(cudaLimitMaxL2FetchGranularity): %s", cudaGetErrorString(c)), -1;
    }
    return (int)now;
}

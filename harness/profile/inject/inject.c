/* inject.c - entry point of the injection library (inject.h): reads the
 * pass from the environment, opens the raw file, subscribes the launch and
 * callbacks, and flushes at exit (NVTX: nvtx.c). The raw file's lines (tab-separated,
 * one record each; the driver's raw.c reads them):
 *   #  header: "# wallbench-raw <version> pass=<pass> pid=<pid>", "# metrics c1 c2 ...",
 *      "# device <ordinal>\t<name>\t<uuid>\t<cc>\t<sms>\t<driver>"; --rotate: "# groups g1 g2 ..." (the
 *      group of each "# metrics" column, -2 every group's, -1 none) and "# batch\tgroup g" before
 *      each decoded batch's lines (the group its C lines held, -1 the whole set)
 *   L  seq corr api selected gx gy gz bx by bz smem_dynamic nvtx_path name   (launch callback;
 *      nvtx_path is the launching thread's NVTX range stack, nvtx.c)
 *   K  corr start_ns end_ns device stream registers smem_static smem_dynamic gx gy gz bx by bz graph_node name
 *      (timing pass: a CUPTI Activity kernel record)
 *   C  seq v1 v2 ...   (counter pass: the metrics of "# metrics" for launch seq)
 *   U  first_seq last_seq launches name v1 v2 ...   (counter pass, user ranges: one NVTX range or
 *      N launches; first/last: the launches it spans, name: the range's)
 *   F  seq v1 v2 ...   (counter pass: our L2 flush before launch seq, where CUPTI made a range of it)
 *   N  seq reason      (counter pass: a selected launch left uncounted, and why)
 *   E  message         (something failed; the pass went on without it) */
#include "harness/profile/inject/inject.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


#include "harness/base/parse_int.h"
#include "harness/base/profile.h"
#include "harness/gpu/counters.h"
#include "harness/profile/go_pipe.h"
#include "harness/profile/inject/fatal.h"
#include "harness/profile/inject/rotation.h"

wb_inject wb_inj = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* This thread holds wb_inj.lock (a fork from a signal handler that interrupted it must not take
 * it again: before_fork). */
static __thread volatile int raw_locked;

void wb_raw_lock(void) {
    pthread_mutex_lock(&wb_inj.lock);
    raw_locked = 1;
}

void wb_raw_unlock(void) {
    raw_locked = 0;
    pthread_mutex_unlock(&wb_inj.lock);
}

/* A line, with wb_inj.lock held; nothing once the file is closed (finish) or in a forked child. */
static void raw_vline_locked(const char *fmt, va_list ap) {
    if (!wb_inj.raw) return;
    vfprintf(wb_inj.raw, fmt, ap);
    fputc('\n', wb_inj.raw);
}

static void raw_line_locked(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    raw_vline_locked(fmt, ap);
    va_end(ap);
}

void wb_raw_line(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    wb_raw_lock();
    raw_vline_locked(fmt, ap);
    wb_raw_unlock();
    va_end(ap);
}

void wb_raw_error(const char *fmt, ...) {
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    for (char *p = msg; *p; p++)
        if (*p == '\n' || *p == '\t') *p = ' ';
    wb_raw_lock();
    raw_line_locked("E\t%s", msg);
    if (wb_inj.raw) fflush(wb_inj.raw);
    wb_raw_unlock();
}

const char *wb_inject_cupti_str(CUptiResult r) {
    const char *s = NULL;
    if (cuptiGetResultString(r, &s) != CUPTI_SUCCESS || !s) return "unknown CUPTI error";
    return s;
}

/* The GPU a pass ran on, as "# device" (ordinal, name, uuid, cc, sms, driver, chip). */
void wb_inject_write_device(CUdevice dev, const char *chip) {
    char name[256] = "", uuid_s[48] = "";
    CUuuid uuid;
    int major = 0, minor = 0, sms = 0, drv = 0;
    CUresult r;
    if ((r = cuDeviceGetName(name, sizeof name, dev)) != CUDA_SUCCESS) wb_raw_error("cuDeviceGetName: CUDA error %d", (int)r);
    if ((r = cuDeviceGetUuid(&uuid, dev)) != CUDA_SUCCESS) wb_raw_error("cuDeviceGetUuid: CUDA error %d", (int)r);
    else {
        const unsigned char *u = (const unsigned char *)uuid.bytes;
        snprintf(uuid_s, sizeof uuid_s, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0],
                 u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
    }
    /* A failed query leaves 0 in the line (the driver reads it as unknown) and says which failed. */
    if ((r = cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev)) != CUDA_SUCCESS ||
        (r = cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev)) != CUDA_SUCCESS ||
        (r = cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev)) != CUDA_SUCCESS)
        wb_raw_error("cuDeviceGetAttribute (compute capability, SMs): CUDA error %d", (int)r);
    if ((r = cuDriverGetVersion(&drv)) != CUDA_SUCCESS) wb_raw_error("cuDriverGetVersion: CUDA error %d", (int)r);
    wb_raw_line("# device %d\t%s\t%s\t%d.%d\t%d\t%d\t%s", (int)dev, name, uuid_s, major, minor, sms, drv, chip);
}

/* Nesting of launch APIs on this thread: only the outermost one is a launch. */
static __thread int api_depth;

/* The launch shape, dynamic shared memory and stream of a launch API's
 * parameters: cuLaunchKernel's, cuLaunchCooperativeKernel's and
 * cuLaunchKernelEx's CUlaunchConfig name these fields alike. */
#define TAKE_SHAPE(l, p)                                                                                  \
    ((l)->grid[0] = (p)->gridDimX, (l)->grid[1] = (p)->gridDimY, (l)->grid[2] = (p)->gridDimZ,            \
     (l)->block[0] = (p)->blockDimX, (l)->block[1] = (p)->blockDimY, (l)->block[2] = (p)->blockDimZ,      \
     (l)->smem_dynamic = (p)->sharedMemBytes, (l)->stream = (p)->hStream)

/* A graph launch's name: "(graph #k)", k numbering the executable graphs in the order of their
 * first launch, the same in both passes of a deterministic program (the handles differ). */
static const char *graph_name(CUgraphExec exec) {
    static CUgraphExec seen[256];
    static char names[256][24];
    static int n;
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&lock);
    int k = 0;
    while (k < n && seen[k] != exec) k++;
    if (k == n && n < 256) seen[n] = exec, snprintf(names[n], sizeof names[n], "(graph #%d)", n), n++;
    pthread_mutex_unlock(&lock);
    return k < 256 ? names[k] : "(graph)";
}

/* Fills l from a launch API's parameters. */
static void launch_info(CUpti_CallbackId cbid, const CUpti_CallbackData *cb, wb_launch_info *l) {
    memset(l, 0, sizeof *l);
    l->correlation = cb->correlationId;
    l->ctx = cb->context;
    l->name = cb->symbolName ? cb->symbolName : "";
    l->nvtx = wb_nvtx_path();
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz: {
        const cuLaunchKernel_params *p = cb->functionParams;
        l->api = WB_API_LAUNCH;
        TAKE_SHAPE(l, p);
        break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz: {
        const cuLaunchCooperativeKernel_params *p = cb->functionParams;
        l->api = WB_API_COOPERATIVE;
        TAKE_SHAPE(l, p);
        break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
        const cuLaunchKernelEx_params *p = cb->functionParams;
        l->api = WB_API_LAUNCH_EX;
        if (p->config) TAKE_SHAPE(l, p->config);
        break;
    }
    default: { /* cuGraphLaunch */
        const cuGraphLaunch_params *p = cb->functionParams;
        l->api = WB_API_GRAPH;
        l->name = graph_name(p->hGraph);
        l->stream = p->hStream;
        break;
    }
    }
}

static void on_launch(CUpti_CallbackId cbid, const CUpti_CallbackData *cb) {
    wb_launch_info l;
    /* a child made by fork cannot use CUDA: nothing of ours runs there; nor after finish() */
    if (wb_inj.forked || wb_inj.finished) return;
    if (cb->callbackSite == CUPTI_API_EXIT) {
        if (--api_depth == 0 && wb_inj.pass == WB_PASS_COUNTERS) {
            wb_counting_left();
            wb_counting_serial_end();
        }
        return;
    }
    if (api_depth++ > 0) return;
    launch_info(cbid, cb, &l);
    int selected = 0, per_range = wb_inj.ranges >= WB_RANGES_NVTX;
    /* before the seq: launches are numbered, and reach the GPU, in the order of their calls */
    if (wb_inj.pass == WB_PASS_COUNTERS && !per_range) wb_counting_serial_begin();
    /* One critical section numbers the launch, selects it and writes its L line: launches of
     * several threads reach the file in seq order, the order in which they were selected, as
     * the driver reads and selects them again (raw.c, match.c). */
    wb_raw_lock();
    l.seq = wb_inj.seq++;
    if (wb_inj.pass == WB_PASS_COUNTERS && !per_range)
        /* A graph launch has no kernel name: counted when nothing narrows the selection. */
        selected = l.api == WB_API_GRAPH ? wb_select_everything(&wb_inj.select)
                                         : wb_select_take(&wb_inj.select, l.name, l.nvtx);
    raw_line_locked("L\t%lld\t%u\t%d\t%d\t%u\t%u\t%u\t%u\t%u\t%u\t%u\t%s\t%s", (long long)l.seq, l.correlation,
                    l.api, selected, l.grid[0], l.grid[1], l.grid[2], l.block[0], l.block[1], l.block[2],
                    l.smem_dynamic, l.nvtx, l.name);
    wb_raw_unlock();
    CUdevice dev;
    CUresult dr;
    if (l.seq == 0 && wb_inj.pass == WB_PASS_TIMING) { /* the counter pass writes it with the chip's name */
        if ((dr = cuCtxGetDevice(&dev)) == CUDA_SUCCESS) wb_inject_write_device(dev, "");
        else wb_raw_error("cuCtxGetDevice at the first launch: CUDA error %d; no '# device' line", (int)dr);
    }
    if (wb_inj.pass != WB_PASS_COUNTERS) return;
    if (per_range) { /* every launch runs inside the program's (or every N launches') range */
        wb_counting_first_launch(&l);
        wb_counting_enter(&l);
        return;
    }
    if (selected) {
        wb_counting_enter(&l);
        return;
    }
    wb_counting_unselected(); /* it runs unprofiled: no range may open for it */
    if (l.api == WB_API_GRAPH)
        wb_raw_line("N\t%lld\tgraph launch: not selected (a kernel-name, NVTX or launch-count selection leaves "
                    "graph launches out)", (long long)l.seq);
}

static const CUpti_CallbackId capture_begin_cbids[] = {
    CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture,         CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2,      CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph,  CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph_ptsz,
};
static const CUpti_CallbackId capture_end_cbids[] = {
    CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture, CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture_ptsz,
};

static int among(CUpti_CallbackId cbid, const CUpti_CallbackId *ids, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (ids[i] == cbid) return 1;
    return 0;
}

/* Stream captures (counter pass): the profiler stops before one begins and counts nothing
 * until it ends, whatever its mode (a synchronization inside a global-mode capture, in any
 * thread, invalidates it: the PyTorch program of issue 48 died so). */
static void on_capture(CUpti_CallbackId cbid, const CUpti_CallbackData *cb) {
    if (wb_inj.forked) return;
    int begin = among(cbid, capture_begin_cbids, sizeof capture_begin_cbids / sizeof *capture_begin_cbids);
    const CUresult *ret = cb->functionReturnValue;
    if (begin && cb->callbackSite == CUPTI_API_ENTER) wb_counting_capture(1);
    else if (begin && ret && *ret != CUDA_SUCCESS) wb_counting_capture(0); /* it never began */
    else if (!begin && cb->callbackSite == CUPTI_API_EXIT) wb_counting_capture(0);
}

/* A context is being destroyed: the pass saves what it holds of it (inject.h). */
static void on_context_destroy(const CUpti_ResourceData *rd) {
    if (wb_inj.forked || wb_inj.finished) return; /* finish() saved everything; the file is closed */
    if (wb_inj.pass == WB_PASS_TIMING) wb_timing_context_ends();
    else wb_counting_context_ends(rd->context);
}

static void CUPTIAPI on_callback(void *user, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *data) {
    (void)user;
    if (domain == CUPTI_CB_DOMAIN_RESOURCE && cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING)
        on_context_destroy(data);
    if (domain != CUPTI_CB_DOMAIN_DRIVER_API) return;
    if (among(cbid, capture_begin_cbids, sizeof capture_begin_cbids / sizeof *capture_begin_cbids) ||
        among(cbid, capture_end_cbids, sizeof capture_end_cbids / sizeof *capture_end_cbids))
        on_capture(cbid, data);
    else
        on_launch(cbid, data);
}

static const CUpti_CallbackId launch_cbids[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,           CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,         CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch,            CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz,
};
/* Flushes what the pass holds (CUPTI's activity buffers, the counter batch) and closes the
 * raw file; once, at exit or at a fatal signal. */
static void finish(int sig) {
    /* a forked child's exit: the parent's CUPTI state is not its own */
    if (wb_inj.forked || __atomic_exchange_n(&wb_inj.finishing, 1, __ATOMIC_SEQ_CST)) return;
    if (wb_inj.pass == WB_PASS_TIMING) wb_timing_finish();
    else wb_counting_finish();
    wb_raw_lock();
    /* only now: another thread's launch during the flush still gets its L line, whose K record the
     * flush may hand over (without it, the record would be a kernel of no launch) */
    wb_inj.finished = 1;
    if (wb_inj.raw) {
        if (sig) fprintf(wb_inj.raw, "# signal %d\n", sig);
        fprintf(wb_inj.raw, "# end\n");
        fclose(wb_inj.raw);
        wb_inj.raw = NULL;
    }
    wb_raw_unlock();
}

static void at_exit(void) { finish(0); }

/* fork without exec (Python's multiprocessing, a DataLoader's workers): the child inherits the
 * raw file, its buffer and this library's state, but can use neither CUDA nor CUPTI. The buffer
 * is flushed before the fork so that the child's exit writes none of the parent's lines again,
 * and in the child everything of ours is switched off (its exit, signals and callbacks do
 * nothing); the lock, held across the fork by the forking thread, is released on both sides. */
static __thread int fork_locked; /* before_fork took the lock (the same thread runs all three) */

static void before_fork(void) {
    /* a fork from a signal handler that interrupted this thread's own write: the lock is ours already */
    fork_locked = !raw_locked && pthread_mutex_lock(&wb_inj.lock) == 0;
    if (fork_locked && wb_inj.raw) fflush(wb_inj.raw);
}

static void after_fork_parent(void) {
    if (fork_locked) pthread_mutex_unlock(&wb_inj.lock);
    fork_locked = 0;
}

static void after_fork_child(void) {
    wb_inj.forked = 1;
    wb_inj.raw = NULL; /* not closed: the parent's descriptor, shared; the emptied buffer writes nothing */
    if (fork_locked) pthread_mutex_unlock(&wb_inj.lock);
    fork_locked = 0;
}

/* A program that crashes or is killed never reaches atexit: the launches it finished would be
 * lost in CUPTI's buffers and the undecoded batch. At a fatal signal they are saved, best effort
 * (CUPTI and the driver are not async-signal-safe, and a fault on the GPU may fail the decode),
 * and bounded: a save that hangs (the signal interrupted a thread inside the driver, whose lock
 * the decode then waits for) is given up SAVE_LIMIT_S later, and the program dies of its signal
 * all the same, the file kept as far as it was written (fatal.h). */
#define SAVE_LIMIT_S 10

static void save_at_signal(int sig) {
    if (!wb_inj.forked && pthread_mutex_trylock(&wb_inj.lock) == 0) { /* not interrupting our own write */
        pthread_mutex_unlock(&wb_inj.lock);
        finish(sig);
    }
}

static int open_raw(void) {
    const char *base = getenv("WB_PROFILE_RAW");
    if (!base || !*base) {
        fprintf(stderr, "wallbench inject: WB_PROFILE_RAW is not set (run through wallbench profile); not profiling\n");
        return -1;
    }
    char path[4096];
    if (snprintf(path, sizeof path, "%s.%d.tsv", base, (int)getpid()) >= (int)sizeof path) {
        fprintf(stderr, "wallbench inject: WB_PROFILE_RAW is too long a path; not profiling\n");
        return -1;
    }
    /* "e": close-on-exec, so that the programs this one starts do not hold the file open */
    if (!(wb_inj.raw = fopen(path, "we"))) {
        fprintf(stderr, "wallbench inject: cannot write %s; not profiling\n", path);
        return -1;
    }
    setvbuf(wb_inj.raw, NULL, _IOFBF, 1 << 20);
    fprintf(wb_inj.raw, "# wallbench-raw %d pass=%s pid=%d ppid=%d\n", WB_RAW_VERSION,
            wb_inj.pass == WB_PASS_TIMING ? "timing" : "counters", (int)getpid(), (int)getppid());
    return 0;
}

/* The counter pass's set and range mode, as wallbench profile's --counters and --ranges wrote
 * them (WB_PROFILE_SET: core, roofline, all; WB_PROFILE_RANGES: kernel, launch, nvtx, every:N). */
static int counter_mode_from_env(void) {
    const char *set = getenv("WB_PROFILE_SET"), *ranges = getenv("WB_PROFILE_RANGES"), *replay = getenv("WB_PROFILE_REPLAY");
    wb_counter_set cs = WB_COUNTER_SET_CORE;
    wb_err e;
    if (set && *set && wb_counter_set_parse(set, &cs, &e) != WB_OK) {
        wb_raw_error("WB_PROFILE_SET: %s; not counting", e.msg);
        return -1;
    }
    wb_inj.set = (int)cs;
    wb_inj.ranges = WB_RANGES_KERNEL;
    if (ranges && *ranges && wb_ranges_parse(ranges, &wb_inj.ranges, &wb_inj.every) != 0) {
        wb_raw_error("WB_PROFILE_RANGES=%s: kernel, nvtx or every:N; not counting", ranges);
        return -1;
    }
    wb_inj.force_kernel_replay = replay && !strcmp(replay, "kernel");
    const char *rotate = getenv("WB_PROFILE_ROTATE");
    wb_inj.rotate = rotate && !strcmp(rotate, "1");
    /* --rotate's defaults (2026-12-05, measured on GH100: docs/profiling-measured.md): a new profiler
     * object at each change of group, without which only the first configured group's own counters
     * came back, and each group held for 32 launches, since a new object costs ~0.4 s a change. */
    const char *hold = getenv("WB_PROFILE_ROTATE_HOLD"), *new_object = getenv("WB_PROFILE_ROTATE_NEW_OBJECT");
    long long held = WB_ROTATE_HOLD_DEFAULT;
    if (hold && *hold && wb_parse_ll(hold, 0, 1000000, &held) != 0) {
        wb_raw_error("WB_PROFILE_ROTATE_HOLD=%s: a number of launches, 0 to 1000000; not counting", hold);
        return -1;
    }
    if (new_object && *new_object && strcmp(new_object, "0") && strcmp(new_object, "1")) {
        wb_raw_error("WB_PROFILE_ROTATE_NEW_OBJECT=%s: 1 (the default) or 0; not counting", new_object);
        return -1;
    }
    wb_inj.rotate_hold = wb_inj.rotate ? (int)held : 0;
    wb_inj.rotate_new_object = wb_inj.rotate && !(new_object && !strcmp(new_object, "0"));
    const char *flush = getenv("WB_PROFILE_FLUSH");
    wb_inj.flush_empty = flush && !strcmp(flush, "empty");
    const char *wait_ms = getenv("WB_PROFILE_SERIAL_WAIT_MS");
    wb_inj.serial_wait_s = wait_ms && atoi(wait_ms) > 0 ? atoi(wait_ms) / 1e3 : 10.0;
    return 0;
}

/* Called by CUDA at cuInit when CUDA_INJECTION64_PATH names this library. */
/* --sample: the profiler sets up PM sampling while this program starts; this first CUDA call
 * waits until it runs (go_pipe.h). The wait goes to the raw file. */
static void wait_for_sampling(void) {
    double waited = wb_go_pipe_wait(getenv(WB_GO_PIPE_ENV));
    if (waited < 0) return;
    unsetenv(WB_GO_PIPE_ENV); /* the program's children do not wait again */
    wb_raw_line("# waited\t%.6f", waited);
}

__attribute__((visibility("default"))) int InitializeInjection(void) {
    static int done;
    if (done++) return 1;
    const char *pass = getenv("WB_PROFILE_PASS");
    if (!pass || (strcmp(pass, "timing") && strcmp(pass, "counters"))) {
        fprintf(stderr, "wallbench inject: WB_PROFILE_PASS must be timing or counters; not profiling\n");
        return 1;
    }
    wb_inj.pass = strcmp(pass, "timing") ? WB_PASS_COUNTERS : WB_PASS_TIMING;
    if (open_raw() != 0) return 1;
    wait_for_sampling();
    const char *b = getenv("WB_PROFILE_BATCH");
    wb_inj.batch = b && atoi(b) > 0 ? atoi(b) : 256;
    if (wb_inj.batch < WB_BATCH_MIN) wb_inj.batch = WB_BATCH_MIN; /* a launch and its flushes take up to 3 ranges */
    const char *cache = getenv("WB_PROFILE_CACHE");
    wb_inj.flush_l2 = !cache || strcmp(cache, "none") != 0;
    if (counter_mode_from_env() != 0) return 1;
    wb_err e;
    if (wb_select_from_env(&wb_inj.select, &e) != WB_OK) wb_raw_error("launch selection: %s", e.msg);
    CUptiResult r = cuptiSubscribe(&wb_inj.sub, on_callback, NULL);
    if (r != CUPTI_SUCCESS) {
        wb_raw_error("cuptiSubscribe: %s (another CUPTI client in this process: torch.profiler, ncu, nsys?)",
                     wb_inject_cupti_str(r));
        return 1;
    }
    for (size_t i = 0; i < sizeof launch_cbids / sizeof launch_cbids[0]; i++)
        if ((r = cuptiEnableCallback(1, wb_inj.sub, CUPTI_CB_DOMAIN_DRIVER_API, launch_cbids[i])) != CUPTI_SUCCESS)
            wb_raw_error("cuptiEnableCallback(launch %u): %s", (unsigned)launch_cbids[i], wb_inject_cupti_str(r));
    if ((r = cuptiEnableCallback(1, wb_inj.sub, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING)) !=
        CUPTI_SUCCESS)
        wb_raw_error("cuptiEnableCallback(context destroy): %s; a program that destroys its context before exit "
                     "(cudaDeviceReset) loses what the pass held of it", wb_inject_cupti_str(r));
    if (wb_inj.pass == WB_PASS_COUNTERS) {
        const CUpti_CallbackId *lists[] = {capture_begin_cbids, capture_end_cbids};
        size_t sizes[] = {sizeof capture_begin_cbids / sizeof *capture_begin_cbids,
                          sizeof capture_end_cbids / sizeof *capture_end_cbids};
        for (int k = 0; k < 2; k++)
            for (size_t i = 0; i < sizes[k]; i++)
                if ((r = cuptiEnableCallback(1, wb_inj.sub, CUPTI_CB_DOMAIN_DRIVER_API, lists[k][i])) != CUPTI_SUCCESS)
                    wb_raw_error("cuptiEnableCallback(capture %u): %s; a program that captures graphs may fail",
                                 (unsigned)lists[k][i], wb_inject_cupti_str(r));
    }
    if (wb_inj.pass == WB_PASS_TIMING) wb_timing_start();
    atexit(at_exit);
    if (pthread_atfork(before_fork, after_fork_parent, after_fork_child) != 0)
        wb_raw_error("pthread_atfork failed: a child forked without exec may write into this pass's file");
    if (wb_fatal_catch(save_at_signal, SAVE_LIMIT_S) != 0)
        wb_raw_error("fatal signals: the watchdog thread could not start; a save at a fatal signal is not bounded");
    fflush(wb_inj.raw);
    return 1;
}

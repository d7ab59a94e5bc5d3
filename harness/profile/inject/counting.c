/* counting.c - the counter pass: CUPTI's Range Profiler on the first context
 * that launches a selected kernel, in one of three range modes (WB_PROFILE_RANGES):
 *   kernel     one auto range per selected launch (the default). With a one-pass
 *              set (WB_PROFILE_SET=core, the default) no replay is needed: the
 *              profiler runs in user-replay mode, nothing is saved or restored,
 *              and the L2 flush (--cache-control all) is a kernel of ours on the
 *              launch's own stream, outside the counted data (its range is
 *              skipped), instead of a context of our own and two synchronizations.
 *              A set of several passes (all) keeps kernel replay, with the flush
 *              in a context of our own.
 *   nvtx       one user range per outermost NVTX range of the launching thread:
 *              kernels run as the program runs them, nothing is synchronized.
 *   every:N    one user range per N launches, likewise.
 * With --rotate (WB_PROFILE_ROTATE, kernel mode, a set of several passes)
 * every launch is counted in one pass, nothing replayed (user replay, the
 * flush on the stream), with one group of the set that fits one pass, each
 * group holding the core rows where they fit, each kernel and launch shape
 * taking every group once a round (rotation.h: the open batch's group while
 * the shape lacks it or the group has held fewer than 32 launches, so that
 * batches are few): a kernel launched often enough gets every column of the
 * set, every launch its roofline. Each change of group lets the range profiler
 * object go and makes a new one (~0.4 s): an object keeps its first
 * configuration's counters, and later groups' own counters came back NaN on
 * GH100 without it (docs/profiling-measured.md). A C line
 * holds the whole set's columns, NaN for those its group lacks; the batch's
 * "# batch" line names its group. (Replaying
 * each kernel's first launch with the whole set, as this did until
 * 2026-12-04, cost a new range profiler object at every change of replay
 * mode, ~0.5 s each on the H200: a CUPTI object that had replayed a batch
 * reported passes left after every later one-pass batch, whose counts came
 * back NaN.)
 * User ranges need a one-pass set. A graph launch (cuGraphLaunch) runs uncounted
 * in kernel mode, with an N line saying so; in nvtx and every:N it counts in
 * the range around it. Each way of counting it alone failed on the H200 (CUDA
 * 13.0, driver 580, 2026-12-04): an auto range around it failed at Stop
 * (CUPTI_ERROR_UNKNOWN) and lost the launches after it; a user range pushed in
 * its launch callback failed (CUPTI_ERROR_INVALID_PARAMETER) on an object first
 * run in auto range, and on a fresh object crashed the program (SIGSEGV), as a
 * user range per kernel launch did.
 * Nothing here may change what the program does: no launch made inside a stream
 * capture is counted and no profiler call or synchronization is made while a
 * capture is under way (a synchronization there invalidates the capture), and a
 * capture's start ends the batch first. Counts go out as C lines (a launch, by
 * seq), U lines (a user range) and F lines (our flush) after each batch's decode;
 * the host half (metric set, images, passes) is the suite's own
 * (harness/gpu/counters_host.c). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include "harness/base/clock.h"
#include "harness/base/metrics.h"
#include "harness/base/profile.h"
#include "harness/gpu/counters_cupti.h"
#include "harness/profile/inject/inject.h"
#include "harness/profile/inject/flush.h"
#include "harness/profile/inject/rotation.h"

/* What range r of a batch is: the launch it counts (C line), a user range (U line), our own
 * L2 flush (F line), or our kernel that empties the flushed L2 (WB_PROFILE_FLUSH=empty; no line). */
typedef enum { SLOT_LAUNCH, SLOT_USER, SLOT_FLUSH, SLOT_EMPTY } slot_kind;
/* Ranges of one name merge in CUPTI's range tree: a user range's name gets " #k". */
static int64_t user_ranges;
typedef struct slot {
    slot_kind kind;
    int64_t seq, last;       /* the launch (or the user range's first and last launch) */
    int64_t launches;        /* launches inside a user range */
    int ambiguous;           /* in a cluster of launches whose API calls overlapped: range order unknown */
    char name[WB_NVTX_PATH];
} slot;

typedef struct counting {
    wb_counters_session s;  /* host half: names, config image, data image, passes */
    CUcontext ctx;          /* the counted context; NULL before the first selected launch */
    int failed;             /* 1: counting gave up (E line written); later launches get N lines */
    int started;            /* the profiler is between Start and Stop */
    int configured;         /* the profiler object has had a configuration (--rotate: a new one at a change) */
    CUpti_ProfilerRange range_now; /* the range mode the profiler was started in */
    int user_replay;        /* one pass: no replay, user-replay mode (kernel mode too) */
    wb_counters_session *active; /* the batch's set: &s, or a rotation group */
    wb_counters_session *groups; /* --rotate: the one-pass groups of s */
    int ngroups;
    int pos[WB_METRICS_MAX];     /* row of wb_metrics[] -> its place in the "# metrics" line (s's order); -1 */
    struct shape_seen { char *key; uint64_t seen; } *shapes; /* --rotate: groups had per kernel + shape (shape_slot) */
    int nshapes, cap_shapes;                             /* shapes seen; table slots, a power of 2 */
    int last_group, held;   /* --rotate: the last counted launch's group (-1 none), launches it has held */
    int64_t changes;        /* --rotate: changes of group from one counted launch to the next */
    int64_t new_objects;    /* --rotate: profiler objects made again at a change of group */
    double new_object_s;    /* in their Disable and Enable */
    slot *batch;            /* ranges of the current batch, in range order */
    int in_batch;
    int user_open;          /* a user range is pushed (nvtx, every) */
    int captures;           /* stream captures under way in this process */
    int in_flight;          /* counted launches between their API enter and exit, all threads */
    int concurrent;         /* this batch ended with another thread's counted launch in flight */
    int cluster_from;       /* first slot of the launches whose API calls overlap the one under way */
    pthread_t user_owner;   /* nvtx ranges: the thread whose outermost NVTX range the open user range is */
    char why[256];          /* why counting failed, for the N lines */
    double launch_s, batch_s, flush_s; /* wall time inside counted launches, in batch ends, in flushes */
    double config_s;                   /* in batch starts: the set's image and config (--rotate: one a group change) */
    double start_s;                    /* in cuptiRangeProfilerStart, after the config */
    int64_t counted;
    int released;           /* the profiler object is let go (exit, or the counted context destroyed) */
} counting;

static __thread double entered; /* when this thread's counted launch entered the API */

static counting cnt;
/* Launching threads enter one at a time: the batch and the profiler object are one per process. */
static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;

/* Kernel mode: one launch API call at a time, all threads, from its enter callback to its exit
 * (wb_counting_serial_begin/_end). Auto ranges follow the order in which kernels reach the GPU and
 * the batch's slots the order of the enter callbacks; with the calls serialized the two agree, so
 * every launch keeps its counts (unserialized, two threads launching in a loop overlap without end:
 * 0 of 120 counted on the H200, 2026-12-05). It costs the program no order it could rely on (calls of
 * two threads have none) and little time: an auto range already serializes the kernels on the GPU.
 * A call that waits wb_inj.serial_wait_s (10 s) for another to return (that call may wait on this
 * thread: a stream waiting on a host value) stops the serialization for good; overlapping calls
 * are then said not attributable (count_launch's cluster rule). */
static pthread_mutex_t serial_lock = PTHREAD_MUTEX_INITIALIZER;
static __thread int holds_serial;
static int serial_off;

void wb_counting_serial_begin(void) {
    if (__atomic_load_n(&serial_off, __ATOMIC_RELAXED)) return;
    const struct timespec until = wb_deadline_after(wb_inj.serial_wait_s);
    int r = pthread_mutex_timedlock(&serial_lock, &until);
    if (r == 0) {
        holds_serial = 1;
    } else if (!__atomic_exchange_n(&serial_off, 1, __ATOMIC_RELAXED)) {
        wb_raw_error("counter pass: a launch waited %.3g s for another thread's launch call to return (%s): launch "
                     "calls are no longer serialized; those that overlap are said not attributable",
                     wb_inj.serial_wait_s, r == ETIMEDOUT ? "timed out" : strerror(r));
    }
}

void wb_counting_serial_end(void) {
    if (!holds_serial) return;
    holds_serial = 0;
    pthread_mutex_unlock(&serial_lock);
}

static int fail(const char *call, CUptiResult r) {
    snprintf(cnt.why, sizeof cnt.why, "%s: %s", call, wb_inject_cupti_str(r));
    wb_raw_error("counter pass: %s; launches from here on are not counted", cnt.why);
    cnt.failed = 1;
    return -1;
}
#define TRY(call, ...)                                          \
    do {                                                        \
        CUptiResult r_ = call(__VA_ARGS__);                     \
        if (r_ != CUPTI_SUCCESS) return fail(#call, r_);        \
    } while (0)

/* One pass and not forced to replay: user replay (nothing saved or restored). */
static int no_replay(const wb_counters_session *s) { return s->passes == 1 && !wb_inj.force_kernel_replay; }

static int arm(CUpti_ProfilerRange range) {
    wb_counters_session *s = cnt.active;
    if (cnt.ngroups) {
        /* The image takes its layout from the profiler object's last GetCounterDataSize call, not
         * from the config: with --rotate's sets, each image laid out for the last group made
         * (setup) collected that group's metrics alone, 7-10 of 35 columns (H200, 2026-12-04). */
        CUpti_RangeProfiler_GetCounterDataSize_Params ds = {
            .structSize = CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE, .pRangeProfilerObject = cnt.s.rp,
            .pMetricNames = s->names, .numMetrics = (size_t)s->n, .maxNumOfRanges = (size_t)wb_inj.batch,
            .maxNumRangeTreeNodes = (uint32_t)wb_inj.batch};
        TRY(cuptiRangeProfilerGetCounterDataSize, &ds);
        if (ds.counterDataSize != s->data_size) return fail("cuptiRangeProfilerGetCounterDataSize (size changed)", CUPTI_ERROR_UNKNOWN);
    }
    memset(s->data, 0, s->data_size);
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params ci = {
        .structSize = CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE,
        .pRangeProfilerObject = s->rp, .counterDataSize = s->data_size, .pCounterData = s->data};
    TRY(cuptiRangeProfilerCounterDataImageInitialize, &ci);
    CUpti_RangeProfiler_SetConfig_Params sc = {
        .structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE, .pRangeProfilerObject = s->rp,
        .configSize = s->config_size, .pConfig = s->config, .counterDataImageSize = s->data_size,
        .pCounterDataImage = s->data, .range = range,
        .replayMode = range == CUPTI_UserRange || no_replay(s) ? CUPTI_UserReplay : CUPTI_KernelReplay,
        .maxRangesPerPass = (size_t)wb_inj.batch, .numNestingLevels = 1, .minNestingLevel = 1, .passIndex = 0,
        .targetNestingLevel = 1};
    TRY(cuptiRangeProfilerSetConfig, &sc);
    return 0;
}

/* --rotate (unless WB_PROFILE_ROTATE_NEW_OBJECT=0): a profiler object that has had one group's
 * configuration is let go and a new one made for the next group. Without it the later groups'
 * columns that need counters of their own (occupancy, IPC, hit rates, stall reasons) came back NaN
 * in every launch; with it all came back (GH100, 2026-12-05, docs/profiling-measured.md). */
static int new_object_for(wb_counters_session *set) {
    /* cnt.active: the set the object was last configured with, a group or the whole set (a launch
     * the shape table had no room for: its replay configuration would leave the next one-pass
     * batches "passes left", so it too is let go) */
    if (!wb_inj.rotate_new_object || !cnt.ngroups || !cnt.configured || cnt.active == set) return 0;
    double t0 = wb_clock_s();
    CUpti_RangeProfiler_Disable_Params dp = {.structSize = CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE,
                                             .pRangeProfilerObject = cnt.s.rp};
    cnt.s.rp = NULL; /* gone, whatever Disable says */
    for (int g = 0; g < cnt.ngroups; g++) cnt.groups[g].rp = NULL;
    TRY(cuptiRangeProfilerDisable, &dp);
    CUpti_RangeProfiler_Enable_Params en = {.structSize = CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE, .ctx = cnt.ctx};
    TRY(cuptiRangeProfilerEnable, &en);
    cnt.s.rp = en.pRangeProfilerObject;
    for (int g = 0; g < cnt.ngroups; g++) cnt.groups[g].rp = cnt.s.rp;
    cnt.configured = 0;
    cnt.new_objects++;
    cnt.new_object_s += wb_clock_s() - t0;
    return 0;
}

static int start(CUpti_ProfilerRange range, wb_counters_session *set) {
    if (new_object_for(set) != 0) return -1;
    cnt.active = set;
    double t0 = wb_clock_s();
    int armed = arm(range);
    cnt.config_s += wb_clock_s() - t0;
    cnt.configured = 1;
    if (armed != 0) return -1;
    CUpti_RangeProfiler_Start_Params st = {.structSize = CUpti_RangeProfiler_Start_Params_STRUCT_SIZE,
                                           .pRangeProfilerObject = cnt.s.rp};
    t0 = wb_clock_s();
    CUptiResult r = cuptiRangeProfilerStart(&st);
    cnt.start_s += wb_clock_s() - t0;
    if (r != CUPTI_SUCCESS) return fail("cuptiRangeProfilerStart", r);
    cnt.started = 1;
    cnt.concurrent = 0;
    cnt.cluster_from = 0; /* a launch still in flight from the last batch: its cluster reaches back to here */
    cnt.range_now = range;
    return 0;
}

/* One range's values as a C line (a launch), a U line (user range) or an F line
 * (our flush before launch seq: what it wrote back is the previous kernel's dirty lines). */
static void write_slot(const slot *sl, const double *got) {
    wb_counters_session *s = &cnt.s;
    double v[WB_METRICS_MAX]; /* the active set's values in the whole set's order, NaN where it has none */
    for (int k = 0; k < s->n; k++) v[k] = NAN;
    for (int k = 0; k < cnt.active->n; k++)
        if (cnt.pos[cnt.active->column[k]] >= 0) v[cnt.pos[cnt.active->column[k]]] = got[k];
    char line[WB_METRICS_MAX * 26 + WB_NVTX_PATH + 96];
    int len = sl->kind == SLOT_USER
                  ? snprintf(line, sizeof line, "U\t%lld\t%lld\t%lld\t%s", (long long)sl->seq, (long long)sl->last,
                             (long long)sl->launches, sl->name)
                  : snprintf(line, sizeof line, "%c\t%lld", sl->kind == SLOT_FLUSH ? 'F' : 'C', (long long)sl->seq);
    for (int k = 0; k < s->n && len < (int)sizeof line; k++)
        len += snprintf(line + len, sizeof line - (size_t)len, "\t%.17g", v[k]);
    wb_raw_line("%s", line);
}

static void not_attributable(const slot *sl, const char *why) {
    if (sl->kind == SLOT_USER)
        wb_raw_error("user range '%s' (launches %lld-%lld): %s", sl->name, (long long)sl->seq, (long long)sl->last, why);
    else if (sl->kind != SLOT_FLUSH && sl->kind != SLOT_EMPTY)
        wb_raw_line("N\t%lld\t%s", (long long)sl->seq, why);
}

/* The lines of a decoded batch. CUPTI may or may not make a range of our flush
 * kernel (it is launched from inside the launch callback): both counts are taken. */
static CUptiResult eval_range(size_t at, double *v) {
    wb_counters_session *s = cnt.active;
    CUpti_Profiler_Host_EvaluateToGpuValues_Params ev = {
        .structSize = CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE, .pHostObject = s->host,
        .pCounterDataImage = s->data, .counterDataImageSize = s->data_size, .rangeIndex = at,
        .ppMetricNames = s->names, .numMetrics = (size_t)s->n, .pMetricValues = v};
    return cuptiProfilerHostEvaluateToGpuValues(&ev);
}

static int evaluate(int ranges) {
    wb_counters_session *s = cnt.active;
    CUpti_RangeProfiler_GetCounterDataInfo_Params gi = {
        .structSize = CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE, .pCounterDataImage = s->data,
        .counterDataImageSize = s->data_size};
    TRY(cuptiRangeProfilerGetCounterDataInfo, &gi);
    /* --rotate: which group the batch's C lines held, so that the reader can tell a column the group
     * had and CUPTI gave no value (NaN too) from one it did not have */
    if (cnt.ngroups) wb_raw_line("# batch\tgroup %d", s == &cnt.s ? -1 : (int)(s - cnt.groups));
    int flushes = 0;
    for (int r = 0; r < ranges; r++) flushes += cnt.batch[r].kind == SLOT_FLUSH || cnt.batch[r].kind == SLOT_EMPTY;
    int skip_flush = gi.numTotalRanges == (size_t)(ranges - flushes) && flushes > 0;
    if (gi.numTotalRanges != (size_t)ranges && !skip_flush) {
        char why[160];
        snprintf(why, sizeof why, "CUPTI decoded %zu range(s) for the %d of this batch: not attributable",
                 gi.numTotalRanges, ranges);
        for (int r = 0; r < ranges; r++) not_attributable(&cnt.batch[r], why);
        return 0;
    }
    static const char threads[] = "not attributable: another thread launched at once (range order unknown)";
    if (cnt.concurrent) { /* checked first: a launch of this batch may have reached the GPU after its end */
        for (int r = 0; r < ranges; r++) not_attributable(&cnt.batch[r], threads);
        return 0;
    }
    for (int r = 0, idx = 0; r < ranges; r++) {
        const slot *sl = &cnt.batch[r];
        if ((sl->kind == SLOT_FLUSH || sl->kind == SLOT_EMPTY) && skip_flush) continue;
        size_t at = (size_t)idx++;
        if (sl->kind == SLOT_EMPTY) continue; /* it writes nothing back: no line */
        if (sl->ambiguous) { /* its range is one of its cluster's, which one unknown */
            not_attributable(sl, threads);
            continue;
        }
        double v[WB_METRICS_MAX];
        CUptiResult r = eval_range(at, v);
        if (r != CUPTI_SUCCESS) {
            char why[160];
            snprintf(why, sizeof why, "cuptiProfilerHostEvaluateToGpuValues: %s", wb_inject_cupti_str(r));
            not_attributable(sl, why);
        } else {
            write_slot(sl, v);
        }
    }
    return 0;
}

static int pop_user(void) {
    if (!cnt.user_open) return 0;
    cnt.user_open = 0;
    CUpti_RangeProfiler_PopRange_Params pp = {.structSize = CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE,
                                              .pRangeProfilerObject = cnt.s.rp};
    TRY(cuptiRangeProfilerPopRange, &pp);
    return 0;
}

/* Stop, decode and write the batch; the profiler stays stopped. */
static int end_batch_timed(void) {
    if (!cnt.started) return 0;
    if (pop_user() != 0) return -1;
    cnt.started = 0;
    CUpti_RangeProfiler_Stop_Params sp = {.structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE,
                                          .pRangeProfilerObject = cnt.s.rp};
    TRY(cuptiRangeProfilerStop, &sp);
    int ranges = cnt.in_batch;
    cnt.in_batch = 0;
    /* One pass without replay: CUPTI should have every pass now. If it wants more, the batch's
     * counts are partial (NaN where a pass is missing): say so (--rotate's groups after a
     * replayed batch did, before rotation stopped replaying: the header). */
    if (!sp.isAllPassSubmitted && no_replay(cnt.active) && ranges > 0)
        wb_raw_error("counter pass: CUPTI reported passes left after a one-pass batch (a set of %d metrics): those "
                     "batches' counts may be incomplete", cnt.active->n); /* one message a set: printed once */
    if (ranges == 0) return 0;
    CUpti_RangeProfiler_DecodeData_Params dd = {.structSize = CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE,
                                                .pRangeProfilerObject = cnt.s.rp};
    TRY(cuptiRangeProfilerDecodeData, &dd);
    if (dd.numOfRangeDropped) wb_raw_error("cuptiRangeProfilerDecodeData: %zu range(s) dropped", dd.numOfRangeDropped);
    int rc = evaluate(ranges);
    wb_raw_lock();
    if (wb_inj.raw) fflush(wb_inj.raw);
    wb_raw_unlock();
    return rc;
}

/* With another thread's counted launch between its callback and its exit, that launch's kernel
 * may not have reached the GPU when the batch ends, and the decode could pair the ranges it has
 * with the wrong slots (a flush's for the launch's): the batch is said not attributable. */
static int end_batch(void) {
    if (cnt.in_flight > 0) cnt.concurrent = 1;
    double t0 = wb_clock_s();
    int rc = end_batch_timed();
    cnt.batch_s += wb_clock_s() - t0;
    return rc;
}

/* On the launch's stream (one pass; --rotate's one-pass groups in either replay mode) and in a
 * context of our own (kernel replay of a set of several passes): flush.h. */
static wb_flusher fl_stream, fl_own;

static const char *range_mode_name(void) {
    static const char *names[] = {"kernel", "nvtx", "every"};
    return names[wb_inj.ranges];
}

/* --rotate: the whole set's one-pass groups, each a host object and config image of its own
 * (counters_host.c). On failure an E line, and every launch is counted with the whole set. */
static void setup_groups(void) {
    wb_counters_session *s = &cnt.s;
    int group[WB_METRICS_MAX];
    wb_err e = {""};
    int n = wb_cupti_one_pass_groups(s, s->avail, group, WB_ERR, &e);
    if (n > 64) /* rotation.h keeps a shape's groups in 64 bits; GH100 makes 18 */
        snprintf(e.msg, sizeof e.msg, "%d groups, more than the 64 a shape's rotation tracks", n), n = -1;
    if (n > 0 && !(cnt.groups = calloc((size_t)n, sizeof *cnt.groups))) n = -1, snprintf(e.msg, sizeof e.msg, "out of host memory");
    for (int g = 0; g < n; g++) {
        if (wb_cupti_host_build_group(&cnt.groups[g], s, s->avail, group, g, WB_ERR, &e) != WB_OK || cnt.groups[g].passes != 1) {
            if (!e.msg[0]) snprintf(e.msg, sizeof e.msg, "group %d needs %d passes", g, cnt.groups[g].passes);
            n = -1;
            break;
        }
        snprintf(cnt.groups[g].chip, sizeof cnt.groups[g].chip, "%s", s->chip);
    }
    if (n <= 0) {
        wb_raw_error("counter pass: --rotate: %s; every launch is counted with the whole set (replayed)", e.msg[0] ? e.msg : "no group");
        free(cnt.groups), cnt.groups = NULL;
        return;
    }
    cnt.ngroups = n;
    cnt.last_group = -1;
    char line[WB_METRICS_MAX * 8 + 32];
    int len = snprintf(line, sizeof line, "# groups");
    for (int k = 0; k < s->n && len < (int)sizeof line; k++) len += snprintf(line + len, sizeof line - (size_t)len, "\t%d", group[s->column[k]]);
    wb_raw_line("%s", line); /* per column of "# metrics": its group (-2 every group, -1 first launches only) */
}

/* --rotate: the slot of key in the open-addressed table of kernel shapes (FNV-1a, linear probing,
 * grown at half full): each counted launch looks itself up inside the program's launch call, so
 * no walk over every shape seen. NULL when out of memory. */
static struct shape_seen *shape_slot(const char *key) {
    if (2 * (cnt.nshapes + 1) > cnt.cap_shapes) {
        int cap = cnt.cap_shapes ? 2 * cnt.cap_shapes : 256;
        struct shape_seen *t = calloc((size_t)cap, sizeof *t), *old = cnt.shapes;
        if (!t) return NULL;
        int oldcap = cnt.cap_shapes;
        cnt.shapes = t, cnt.cap_shapes = cap;
        for (int i = 0; i < oldcap; i++)
            if (old[i].key) *shape_slot(old[i].key) = old[i];
        free(old);
    }
    uint64_t h = 1469598103934665603ull;
    for (const char *c = key; *c; c++) h = (h ^ (unsigned char)*c) * 1099511628211ull;
    for (int i = (int)(h & (uint64_t)(cnt.cap_shapes - 1));; i = (i + 1) & (cnt.cap_shapes - 1))
        if (!cnt.shapes[i].key || !strcmp(cnt.shapes[i].key, key)) return &cnt.shapes[i];
}

/* --rotate: the group this launch is counted with (rotation.h: the last counted launch's group
 * while the shape lacks it, or while that group has held fewer than WB_PROFILE_ROTATE_HOLD
 * launches; else the next after it that the shape has not had). */
static wb_counters_session *rotation_set(const wb_launch_info *l) {
    if (!cnt.ngroups) return &cnt.s;
    char key[WB_NVTX_PATH + 600];
    snprintf(key, sizeof key, "%u,%u,%u/%u,%u,%u/%s", l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1],
             l->block[2], l->name ? l->name : "");
    struct shape_seen *e = shape_slot(key);
    if (!e) return &cnt.s;
    if (!e->key) {
        if (!(e->key = strdup(key))) return &cnt.s;
        e->seen = 0, cnt.nshapes++;
    }
    const int g = wb_rotation_pick(&e->seen, cnt.last_group, cnt.held < wb_inj.rotate_hold, cnt.ngroups);
    if (g != cnt.last_group) cnt.changes += cnt.last_group >= 0, cnt.held = 0;
    cnt.last_group = g, cnt.held++;
    return &cnt.groups[g];
}

/* Everything the first counted launch needs: the chip's metric set, the
 * profiler object on its context, the batch's data image. */
static int setup(CUcontext ctx) {
    wb_counters_session *s = &cnt.s;
    __atomic_store_n(&cnt.ctx, ctx, __ATOMIC_RELEASE); /* read without the lock: wb_counting_context_ends */
    wb_err e;
    if (wb_cupti_load_nvperf(s, WB_ERR, &e) != WB_OK) {
        snprintf(cnt.why, sizeof cnt.why, "%.250s", e.msg);
        wb_raw_error("counter pass: %s", e.msg);
        return cnt.failed = 1, -1;
    }
    CUpti_Profiler_Initialize_Params ip = {.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    TRY(cuptiProfilerInitialize, &ip);
    s->profiler_initialized = 1;
    uint32_t dev = 0;
    TRY(cuptiGetDeviceId, ctx, &dev);
    CUpti_Device_GetChipName_Params cn = {.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE,
                                          .deviceIndex = dev};
    TRY(cuptiDeviceGetChipName, &cn);
    snprintf(s->chip, sizeof s->chip, "%s", cn.pChipName ? cn.pChipName : "");
    CUpti_Profiler_GetCounterAvailability_Params ca = {
        .structSize = CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE, .ctx = ctx};
    TRY(cuptiProfilerGetCounterAvailability, &ca);
    if (!(s->avail = calloc(ca.counterAvailabilityImageSize ? ca.counterAvailabilityImageSize : 1, 1)))
        return fail("calloc", CUPTI_ERROR_OUT_OF_MEMORY);
    ca.pCounterAvailabilityImage = s->avail;
    TRY(cuptiProfilerGetCounterAvailability, &ca);
    if (wb_cupti_host_build(s, s->chip, s->avail, (wb_counter_set)wb_inj.set, WB_ERR, &e) != WB_OK) {
        snprintf(cnt.why, sizeof cnt.why, "%.250s", e.msg);
        wb_raw_error("counter pass: metric set for %s: %s", s->chip, e.msg);
        return cnt.failed = 1, -1;
    }
    if (s->passes > 1 && wb_inj.ranges != WB_RANGES_KERNEL) {
        snprintf(cnt.why, sizeof cnt.why, "--ranges %s needs a one-pass counter set; the %s set needs %d passes on %s",
                 range_mode_name(), wb_counter_set_name((wb_counter_set)wb_inj.set), s->passes, s->chip);
        wb_raw_error("counter pass: %s", cnt.why);
        return cnt.failed = 1, -1;
    }
    cnt.user_replay = no_replay(s);
    for (int i = 0; i < WB_METRICS_MAX; i++) cnt.pos[i] = -1;
    for (int k = 0; k < s->n; k++) cnt.pos[s->column[k]] = k;
    if (wb_inj.rotate && !cnt.user_replay && wb_inj.ranges == WB_RANGES_KERNEL) setup_groups();
    char line[WB_METRICS_MAX * 40 + 16];
    int len = snprintf(line, sizeof line, "# metrics");
    for (int k = 0; k < s->n && len < (int)sizeof line; k++)
        len += snprintf(line + len, sizeof line - (size_t)len, "\t%s", wb_metrics[s->column[k]].column);
    wb_raw_line("%s", line);
    wb_raw_line("# passes %d\tbatch %d\tcache %s", s->passes, wb_inj.batch, wb_inj.flush_l2 ? "all" : "none");
    wb_raw_line("# mode\tset %s\tranges %s\tevery %d\treplay %s\tflush %s\trotate %d", wb_counter_set_name((wb_counter_set)wb_inj.set),
                range_mode_name(), wb_inj.every,
                (cnt.ngroups && !wb_inj.force_kernel_replay) || cnt.user_replay ? "none" : "kernel",
                !wb_inj.flush_l2 ? "none"
                : cnt.ngroups || cnt.user_replay ? (wb_inj.flush_empty ? "stream+empty" : "stream")
                                                 : (wb_inj.flush_empty ? "context+empty" : "context"),
                cnt.ngroups);
    wb_inject_write_device((CUdevice)dev, s->chip);
    if (wb_inj.flush_l2 && wb_inj.ranges == WB_RANGES_KERNEL) {
        if (cnt.user_replay || cnt.ngroups) wb_flush_setup(&fl_stream, (CUdevice)dev, 0);
        if (!cnt.user_replay && !cnt.ngroups) wb_flush_setup(&fl_own, (CUdevice)dev, 1);
    }
    CUpti_RangeProfiler_Enable_Params en = {.structSize = CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE, .ctx = ctx};
    TRY(cuptiRangeProfilerEnable, &en);
    s->rp = en.pRangeProfilerObject;
    CUpti_RangeProfiler_GetCounterDataSize_Params ds = {
        .structSize = CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE, .pRangeProfilerObject = s->rp,
        .pMetricNames = s->names, .numMetrics = (size_t)s->n, .maxNumOfRanges = (size_t)wb_inj.batch,
        .maxNumRangeTreeNodes = (uint32_t)wb_inj.batch};
    TRY(cuptiRangeProfilerGetCounterDataSize, &ds);
    s->data_size = ds.counterDataSize;
    for (int g = 0; g < cnt.ngroups; g++) { /* each group's own counter data image */
        wb_counters_session *x = &cnt.groups[g];
        x->rp = s->rp;
        ds.pMetricNames = x->names, ds.numMetrics = (size_t)x->n;
        TRY(cuptiRangeProfilerGetCounterDataSize, &ds);
        x->data_size = ds.counterDataSize;
        if (!(x->data = calloc(x->data_size ? x->data_size : 1, 1))) return fail("calloc", CUPTI_ERROR_OUT_OF_MEMORY);
    }
    cnt.active = s;
    cnt.batch = calloc((size_t)wb_inj.batch, sizeof *cnt.batch);
    if (!(s->data = calloc(s->data_size ? s->data_size : 1, 1)) || !cnt.batch)
        return fail("calloc", CUPTI_ERROR_OUT_OF_MEMORY);
    return 0;
}

static slot *add_slot(slot_kind kind, int64_t seq, const char *name) {
    if (cnt.in_batch >= wb_inj.batch) { /* room() prevents it; never past the array */
        wb_raw_error("counter pass: batch of %d ranges full at launch %lld: its counts are not attributable",
                     wb_inj.batch, (long long)seq);
        return NULL;
    }
    slot *sl = &cnt.batch[cnt.in_batch++];
    sl->kind = kind, sl->seq = sl->last = seq, sl->launches = kind == SLOT_USER ? 0 : 1, sl->ambiguous = 0;
    snprintf(sl->name, sizeof sl->name, "%s", name ? name : "");
    return sl;
}

/* Room for `need` more ranges in the batch, in the range mode and with the set asked for: ends
 * the batch when it is full or was started in another mode or set, starts one when none is. */
static int room(int need, CUpti_ProfilerRange range, wb_counters_session *set) {
    if (cnt.started && (cnt.range_now != range || cnt.active != set || cnt.in_batch + need > wb_inj.batch) &&
        end_batch() != 0)
        return -1;
    if (!cnt.started && start(range, set) != 0) return -1;
    return 0;
}

static int push_user(int64_t seq, const char *name) {
    char unique[WB_NVTX_PATH + 24];
    snprintf(unique, sizeof unique, "%s #%lld", name, (long long)user_ranges++);
    CUpti_RangeProfiler_PushRange_Params pr = {.structSize = CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE,
                                               .pRangeProfilerObject = cnt.s.rp, .pRangeName = unique};
    TRY(cuptiRangeProfilerPushRange, &pr);
    cnt.user_open = 1;
    add_slot(SLOT_USER, seq, name);
    return 0;
}

/* The checks every counted launch passes first; 0: it may be counted. */
static int countable(const wb_launch_info *l) {
    CUstreamCaptureStatus cap = CU_STREAM_CAPTURE_STATUS_NONE;
    CUresult cr = cnt.captures > 0 ? CUDA_SUCCESS : cuStreamIsCapturing(l->stream, &cap);
    if (cr != CUDA_SUCCESS) { /* unknown: counting it might run our calls inside a capture */
        wb_raw_line("N\t%lld\tcuStreamIsCapturing on its stream: CUDA error %d", (long long)l->seq, (int)cr);
        return -1;
    }
    if (cnt.captures > 0 || cap != CU_STREAM_CAPTURE_STATUS_NONE) {
        wb_raw_line("N\t%lld\tlaunched inside a stream capture: recorded into a graph, not run now",
                    (long long)l->seq);
        return -1;
    }
    if (cnt.failed || (!cnt.ctx && setup(l->ctx) != 0)) {
        wb_raw_line("N\t%lld\t%s", (long long)l->seq, cnt.why);
        return -1;
    }
    if (l->ctx != cnt.ctx) {
        if (cnt.started) end_batch(); /* it must run unprofiled */
        wb_raw_line("N\t%lld\tanother CUDA context than the first counted one: only one context is counted",
                    (long long)l->seq);
        return -1;
    }
    return 0;
}

/* kernel mode: one auto range for this launch (after our flush, if any). */
static void count_launch(const wb_launch_info *l) {
    wb_counters_session *set = rotation_set(l);
    if (room(2 + (wb_inj.flush_l2 && wb_inj.flush_empty), CUPTI_AutoRange, set) != 0) { /* it, its flush(es) */
        wb_raw_line("N\t%lld\t%s", (long long)l->seq, cnt.why);
        return;
    }
    double t0 = wb_clock_s();
    int first = cnt.in_batch;
    int flushed = wb_inj.flush_l2 ? wb_flush_l2(no_replay(set) || cnt.ngroups ? &fl_stream : &fl_own, l->seq, l->stream) : -1;
    if (flushed >= 1) add_slot(SLOT_FLUSH, l->seq, "");
    if (flushed == 2) add_slot(SLOT_EMPTY, l->seq, "");
    cnt.flush_s += wb_clock_s() - t0;
    add_slot(SLOT_LAUNCH, l->seq, l->name);
    cnt.counted++;
    /* Auto ranges follow the order in which kernels reach the GPU, slots the order of these
     * callbacks. A launch whose API call began after every earlier one had returned reaches the GPU
     * after them: the two orders agree up to here. Launches whose calls overlap (a cluster, joined
     * through any overlap) may reach it in any order among themselves, but all of them before any
     * launch that begins after they have all returned: their slots are the cluster's ranges, which
     * one whose unknown. So a cluster's launches are said not attributable and the rest of the batch
     * is kept (a batch that ends with a launch in flight is not: end_batch). With the launch calls
     * serialized (wb_counting_serial_begin) no call is in flight here: this is the fallback after
     * a timed-out wait. */
    if (cnt.in_flight == 0) cnt.cluster_from = first;
    else
        for (int r = cnt.cluster_from; r < cnt.in_batch; r++) cnt.batch[r].ambiguous = 1;
    cnt.in_flight++;
    entered = wb_clock_s();
}

/* A graph launch in kernel mode: it runs unprofiled (why: the header). */
static void count_graph(const wb_launch_info *l) {
    if (cnt.started) end_batch();
    wb_raw_line("N\t%lld\tgraph launch: not counted per kernel (CUPTI could count none of its nodes safely here); "
                "--ranges nvtx or every:N count it inside their ranges", (long long)l->seq);
}

void wb_counting_enter(const wb_launch_info *l) {
    pthread_mutex_lock(&count_lock);
    if (wb_inj.ranges >= WB_RANGES_NVTX) {
        /* nvtx and every:N: the launch runs inside the open user range, if any; every:N opens one */
        if (wb_inj.ranges == WB_RANGES_EVERY && !cnt.user_open && countable(l) == 0 && cnt.s.passes == 1) {
            char name[64];
            snprintf(name, sizeof name, "launches from %lld", (long long)l->seq);
            if (room(1, CUPTI_UserRange, &cnt.s) != 0 || push_user(l->seq, name) != 0)
                wb_raw_line("N\t%lld\t%s", (long long)l->seq, cnt.why);
        }
        if (cnt.user_open && cnt.in_batch > 0) { /* threads enter out of seq order: the range spans min..max */
            slot *sl = &cnt.batch[cnt.in_batch - 1];
            if (l->seq < sl->seq) sl->seq = l->seq;
            if (l->seq > sl->last) sl->last = l->seq;
            sl->launches++;
        }
    } else if (countable(l) == 0) {
        if (l->api == WB_API_GRAPH) count_graph(l);
        else count_launch(l);
    }
    pthread_mutex_unlock(&count_lock);
}

void wb_counting_left(void) {
    pthread_mutex_lock(&count_lock);
    if (entered > 0) cnt.launch_s += wb_clock_s() - entered, cnt.in_flight--;
    entered = 0;
    if (cnt.user_open && wb_inj.ranges == WB_RANGES_EVERY && cnt.batch[cnt.in_batch - 1].launches >= wb_inj.every)
        pop_user();
    pthread_mutex_unlock(&count_lock);
}

void wb_counting_unselected(void) {
    pthread_mutex_lock(&count_lock);
    if (!cnt.failed && cnt.started && wb_inj.ranges == WB_RANGES_KERNEL) end_batch();
    pthread_mutex_unlock(&count_lock);
}

/* A stream capture begins (API enter) or ends (API exit): nothing of ours may run inside it. */
void wb_counting_capture(int begins) {
    pthread_mutex_lock(&count_lock);
    if (begins) {
        if (!cnt.failed && cnt.started) end_batch();
        cnt.captures++;
    } else if (cnt.captures > 0) {
        cnt.captures--;
    }
    pthread_mutex_unlock(&count_lock);
}

/* nvtx mode: the launching thread's outermost range opens (name) or closes (NULL). */
void wb_counting_nvtx(const char *outermost) {
    if (wb_inj.forked || wb_inj.pass != WB_PASS_COUNTERS || wb_inj.ranges != WB_RANGES_NVTX) return;
    pthread_mutex_lock(&count_lock);
    if (!cnt.failed && cnt.ctx && cnt.captures == 0) {
        if (outermost && !cnt.user_open) {
            CUcontext cur = NULL;
            if (cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur == cnt.ctx) {
                int64_t next;
                wb_raw_lock();
                next = wb_inj.seq;
                wb_raw_unlock();
                if (room(1, CUPTI_UserRange, &cnt.s) == 0 && push_user(next, outermost) == 0) cnt.user_owner = pthread_self();
            }
        } else if (!outermost && cnt.user_open && pthread_equal(cnt.user_owner, pthread_self())) {
            pop_user(); /* only the thread that opened it closes it: another thread's ranges are not this one's */
        }
    }
    pthread_mutex_unlock(&count_lock);
}

/* nvtx mode: the profiler needs the context before the first range opens. */
void wb_counting_first_launch(const wb_launch_info *l) {
    if (wb_inj.ranges < WB_RANGES_NVTX) return;
    pthread_mutex_lock(&count_lock);
    if (!cnt.ctx && !cnt.failed && cnt.captures == 0) setup(l->ctx);
    pthread_mutex_unlock(&count_lock);
}

/* Decodes the open batch and lets the profiler object go (at exit, or as the counted context is
 * destroyed: `when` says which, in an E line if it fails); launches after it are not counted, and
 * their N lines say why_later. count_lock held. */
static void release(const char *when, const char *why_later) {
    end_batch();
    if (cnt.s.rp) {
        CUpti_RangeProfiler_Disable_Params p = {.structSize = CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE,
                                                .pRangeProfilerObject = cnt.s.rp};
        CUptiResult r = cuptiRangeProfilerDisable(&p);
        if (r != CUPTI_SUCCESS) wb_raw_error("cuptiRangeProfilerDisable %s: %s", when, wb_inject_cupti_str(r));
        cnt.s.rp = NULL;
    }
    snprintf(cnt.why, sizeof cnt.why, "%s", why_later);
    cnt.released = cnt.failed = 1;
}

/* The counted context is being destroyed (cudaDeviceReset, cuDevicePrimaryCtxReset, cuCtxDestroy
 * before exit): its batch is decoded while it still exists, or the launches counted since the
 * last decode would be lost with it; launches after it are not counted (a context of their own).
 * Any other context (the program's others, our flush's at exit) returns at once, without the lock:
 * the driver is inside its destroy, and the lock may be held by a thread waiting in the driver. */
void wb_counting_context_ends(CUcontext ctx) {
    if (wb_inj.forked || !ctx || ctx != __atomic_load_n(&cnt.ctx, __ATOMIC_ACQUIRE)) return;
    pthread_mutex_lock(&count_lock);
    if (!cnt.failed)
        release("as the counted context was destroyed",
                "launched after the counted CUDA context was destroyed (cudaDeviceReset, cuCtxDestroy): only that "
                "context is counted");
    pthread_mutex_unlock(&count_lock);
}

void wb_counting_finish(void) {
    /* At a fatal signal the lock may be held by the interrupted thread: then the batch is lost. */
    if (pthread_mutex_trylock(&count_lock) != 0) return;
    if (!cnt.ctx || (cnt.failed && !cnt.released)) {
        pthread_mutex_unlock(&count_lock);
        return;
    }
    if (!cnt.released) release("at exit", "launched while the program exited, after the counter pass's last decode");
    wb_flush_release(&fl_own); /* its own context: its destroy callback is not the counted context's */
    wb_raw_line("# cost\tcounted %lld\tlaunch_s %.3f\tbatch_s %.3f\tflush_s %.3f\tconfig_s %.3f\tstart_s %.3f", (long long)cnt.counted,
                cnt.launch_s, cnt.batch_s, cnt.flush_s, cnt.config_s, cnt.start_s);
    if (cnt.ngroups) /* with groups, every counted launch is one group's, in one pass */
        wb_raw_line("# rotation\tgroups %d\treplayed 0\tone_pass %lld\tshapes %d\tchanges %lld\thold %d\tnew_objects %lld"
                    "\tnew_object_s %.3f",
                    cnt.ngroups, (long long)cnt.counted, cnt.nshapes, (long long)cnt.changes, wb_inj.rotate_hold,
                    (long long)cnt.new_objects, cnt.new_object_s);
    pthread_mutex_unlock(&count_lock);
}

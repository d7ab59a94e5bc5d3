/* test_inject_fake.c - the injection library (libwallbench_inject.so) run on the CPU, against a
 * fake CUDA and CUPTI (tests/fake_cuda/), each scenario in a child process that loads it, calls
 * its callbacks as the driver would and exits; the raw file it left is then read here:
 * - batches: 10 launches, 4 a batch (--batch 8: a launch and its flush take two ranges), each C
 *   line holding its own launch's instructions (not its flush's, which are F lines); the same
 *   with the flushed L2 emptied too (3 ranges a launch) and with no flush (--cache-control none);
 * - a context destroyed after 6 launches: they keep their counts (the open batch decoded then),
 *   the 2 launched in a new context say why they are not counted; another context's end changes
 *   nothing;
 * - a stream capture: the launch inside it is not counted (its N line), the ones around it are;
 * - two threads launching at once: the second waits in its enter callback until the first's call
 *   returned (one launch call at a time), and both are counted with their own instructions; when
 *   that wait times out (WB_PROFILE_SERIAL_WAIT_MS=50) it says so (an E line), and the two
 *   overlapping launches are not attributed, the rest of their batch (launched after both returned)
 *   and the next batch are; two threads launching 8 times each in a loop, nothing between their
 *   calls: all 16 counted, each C line with the instructions of the launch its L line names;
 * - every:3 ranges: a U line a 3 launches, their instructions summed; nvtx ranges (NVTX's own
 *   loader finding the library): a U line an outermost range, its launches' instructions summed;
 * - -s 2 -c 3: those three launches counted, the others run unprofiled without a line;
 * - a graph launch between two launches: not counted per kernel, said; the launches around it are;
 * - the timing pass: every launch an L line and a K record (a context's end hands over the
 *   completed records unforced, the exit forced), and a child forked without exec writes nothing;
 * - both passes of one program, read by the driver (wallbench profile --from-raw): every launch
 *   timed, counted and matched;
 * - --counters all (6 passes in the fake): kernel replay, the flush in its own context; --rotate:
 *   the set's one-pass groups, the core rows in each, every launch counted, nothing replayed; with
 *   a new profiler object at each change of group (the default; WB_PROFILE_ROTATE_NEW_OBJECT=0
 *   keeps one; the fake fails any call on an object let go), every launch still counted, an object
 *   a change; by default a group held for 32 launches: 10 launches of one shape, one group, no
 *   change; WB_PROFILE_ROTATE_NEW_OBJECT=yes refused (an E line, nothing counted, the program
 *   runs); held for 4 (WB_PROFILE_ROTATE_HOLD=4): 10 launches of one shape change group twice, each
 *   batch's "# batch" line naming the group its C lines held, and the driver reading that file
 *   says every column the three groups held came back; 130 kernel shapes whose table cannot grow
 *   at the 129th (calloc made to fail once): that launch counted with the whole set in a batch of
 *   its own, a new object before it and after it, every launch counted;
 * - SIGTERM with a batch open: the handler saves it ("# signal 15", "# end"), the process dies of
 *   SIGTERM.
 * The fakes are no model of CUPTI's behaviour (fake_cupti.c): this checks the injection's own
 * bookkeeping, in CI, without a GPU. */
#include <dlfcn.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cuda.h>
#include <cupti.h>
#include <nvtx3/nvToolsExt.h>

#include "tests/check.h"
#include "tests/fake_cuda/fake.h"

static char dir[] = "/tmp/wb_test_inject_XXXXXX";

/* calloc, as the injection library sees it (the executable's definition comes first): ROTATE_OOM
 * makes the next calloc of calloc_fail_nmemb elements fail once, the growth of --rotate's table of
 * kernel shapes from 256 to 512 slots, the one allocation of that count the child makes then. */
extern void *__libc_calloc(size_t nmemb, size_t size);
static volatile size_t calloc_fail_nmemb;
void *calloc(size_t nmemb, size_t size) {
    if (calloc_fail_nmemb && nmemb == calloc_fail_nmemb) {
        calloc_fail_nmemb = 0;
        return NULL;
    }
    return __libc_calloc(nmemb, size);
}
static int ctx_b, ctx_other; /* two more contexts' handles */
static CUcontext prog; /* the program's context: the fake driver's current one */

static unsigned grid_x = 10; /* the launches' grid: one kernel shape, unless a scenario varies it */
static void launch(CUcontext ctx, uint32_t corr, double inst, int site_mask) {
    cuLaunchKernel_params p;
    memset(&p, 0, sizeof p);
    p.gridDimX = grid_x, p.gridDimY = p.gridDimZ = 1, p.blockDimX = 128, p.blockDimY = p.blockDimZ = 1;
    CUpti_CallbackData cb;
    memset(&cb, 0, sizeof cb);
    cb.functionParams = &p, cb.correlationId = corr, cb.symbolName = "_Z6kernelPi", cb.context = ctx;
    if (site_mask & 1) {
        cb.callbackSite = CUPTI_API_ENTER;
        fake_cupti_call(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &cb);
        fake_kernel_ran(corr, inst);
    }
    if (site_mask & 2) {
        cb.callbackSite = CUPTI_API_EXIT;
        fake_cupti_call(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &cb);
    }
}
#define ENTER 1
#define EXIT 2
#define INST(i) (1000.0 + (i)) /* the instructions of a scenario's launch i (correlation id i + 1) */

/* Launches from..to-1 in ctx, one after another, each with its own instructions. */
static void launches(CUcontext ctx, uint32_t from, uint32_t to) {
    for (uint32_t i = from; i < to; i++) launch(ctx, i + 1, INST(i), ENTER | EXIT);
}

/* A cuGraphLaunch, its nodes run (uncounted per kernel in kernel mode) */
static void graph_launch(CUcontext ctx, uint32_t corr) {
    static int exec;
    cuGraphLaunch_params p = {.hGraph = (CUgraphExec)&exec, .hStream = NULL};
    CUpti_CallbackData cb;
    memset(&cb, 0, sizeof cb);
    cb.functionParams = &p, cb.correlationId = corr, cb.context = ctx;
    cb.callbackSite = CUPTI_API_ENTER;
    fake_cupti_call(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, &cb);
    fake_kernel_ran(corr, 5000);
    cb.callbackSite = CUPTI_API_EXIT;
    fake_cupti_call(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, &cb);
}

static void context_ends(void *ctx) {
    CUpti_ResourceData rd;
    memset(&rd, 0, sizeof rd);
    rd.context = (CUcontext)ctx;
    fake_cupti_call(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING, &rd);
}

static void capture(int begin) {
    CUpti_CallbackData cb;
    memset(&cb, 0, sizeof cb);
    CUresult ok = CUDA_SUCCESS;
    cb.functionReturnValue = &ok;
    cb.callbackSite = begin ? CUPTI_API_ENTER : CUPTI_API_EXIT;
    fake_cupti_call(CUPTI_CB_DOMAIN_DRIVER_API,
                    begin ? CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2 : CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture, &cb);
}

/* two threads: A enters, B enters while A is under way, A runs and leaves, B runs and leaves */
static sem_t a_entered, b_entered;
static void *thread_a(void *arg) {
    (void)arg;
    launch(prog, 1, INST(0), ENTER);
    sem_post(&a_entered);
    sem_wait(&b_entered);
    launch(prog, 1, 0, EXIT);
    return NULL;
}
static void *thread_b(void *arg) {
    (void)arg;
    sem_wait(&a_entered);
    launch(prog, 2, INST(1), ENTER);
    sem_post(&b_entered);
    usleep(20000); /* A leaves first */
    launch(prog, 2, 0, EXIT);
    return NULL;
}

/* two threads launching in a loop, nothing between their calls (correlation ids 1-8 and 9-16, each
 * with INST(id - 1)): on the H200 such threads overlapped without end before the calls were
 * serialized (0 of 120 counted) */
static void *loop_thread(void *arg) {
    const uint32_t first = *(const uint32_t *)arg;
    for (uint32_t c = first; c < first + 8; c++) {
        launch(prog, c, INST(c - 1), ENTER);
        usleep(300); /* the call takes a while, as a real launch does: the other thread's call comes in it */
        launch(prog, c, 0, EXIT);
    }
    return NULL;
}

/* two threads, serialized: B calls while A's call is under way and waits for its exit */
static double b_waited_s;
static void *serial_a(void *arg) {
    (void)arg;
    launch(prog, 1, INST(0), ENTER);
    sem_post(&a_entered);
    usleep(50000); /* B's call waits for this one */
    launch(prog, 1, 0, EXIT);
    return NULL;
}
static void *serial_b(void *arg) {
    (void)arg;
    sem_wait(&a_entered);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    launch(prog, 2, INST(1), ENTER);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    b_waited_s = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    launch(prog, 2, 0, EXIT);
    return NULL;
}

typedef enum { BATCHES, RESET, CAPTURE, THREADS, SERIAL, LOOP, EVERY, TIMING, KILLED, SELECTED, GRAPH, PAIR_TIMING, PAIR_COUNTERS, ALL, ROTATE, ROTATE_NEW, ROTATE_HOLD, ROTATE_DEFAULT, ROTATE_BAD, ROTATE_OOM, NVTX, EMPTIED, UNFLUSHED } scenario;

/* The child: the library loaded as CUDA would (InitializeInjection), the scenario, exit (atexit
 * flushes and closes the raw file). */
static void child(scenario s) {
    char raw[256], lib[1024];
    const int timing = s == TIMING || s == PAIR_TIMING;
    if (s == PAIR_TIMING || s == PAIR_COUNTERS) /* the two passes of one program, as wallbench profile names them */
        snprintf(raw, sizeof raw, "%s/pair/%s", dir, timing ? "timing" : "counters");
    else
        snprintf(raw, sizeof raw, "%s/s%d", dir, (int)s);
    setenv("WB_PROFILE_RAW", raw, 1);
    setenv("WB_PROFILE_PASS", timing ? "timing" : "counters", 1);
    setenv("WB_PROFILE_BATCH", "8", 1);
    setenv("WB_PROFILE_CACHE", s == UNFLUSHED ? "none" : "all", 1);
    if (s == EMPTIED) setenv("WB_PROFILE_FLUSH", "empty", 1); /* the flush, then the emptying kernel: 3 ranges a launch */
    if (s == EVERY) setenv("WB_PROFILE_RANGES", "every:3", 1);
    if (s == NVTX) setenv("WB_PROFILE_RANGES", "nvtx", 1);
    if (s == SELECTED) setenv("WB_PROFILE_SKIP", "2", 1), setenv("WB_PROFILE_COUNT", "3", 1);
    const int rotate = s == ROTATE || s == ROTATE_NEW || s == ROTATE_HOLD || s == ROTATE_DEFAULT || s == ROTATE_BAD || s == ROTATE_OOM;
    if (s == ALL || rotate) setenv("WB_PROFILE_SET", "all", 1);
    if (rotate) setenv("WB_PROFILE_ROTATE", "1", 1);
    /* --rotate's defaults: a new object at each change, a group held 32 launches (ROTATE_DEFAULT);
     * ROTATE the path before them, ROTATE_NEW the new objects alone, ROTATE_HOLD a hold of 4 */
    if (s == ROTATE) setenv("WB_PROFILE_ROTATE_NEW_OBJECT", "0", 1);
    if (s == ROTATE_NEW) setenv("WB_PROFILE_ROTATE_NEW_OBJECT", "1", 1);
    if (s == ROTATE || s == ROTATE_NEW) setenv("WB_PROFILE_ROTATE_HOLD", "0", 1);
    if (s == ROTATE_HOLD) setenv("WB_PROFILE_ROTATE_HOLD", "4", 1);
    if (s == ROTATE_BAD) setenv("WB_PROFILE_ROTATE_NEW_OBJECT", "yes", 1); /* refused: 0 or 1 */
    if (s == THREADS) setenv("WB_PROFILE_SERIAL_WAIT_MS", "50", 1); /* B's call stops waiting for A's */
    const char *build = getenv("WB_BUILD_DIR");
    snprintf(lib, sizeof lib, "%s/libwallbench_inject.so", build ? build : ".");
    setenv("NVTX_INJECTION64_PATH", lib, 1); /* NVTX's own loader (nvtx3, header-only) loads the same copy */
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!h) fprintf(stderr, "dlopen %s: %s\n", lib, dlerror()), _exit(90);
    int (*init)(void) = (int (*)(void))dlsym(h, "InitializeInjection");
    if (!init || init() != 1) _exit(91);
    cuCtxGetCurrent(&prog);
    CUcontext a = prog, b = (CUcontext)&ctx_b;
    switch (s) {
    case BATCHES:
    case EMPTIED:
    case UNFLUSHED:
        launches(a, 0, 10);
        break;
    case RESET:
        launches(a, 0, 6);
        context_ends(&ctx_other); /* not the counted one: nothing happens */
        if (fake_cupti_decodes() != 1) _exit(92); /* one batch of 4 decoded, the second open */
        context_ends(prog);
        if (fake_cupti_decodes() != 2) _exit(93); /* decoded as the context ended */
        launches(b, 6, 8);
        break;
    case CAPTURE:
        launch(a, 1, INST(0), ENTER | EXIT);
        capture(1);
        launch(a, 2, INST(1), ENTER | EXIT);
        capture(0);
        launch(a, 3, INST(2), ENTER | EXIT);
        break;
    case THREADS: {
        pthread_t ta, tb;
        sem_init(&a_entered, 0, 0), sem_init(&b_entered, 0, 0);
        pthread_create(&ta, NULL, thread_a, NULL), pthread_create(&tb, NULL, thread_b, NULL);
        pthread_join(ta, NULL), pthread_join(tb, NULL);
        launches(a, 2, 8);
        break;
    }
    case SERIAL: { /* exits 96 if B's enter callback did not wait for A's call to return */
        pthread_t ta, tb;
        sem_init(&a_entered, 0, 0);
        pthread_create(&ta, NULL, serial_a, NULL), pthread_create(&tb, NULL, serial_b, NULL);
        pthread_join(ta, NULL), pthread_join(tb, NULL);
        if (b_waited_s < 0.03) _exit(96);
        launches(a, 2, 8);
        break;
    }
    case LOOP: {
        pthread_t ta, tb;
        static const uint32_t first_a = 1, first_b = 9;
        pthread_create(&ta, NULL, loop_thread, (void *)&first_a), pthread_create(&tb, NULL, loop_thread, (void *)&first_b);
        pthread_join(ta, NULL), pthread_join(tb, NULL);
        break;
    }
    case EVERY:
        launches(a, 0, 9);
        break;
    case SELECTED: /* -s 2 -c 3: the launches before and after run unprofiled, between batches */
        launches(a, 0, 7);
        break;
    case GRAPH:
        launch(a, 1, INST(0), ENTER | EXIT);
        graph_launch(a, 2);
        launch(a, 3, INST(2), ENTER | EXIT);
        break;
    case ALL:    /* 6 passes: kernel replay, the flush in a context of its own (no range of it) */
    case ROTATE: /* the set's one-pass groups over the launches of one shape, nothing replayed */
    case ROTATE_NEW:
    case ROTATE_HOLD:
    case ROTATE_DEFAULT:
    case ROTATE_BAD:
    case PAIR_TIMING:
    case PAIR_COUNTERS:
        launches(a, 0, 10);
        break;
    case ROTATE_OOM: /* 130 kernel shapes, a launch each: the table of shapes cannot grow at the 129th */
        for (uint32_t i = 0; i < 130; i++) {
            grid_x = i + 1;
            if (i == 128) calloc_fail_nmemb = 512;
            launch(a, i + 1, INST(i), ENTER | EXIT);
        }
        grid_x = 10;
        break;
    case NVTX: /* a launch outside any range, then two NVTX ranges of 3 and 2 launches */
        launch(a, 1, INST(0), ENTER | EXIT);
        nvtxRangePushA("Q1");
        launches(a, 1, 4);
        nvtxRangePop();
        nvtxRangePushA("Q2");
        launches(a, 4, 6);
        nvtxRangePop();
        break;
    case KILLED: /* SIGTERM with a batch open: saved by the handler, then the signal's default */
        launches(a, 0, 5);
        raise(SIGTERM);
        _exit(95);
    case TIMING:
        launches(a, 0, 3);
        context_ends(prog);
        if (fake_cupti_flushes(0) != 1) _exit(94);
        launch(b, 4, INST(3), ENTER | EXIT);
        fflush(NULL);
        pid_t grandchild = fork();
        if (grandchild == 0) exit(0); /* its atexit: nothing of the injection's */
        waitpid(grandchild, NULL, 0);
        break;
    }
    exit(0);
}

/* What the raw file of one scenario holds: per seq, its L line, its C line's instructions, its
 * N line's reason; U lines' first, last and instructions; K lines; "# end" lines. */
#define SEEN 136 /* launches a scenario's file is read for (ROTATE_OOM's 130) */
typedef struct seen {
    int l[SEEN], corr[SEEN], k, ends, u, u_first[8], u_last[8], signal, groups, errors;
    long long changes, hold, new_objects; /* "# rotation" */
    int group[SEEN];                      /* the "# batch" group a C line came after; -9 none */
    char file[300];                       /* the raw file read */
    char mode[200];
    double c[SEEN], u_inst[8];
    char n[SEEN][200];
} seen;

static int read_file(scenario s, pid_t pid, seen *x) {
    char path[300], line[4096];
    if (s == PAIR_TIMING || s == PAIR_COUNTERS)
        snprintf(path, sizeof path, "%s/pair/%s.%d.tsv", dir, s == PAIR_TIMING ? "timing" : "counters", (int)pid);
    else
        snprintf(path, sizeof path, "%s/s%d.%d.tsv", dir, (int)s, (int)pid);
    memset(x, 0, sizeof *x);
    snprintf(x->file, sizeof x->file, "%s", path);
    for (int i = 0; i < SEEN; i++) x->c[i] = -1, x->group[i] = -9;
    FILE *f = fopen(path, "r");
    if (!f) return fprintf(stderr, "no raw file %s\n", path), -1;
    int inst_col = -1, batch_group = -9;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *fields[64];
        int nf = 0;
        for (char *t = strtok(line, "\t"); t && nf < 64; t = strtok(NULL, "\t")) fields[nf++] = t;
        if (!nf) continue;
        long long seq = nf > 1 ? atoll(fields[1]) : -1;
        if (!strcmp(fields[0], "# metrics"))
            for (int i = 1; i < nf; i++)
                if (!strcmp(fields[i], "inst")) inst_col = i;
        if (!strcmp(fields[0], "# end")) x->ends++;
        if (!strncmp(fields[0], "# signal ", 9)) x->signal = atoi(fields[0] + 9);
        if (!strcmp(fields[0], "# mode") && nf > 6) snprintf(x->mode, sizeof x->mode, "%s %s", fields[4], fields[5]);
        if (!strcmp(fields[0], "# rotation"))
            for (int i = 1; i < nf; i++) { /* "groups N", "changes N", ... */
                if (!strncmp(fields[i], "groups ", 7)) x->groups = atoi(fields[i] + 7);
                if (!strncmp(fields[i], "changes ", 8)) x->changes = atoll(fields[i] + 8);
                if (!strncmp(fields[i], "hold ", 5)) x->hold = atoll(fields[i] + 5);
                if (!strncmp(fields[i], "new_objects ", 12)) x->new_objects = atoll(fields[i] + 12);
            }
        if (!strcmp(fields[0], "L") && seq >= 0 && seq < SEEN && nf > 2) x->l[seq]++, x->corr[seq] = atoi(fields[2]);
        if (!strcmp(fields[0], "K")) x->k++;
        if (!strcmp(fields[0], "E")) x->errors++;
        /* "# metrics" names column k at field k; a C line's value k is at field k + 1 (after the seq) */
        if (!strcmp(fields[0], "# batch") && nf == 2 && !strncmp(fields[1], "group ", 6)) batch_group = atoi(fields[1] + 6);
        if (!strcmp(fields[0], "C") && seq >= 0 && seq < SEEN && inst_col > 0 && inst_col + 1 < nf)
            x->c[seq] = atof(fields[inst_col + 1]), x->group[seq] = batch_group;
        if (!strcmp(fields[0], "N") && seq >= 0 && seq < SEEN && nf > 2) snprintf(x->n[seq], sizeof x->n[seq], "%s", fields[2]);
        if (!strcmp(fields[0], "U") && x->u < 8 && inst_col > 0 && nf > inst_col + 4) {
            x->u_first[x->u] = atoi(fields[1]), x->u_last[x->u] = atoi(fields[2]);
            x->u_inst[x->u++] = atof(fields[inst_col + 4]); /* U: first, last, launches, name, then the values */
        }
    }
    fclose(f);
    return 0;
}

/* How many of launches from..to-1 have their own instructions (INST). */
static int own_counts(const seen *x, int from, int to) {
    int n = 0;
    for (int i = from; i < to; i++) n += x->c[i] == INST(i);
    return n;
}

/* The U lines are n ranges, range r over launches want[r][0]..want[r][1] with their instructions
 * summed; a mismatch is printed under the scenario's name. */
static int user_ranges_are(const char *what, const seen *x, int n, const int (*want)[2]) {
    int ok = x->u == n;
    for (int r = 0; ok && r < n; r++) {
        double inst = 0;
        for (int i = want[r][0]; i <= want[r][1]; i++) inst += INST(i);
        ok = x->u_first[r] == want[r][0] && x->u_last[r] == want[r][1] && x->u_inst[r] == inst;
    }
    if (!ok)
        for (int r = 0; r < x->u && r < 8; r++)
            fprintf(stderr, "%s: U %d: %d-%d, %g inst\n", what, r, x->u_first[r], x->u_last[r], x->u_inst[r]);
    return ok;
}

/* A failed scenario's launches 0..n-1, for the log. */
static void dump(const char *what, const seen *x, int n) {
    for (int i = 0; i < n; i++) fprintf(stderr, "%s: seq %d: L %d, C %g, N '%s'\n", what, i, x->l[i], x->c[i], x->n[i]);
}

/* `wallbench VERB`: its exit status, its console in out. */
static int wallbench(const char *cmd, char *out, size_t len) {
    FILE *p = popen(cmd, "r");
    size_t n = p ? fread(out, 1, len - 1, p) : 0;
    out[n] = '\0';
    char rest[4096]; /* the rest is read too: a command whose output is cut would die of SIGPIPE */
    while (p && fread(rest, 1, sizeof rest, p) > 0) {
    }
    return p ? pclose(p) : -1;
}

/* wallbench profile --from-raw FOLDER -o FOLDER.h5 */
static int from_raw(const char *wb, const char *folder, char *out, size_t len) {
    char cmd[1400];
    snprintf(cmd, sizeof cmd, "'%s' profile --from-raw '%s' -o '%s.h5' 2>&1", wb, folder, folder);
    return wallbench(cmd, out, len);
}

static int run(scenario s, seen *x) {
    if (s == PAIR_TIMING) {
        char pair[300];
        snprintf(pair, sizeof pair, "%s/pair", dir);
        if (mkdir(pair, 0700) != 0) return -1;
    }
    pid_t pid = fork();
    if (pid == 0) child(s);
    int status = 0;
    waitpid(pid, &status, 0);
    const int killed = s == KILLED && WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM; /* as it should */
    if (!killed && (!WIFEXITED(status) || WEXITSTATUS(status) != 0)) {
        fprintf(stderr, "scenario %d: the child %s %d\n", (int)s, WIFEXITED(status) ? "exited" : "died of signal",
                WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
        return -1;
    }
    return read_file(s, pid, x);
}

int main(void) {
    int version = 0; /* the fake driver answers (and is this process's libcuda.so.1, not a real one) */
    if (cuDriverGetVersion(&version) != CUDA_SUCCESS || version != 13000) return fprintf(stderr, "not the fake driver\n"), 1;
    if (!mkdtemp(dir)) return fprintf(stderr, "mkdtemp\n"), 1;
    seen x;
    if (run(BATCHES, &x) == 0) {
        int lines = 0;
        for (int i = 0; i < 10; i++) lines += x.l[i] == 1;
        CHECK(lines == 10 && own_counts(&x, 0, 10) == 10 && x.ends == 1);
        if (own_counts(&x, 0, 10) != 10) dump("batches", &x, 10);
    } else CHECK(0);
    for (scenario v = EMPTIED; v <= UNFLUSHED; v++) { /* 2 and 8 launches a batch: each its own count still */
        if (run(v, &x) == 0) {
            CHECK(own_counts(&x, 0, 10) == 10);
            if (own_counts(&x, 0, 10) != 10) dump(v == EMPTIED ? "emptied" : "unflushed", &x, 10);
        } else CHECK(0);
    }
    if (run(RESET, &x) == 0) {
        int kept = own_counts(&x, 0, 6), said = 0;
        for (int i = 6; i < 8; i++) said += x.c[i] < 0 && strstr(x.n[i], "context was destroyed") != NULL;
        CHECK(kept == 6 && said == 2);
        if (kept != 6 || said != 2) dump("reset", &x, 8);
    } else CHECK(0);
    if (run(CAPTURE, &x) == 0) {
        CHECK(x.c[0] == INST(0) && x.c[2] == INST(2) && x.c[1] < 0 && strstr(x.n[1], "inside a stream capture"));
    } else CHECK(0);
    if (run(THREADS, &x) == 0) {
        int tainted = 0, later = own_counts(&x, 2, 8);
        for (int i = 0; i < 2; i++) tainted += x.c[i] < 0 && strstr(x.n[i], "another thread launched at once") != NULL;
        CHECK(tainted == 2 && later == 6 && x.errors == 1);
        if (tainted != 2 || later != 6 || x.errors != 1) dump("threads", &x, 8);
    } else CHECK(0);
    if (run(SERIAL, &x) == 0) {
        int own = own_counts(&x, 0, 8);
        CHECK(own == 8 && x.errors == 0);
        if (own != 8 || x.errors) dump("serialized threads", &x, 8);
    } else CHECK(0);
    if (run(LOOP, &x) == 0) {
        int own = 0, ids = 0;
        for (int i = 0; i < 16; i++) own += x.l[i] == 1 && x.corr[i] >= 1 && x.c[i] == INST(x.corr[i] - 1);
        for (int i = 0; i < 16; i++) ids |= x.l[i] == 1 && x.corr[i] >= 1 && x.corr[i] <= 16 ? 1 << (x.corr[i] - 1) : 0;
        CHECK(own == 16 && ids == 0xffff && x.errors == 0);
        if (own != 16 || x.errors) dump("threads in a loop", &x, 16);
    } else CHECK(0);
    if (run(EVERY, &x) == 0) {
        static const int every3[][2] = {{0, 2}, {3, 5}, {6, 8}};
        CHECK(user_ranges_are("every", &x, 3, every3));
    } else CHECK(0);
    if (run(TIMING, &x) == 0) {
        CHECK(x.l[0] == 1 && x.l[3] == 1 && x.k == 4 && x.ends == 1); /* the forked child added no line */
    } else CHECK(0);
    if (run(SELECTED, &x) == 0) {
        CHECK(x.c[2] == INST(2) && x.c[3] == INST(3) && x.c[4] == INST(4));
        CHECK(x.c[0] < 0 && x.c[1] < 0 && x.c[5] < 0 && x.c[6] < 0 && !x.n[0][0] && !x.n[6][0]); /* not selected: no line */
    } else CHECK(0);
    if (run(GRAPH, &x) == 0) {
        CHECK(x.c[0] == INST(0) && x.c[2] == INST(2) && x.c[1] < 0 && strstr(x.n[1], "graph launch"));
    } else CHECK(0);
    /* both passes of one program, through the driver (wallbench profile --from-raw): every launch
     * timed, counted and matched */
    const char *wb = getenv("WB_WALLBENCH");
    if (wb && run(PAIR_TIMING, &x) == 0 && run(PAIR_COUNTERS, &x) == 0) {
        char folder[300], out[4096] = "";
        snprintf(folder, sizeof folder, "%s/pair", dir);
        int rc = from_raw(wb, folder, out, sizeof out);
        CHECK(rc == 0 && strstr(out, "10 launches: 10 timed, 10 counted (10 matched both)"));
        if (rc != 0 || !strstr(out, "10 matched both")) fprintf(stderr, "wallbench profile --from-raw:\n%s\n", out);
    } else {
        CHECK(wb != NULL); /* ctest gives the binary */
    }
    if (run(NVTX, &x) == 0) {
        static const int outermost[][2] = {{1, 3}, {4, 5}};
        CHECK(user_ranges_are("nvtx", &x, 2, outermost));
    } else CHECK(0);
    if (run(ALL, &x) == 0) {
        CHECK(own_counts(&x, 0, 10) == 10 && !strcmp(x.mode, "replay kernel flush context"));
        CHECK(x.group[0] == -9); /* no groups, no "# batch" line */
        if (own_counts(&x, 0, 10) != 10) dump("all", &x, 10);
    } else CHECK(0);
    if (run(ROTATE, &x) == 0) {
        /* the core rows in every group */
        CHECK(own_counts(&x, 0, 10) == 10 && x.groups > 1 && !strcmp(x.mode, "replay none flush stream"));
        CHECK(x.group[0] == 0 && x.group[9] >= 0 && x.group[9] < x.groups); /* "# batch" lines name the groups */
        if (own_counts(&x, 0, 10) != 10) dump("rotate", &x, 10);
        /* one shape launched 10 times over more than 2 groups, held 0 launches: a change at every
         * launch while it lacks the next group; no new object with WB_PROFILE_ROTATE_NEW_OBJECT=0 */
        CHECK(x.changes >= 2 && x.changes <= 9 && x.new_objects == 0 && x.hold == 0);
    } else CHECK(0);
    if (run(ROTATE_NEW, &x) == 0) { /* a call on a stale object would fail: an E line, N lines */
        CHECK(own_counts(&x, 0, 10) == 10 && x.errors == 0 && x.changes >= 2 && x.new_objects == x.changes);
        if (own_counts(&x, 0, 10) != 10) dump("rotate, new objects", &x, 10);
    } else CHECK(0);
    if (run(ROTATE_DEFAULT, &x) == 0) { /* held 32 launches: 10 launches of one shape, one group, no change */
        CHECK(own_counts(&x, 0, 10) == 10 && x.errors == 0 && x.hold == 32 && x.changes == 0 && x.new_objects == 0);
        CHECK(x.group[0] == 0 && x.group[9] == 0);
        if (own_counts(&x, 0, 10) != 10 || x.hold != 32) dump("rotate, defaults", &x, 10);
    } else CHECK(0);
    if (run(ROTATE_BAD, &x) == 0) { /* a bad WB_PROFILE_ROTATE_NEW_OBJECT: an E line, nothing counted, the program runs */
        CHECK(x.errors == 1 && own_counts(&x, 0, 10) == 0);
    } else CHECK(0);
    if (run(ROTATE_OOM, &x) == 0) {
        /* launch 128 found no room in the table of shapes (out of memory): counted with the whole
         * set, its own batch; the object let go before it (a change of configuration) and after it,
         * so that the next group's one-pass batch is no replay configuration's (035af3e): two new
         * objects, no change of group (128 shapes and 129 held group 0), every launch counted */
        CHECK(own_counts(&x, 0, 130) == 130 && x.errors == 0 && x.changes == 0 && x.new_objects == 2);
        CHECK(x.group[127] == 0 && x.group[128] == -1 && x.group[129] == 0); /* "# batch group -1": the whole set */
        if (own_counts(&x, 0, 130) != 130 || x.new_objects != 2)
            fprintf(stderr, "rotate, out of memory: %d of 130 counted, %lld new objects, %lld changes, groups %d %d %d\n",
                    own_counts(&x, 0, 130), x.new_objects, x.changes, x.group[127], x.group[128], x.group[129]);
    } else CHECK(0);
    if (run(ROTATE_HOLD, &x) == 0) { /* groups 0 (launches 0-3), 1 (4-7), 2 (8-9): two changes */
        CHECK(own_counts(&x, 0, 10) == 10 && x.errors == 0 && x.hold == 4 && x.changes == 2 && x.new_objects == 2);
        if (own_counts(&x, 0, 10) != 10) dump("rotate, held 4", &x, 10);
        /* each C line after its batch's "# batch" line, which names the group it held */
        int named = 0;
        for (int i = 0; i < 10; i++) named += x.group[i] == (i < 4 ? 0 : i < 8 ? 1 : 2);
        CHECK(named == 10);
        if (named != 10)
            for (int i = 0; i < 10; i++) fprintf(stderr, "rotate, held 4: launch %d after '# batch group %d'\n", i, x.group[i]);
        /* read by the driver: the groups' columns the fake gave values came back in every launch that held them */
        char folder[300], moved[400], out[4096] = "";
        snprintf(folder, sizeof folder, "%s/rotate", dir);
        snprintf(moved, sizeof moved, "%s/counters.1.tsv", folder);
        const int ok = wb && mkdir(folder, 0700) == 0 && rename(x.file, moved) == 0 &&
                       from_raw(wb, folder, out, sizeof out) == 0 && strstr(out, "--rotate: of the ") &&
                       strstr(out, " in every launch that held their group, 0 in some, 0 in none, ");
        CHECK(ok);
        if (!ok) fprintf(stderr, "wallbench profile --from-raw on the rotate run:\n%s\n", out);
        char cmd[1400]; /* and its report says so before any table */
        snprintf(cmd, sizeof cmd, "'%s' report '%s.h5' 2>&1", wb ? wb : "wallbench", folder);
        const int report_rc = wb ? wallbench(cmd, out, sizeof out) : -1;
        const int said = report_rc == 0 &&
                         strstr(out, "--rotate, each group column's launches with a value / launches that held its group: "
                                     "l1_sectors_ld 4/4, ");
        CHECK(said);
        if (!said) fprintf(stderr, "wallbench report on the rotate run's profile (status %d):\n%.3000s\n", report_rc, out);
    } else CHECK(0);
    if (run(KILLED, &x) == 0) {
        CHECK(own_counts(&x, 0, 5) == 5 && x.signal == SIGTERM && x.ends == 1);
    } else CHECK(0);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    return TEST_DONE();
}

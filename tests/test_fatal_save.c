/* test_fatal_save.c - the injection's fatal-signal handler (harness/profile/inject/fatal.c), each
 * case in a child process (its signal state reset first: a test run in the background inherits
 * SIGINT ignored): at SIGTERM, SIGINT or a real SIGSEGV the save runs once and the program still
 * dies of its signal; a save that hangs is given up after its limit, and the program dies of its
 * own signal then, SIGALRM blocked or not; the program's own SIGALRM timer does not cut a save
 * short; a fault on another thread during a save waits for it; a program's own handler and an
 * ignored signal are kept, the save never called. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness/profile/inject/fatal.h"
#include "tests/check.h"

static int report[2]; /* the child's save writes "s<sig>" here, and "d" when it returns */

static void say(const char *s) { (void)!write(report[1], s, strlen(s)); }

static void save_returns(int sig) {
    char b[4] = {'s', (char)('0' + sig / 10), (char)('0' + sig % 10), '\0'};
    say(b);
}

static void save_hangs(int sig) {
    save_returns(sig);
    for (;;) pause(); /* as a decode waiting for a lock the interrupted thread holds */
}

/* 0.6 s of work (signals of the program's interrupt it, and it carries on), then returns */
static void save_slow(int sig) {
    save_returns(sig);
    struct timespec left = {0, 600000000};
    while (nanosleep(&left, &left) != 0 && errno == EINTR) {}
    say("d");
}

static void own_handler(int sig) { _exit(sig == SIGTERM ? 7 : 8); }
static void program_alarm(int sig) { (void)sig; } /* the program's own timer: it counts ticks, say */

static void *fault_later(void *arg) {
    (void)arg;
    usleep(200000); /* inside the main thread's save */
    *(volatile int *)(uintptr_t)8 = 1;
    return NULL;
}

typedef enum { RAISE_TERM, RAISE_INT, FAULT, OWN_HANDLER, IGNORED, ALARM_BLOCKED, PROGRAM_TIMER, SECOND_THREAD } how;

typedef struct outcome {
    int signal, exit_code; /* signal: the child died of it; else exit_code */
    char said[16];         /* what its save wrote */
    double seconds;
} outcome;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void child(how h, void (*save)(int), unsigned limit) {
    const int reset[] = {SIGINT, SIGTERM, SIGSEGV, SIGALRM};
    for (size_t i = 0; i < sizeof reset / sizeof *reset; i++) signal(reset[i], SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (h == OWN_HANDLER) signal(SIGTERM, own_handler);
    if (h == IGNORED) signal(SIGINT, SIG_IGN);
    if (h == ALARM_BLOCKED) {
        sigset_t alarm_only;
        sigemptyset(&alarm_only);
        sigaddset(&alarm_only, SIGALRM);
        sigprocmask(SIG_BLOCK, &alarm_only, NULL);
    }
    if (h == PROGRAM_TIMER) {
        signal(SIGALRM, program_alarm);
        struct itimerval every = {{0, 50000}, {0, 50000}};
        setitimer(ITIMER_REAL, &every, NULL);
    }
    if (wb_fatal_catch(save, limit) != 0) _exit(9);
    pthread_t t;
    if (h == SECOND_THREAD && pthread_create(&t, NULL, fault_later, NULL) != 0) _exit(10);
    if (h == FAULT) *(volatile int *)(uintptr_t)8 = 1;
    raise(h == RAISE_INT || h == IGNORED ? SIGINT : SIGTERM);
    _exit(5); /* alive after the signal */
}

static outcome run(how h, void (*save)(int), unsigned limit) {
    outcome o = {0};
    if (pipe(report) != 0) return o;
    double t0 = now();
    pid_t pid = fork();
    if (pid == 0) {
        close(report[0]);
        child(h, save, limit);
    }
    close(report[1]);
    int status = 0;
    while (waitpid(pid, &status, WNOHANG) == 0) { /* a save never given up: killed at 10 s, SIGKILL */
        if (now() - t0 > 10) kill(pid, SIGKILL);
        usleep(10000);
    }
    o.seconds = now() - t0;
    ssize_t n = read(report[0], o.said, sizeof o.said - 1);
    o.said[n > 0 ? n : 0] = '\0';
    close(report[0]);
    if (WIFSIGNALED(status)) o.signal = WTERMSIG(status);
    else o.exit_code = WEXITSTATUS(status);
    return o;
}

int main(void) {
    outcome o = run(RAISE_TERM, save_returns, 10);
    CHECK(o.signal == SIGTERM && !strcmp(o.said, "s15") && o.seconds < 5);
    o = run(RAISE_INT, save_returns, 10);
    CHECK(o.signal == SIGINT && !strcmp(o.said, "s02"));
    o = run(FAULT, save_returns, 10); /* a real fault: the handler returns, the access faults again */
    CHECK(o.signal == SIGSEGV && !strcmp(o.said, "s11"));
    o = run(RAISE_TERM, save_hangs, 1); /* given up after 1 s: dies of SIGTERM */
    CHECK(o.signal == SIGTERM && !strcmp(o.said, "s15"));
    CHECK(o.seconds > 0.8 && o.seconds < 5);
    o = run(FAULT, save_hangs, 1);
    CHECK(o.signal == SIGSEGV && !strcmp(o.said, "s11") && o.seconds > 0.8 && o.seconds < 5);
    o = run(ALARM_BLOCKED, save_hangs, 1); /* the bound needs no SIGALRM */
    CHECK(o.signal == SIGTERM && !strcmp(o.said, "s15") && o.seconds > 0.8 && o.seconds < 5);
    o = run(PROGRAM_TIMER, save_slow, 10); /* the program's SIGALRM every 50 ms: the save still ends */
    CHECK(o.signal == SIGTERM && !strcmp(o.said, "s15d"));
    o = run(SECOND_THREAD, save_slow, 10); /* a fault 0.2 s into the save waits for its end */
    CHECK(o.signal == SIGTERM && !strcmp(o.said, "s15d"));
    o = run(OWN_HANDLER, save_returns, 10); /* the program's handler keeps the signal */
    CHECK(o.signal == 0 && o.exit_code == 7 && o.said[0] == '\0');
    o = run(IGNORED, save_returns, 10); /* an ignored signal stays ignored */
    CHECK(o.signal == 0 && o.exit_code == 5 && o.said[0] == '\0');
    return TEST_DONE();
}

/* test_fatal_save.c - the injection's fatal-signal handler (harness/profile/inject/fatal.c), each
 * case in a child process: at SIGTERM, SIGINT or a real SIGSEGV the save runs once and the program
 * still dies of its signal; a save that hangs is given up after its limit, and the program dies of
 * its own signal (not SIGALRM) then; a program's own handler and an ignored signal are kept, the
 * save never called. */
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness/profile/inject/fatal.h"
#include "tests/check.h"

static int report[2]; /* the child's save writes "s<sig>" here */

static void save_returns(int sig) {
    char b[8];
    int n = 0;
    b[n++] = 's', b[n++] = (char)('0' + sig / 10), b[n++] = (char)('0' + sig % 10);
    (void)!write(report[1], b, (size_t)n);
}

static void save_hangs(int sig) {
    save_returns(sig);
    for (;;) pause(); /* as a decode waiting for a lock the interrupted thread holds */
}

static void own_handler(int sig) { _exit(sig == SIGTERM ? 7 : 8); }

typedef enum { RAISE_TERM, RAISE_INT, FAULT, OWN_HANDLER, IGNORED } how;

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

static outcome run(how h, void (*save)(int), unsigned limit) {
    outcome o = {0};
    if (pipe(report) != 0) return o;
    double t0 = now();
    pid_t pid = fork();
    if (pid == 0) {
        close(report[0]);
        if (h == OWN_HANDLER) signal(SIGTERM, own_handler);
        if (h == IGNORED) signal(SIGINT, SIG_IGN);
        wb_fatal_catch(save, limit);
        if (h == RAISE_TERM || h == OWN_HANDLER) raise(SIGTERM);
        if (h == RAISE_INT || h == IGNORED) raise(SIGINT);
        if (h == FAULT) *(volatile int *)(uintptr_t)8 = 1;
        _exit(5); /* alive after the signal */
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
    o = run(RAISE_TERM, save_hangs, 1); /* given up after 1 s: dies of SIGTERM, not SIGALRM */
    CHECK(o.signal == SIGTERM && !strcmp(o.said, "s15"));
    CHECK(o.seconds > 0.8 && o.seconds < 5);
    o = run(FAULT, save_hangs, 1);
    CHECK(o.signal == SIGSEGV && !strcmp(o.said, "s11") && o.seconds > 0.8 && o.seconds < 5);
    o = run(OWN_HANDLER, save_returns, 10); /* the program's handler keeps the signal */
    CHECK(o.signal == 0 && o.exit_code == 7 && o.said[0] == '\0');
    o = run(IGNORED, save_returns, 10); /* an ignored signal stays ignored */
    CHECK(o.signal == 0 && o.exit_code == 5 && o.said[0] == '\0');
    return TEST_DONE();
}

/* fatal.c - the injection's fatal-signal handler (fatal.h). The bound is an alarm: its handler
 * runs on the thread whose save hangs, unblocks the fatal signal (blocked while its own handler
 * runs) and raises it again, at the default action by then. */
#include "harness/profile/inject/fatal.h"

#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM, SIGINT};
#define N_FATAL ((int)(sizeof fatal_signals / sizeof fatal_signals[0]))
static struct sigaction previous[N_FATAL];
static void (*save_fn)(int);
static unsigned limit;
static volatile sig_atomic_t dying; /* the fatal signal whose save runs */

static void restore(int sig) {
    for (int i = 0; i < N_FATAL; i++)
        if (fatal_signals[i] == sig) sigaction(sig, &previous[i], NULL);
}

/* SIGALRM while a save runs: it hung; the program ends of its own signal now. */
static void on_save_stuck(int alarm_sig) {
    (void)alarm_sig;
    int sig = dying;
    restore(sig);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    _exit(128 + sig); /* not reached: the default action of each of these ends the process */
}

static void on_fatal(int sig) {
    static volatile sig_atomic_t saving;
    if (!saving++) { /* a second fatal signal, on any thread, does not save again */
        struct sigaction stuck;
        memset(&stuck, 0, sizeof stuck);
        stuck.sa_handler = on_save_stuck;
        sigemptyset(&stuck.sa_mask);
        dying = sig;
        if (sigaction(SIGALRM, &stuck, NULL) == 0) alarm(limit);
        save_fn(sig);
        alarm(0);
    }
    restore(sig);
    raise(sig); /* delivered once this handler returns, to the default action */
}

void wb_fatal_catch(void (*save)(int sig), unsigned limit_s) {
    save_fn = save, limit = limit_s;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < N_FATAL; i++) {
        struct sigaction cur;
        /* a program that ignores a signal, or has its own handler, keeps it */
        if (sigaction(fatal_signals[i], NULL, &cur) == 0 && cur.sa_handler == SIG_DFL)
            sigaction(fatal_signals[i], &sa, &previous[i]);
        else
            previous[i] = cur;
    }
}

/* fatal.c - the injection's fatal-signal handler (fatal.h). The bound is a watchdog thread started
 * with the handler, every signal blocked in it, waiting on a semaphore (sem_post is
 * async-signal-safe): the handler posts it as a save begins and again as it ends; a save not ended
 * by the limit, the watchdog sets the signal's default action and raises it in its own thread,
 * which ends the process. No SIGALRM: the program may block it or use it. One save per process:
 * a fatal signal on another thread meanwhile waits for the save's end (the process dies then); one
 * on the saving thread itself (the save faulted) ends the process at once. */
#include "harness/profile/inject/fatal.h"

#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness/base/clock.h"

static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM, SIGINT};
#define N_FATAL ((int)(sizeof fatal_signals / sizeof fatal_signals[0]))
static struct sigaction previous[N_FATAL];
static void (*save_fn)(int);
static unsigned limit;
static sem_t save_begins, save_ends;
static int watched;                    /* the watchdog runs */
static int claimed;                    /* a save has begun (atomic) */
static pthread_t saver;                /* the thread that saves */
static volatile sig_atomic_t dying;    /* its signal */

static void restore(int sig) {
    for (int i = 0; i < N_FATAL; i++)
        if (fatal_signals[i] == sig) sigaction(sig, &previous[i], NULL);
}

/* The default action of sig, raised in the calling thread with sig unblocked: the process ends. */
static void die_of(int sig) {
    restore(sig);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    _exit(128 + sig); /* not reached: the default action of each of these ends the process */
}

static void *watchdog(void *arg) {
    (void)arg;
    while (sem_wait(&save_begins) != 0) {}
    const struct timespec until = wb_deadline_after((double)limit);
    while (sem_timedwait(&save_ends, &until) != 0)
        if (errno == ETIMEDOUT) die_of(dying); /* the save hung */
    return NULL;                               /* it ended: the saver raises its signal */
}

static void on_fatal(int sig) {
    if (__atomic_exchange_n(&claimed, 1, __ATOMIC_SEQ_CST)) {
        if (pthread_equal(saver, pthread_self())) die_of(sig); /* the save itself faulted */
        for (;;) pause(); /* another thread saves; its end, or the watchdog, ends the process */
    }
    saver = pthread_self();
    dying = sig;
    if (watched) sem_post(&save_begins);
    save_fn(sig);
    if (watched) sem_post(&save_ends);
    restore(sig);
    raise(sig); /* delivered once this handler returns, to the default action */
}

int wb_fatal_catch(void (*save)(int sig), unsigned limit_s) {
    save_fn = save, limit = limit_s;
    /* the watchdog takes no signal of the program's: all blocked in it */
    sigset_t all, old;
    sigfillset(&all);
    pthread_attr_t attr;
    pthread_t t;
    if (sem_init(&save_begins, 0, 0) == 0 && sem_init(&save_ends, 0, 0) == 0 && pthread_attr_init(&attr) == 0) {
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        pthread_sigmask(SIG_BLOCK, &all, &old);
        watched = pthread_create(&t, &attr, watchdog, NULL) == 0;
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        pthread_attr_destroy(&attr);
    }
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
    return watched ? 0 : -1;
}

/* fatal.h - what the injection does at a fatal signal (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT,
 * SIGTERM, SIGINT) the program left at its default action: save(sig) once, bounded in time, then
 * the signal goes to the default action, so that the program ends as it would have. A program's
 * own handler, or an ignored signal, is left as it is. No CUDA here: tests/test_fatal_save.c. */
#ifndef WB_INJECT_FATAL_H
#define WB_INJECT_FATAL_H

/* Installs the handler and starts its watchdog thread. A save that has not returned limit_s
 * seconds after the signal (it waits for a lock the interrupted thread holds) is abandoned: the
 * program dies of its signal then. 0, or -1 when the watchdog could not start (the save is then
 * unbounded; the handler is installed all the same). */
int wb_fatal_catch(void (*save)(int sig), unsigned limit_s);

#endif

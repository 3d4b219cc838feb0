// SPDX-License-Identifier: Apache-2.0
/* SIGINT/SIGTERM as a flag, a file removed when a signal ends the process, and the stop signals
 * named for messages (see csignals.h). */
#define _GNU_SOURCE
#include "csignals.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>


static volatile sig_atomic_t stop_signal;

/* A file to remove when a signal ends the process (isc_signals_set_cleanup_path); has_cleanup says
 * whether cleanup_path holds one. */
static char cleanup_path[4097];
static volatile sig_atomic_t has_cleanup;

/* A signal that ends the process: remove the registered file, then die of the signal with its
 * default action (unlink, sigaction and raise are async-signal-safe, POSIX.1-2017 2.4.3). The
 * signal stays blocked until the handler returns, so raise() takes effect then. */
static void on_fatal(int sig) {
    int saved = errno;
    if (__atomic_load_n(&has_cleanup, __ATOMIC_SEQ_CST)) unlink(cleanup_path);
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigaction(sig, &dfl, NULL);
    raise(sig);
    errno = saved;
}

/* The first SIGINT/SIGTERM asks for a clean stop; a second one ends the process at once
 * (on_fatal: after removing the registered file). */
static void on_stop(int sig) {
    stop_signal = sig;
    struct sigaction fatal;
    memset(&fatal, 0, sizeof fatal);
    fatal.sa_handler = on_fatal;
    sigemptyset(&fatal.sa_mask);
    sigaction(SIGINT, &fatal, NULL);
    sigaction(SIGTERM, &fatal, NULL);
}

int isc_signals_set_cleanup_path(const char *path) {
    __atomic_store_n(&has_cleanup, 0, __ATOMIC_SEQ_CST);
    if (path == NULL) return 0;
    size_t length = strlen(path);
    if (length >= sizeof cleanup_path) return ENAMETOOLONG;
    memcpy(cleanup_path, path, length + 1);
    __atomic_store_n(&has_cleanup, 1, __ATOMIC_SEQ_CST);
    /* Every other signal whose default action ends the process ends it too: SIGHUP (the
     * terminal closed), SIGQUIT, SIGUSR1/2 and the timers (SIGALRM from `timeout -s ALRM`,
     * SIGVTALRM, SIGPROF), SIGXCPU and SIGXFSZ (ulimit). Leave them alone when ignored (nohup)
     * or already handled. */
    const int others[] = { SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ };
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        struct sigaction old;
        if (sigaction(others[i], NULL, &old) == 0 && !(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL) {
            struct sigaction fatal;
            memset(&fatal, 0, sizeof fatal);
            fatal.sa_handler = on_fatal;
            sigemptyset(&fatal.sa_mask);
            sigaction(others[i], &fatal, NULL);
            /* As for SIGINT/SIGTERM: a signal blocked by the parent would never arrive. */
            sigset_t set;
            sigemptyset(&set);
            sigaddset(&set, others[i]);
            pthread_sigmask(SIG_UNBLOCK, &set, NULL);
        }
    }
    return 0;
}

int isc_signals_install_stop_handlers(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;   /* no SA_RESTART: poll() returns EINTR */
    if (sigaction(SIGINT, &sa, NULL) == -1) return errno;
    if (sigaction(SIGTERM, &sa, NULL) == -1) return errno;
    /* A parent may have started us with these signals blocked (posix_spawn inherits the
     * spawning thread's mask): then they would stay pending and never stop us. */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    return pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

int isc_signals_received(void) { return stop_signal; }

const char *isc_signal_name(int sig) {
    switch (sig) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    default: return NULL;
    }
}

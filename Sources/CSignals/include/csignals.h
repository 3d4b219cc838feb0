// SPDX-License-Identifier: Apache-2.0
/*
 * CSignals — process signals for isbnscan's command line: SIGINT/SIGTERM recorded as a flag
 * (so a long run can stop cleanly, release a camera and write what it has), and one file
 * removed when a signal ends the process before it is done with it. Also the one place that
 * names signals for messages (the CLI's, and Capture's error text, which installs no handler).
 *
 * Signal handlers must be C: they may only touch `volatile sig_atomic_t` and call
 * async-signal-safe functions (POSIX.1-2017 § 2.4.3). Every function returns 0 or an errno
 * value.
 */
#ifndef ISBNSCAN_CSIGNALS_H
#define ISBNSCAN_CSIGNALS_H

#ifdef __cplusplus
extern "C" {
#endif

/** Installs SIGINT and SIGTERM handlers (sigaction without SA_RESTART, so a blocked poll
 *  returns EINTR) that only record the signal, and unblocks both in the calling thread.
 *  A second SIGINT/SIGTERM ends the process at once, with the signal's default action, after
 *  removing the file given to isc_signals_set_cleanup_path. Returns 0 or errno. */
int isc_signals_install_stop_handlers(void);
/** The signal number that asked to stop (SIGINT 2, SIGTERM 15), or 0. */
int isc_signals_received(void);
/** Registers `path` (copied; at most 4096 bytes) as the file to unlink(2) when a signal ends
 *  the process: a second SIGINT/SIGTERM, or SIGHUP/SIGQUIT (for which handlers are installed
 *  here unless they are ignored or handled). NULL forgets it. Returns 0 or ENAMETOOLONG. */
int isc_signals_set_cleanup_path(const char *path);
/** The name of the stop signal `sig` for messages, as a static string: "SIGINT" or "SIGTERM";
 *  NULL for any other number (callers write "signal <n>"). */
const char *isc_signal_name(int sig);

#ifdef __cplusplus
}
#endif
#endif

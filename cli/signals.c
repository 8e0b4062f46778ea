// SPDX-License-Identifier: GPL-2.0-or-later
/* signals.c — SIGINT, SIGTERM, SIGHUP and SIGPIPE in every command (issue
 * 20.2).
 *
 *   SIGHUP (the terminal or ssh session went away) is a SIGTERM whose
 *       status is 129: without a handler it killed `run` at once, leaving
 *       no report and the console's temporary files.
 *   SIGINT / SIGTERM / SIGHUP, first one: `run`: the machine stops at the next
 *       check (every block boundary), the reports are written, the status
 *       is 130 / 143 / 129. Arriving while the reports are being written, it does
 *       not stop the writing (the status still becomes 130 / 143).
 *       `report`, `diff`, `merge`: the command stops before it replaces
 *       anything (cli_stage_commit discards its temporary files), status
 *       130 / 143; the folder keeps its previous complete set.
 *   the same signal again within CLI_SIGNAL_GRACE_NS of the first: one
 *       stop sent twice (GNU timeout signals the child, then its process
 *       group): ignored.
 *   a further signal after the grace: says on stderr that the command is
 *       aborted, removes the temporary files written so far (the tracked
 *       list below; unlink is async-signal-safe) and exits at once with
 *       130 / 143. Files are renamed into place only at the end (write.c),
 *       so the folder keeps what it had before.
 *   once the final status is fixed (cli_signals_freeze, just before the
 *       renames), signals change nothing: the summary says the status the
 *       process exits with.
 *   SIGPIPE: ignored; a write to a closed stdout fails with EPIPE and only
 *       stops the console echo (run.c).
 * Only async-signal-safe calls in the handler.
 *
 * Test hook: NOCPROF_TEST_SIGNAL=NAME:SIG[,SIG...] (SIG: INT, TERM or HUP, or
 * WAIT: sleep past the grace) raises those signals when the file NAME
 * (relative to the output folder, e.g. "report.html", "core0/flat.txt")
 * is about to be written, so the e2e tests interrupt at a chosen point
 * deterministically. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"

#define CLI_SIGNAL_GRACE_NS 2000000000LL
#define CLI_MAX_TRACKED 65536

static volatile sig_atomic_t first_sig;   /* 0 until the first signal */
static volatile sig_atomic_t writing;     /* the machine has stopped */
static volatile sig_atomic_t frozen;      /* the final status is fixed */
static struct timespec first_at;          /* when the first one came */
volatile sig_atomic_t cli_interrupted;     /* machine_run's stop flag */

/* temporary files to remove on an abort (append-only while tracked) */
static char *tracked[CLI_MAX_TRACKED];
static volatile sig_atomic_t ntracked;

static void say(const char *s)
{
    ssize_t r = write(STDERR_FILENO, s, strlen(s));
    (void)r;
}

static long long since_first(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (now.tv_sec - first_at.tv_sec) * 1000000000LL + (now.tv_nsec - first_at.tv_nsec);
}

static int status_of(int sig)
{
    return sig == SIGTERM ? EXIT_SIGTERM : sig == SIGHUP ? EXIT_SIGHUP : sig == SIGINT ? EXIT_SIGINT : 0;
}

const char *cli_signal_name(int status)
{
    return status == EXIT_SIGTERM ? "SIGTERM" : status == EXIT_SIGHUP ? "SIGHUP" : "SIGINT";
}

bool cli_status_is_signal(int status)
{
    return status == EXIT_SIGINT || status == EXIT_SIGTERM || status == EXIT_SIGHUP;
}

static void on_signal(int sig)
{
    const char *name = cli_signal_name(status_of(sig));
    if (frozen)
        return;
    if (!first_sig) {
        clock_gettime(CLOCK_MONOTONIC, &first_at);
        first_sig = sig;
        cli_interrupted = 1;
        if (writing) {
            say("nocprof: ");
            say(name);
            say(" while writing the reports: finishing them (send it again after 2 s to abort)\n");
        }
        return;
    }
    if (since_first() < CLI_SIGNAL_GRACE_NS)
        return;   /* the same stop, sent twice (timeout, then its group) */
    for (sig_atomic_t i = 0; i < ntracked; i++)
        unlink(tracked[i]);
    say("nocprof: second ");
    say(name);
    say(": aborting; the output folder keeps what it had before\n");
    _exit(status_of(first_sig));
}

void cli_signals_install(void)
{
    struct sigaction sa = { .sa_handler = on_signal };
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    sigaddset(&sa.sa_mask, SIGHUP);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

void cli_signals_writing(void)
{
    writing = 1;
}

void cli_signals_freeze(void)
{
    frozen = 1;
}

int cli_signal_status(void)
{
    return status_of(first_sig);
}

void cli_signals_restore(void)
{
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
}

void cli_signals_track(const char *path)
{
    if (ntracked >= CLI_MAX_TRACKED)
        return;
    tracked[ntracked] = g_strdup(path);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);   /* the entry before the count (for the handler) */
    ntracked = ntracked + 1;
}

void cli_signals_untrack_all(void)
{
    sig_atomic_t n = ntracked;
    ntracked = 0;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    for (sig_atomic_t i = 0; i < n; i++)
        g_clear_pointer(&tracked[i], g_free);
}

void cli_test_hook(const char *name)
{
    const char *spec = getenv("NOCPROF_TEST_SIGNAL");
    size_t n = strlen(name);
    if (!spec || strncmp(spec, name, n) != 0 || spec[n] != ':')
        return;
    g_auto(GStrv) sigs = g_strsplit(spec + n + 1, ",", -1);
    for (char **s = sigs; *s; s++)
        if (strcmp(*s, "WAIT") == 0)
            g_usleep(CLI_SIGNAL_GRACE_NS / 1000 + 200000);   /* past the grace */
        else
            raise(strcmp(*s, "TERM") == 0 ? SIGTERM : strcmp(*s, "HUP") == 0 ? SIGHUP : SIGINT);
}

GError *cli_no_output_folder(const char *dir)
{
    return g_error_new(NOCPROF_ERROR, NOCPROF_ERROR_USAGE, "%s: cannot create output folder: %s", dir,
                       g_strerror(errno));
}

int cli_final_status(int status, bool reports_ok)
{
    if (cli_signal_status())
        return cli_signal_status();
    if (!reports_ok && status < EXIT_REPORTS)
        return EXIT_REPORTS;
    return status;
}

/* signals.c — SIGINT, SIGTERM and SIGPIPE during `nocprof run`.
 *
 *   SIGINT / SIGTERM, first one: the machine stops at the next check (every
 *       block boundary), the reports are written, the status is 130 / 143.
 *       Arriving while the reports are being written, it does not stop the
 *       writing (the status still becomes 130 / 143) but says so on stderr.
 *   a second SIGINT / SIGTERM: says on stderr that the reports are left
 *       incomplete and exits at once with 130 / 143 (the summary is written
 *       last, so an aborted folder never claims a finished run).
 *   SIGPIPE: ignored; a write to a closed stdout fails with EPIPE and only
 *       stops the console echo (run.c).
 * The handlers stay installed from before the machine starts until the
 * last report is written. Only async-signal-safe calls in the handler. */
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static volatile sig_atomic_t first_sig;   /* 0 until the first signal */
static volatile sig_atomic_t nsigs;
static volatile sig_atomic_t writing;     /* the machine has stopped */
volatile sig_atomic_t cli_interrupted;     /* machine_run's stop flag */

static void say(const char *s)
{
    ssize_t r = write(STDERR_FILENO, s, strlen(s));
    (void)r;
}

static void on_signal(int sig)
{
    const char *name = sig == SIGTERM ? "SIGTERM" : "SIGINT";
    nsigs++;
    if (nsigs == 1) {
        first_sig = sig;
        cli_interrupted = 1;
        if (writing) {
            say("nocprof: ");
            say(name);
            say(" while writing the reports: finishing them (send it again to abort)\n");
        }
        return;
    }
    say("nocprof: second ");
    say(name);
    say(": aborting, the reports in the output folder are incomplete\n");
    _exit(sig == SIGTERM ? EXIT_SIGTERM : EXIT_SIGINT);
}

void cli_signals_install(void)
{
    struct sigaction sa = { .sa_handler = on_signal };
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

void cli_signals_writing(void)
{
    writing = 1;
}

int cli_signal_status(void)
{
    return first_sig == SIGTERM ? EXIT_SIGTERM : first_sig == SIGINT ? EXIT_SIGINT : 0;
}

void cli_signals_restore(void)
{
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
}

int cli_final_status(int status, bool reports_ok)
{
    if (cli_signal_status())
        return cli_signal_status();
    if (!reports_ok && status < EXIT_REPORTS)
        return EXIT_REPORTS;
    return status;
}

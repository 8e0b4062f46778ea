// SPDX-License-Identifier: GPL-2.0-or-later
/* main.c — nocprof's entry point: top-level help and command dispatch. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include <capstone/capstone.h>

#include "cli/cli.h"
#include "emu/engine.h"
#include "cli/sweep.h"

static const char *top_help =
    "Usage: nocprof COMMAND [OPTIONS]\n"
    "\n"
    "Full-system profiler for a multicore MIPS network on chip: runs firmware\n"
    "ELF images headless on emulated MIPS32 cores joined by a mesh NoC and\n"
    "reports, per core, where the cycles go.\n"
    "\n"
    "Commands:\n"
    "  run [OPTIONS] FIRMWARE.elf...   run and profile (see 'nocprof run --help')\n"
    "  report [OPTIONS] OUT            rebuild every report of a finished run from\n"
    "                                  OUT/profile.data, without running again\n"
    "  diff [OPTIONS] OUT_A OUT_B      compare two runs function by function\n"
    "                                  (diff.txt, diff.folded, diff.html;\n"
    "                                  --fail-if-slower PCT)\n"
    "  merge OUT... -o MERGED          sum runs of the same firmware (gprof -s) and\n"
    "                                  write every report of the sum\n"
    "  sweep -o DIR --axis KEY=V1,V2,... [FIRMWARE.elf...]\n"
    "                                  run the cross product of the axes (config\n"
    "                                  keys, firmware, sample_period) locally, with\n"
    "                                  GNU parallel or as a Slurm job array;\n"
    "                                  sweep.csv, sweep.json, sweep.html\n"
    "\n"
    "Options:\n"
    "  -h, --help      this help\n"
    "  --version       print the version\n";

/* Like gnulib's close_stdout: output that could not be written (`nocprof
 * --help > /dev/full`) is an error, not a silent success. Runs at exit, so
 * it also covers GOption's own `run --help`, which exits by itself. The run
 * handles its console echo itself (a closed pipe is not an error there). */
static void check_stdout(void)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        int e = errno ? errno : EIO;
        fprintf(stderr, "nocprof: stdout: write error: %s\n", g_strerror(e));
        _exit(EXIT_USAGE);
    }
}

/* nocprof's version and the libraries' it runs on (as loaded, not as
 * compiled against). */
static void print_version(void)
{
    g_autofree char *uc = engine_unicorn_version();
    int cs_major = 0, cs_minor = 0;
    cs_version(&cs_major, &cs_minor);
    printf("nocprof %s\n", NOCPROF_VERSION_STRING);
    printf("Unicorn %s (validated on %u.%u.%u)\n", uc, ENGINE_UNICORN_MAJOR, ENGINE_UNICORN_MINOR,
           ENGINE_UNICORN_PATCH);
    printf("Capstone %d.%d (built against %d.%d.%d)\n", cs_major, cs_minor, CS_VERSION_MAJOR, CS_VERSION_MINOR,
           CS_VERSION_EXTRA);
    printf("GLib %u.%u.%u\n", glib_major_version, glib_minor_version, glib_micro_version);
}

/* Started with descriptor 0, 1 or 2 closed (`2>&-`), the first file
 * opened would take it, and messages or the console echo would go into a
 * report (core0/console.txt held the fault messages): each closed one is
 * opened on /dev/null first. */
static void std_fds_open(void)
{
    for (int fd = 0; fd <= 2; fd++)
        if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
            int n = open("/dev/null", fd ? O_WRONLY : O_RDONLY);
            if (n >= 0 && n != fd) { /* a lower one was free: not ours to keep */
                dup2(n, fd);
                close(n);
            }
        }
}

int main(int argc, char **argv)
{
    std_fds_open();
    /* a file past the size limit (ulimit -f) is a write error (EFBIG) that
     * names the file, status 5, not a SIGXFSZ that kills every command
     * with its temporary files left (docs/robustness.md) */
    signal(SIGXFSZ, SIG_IGN);
    atexit(check_stdout);
    if (argc < 2) {
        fputs(top_help, stderr);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        fputs(top_help, stdout);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        print_version();
        return EXIT_OK;
    }
    if (strcmp(argv[1], "run") == 0)
        return cmd_run(argc - 1, argv + 1);
    if (strcmp(argv[1], "merge") == 0)
        return cmd_merge(argc - 1, argv + 1);
    if (strcmp(argv[1], "diff") == 0)
        return cmd_diff(argc - 1, argv + 1);
    if (strcmp(argv[1], "report") == 0)
        return cmd_report(argc - 1, argv + 1);
    if (strcmp(argv[1], "sweep") == 0)
        return cmd_sweep(argc - 1, argv + 1);
    fprintf(stderr, "nocprof: unknown command '%s'\n%s", argv[1], top_help);
    return EXIT_USAGE;
}

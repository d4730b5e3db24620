/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * output.h - standard output whose every failure is reported, and the
 * three standard descriptors made safe before anything is opened.
 *
 * A full disk or a closed descriptor must not lose a proof or a verdict
 * while the tool exits 0. So every write to stdout goes through
 * cli_printf() or cli_flush(), and main() ends with cli_close_stdout().
 * The first failure prints "equix-cli: write error: REASON" on stderr at
 * once, while errno still names it; stdout's error indicator then stays
 * set, so later writes print nothing more and the exit status becomes at
 * least CLI_FAIL. Nothing is reported for stderr: there is nowhere to.
 */
#ifndef EQUIX_CLI_OUTPUT_H
#define EQUIX_CLI_OUTPUT_H

#include <stdbool.h>

#include "args.h"

/* Reopens each of descriptors 0, 1 and 2 that is closed on /dev/null, in
 * the mode that keeps it unusable (0 write-only, 1 and 2 read-only): no
 * file opened later can take its number, and output to a closed stdout
 * fails with EBADF instead of vanishing. Returns false after one line on
 * stderr when /dev/null cannot be opened. */
bool cli_std_fds_open(void);

/* printf() to stdout; false when it failed (reported) or an earlier write
 * had, then nothing is printed. */
bool cli_printf(const char *format, ...) CLI_PRINTF(1, 2);

/* fflush(stdout), the same way: true when what was printed has reached the
 * system. */
bool cli_flush(void);

/* Flushes and closes stdout at the end of a command: returns `status`,
 * or CLI_FAIL when it was CLI_OK and some output could not be written. */
int cli_close_stdout(int status);

#endif /* EQUIX_CLI_OUTPUT_H */

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * output.c - checked standard output; see output.h.
 */
/* fcntl, open: POSIX, also under -std=c11. */
#define _POSIX_C_SOURCE 200809L

#include "output.h"

#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

bool cli_std_fds_open(void)
{
	int fd;

	/* In order, so that open() returns the lowest free number: fd. */
	for (fd = 0; fd <= 2; fd++) {
		int got;

		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		got = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
		if (got != fd) {
			int e = got < 0 ? errno : EBADF;
			if (got >= 0)
				close(got);
			cli_fail("cannot open /dev/null: %s", strerror(e));
			return false;
		}
	}
	return true;
}

/* The first failure's line; errno is the failed call's. */
static bool report_write_error(void)
{
	cli_fail("write error: %s", strerror(errno));
	return false;
}

bool cli_printf(const char *format, ...)
{
	va_list ap;
	int n;

	/* An earlier failure was reported; what follows it is lost too. */
	if (ferror(stdout))
		return false;
	va_start(ap, format);
	n = vprintf(format, ap);
	va_end(ap);
	/* Our formats have no wide characters or huge widths: a negative
	 * count is a failed write, which set the error indicator. */
	return n < 0 ? report_write_error() : true;
}

bool cli_flush(void)
{
	if (ferror(stdout))
		return false;
	return fflush(stdout) != 0 ? report_write_error() : true;
}

int cli_close_stdout(int status)
{
	/* Set only by a failure that cli_printf()/cli_flush() reported. */
	int failed = ferror(stdout);

	/* fclose() writes what is still buffered: for a file, a pipe or
	 * /dev/full, usually all of it, so this is where most failures
	 * show up. */
	if (fclose(stdout) != 0 && !failed) {
		report_write_error();
		failed = 1;
	}
	return failed && status == CLI_OK ? CLI_FAIL : status;
}

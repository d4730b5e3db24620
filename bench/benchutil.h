/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * benchutil.h - error messages and mkdir -p (the clock is
 * tools/common/clock.h's).
 */
#ifndef EQUIX_BENCHUTIL_H
#define EQUIX_BENCHUTIL_H

#include <stdarg.h>

/* "equix-bench: ", the message and a newline, on stderr. */
void bench_error(const char *format, ...)
	__attribute__((format(printf, 1, 2)));
void bench_verror(const char *format, va_list ap);

/* Creates `dir` and its missing parents (mkdir -p), for the baselines
 * and the HTML report. Returns 0, or -1 with errno set (ENOTDIR when
 * `dir` exists but is not a directory). */
int bench_make_dirs(const char *dir);

#endif

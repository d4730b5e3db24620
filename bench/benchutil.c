/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * benchutil.c - error messages and mkdir -p.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "benchutil.h"
#include "say.h"

void bench_verror(const char *format, va_list ap)
{
	tools_vsay("equix-bench", format, ap);
}

void bench_error(const char *format, ...)
{
	va_list ap;

	va_start(ap, format);
	bench_verror(format, ap);
	va_end(ap);
}

int bench_make_dirs(const char *dir)
{
	char path[4096];
	size_t n = strlen(dir);
	struct stat st;

	if (n == 0 || n >= sizeof path) {
		errno = n == 0 ? ENOENT : ENAMETOOLONG;
		return -1;
	}
	memcpy(path, dir, n + 1);
	/* Each prefix ending before a '/', then the whole path. */
	for (size_t i = 1; i <= n; i++) {
		if (path[i] != '/' && path[i] != '\0')
			continue;
		path[i] = '\0';
		if (mkdir(path, 0777) < 0 && errno != EEXIST)
			return -1;
		path[i] = dir[i];
	}
	if (stat(dir, &st) < 0)
		return -1;
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return -1;
	}
	return 0;
}

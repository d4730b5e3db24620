/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * benchutil.h - loading a reference library, the clock, and mkdir -p.
 */
#ifndef EQUIX_BENCHUTIL_H
#define EQUIX_BENCHUTIL_H

#include <stddef.h>

/* dlopen() for a library that exports the same names as this build's
 * (linked) libhashx and libequix: privately, and, where the system has
 * RTLD_DEEPBIND, with the loaded library's calls to its own functions
 * bound inside it. NULL on failure (dlerror() says why). */
void *bench_dlopen(const char *path);

/* Loads the shared object `path` privately (RTLD_LOCAL: two builds of the
 * same API can sit side by side) and looks up `n` symbols into syms[].
 * Returns 0, or -1 after a one-line message naming `tool`. */
int bench_load(const char *tool, const char *path, const char *const names[],
	       size_t n, void *syms[]);

/* Monotonic time in nanoseconds. */
double bench_now_ns(void);

/* Creates `dir` and its missing parents (mkdir -p), for the baselines
 * and the HTML report. Returns 0, or -1 with errno set (ENOTDIR when
 * `dir` exists but is not a directory). */
int bench_make_dirs(const char *dir);

#endif

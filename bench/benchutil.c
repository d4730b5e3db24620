/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * benchutil.c - loading a reference library, the clock, and mkdir -p.
 */
/* RTLD_DEEPBIND (glibc) */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "benchutil.h"

/* The sanitizer runtimes refuse RTLD_DEEPBIND (the library's calls would
 * escape their interceptors) and end the program, so a build with ASan or
 * TSan loads without it: there the reference's calls to its own exported
 * functions may bind to this build's, which only a benchmark would
 * notice, and sanitizer builds are not for benchmarks. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define BENCH_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define BENCH_SANITIZED 1
#endif
#endif

void *bench_dlopen(const char *path)
{
#if defined(RTLD_DEEPBIND) && !defined(BENCH_SANITIZED)
	return dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
#else
	return dlopen(path, RTLD_NOW | RTLD_LOCAL);
#endif
}

int bench_load(const char *tool, const char *path, const char *const names[],
	       size_t n, void *syms[])
{
	void *h = bench_dlopen(path);

	if (h == NULL) {
		fprintf(stderr, "%s: %s\n", tool, dlerror());
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		syms[i] = dlsym(h, names[i]);
		if (syms[i] == NULL) {
			fprintf(stderr, "%s: %s has no %s\n", tool, path,
				names[i]);
			return -1;
		}
	}
	return 0;
}

double bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
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

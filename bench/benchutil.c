/*
 * benchutil.c - loading a reference library, and the clock.
 */
/* RTLD_DEEPBIND (glibc) */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <time.h>

#include "benchutil.h"

void *bench_dlopen(const char *path)
{
#ifdef RTLD_DEEPBIND
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

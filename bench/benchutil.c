/*
 * benchutil.c - what the side-by-side benchmarks share.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "benchutil.h"

int bench_load(const char *tool, const char *path, const char *const names[],
	       size_t n, void *syms[])
{
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);

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

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

double bench_median(double *v, unsigned n)
{
	qsort(v, n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int bench_parse_uint(const char *s, unsigned *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *s == '\0' || *end != '\0' || v == 0 || v > 1000000)
		return -1;
	*out = (unsigned)v;
	return 0;
}

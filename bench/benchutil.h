/*
 * benchutil.h - what the side-by-side benchmarks share.
 */
#ifndef EQUIX_BENCHUTIL_H
#define EQUIX_BENCHUTIL_H

#include <stddef.h>

/* Loads the shared object `path` privately (RTLD_LOCAL: two builds of the
 * same API can sit side by side) and looks up `n` symbols into syms[].
 * Returns 0, or -1 after a one-line message naming `tool`. */
int bench_load(const char *tool, const char *path, const char *const names[],
	       size_t n, void *syms[]);

/* Monotonic time in nanoseconds. */
double bench_now_ns(void);

/* Median of v[0..n-1] (n > 0); sorts v. */
double bench_median(double *v, unsigned n);

/* Parses a decimal count in 1..1000000; -1 if `s` is not one. */
int bench_parse_uint(const char *s, unsigned *out);

#endif

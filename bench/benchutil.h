/*
 * benchutil.h - what the side-by-side benchmarks share.
 */
#ifndef EQUIX_BENCHUTIL_H
#define EQUIX_BENCHUTIL_H

/* Monotonic time in nanoseconds. */
double bench_now_ns(void);

/* Median of v[0..n-1] (n > 0); sorts v. */
double bench_median(double *v, unsigned n);

/* Parses a decimal count in 1..1000000; -1 if `s` is not one. */
int bench_parse_uint(const char *s, unsigned *out);

#endif

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * stats.h - the statistics of the benchmark harness, Criterion.rs's method
 * in C.
 *
 * A benchmark is measured as `n` samples; sample i runs the operation
 * iters[i] times (iteration counts growing linearly: d, 2d, ..., n*d) and
 * takes times[i] nanoseconds in total. From that:
 *  - the per-iteration time is the slope of the least-squares line through
 *    the origin, time = slope * iters (fixed costs per sample, such as
 *    reading the clock, fall out of it);
 *  - mean, median, standard deviation and median absolute deviation are
 *    taken over the per-sample averages times[i] / iters[i];
 *  - every estimate comes with a bootstrap confidence interval: the
 *    estimate recomputed on `nresamples` resamples drawn with replacement,
 *    and the interval between the (1-c)/2 and (1+c)/2 percentiles;
 *  - outliers are the averages outside Tukey's fences (1.5 and 3
 *    interquartile ranges beyond the quartiles);
 *  - a comparison against a baseline gives the relative change of the mean
 *    and the median with their intervals, and the p-value of a bootstrap
 *    two-sample test on Welch's t statistic.
 *
 * All resampling draws from a seeded generator, so results are
 * reproducible for given data and seed.
 */
#ifndef EQUIX_BENCH_STATS_H
#define EQUIX_BENCH_STATS_H

#include <stddef.h>
#include <stdint.h>

/* A point estimate and its confidence interval. */
typedef struct bench_interval {
	double point, lower, upper;
} bench_interval;

typedef struct bench_estimates {
	bench_interval slope; /* ns per iteration */
	bench_interval mean;  /* of the per-sample averages */
	bench_interval median;
	bench_interval std_dev;
	bench_interval median_abs_dev;
	double r_squared; /* of the regression line through the origin */
} bench_estimates;

typedef struct bench_outliers {
	size_t low_severe, low_mild, high_mild, high_severe;
	/* Fences: low severe, low mild, high mild, high severe. */
	double fence[4];
} bench_outliers;

typedef enum bench_verdict {
	BENCH_NO_CHANGE,
	BENCH_WITHIN_NOISE,
	BENCH_IMPROVED,
	BENCH_REGRESSED,
} bench_verdict;

typedef struct bench_change {
	bench_interval mean; /* relative: 0.05 is 5% slower than the base */
	bench_interval median;
	double p_value;
	bench_verdict verdict;
} bench_change;

typedef struct bench_stats_config {
	size_t nresamples;   /* default 100000 */
	double confidence;   /* default 0.95 */
	double significance; /* default 0.05 */
	double noise;        /* default 0.01 */
	uint64_t seed;       /* of the resampling generator */
} bench_stats_config;

void bench_stats_config_init(bench_stats_config *config);

/* Least-squares slope through the origin: sum(x*y) / sum(x*x). */
double bench_slope(const double *x, const double *y, size_t n);

/* Median of v[0..n-1] (n > 0) without changing v. */
double bench_median_of(const double *v, size_t n);

/* Estimates from n >= 2 samples. */
void bench_estimate(const double *iters, const double *times, size_t n,
		    const bench_stats_config *config, bench_estimates *out);

/* Tukey's fences over the per-sample averages avg[0..n-1]. */
void bench_outliers_classify(const double *avg, size_t n, bench_outliers *out);
size_t bench_outliers_total(const bench_outliers *o);

/* The change from a baseline's per-sample averages (base, n_base) to the
 * new ones (now, n_now), both n >= 2. */
void bench_compare(const double *base, size_t n_base, const double *now,
		   size_t n_now, const bench_stats_config *config,
		   bench_change *out);

/* A Gaussian kernel density estimate of v[0..n-1] (n > 0), as the HTML
 * report plots it. The bandwidth is Silverman's rule of thumb,
 * (4 / 3n)^(1/5) sigma, or for equal values 1% of their magnitude (1 at
 * zero), so the curve is a narrow bump rather than a division by zero. */
double bench_kde_bandwidth(const double *v, size_t n);

/* The density with bandwidth h at `points` evenly spaced xs[] over
 * [lo, hi] into ys[], times hi - lo, so no tiny bandwidth overflows it. */
void bench_kde(const double *v, size_t n, double h, double lo, double hi,
	       size_t points, double *xs, double *ys);

/* The sentence Criterion prints for a verdict. */
const char *bench_verdict_sentence(bench_verdict verdict);

#endif

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * stats.c - see stats.h. The choices follow Criterion.rs, so its reports
 * and ours can be read the same way: the slope through the origin, a
 * 1.4826-scaled median absolute deviation (comparable to a standard
 * deviation for normal data), percentiles with linear interpolation,
 * Tukey's fences, and a mixed bootstrap for the t test.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "seeded_rng.h"
#include "stats.h"

/* ---- Resampling generator ---------------------------------------------- */

/* An index in [0, n), from the tools' seeded generator (seeded_rng.h);
 * the bias of a modulo over n <= 10^6 is negligible for picking resample
 * indices. */
static size_t rng_index(seeded_rng *r, size_t n)
{
	return (size_t)(seeded_rng_next(r) % n);
}

/* ---- Plain statistics --------------------------------------------------- */

void bench_stats_config_init(bench_stats_config *c)
{
	c->nresamples = 100000;
	c->confidence = 0.95;
	c->significance = 0.05;
	c->noise = 0.01;
	c->seed = 0x5eed;
}

double bench_slope(const double *x, const double *y, size_t n)
{
	double xy = 0, xx = 0;
	for (size_t i = 0; i < n; i++) {
		xy += x[i] * y[i];
		xx += x[i] * x[i];
	}
	return xx > 0 ? xy / xx : 0;
}

static double mean_of(const double *v, size_t n)
{
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	return sum / (double)n;
}

/* Sample variance (n - 1 in the denominator). */
static double variance_of(const double *v, size_t n, double mean)
{
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += (v[i] - mean) * (v[i] - mean);
	return n > 1 ? sum / (double)(n - 1) : 0;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The p-th percentile (0..100) of sorted v, interpolating between ranks. */
static double percentile_sorted(const double *v, size_t n, double p)
{
	double rank = p / 100 * (double)(n - 1);
	size_t lo = (size_t)floor(rank);
	size_t hi = lo + 1 < n ? lo + 1 : lo;
	return v[lo] + (v[hi] - v[lo]) * (rank - (double)lo);
}

static void swap(double *v, size_t a, size_t b)
{
	double t = v[a];
	v[a] = v[b];
	v[b] = t;
}

/* The k-th smallest of v, reordering v so that everything before index k
 * is no larger: quickselect with a three-way partition (equal values,
 * common in timings, end the search at once). The bootstrap takes two
 * medians per resample, where sorting would dominate. */
static double select_kth(double *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n; /* k is within [lo, hi) */

	while (hi - lo > 1) {
		double pivot = v[lo + (hi - lo) / 2];
		size_t lt = lo, i = lo, gt = hi;

		while (i < gt) {
			if (v[i] < pivot)
				swap(v, lt++, i++);
			else if (v[i] > pivot)
				swap(v, i, --gt);
			else
				i++;
		}
		if (k < lt)
			hi = lt;
		else if (k >= gt)
			lo = gt;
		else
			return pivot;
	}
	return v[k];
}

static double median_in_place(double *v, size_t n)
{
	double upper = select_kth(v, n, n / 2), lower = v[0];
	if (n % 2)
		return upper;
	for (size_t i = 1; i < n / 2; i++)
		lower = fmax(lower, v[i]);
	return (lower + upper) / 2;
}

double bench_median_of(const double *v, size_t n)
{
	double *copy = malloc(n * sizeof *copy), m = NAN;
	if (copy != NULL) {
		memcpy(copy, v, n * sizeof *copy);
		m = median_in_place(copy, n);
	}
	free(copy);
	return m;
}

/* ---- Bootstrap ---------------------------------------------------------- */

/* The interval of a bootstrap distribution (sorted in place). */
static bench_interval interval_from(double *dist, size_t n, double confidence,
				    double point)
{
	bench_interval iv = {point, 0, 0};
	qsort(dist, n, sizeof *dist, compare_doubles);
	iv.lower = percentile_sorted(dist, n, 50 * (1 - confidence));
	iv.upper = percentile_sorted(dist, n, 50 * (1 + confidence));
	return iv;
}

enum { EST_MEAN, EST_MEDIAN, EST_STD_DEV, EST_MAD, EST_SLOPE, EST_COUNT };

/* The estimates from the samples at indices drawn with replacement by r,
 * or from the samples themselves when r is NULL. The averages' statistics
 * and the slope take the same indices. */
static void estimate_once(seeded_rng *r, const double *iters, const double *times,
			  const double *avg, size_t n, double *scratch,
			  double est[EST_COUNT])
{
	double xy = 0, xx = 0;
	for (size_t i = 0; i < n; i++) {
		size_t k = r != NULL ? rng_index(r, n) : i;

		scratch[i] = avg[k];
		xy += iters[k] * times[k];
		xx += iters[k] * iters[k];
	}
	est[EST_SLOPE] = xx > 0 ? xy / xx : 0;
	est[EST_MEAN] = mean_of(scratch, n);
	est[EST_STD_DEV] = sqrt(variance_of(scratch, n, est[EST_MEAN]));
	est[EST_MEDIAN] = median_in_place(scratch, n);
	/* 1.4826 makes the MAD estimate the standard deviation of normal
	 * data. */
	for (size_t i = 0; i < n; i++)
		scratch[i] = fabs(scratch[i] - est[EST_MEDIAN]);
	est[EST_MAD] = 1.4826 * median_in_place(scratch, n);
}

static double r_squared(const double *x, const double *y, size_t n,
			double slope)
{
	double mean = mean_of(y, n), ss_res = 0, ss_tot = 0;
	for (size_t i = 0; i < n; i++) {
		double e = y[i] - slope * x[i];

		ss_res += e * e;
		ss_tot += (y[i] - mean) * (y[i] - mean);
	}
	return ss_tot > 0 ? 1 - ss_res / ss_tot : 1;
}

void bench_estimate(const double *iters, const double *times, size_t n,
		    const bench_stats_config *config, bench_estimates *out)
{
	size_t b = config->nresamples ? config->nresamples : 1;
	double *avg = malloc(n * sizeof *avg);
	double *scratch = malloc(n * sizeof *scratch);
	double *dist = malloc(EST_COUNT * b * sizeof *dist);
	double est[EST_COUNT];
	bench_interval *targets[EST_COUNT] = {
		&out->mean, &out->median, &out->std_dev, &out->median_abs_dev,
		&out->slope};
	seeded_rng r;
	memset(out, 0, sizeof *out);
	if (avg == NULL || scratch == NULL || dist == NULL || n == 0)
		goto done;
	for (size_t i = 0; i < n; i++)
		avg[i] = times[i] / iters[i];
	seeded_rng_seed(&r, config->seed);
	for (size_t j = 0; j < b; j++) {
		estimate_once(&r, iters, times, avg, n, scratch, est);
		for (int e = 0; e < EST_COUNT; e++)
			dist[e * b + j] = est[e];
	}
	estimate_once(NULL, iters, times, avg, n, scratch, est);
	for (int e = 0; e < EST_COUNT; e++)
		*targets[e] = interval_from(dist + e * b, b, config->confidence,
					    est[e]);
	out->r_squared = r_squared(iters, times, n, est[EST_SLOPE]);
done:
	free(avg);
	free(scratch);
	free(dist);
}

/* ---- Outliers ----------------------------------------------------------- */

void bench_outliers_classify(const double *avg, size_t n, bench_outliers *out)
{
	double *sorted = malloc(n * sizeof *sorted), q1, q3;
	memset(out, 0, sizeof *out);
	if (n == 0 || sorted == NULL) {
		free(sorted);
		return;
	}
	memcpy(sorted, avg, n * sizeof *sorted);
	qsort(sorted, n, sizeof *sorted, compare_doubles);
	q1 = percentile_sorted(sorted, n, 25);
	q3 = percentile_sorted(sorted, n, 75);
	free(sorted);
	out->fence[0] = q1 - 3 * (q3 - q1);
	out->fence[1] = q1 - 1.5 * (q3 - q1);
	out->fence[2] = q3 + 1.5 * (q3 - q1);
	out->fence[3] = q3 + 3 * (q3 - q1);
	for (size_t i = 0; i < n; i++) {
		if (avg[i] < out->fence[0])
			out->low_severe++;
		else if (avg[i] < out->fence[1])
			out->low_mild++;
		else if (avg[i] > out->fence[3])
			out->high_severe++;
		else if (avg[i] > out->fence[2])
			out->high_mild++;
	}
}

size_t bench_outliers_total(const bench_outliers *o)
{
	return o->low_severe + o->low_mild + o->high_mild + o->high_severe;
}

/* ---- Comparison --------------------------------------------------------- */

static double welch_t(const double *a, size_t na, const double *b, size_t nb)
{
	double ma = mean_of(a, na), mb = mean_of(b, nb);
	double se = sqrt(variance_of(a, na, ma) / (double)na +
			 variance_of(b, nb, mb) / (double)nb);

	if (se > 0)
		return (ma - mb) / se;
	return ma == mb ? 0 : (ma > mb ? INFINITY : -INFINITY);
}

/* Under the null hypothesis both sets come from one distribution: draw
 * both from their union (mixed) and see how often t is as extreme as
 * observed (two-tailed, as Criterion reports it). */
static double t_test_p_value(const double *mixed, size_t nb, size_t nn,
			     size_t resamples, seeded_rng *r, double *x)
{
	double t = welch_t(mixed + nb, nn, mixed, nb);
	size_t total = nb + nn, below = 0, tail;
	for (size_t j = 0; j < resamples; j++) {
		for (size_t i = 0; i < total; i++)
			x[i] = mixed[rng_index(r, total)];
		below += welch_t(x + nb, nn, x, nb) < t;
	}
	tail = below < resamples - below ? below : resamples - below;
	return fmin(2.0 * (double)tail / (double)resamples, 1);
}

/* Relative changes of the mean and the median, each set (base, then now,
 * in one array) resampled on its own into x. */
static void relative_changes(const double *v, size_t nb, size_t nn,
			     const bench_stats_config *c, seeded_rng *r, double *x,
			     double *dist, bench_change *out)
{
	size_t b = c->nresamples;
	double *xn = x + nb;
	for (size_t j = 0; j < b; j++) {
		for (size_t i = 0; i < nb; i++)
			x[i] = v[rng_index(r, nb)];
		for (size_t i = 0; i < nn; i++)
			xn[i] = v[nb + rng_index(r, nn)];
		dist[j] = mean_of(xn, nn) / mean_of(x, nb) - 1;
		dist[b + j] =
			median_in_place(xn, nn) / median_in_place(x, nb) - 1;
	}
	out->mean = interval_from(dist, b, c->confidence,
				  mean_of(v + nb, nn) / mean_of(v, nb) - 1);
	out->median = interval_from(
		dist + b, b, c->confidence,
		bench_median_of(v + nb, nn) / bench_median_of(v, nb) - 1);
}

void bench_compare(const double *base, size_t n_base, const double *now,
		   size_t n_now, const bench_stats_config *config,
		   bench_change *out)
{
	bench_stats_config c = *config;
	size_t total = n_base + n_now;
	double *v = malloc(total * sizeof *v), *x = malloc(total * sizeof *x);
	double *dist;
	seeded_rng r;
	memset(out, 0, sizeof *out);
	c.nresamples = c.nresamples ? c.nresamples : 1;
	dist = malloc(2 * c.nresamples * sizeof *dist);
	out->p_value = NAN;
	if (v != NULL && x != NULL && dist != NULL) {
		memcpy(v, base, n_base * sizeof *v);
		memcpy(v + n_base, now, n_now * sizeof *v);
		seeded_rng_seed(&r, c.seed ^ 0xc0ffee);
		out->p_value = t_test_p_value(v, n_base, n_now, c.nresamples,
					      &r, x);
		relative_changes(v, n_base, n_now, &c, &r, x, dist, out);
	}
	free(v);
	free(x);
	free(dist);
	if (!(out->p_value < c.significance))
		out->verdict = BENCH_NO_CHANGE;
	else if (out->mean.upper < -c.noise)
		out->verdict = BENCH_IMPROVED;
	else if (out->mean.lower > c.noise)
		out->verdict = BENCH_REGRESSED;
	else
		out->verdict = BENCH_WITHIN_NOISE;
}

/* ---- Kernel density ----------------------------------------------------- */

double bench_kde_bandwidth(const double *v, size_t n)
{
	double m = mean_of(v, n);
	double h = pow(4.0 / (3.0 * (double)n), 0.2) * sqrt(variance_of(v, n, m));
	if (!isfinite(h) || h <= fabs(m) * 1e-9)
		h = fabs(m) * 0.01;
	return isfinite(h) && h > 0 ? h : 1.0;
}

void bench_kde(const double *v, size_t n, double h, double lo, double hi,
	       size_t points, double *xs, double *ys)
{
	/* sqrt(2 pi): the Gaussian kernel integrates to 1 */
	double norm = (hi - lo) / h / ((double)n * 2.5066282746310002);
	for (size_t i = 0; i < points; i++) {
		double x = lo + (hi - lo) * (double)i / (double)(points - 1);
		double sum = 0;

		for (size_t j = 0; j < n; j++)
			sum += exp(-0.5 * ((x - v[j]) / h) * ((x - v[j]) / h));
		xs[i] = x;
		ys[i] = sum * norm;
	}
}

const char *bench_verdict_sentence(bench_verdict verdict)
{
	static const char *const sentence[] = {
		[BENCH_NO_CHANGE] = "No change in performance detected.",
		[BENCH_WITHIN_NOISE] = "Change within noise threshold.",
		[BENCH_IMPROVED] = "Performance has improved.",
		[BENCH_REGRESSED] = "Performance has regressed.",
	};

	return (unsigned)verdict <= BENCH_REGRESSED ? sentence[verdict] : "";
}

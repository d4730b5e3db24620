/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_bench_stats.c - the benchmark harness's statistics against known
 * results: the slope of exact and offset linear data, the coverage of
 * bootstrap intervals over many synthetic normal samples, outlier counts
 * on a crafted sample (expected counts computed separately in Python with
 * the same percentile rule), medians and MAD by hand, and the t test's
 * p-value and verdict for identical, clearly different and nearly equal
 * sample sets.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>

#include "stats.h"
#include "testutil.h"

#define N 100

/* A deterministic normal generator for synthetic data (Box-Muller over a
 * 64-bit LCG), independent of the one inside stats.c. */
static uint64_t lcg_state;

static double uniform01(void)
{
	lcg_state = lcg_state * 6364136223846793005u + 1442695040888963407u;
	return ((double)(lcg_state >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(double mean, double sd)
{
	double u = uniform01(), v = uniform01();
	return mean + sd * sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

static bench_stats_config config_with(size_t resamples, uint64_t seed)
{
	bench_stats_config c;
	bench_stats_config_init(&c);
	c.nresamples = resamples;
	c.seed = seed;
	return c;
}

START_TEST(defaults)
{
	bench_stats_config c;
	bench_stats_config_init(&c);
	ck_assert_uint_eq(c.nresamples, 100000);
	ck_assert_double_eq(c.confidence, 0.95);
	ck_assert_double_eq(c.significance, 0.05);
	ck_assert_double_eq(c.noise, 0.01);
}
END_TEST

START_TEST(slope_of_linear_data)
{
	double x[N], y[N], offset[N];
	bench_estimates e;
	bench_stats_config c = config_with(1000, 1);

	for (int i = 0; i < N; i++) {
		x[i] = i + 1;
		y[i] = 7 * x[i];
		offset[i] = 5 * x[i] + 10;
	}
	ck_assert_double_eq_tol(bench_slope(x, y, N), 7, 1e-12);
	/* Through the origin: 5 + 10 * sum(x) / sum(x^2). */
	ck_assert_double_eq_tol(bench_slope(x, offset, N),
				5 + 10 * 5050.0 / 338350.0, 1e-12);
	bench_estimate(x, y, N, &c, &e);
	ck_assert_double_eq_tol(e.slope.point, 7, 1e-12);
	ck_assert_double_eq_tol(e.slope.lower, 7, 1e-12);
	ck_assert_double_eq_tol(e.slope.upper, 7, 1e-12);
	ck_assert_double_eq_tol(e.mean.point, 7, 1e-12);
	ck_assert_double_eq_tol(e.median.point, 7, 1e-12);
	ck_assert_double_eq_tol(e.std_dev.point, 0, 1e-12);
	ck_assert_double_eq_tol(e.r_squared, 1, 1e-12);
}
END_TEST

START_TEST(medians_and_mad)
{
	const double odd[] = {5, 1, 3}, even[] = {4, 1, 3, 2};
	const double skewed[] = {1, 2, 3, 4, 100};
	double x[5] = {1, 1, 1, 1, 1}, t[5];
	bench_estimates e;
	bench_stats_config c = config_with(100, 2);

	ck_assert_double_eq(bench_median_of(odd, 3), 3);
	ck_assert_double_eq(bench_median_of(even, 4), 2.5);
	ck_assert_double_eq(odd[0], 5); /* unchanged */
	for (int i = 0; i < 5; i++)
		t[i] = skewed[i];
	bench_estimate(x, t, 5, &c, &e);
	ck_assert_double_eq_tol(e.median.point, 3, 1e-12);
	/* deviations 2 1 0 1 97: median 1, scaled by 1.4826 */
	ck_assert_double_eq_tol(e.median_abs_dev.point, 1.4826, 1e-12);
	ck_assert_double_eq_tol(e.mean.point, 22, 1e-12);
	ck_assert_double_eq_tol(e.std_dev.point, sqrt(7610.0 / 4), 1e-9);
}
END_TEST

/* A 95% interval should contain the true mean in about 95% of samples
 * (the percentile bootstrap runs a little under at n = 100). Under
 * valgrind a twentieth of the trials, which visit the same code, and
 * without the bounds on the counts, which need all 200. */
START_TEST(bootstrap_coverage)
{
	enum { TRIALS = 200 };
	const int trials = tu_count(TRIALS);
	double x[N], y[N];
	int covered = 0, slope_covered = 0;
	bench_estimates e;

	lcg_state = 12345;
	for (int t = 0; t < trials; t++) {
		bench_stats_config c = config_with(2000, (uint64_t)t + 1);
		for (int i = 0; i < N; i++) {
			x[i] = i + 1;
			y[i] = x[i] * normal(100, 10);
		}
		bench_estimate(x, y, N, &c, &e);
		covered += e.mean.lower <= 100 && 100 <= e.mean.upper;
		slope_covered += e.slope.lower <= 100 && 100 <= e.slope.upper;
		ck_assert(e.mean.lower <= e.mean.point &&
			  e.mean.point <= e.mean.upper);
	}
	if (!tu_all_ran(trials, TRIALS, "bootstrap_coverage's coverage bounds"))
		return;
	ck_assert_int_ge(covered, (int)(0.89 * TRIALS));
	ck_assert_int_le(covered, (int)(0.99 * TRIALS));
	ck_assert_int_ge(slope_covered, (int)(0.89 * TRIALS));
	ck_assert_int_le(slope_covered, (int)(0.99 * TRIALS));
}
END_TEST

START_TEST(outlier_counts)
{
	double v[N];
	bench_outliers o;
	int k = 0;

	for (int i = 1; i <= 95; i++)
		v[k++] = i;
	v[k++] = -150; /* below q1 - 3 IQR: low severe */
	v[k++] = -60;  /* low mild */
	v[k++] = 160;  /* high mild */
	v[k++] = 230;  /* high severe */
	v[k++] = 400;  /* high severe */
	bench_outliers_classify(v, N, &o);
	ck_assert_double_eq_tol(o.fence[0], -124.75, 1e-9);
	ck_assert_double_eq_tol(o.fence[1], -50.5, 1e-9);
	ck_assert_double_eq_tol(o.fence[2], 147.5, 1e-9);
	ck_assert_double_eq_tol(o.fence[3], 221.75, 1e-9);
	ck_assert_uint_eq(o.low_severe, 1);
	ck_assert_uint_eq(o.low_mild, 1);
	ck_assert_uint_eq(o.high_mild, 1);
	ck_assert_uint_eq(o.high_severe, 2);
	ck_assert_uint_eq(bench_outliers_total(&o), 5);

	for (int i = 0; i < N; i++)
		v[i] = 42;
	bench_outliers_classify(v, N, &o);
	ck_assert_uint_eq(bench_outliers_total(&o), 0);
}
END_TEST

START_TEST(compare_sets)
{
	double a[N], b[N], slower[N], nearly[N];
	bench_change ch;
	bench_stats_config c = config_with(10000, 3);

	lcg_state = 777;
	for (int i = 0; i < N; i++) {
		a[i] = normal(100, 1);
		b[i] = normal(100, 1);
		slower[i] = normal(120, 1);
		nearly[i] = a[i] * 1.005;
	}
	/* The same set twice: t = 0, nothing to see. */
	bench_compare(a, N, a, N, &c, &ch);
	ck_assert(ch.p_value > 0.9);
	ck_assert_int_eq(ch.verdict, BENCH_NO_CHANGE);
	ck_assert_double_eq_tol(ch.mean.point, 0, 1e-12);
	/* Two draws from one distribution: usually no change. */
	bench_compare(a, N, b, N, &c, &ch);
	ck_assert(ch.p_value > 0.05);
	ck_assert_int_eq(ch.verdict, BENCH_NO_CHANGE);
	/* 20% slower, far beyond the noise. */
	bench_compare(a, N, slower, N, &c, &ch);
	ck_assert(ch.p_value < 0.001);
	ck_assert_int_eq(ch.verdict, BENCH_REGRESSED);
	ck_assert(ch.mean.lower > 0.19 && ch.mean.upper < 0.21);
	ck_assert(ch.median.lower > 0.19 && ch.median.upper < 0.21);
	bench_compare(slower, N, a, N, &c, &ch);
	ck_assert_int_eq(ch.verdict, BENCH_IMPROVED);
	ck_assert(ch.mean.upper < -0.15);
	/* 0.5% slower: a real difference, but within the 1% noise. */
	bench_compare(a, N, nearly, N, &c, &ch);
	ck_assert_double_eq_tol(ch.mean.point, 0.005, 1e-9);
	ck_assert_int_eq(ch.verdict, ch.p_value < 0.05 ? BENCH_WITHIN_NOISE
						       : BENCH_NO_CHANGE);
	ck_assert_str_eq(bench_verdict_sentence(BENCH_IMPROVED),
			 "Performance has improved.");
	ck_assert_str_eq(bench_verdict_sentence(BENCH_REGRESSED),
			 "Performance has regressed.");
	ck_assert_str_eq(bench_verdict_sentence(BENCH_NO_CHANGE),
			 "No change in performance detected.");
	ck_assert_str_eq(bench_verdict_sentence(BENCH_WITHIN_NOISE),
			 "Change within noise threshold.");
}
END_TEST

/* The same data and seed give the same intervals. */
START_TEST(reproducible)
{
	double x[N], y[N];
	bench_estimates e1, e2;
	bench_stats_config c = config_with(3000, 99);

	lcg_state = 5;
	for (int i = 0; i < N; i++) {
		x[i] = i + 1;
		y[i] = x[i] * normal(50, 5);
	}
	bench_estimate(x, y, N, &c, &e1);
	bench_estimate(x, y, N, &c, &e2);
	ck_assert_double_eq(e1.slope.lower, e2.slope.lower);
	ck_assert_double_eq(e1.median.upper, e2.median.upper);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bench_stats");
	TCase *t = tcase_create("stats");

	tcase_set_timeout(t, 120);
	tcase_add_test(t, defaults);
	tcase_add_test(t, slope_of_linear_data);
	tcase_add_test(t, medians_and_mad);
	tcase_add_test(t, bootstrap_coverage);
	tcase_add_test(t, outlier_counts);
	tcase_add_test(t, compare_sets);
	tcase_add_test(t, reproducible);
	suite_add_tcase(s, t);
	return tu_run_suite(s);
}

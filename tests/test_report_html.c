/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_report_html.c - the HTML report (bench/report_html.c): from
 * synthetic records (with and without baseline, change, twin and
 * throughput, and degenerate ones: no samples, one sample, equal values,
 * huge and tiny times, a hostile name) it writes an index that links a
 * page per record, each page with three SVG plots, names escaped, and no
 * "nan" or "inf" anywhere. The estimates are filled in by hand: the test
 * does not depend on the statistics module. Then the plotting code's
 * axes (tools/common/svg_plot.c), which both the report and pow
 * simulate's plots draw on: the log axis's ticks and mapping (zero, its
 * linear part, increasing), and a log plot's SVG.
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report_html.h"
#include "svg_plot.h"
#include "testutil.h"

#define MAX_RECORDS 16
#define HOSTILE "a<b>&\"c"
#define HOSTILE_ESCAPED "a&lt;b&gt;&amp;&quot;c"

/* ---- synthetic records ---------------------------------------------- */

static double iters_buf[MAX_RECORDS][2][64];
static double times_buf[MAX_RECORDS][2][64];

/* n samples of `per_iter` ns per iteration (iterations d, 2d, ...), with
 * a deterministic wobble of `noise` (relative) and one slow sample. */
static void fill_samples(bench_samples *s, double *iters, double *times,
			 size_t n, double d, double per_iter, double noise)
{
	s->n = n;
	s->iters = iters;
	s->times = times;
	for (size_t i = 0; i < n; i++) {
		double wobble = noise * (double)((i * 7919) % 13) / 13.0;

		iters[i] = d * (i + 1);
		times[i] = iters[i] * per_iter * (1 + wobble);
		if (i == n / 2 && noise > 0)
			times[i] *= 1 + 20 * noise;
	}
}

static bench_interval interval(double point, double rel)
{
	bench_interval iv = {point, point * (1 - rel), point * (1 + rel)};
	return iv;
}

/* Estimates around `per_iter`, as the statistics module would roughly
 * give them; the fences at the usual distances. */
static void fill_estimates(bench_record *r, double per_iter)
{
	double spread = per_iter * 0.02;

	r->estimates.slope = interval(per_iter, 0.01);
	r->estimates.mean = interval(per_iter * 1.02, 0.015);
	r->estimates.median = interval(per_iter * 1.01, 0.01);
	r->estimates.std_dev = interval(spread, 0.2);
	r->estimates.median_abs_dev = interval(spread * 0.7, 0.2);
	r->estimates.r_squared = 0.998;
	r->outliers.fence[0] = per_iter - 4 * spread;
	r->outliers.fence[1] = per_iter - 2 * spread;
	r->outliers.fence[2] = per_iter + 3 * spread;
	r->outliers.fence[3] = per_iter + 5 * spread;
	r->outliers.high_severe = 1;
	r->twin = -1;
}

static void add(bench_record *rs, size_t *n, const char *name, size_t ns,
		double per_iter, double noise)
{
	bench_record *r = &rs[*n];

	memset(r, 0, sizeof(*r));
	r->name = name;
	r->group = "group";
	fill_samples(&r->samples, iters_buf[*n][0], times_buf[*n][0], ns, 10,
		     per_iter, noise);
	fill_estimates(r, per_iter);
	(*n)++;
}

/* A baseline 10% slower, and the change it makes. */
static void add_baseline(bench_record *r, size_t i, double per_iter)
{
	fill_samples(&r->baseline, iters_buf[i][1], times_buf[i][1], 40, 10,
		     per_iter * 1.1, 0.03);
	r->has_change = 1;
	r->change.mean = interval(-0.09, 0.1);
	r->change.median = interval(-0.085, 0.1);
	r->change.p_value = 0.001;
	r->change.verdict = BENCH_IMPROVED;
}

/* Every kind of record the report must survive; returns the count. */
static size_t make_records(bench_record *rs)
{
	size_t n = 0;

	add(rs, &n, "verify/interp", 50, 1500, 0.02);
	add_baseline(&rs[0], 0, 1500);
	rs[0].elements = 1;
	rs[0].element_unit = "verification";
	rs[0].twin = 1;
	add(rs, &n, "verify/interp-ref", 50, 3000, 0.02);
	add(rs, &n, HOSTILE, 20, 80, 0.05);
	add(rs, &n, "one/sample", 1, 200, 0);
	add(rs, &n, "equal/values", 30, 42, 0);
	add(rs, &n, "huge", 30, 4e13, 0.01);
	add(rs, &n, "tiny", 30, 2e-4, 0.01);
	add(rs, &n, "no-samples", 0, 1, 0);
	rs[n - 1].estimates.slope.point = NAN;
	rs[n - 1].estimates.mean.upper = INFINITY;
	rs[n - 1].estimates.r_squared = NAN;
	rs[n - 1].outliers.fence[2] = NAN;
	add(rs, &n, "index", 10, 5, 0.01); /* must not replace index.html */
	add(rs, &n, "a/b", 10, 5, 0.01);
	add(rs, &n, "a_b", 10, 5, 0.01); /* same file name as "a/b" */
	add(rs, &n, "bad/twin", 10, 5, 0.01);
	rs[n - 1].twin = 99;
	add(rs, &n, "zero/slope/twin", 10, 0, 0);
	rs[n - 1].twin = 1;
	rs[n - 1].has_change = 1;
	rs[n - 1].change.p_value = NAN;
	return n;
}

/* ---- files ---------------------------------------------------------- */

static char tmp_root[256];

static void make_tmp(void)
{
	const char *t = getenv("TMPDIR");

	snprintf(tmp_root, sizeof(tmp_root), "%s/test_report_html.XXXXXX",
		 t != NULL && *t != '\0' ? t : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(tmp_root));
}

/* Removes dir and everything below it (files and directories). */
static void remove_tree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[1024];

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		struct stat st;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
			remove_tree(path);
		else
			unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

/* The whole file, NUL-terminated; fails the test if unreadable. */
static char *slurp(const char *dir, const char *file)
{
	char path[1024];
	FILE *f;
	long len;
	char *buf;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	ck_assert_int_ge(len, 0);
	rewind(f);
	buf = malloc(len + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, len, f), (size_t)len);
	buf[len] = '\0';
	fclose(f);
	return buf;
}

static size_t count(const char *hay, const char *needle)
{
	size_t k = 0;

	for (const char *p = strstr(hay, needle); p != NULL;
	     p = strstr(p + 1, needle))
		k++;
	return k;
}

/* No "nan" or "inf" in any case: no non-finite number was printed. */
static void assert_finite_text(const char *file, const char *text)
{
	for (const char *p = text; p[0] && p[1] && p[2]; p++) {
		char w[4] = {(char)tolower((unsigned char)p[0]),
			     (char)tolower((unsigned char)p[1]),
			     (char)tolower((unsigned char)p[2]), 0};

		ck_assert_msg(strcmp(w, "nan") != 0 && strcmp(w, "inf") != 0,
			      "%s contains \"%.12s\"", file, p);
	}
}

/* The page files linked from the index, in order (at most `max`). */
static size_t index_links(const char *index, char links[][256], size_t max)
{
	const char *p = index;
	size_t k = 0;

	while ((p = strstr(p, "<a href=\"")) != NULL && k < max) {
		const char *q = strchr(p + 9, '"');

		ck_assert_ptr_nonnull(q);
		ck_assert_int_lt(q - (p + 9), 256);
		memcpy(links[k], p + 9, q - (p + 9));
		links[k][q - (p + 9)] = '\0';
		k++;
		p = q;
	}
	return k;
}

/* ---- tests ---------------------------------------------------------- */

/* Every page is linked once, exists, and holds the three plots. */
START_TEST(index_links_every_page)
{
	bench_record rs[MAX_RECORDS];
	size_t n = make_records(rs);
	char err[256] = "", links[MAX_RECORDS + 4][256];
	char *index;
	size_t k;

	make_tmp();
	ck_assert_msg(
		bench_report_html_write(tmp_root, rs, n, err, sizeof(err)) == 0,
		"%s", err);
	index = slurp(tmp_root, "index.html");
	ck_assert_ptr_nonnull(strstr(index, "<!DOCTYPE html>"));
	k = index_links(index, links, MAX_RECORDS + 4);
	ck_assert_uint_eq(k, n);
	for (size_t i = 0; i < k; i++) {
		char *page = slurp(tmp_root, links[i]);

		ck_assert_str_ne(links[i], "index.html");
		for (size_t j = 0; j < i; j++)
			ck_assert_str_ne(links[i], links[j]);
		ck_assert_uint_eq(count(page, "<svg"), 3);
		ck_assert_uint_eq(count(page, "</svg>"), 3);
		ck_assert_ptr_nonnull(strstr(page, "href=\"index.html\""));
		assert_finite_text(links[i], page);
		free(page);
	}
	assert_finite_text("index.html", index);
	free(index);
	remove_tree(tmp_root);
}
END_TEST

START_TEST(names_escaped)
{
	bench_record rs[MAX_RECORDS];
	size_t n = make_records(rs);
	char err[256] = "";
	char *index, *page;

	make_tmp();
	ck_assert_int_eq(
		bench_report_html_write(tmp_root, rs, n, err, sizeof(err)), 0);
	index = slurp(tmp_root, "index.html");
	ck_assert_ptr_nonnull(strstr(index, HOSTILE_ESCAPED));
	ck_assert_ptr_null(strstr(index, HOSTILE));
	/* The page name keeps only [A-Za-z0-9_.-]. */
	page = slurp(tmp_root, "abc.html");
	ck_assert_ptr_nonnull(strstr(page, "<h1>" HOSTILE_ESCAPED "</h1>"));
	ck_assert_ptr_null(strstr(page, HOSTILE));
	free(page);
	free(index);
	remove_tree(tmp_root);
}
END_TEST

/* The twin's ratio, the throughput, the change and the baseline. */
START_TEST(twin_change_throughput)
{
	bench_record rs[MAX_RECORDS];
	size_t n = make_records(rs);
	char err[256] = "";
	char *index, *page;

	make_tmp();
	ck_assert_int_eq(
		bench_report_html_write(tmp_root, rs, n, err, sizeof(err)), 0);
	index = slurp(tmp_root, "index.html");
	ck_assert_ptr_nonnull(strstr(index, "2.00x faster"));
	ck_assert_ptr_nonnull(strstr(index, "Performance has improved."));
	ck_assert_ptr_nonnull(strstr(index, "666.67 Kverification/s"));
	/* The ratio chart draws one bar: one twin pair is valid. */
	ck_assert_uint_eq(count(index, "<svg"), 1);
	page = slurp(tmp_root, "verify_interp.html");
	ck_assert_ptr_nonnull(strstr(page, "1.5000 \xc2\xb5s"));
	ck_assert_ptr_nonnull(strstr(page, "-9.0000%"));
	ck_assert_ptr_nonnull(strstr(page, "Baseline"));
	ck_assert_ptr_nonnull(strstr(page, "href=\"verify_interp-ref.html\""));
	free(page);
	free(index);
	remove_tree(tmp_root);
}
END_TEST

/* No records: an index saying so, in a directory created with its
 * missing parent. */
START_TEST(no_records_nested_dir)
{
	char err[256] = "", dir[512];
	char *index;

	make_tmp();
	snprintf(dir, sizeof(dir), "%s/parent/report", tmp_root);
	ck_assert_int_eq(
		bench_report_html_write(dir, NULL, 0, err, sizeof(err)), 0);
	index = slurp(dir, "index.html");
	ck_assert_ptr_nonnull(strstr(index, "No benchmarks"));
	ck_assert_uint_eq(count(index, "<svg"), 0);
	free(index);
	remove_tree(tmp_root);
}
END_TEST

/* A directory that cannot be made: -1 and a one-line message. */
START_TEST(error_reported)
{
	bench_record rs[MAX_RECORDS];
	size_t n = make_records(rs);
	char err[256] = "", dir[512];
	FILE *f;

	make_tmp();
	snprintf(dir, sizeof(dir), "%s/file", tmp_root);
	f = fopen(dir, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	snprintf(dir, sizeof(dir), "%s/file/report", tmp_root);
	ck_assert_int_eq(bench_report_html_write(dir, rs, n, err, sizeof(err)),
			 -1);
	ck_assert_uint_gt(strlen(err), 0);
	ck_assert_ptr_null(strchr(err, '\n'));
	ck_assert_ptr_nonnull(strstr(err, "file"));
	/* A tiny buffer is not overrun. */
	ck_assert_int_eq(bench_report_html_write(dir, rs, n, err, 4), -1);
	ck_assert_uint_le(strlen(err), 3);
	remove_tree(tmp_root);
}
END_TEST

/* ---- svg_plot's axes ------------------------------------------------ */

/* An axis over [lo, hi], labels as values; log_from 0 is linear. */
static svg_axis axis(double lo, double hi, double log_from)
{
	svg_axis a = {lo, hi, 1, NULL, 1, log_from};
	return a;
}

/* The ticks of `a` are exactly want[0 .. n - 1]. */
static void assert_ticks(const svg_axis *a, const double *want, size_t n)
{
	double t[40];
	size_t got = svg_axis_ticks(a, t, 40);

	ck_assert_uint_eq(got, n);
	for (size_t i = 0; i < n; i++)
		ck_assert_msg(t[i] == want[i], "tick %zu: %g, want %g", i,
			      t[i], want[i]);
}

/* A log axis's ticks are 0 and log_from times the powers of ten, up to
 * and including its end; a linear axis keeps its nice steps. */
START_TEST(log_axis_ticks)
{
	svg_axis traffic = axis(0, 10000, 1), half = axis(0, 50, 0.5);
	svg_axis both = axis(-1000, 100, 1), linear = axis(0, 2500, 0);
	static const double traffic_t[] = {0, 1, 10, 100, 1000, 10000};
	static const double half_t[] = {0, 0.5, 5, 50};
	static const double both_t[] = {-1000, -100, -10, -1, 0, 1, 10, 100};
	static const double linear_t[] = {0, 500, 1000, 1500, 2000, 2500};

	assert_ticks(&traffic, traffic_t, 6);
	assert_ticks(&half, half_t, 4);
	assert_ticks(&both, both_t, 8);
	assert_ticks(&linear, linear_t, 6);
}
END_TEST

/* Thirty powers of ten are too many labels: fewer are drawn, still
 * ascending powers of ten from 0; a log axis whose range lies in its
 * linear part (below 1) gets linear ticks rather than a lone 0. */
START_TEST(log_axis_ticks_few)
{
	svg_axis wide = axis(0, 1e30, 1), small = axis(0, 0.8, 1);
	double t[40];
	size_t n = svg_axis_ticks(&wide, t, 40);

	ck_assert_uint_ge(n, 4);
	ck_assert_uint_le(n, 12);
	ck_assert(t[0] == 0 && t[1] == 1);
	for (size_t i = 2; i < n; i++) {
		double e = log10(t[i]);
		ck_assert(t[i] > t[i - 1]);
		ck_assert_msg(fabs(e - round(e)) < 1e-9, "tick %g", t[i]);
	}
	n = svg_axis_ticks(&small, t, 40);
	ck_assert_uint_eq(n, 9); /* 0, 0.1, ..., 0.8 */
	ck_assert(t[0] == 0);
	ck_assert_double_eq_tol(t[8], 0.8, 1e-12);
}
END_TEST

/* The mapping: 0 at the start, 1 at the end, linear below log_from, one
 * equal length per power of ten above it, continuous, increasing, and
 * symmetric about 0. */
START_TEST(log_axis_mapping)
{
	svg_axis a = axis(0, 10000, 1), s = axis(-100, 100, 1);
	double prev = -1;

	ck_assert(svg_axis_pos(&a, 0) == 0);
	ck_assert_double_eq_tol(svg_axis_pos(&a, 10000), 1, 1e-12);
	/* Five equal lengths: [0, 1] and four powers of ten. */
	ck_assert_double_eq_tol(svg_axis_pos(&a, 0.5), 0.1, 1e-12);
	ck_assert_double_eq_tol(svg_axis_pos(&a, 1), 0.2, 1e-12);
	ck_assert_double_eq_tol(svg_axis_pos(&a, 10), 0.4, 1e-12);
	ck_assert_double_eq_tol(svg_axis_pos(&a, 1000), 0.8, 1e-12);
	ck_assert_double_eq_tol(svg_axis_pos(&a, 1 - 1e-9),
				svg_axis_pos(&a, 1 + 1e-9), 1e-8);
	for (double v = 0; v <= 10000; v = v < 1 ? v + 0.01 : v * 1.01) {
		double pos = svg_axis_pos(&a, v);
		ck_assert_msg(pos > prev, "not increasing at %g", v);
		prev = pos;
	}
	ck_assert_double_eq_tol(svg_axis_pos(&s, 0), 0.5, 1e-12);
	for (double v = 0.25; v <= 100; v *= 2)
		ck_assert_double_eq_tol(svg_axis_pos(&s, -v),
					1 - svg_axis_pos(&s, v), 1e-12);
	/* A linear axis is unchanged. */
	a.log_from = 0;
	ck_assert_double_eq_tol(svg_axis_pos(&a, 2500), 0.25, 1e-12);
}
END_TEST

/* A plot on a log axis: its ticks labelled, the note saying how zero is
 * shown, each series with its dash pattern in the line and the legend,
 * and no non-finite number even from NaN and infinite data. */
START_TEST(log_plot_svg)
{
	static const double xs[] = {0, 1, 2, 3}, ys[] = {0, 2500, NAN, 3};
	static const svg_style solid = {"#0072b2", NULL, 3, SVG_SHAPE_SQUARE};
	static const svg_style dashed = {"#d55e00", "8 4", 1.5,
					 SVG_SHAPE_TRIANGLE};
	svg_axis x = axis(0, 3, 0), y = axis(0, 10000, 1);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	svg_plot p;

	ck_assert_ptr_nonnull(f);
	svg_plot_init(&p, f, 960, 300);
	svg_plot_begin(&p, "t", &x, &y);
	svg_plot_series(&p, xs, ys, 4, &solid);
	svg_plot_legend_series(&p, "served", &solid);
	svg_plot_series(&p, xs, ys, 4, &dashed);
	svg_plot_legend_series(&p, "arrivals", &dashed);
	ck_assert_int_eq(svg_plot_end(&p), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, ">10000</text>"));
	ck_assert_ptr_nonnull(strstr(text, ">0</text>"));
	ck_assert_ptr_nonnull(strstr(text, "y axis: log scale above 1,"));
	ck_assert_ptr_nonnull(strstr(text, "linear from 0 to 1: 0 shows"));
	/* The dashed series: its line and its legend's. */
	ck_assert_uint_eq(count(text, "stroke-dasharray=\"8 4\""), 2);
	ck_assert_uint_eq(count(text, "stroke-width=\"3.00\""), 2);
	ck_assert_uint_ge(count(text, "<path d="), 2); /* triangles */
	assert_finite_text("log plot", text);
	free(text);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("report_html");
	TCase *t = tcase_create("report");

	tcase_add_test(t, index_links_every_page);
	tcase_add_test(t, names_escaped);
	tcase_add_test(t, twin_change_throughput);
	tcase_add_test(t, no_records_nested_dir);
	tcase_add_test(t, error_reported);
	suite_add_tcase(s, t);
	t = tcase_create("svg_plot");
	tcase_add_test(t, log_axis_ticks);
	tcase_add_test(t, log_axis_ticks_few);
	tcase_add_test(t, log_axis_mapping);
	tcase_add_test(t, log_plot_svg);
	suite_add_tcase(s, t);
	return tu_run_suite(s);
}

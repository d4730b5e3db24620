/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_report_html.c - the HTML report (bench/report_html.c): from
 * synthetic records (with and without baseline, change, twin and
 * throughput, and degenerate ones: no samples, one sample, equal values,
 * huge and tiny times, a hostile name) it writes an index that links a
 * page per record, each page with three SVG plots, names escaped, and no
 * "nan" or "inf" anywhere. The estimates are filled in by hand: the test
 * does not depend on the statistics module.
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
	return tu_run_suite(s);
}

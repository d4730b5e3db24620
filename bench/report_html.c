/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * report_html.c - the HTML report (see report_html.h).
 *
 * index.html lists every benchmark with its slope, throughput, change and
 * ratio against its reference twin; each benchmark's page holds its
 * tables and three plots: the distribution of the per-sample averages
 * (Gaussian kernel density), the samples against their iteration counts
 * with the regression line, and the averages in sample order against
 * Tukey's fences. A saved baseline is overlaid on the first two.
 *
 * Numbers that are not finite are shown as a dash and never reach an SVG
 * attribute (svg_plot.c guards every coordinate).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "report_html.h"
#include "svg_plot.h"

/* Page file names: a sanitised benchmark name cut to this many bytes,
 * and room for a "-N-M" suffix that makes it unique, and ".html". */
#define PAGE_BASE_MAX 180
#define PAGE_NAME_SIZE 240
#define PATH_SIZE 4096

/* Points of a kernel density curve. */
#define KDE_POINTS 200

#define SQRT_2PI 2.5066282746310002

/* Plot sizes in pixels. */
#define PLOT_W 840
#define PLOT_H 380

#define DASH "\xe2\x80\x94" /* an em dash, for numbers that are missing */

#define COLOR_NOW "#1f77b4"
#define COLOR_BASE "#d62728"
#define COLOR_MARK "#222222"
#define COLOR_MILD "#ff9f1c"
#define COLOR_SEVERE "#c0392b"
#define COLOR_FASTER "#2ca02c"

/* ---- output --------------------------------------------------------- */

/* A page being written; `failed` remembers any write error. */
typedef struct html {
	FILE *f;
	int failed;
} html;

static void out(html *h, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void out(html *h, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (vfprintf(h->f, fmt, ap) < 0)
		h->failed = 1;
	va_end(ap);
}

/* Text from the records (names, units): always escaped. */
static void esc(html *h, const char *s)
{
	if (svg_write_escaped(h->f, s) < 0)
		h->failed = 1;
}

static int fail(char *err, size_t err_size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t err_size, const char *fmt, ...)
{
	va_list ap;

	if (err != NULL && err_size > 0) {
		va_start(ap, fmt);
		vsnprintf(err, err_size, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* ---- formatting ----------------------------------------------------- */

static const struct time_unit {
	const char *name;
	double ns;
} time_units[] = {
	{"ps", 1e-3}, {"ns", 1.0}, {"\xc2\xb5s", 1e3}, {"ms", 1e6}, {"s", 1e9},
};
#define N_TIME_UNITS (sizeof(time_units) / sizeof(time_units[0]))

/* The unit in which |ns| shows below `limit`, or seconds. */
static const struct time_unit *unit_below(double ns, double limit)
{
	size_t u = 0;

	if (ns == 0.0 || !isfinite(ns))
		return &time_units[1];
	while (u + 1 < N_TIME_UNITS && fabs(ns) / time_units[u].ns >= limit)
		u++;
	return &time_units[u];
}

/* Four significant digits: 1.234, 12.34, 123.4, 1234. */
static int digits_after_point(double v)
{
	double a = fabs(v);

	return a < 9.9995 ? 3 : a < 99.995 ? 2 : a < 999.95 ? 1 : 0;
}

/* "1.234 µs"; a dash when ns is not finite. */
static void fmt_time(double ns, char *buf, size_t size)
{
	const struct time_unit *u = unit_below(ns, 999.95);
	double v = ns / u->ns;

	if (!isfinite(ns))
		snprintf(buf, size, DASH);
	else
		snprintf(buf, size, "%.*f %s", digits_after_point(v), v,
			 u->name);
}

/* Elements per second from elements per iteration and ns per iteration:
 * "1.234 M hash/s". */
static void fmt_throughput(double elements, double ns, const char *unit,
			   char *buf, size_t size)
{
	static const char *const prefix[] = {"", "K", "M", "G", "T", "P"};
	double v = elements * 1e9 / ns;
	size_t p = 0;

	if (!isfinite(v) || !(ns > 0)) {
		snprintf(buf, size, DASH);
		return;
	}
	while (p + 1 < sizeof(prefix) / sizeof(prefix[0]) &&
	       fabs(v) >= 999.95) {
		v /= 1000;
		p++;
	}
	snprintf(buf, size, "%.*f %s%s%s/s", digits_after_point(v), v,
		 prefix[p], p > 0 ? " " : "", unit != NULL ? unit : "elem");
}

/* A relative change as "+1.23%". */
static void fmt_pct(double rel, char *buf, size_t size)
{
	if (!isfinite(rel))
		snprintf(buf, size, DASH);
	else
		snprintf(buf, size, "%+.2f%%", rel * 100);
}

static void fmt_plain(double v, const char *fmt, char *buf, size_t size)
{
	if (!isfinite(v))
		snprintf(buf, size, DASH);
	else
		snprintf(buf, size, fmt, v);
}

/* "2.00x faster" for ratio 0.5 (ours / reference), "1.50x slower" for
 * 1.5. */
static void fmt_ratio(double ratio, char *buf, size_t size)
{
	if (!isfinite(ratio) || !(ratio > 0))
		snprintf(buf, size, DASH);
	else if (ratio <= 1.0)
		snprintf(buf, size, "%.2fx faster", 1.0 / ratio);
	else
		snprintf(buf, size, "%.2fx slower", ratio);
}

/* The CSS class colouring a verdict. */
static const char *verdict_class(bench_verdict v)
{
	return v == BENCH_IMPROVED    ? "good"
	       : v == BENCH_REGRESSED ? "bad"
				      : "neutral";
}

/* ---- records -------------------------------------------------------- */

static const char *record_name(const bench_record *r)
{
	return r->name != NULL ? r->name : "";
}

/* Samples usable for plotting: none when the arrays are missing. */
static size_t sample_count(const bench_samples *s)
{
	return s->iters != NULL && s->times != NULL ? s->n : 0;
}

/* The ratio of slopes ours / reference for a record with a valid twin;
 * returns 0 when there is none or it cannot be computed. */
static int twin_ratio(const bench_record *records, size_t n, size_t i,
		      double *ratio)
{
	long t = records[i].twin;
	double ours, ref;

	if (t < 0 || (size_t)t >= n || (size_t)t == i)
		return 0;
	ours = records[i].estimates.slope.point;
	ref = records[t].estimates.slope.point;
	*ratio = ours / ref;
	return isfinite(*ratio) && *ratio > 0;
}

/* ---- page names ----------------------------------------------------- */

/* The name with '/' as '_' and only [A-Za-z0-9_.-] kept; "bench" when
 * nothing is left. */
static void sanitise(const char *name, char *buf)
{
	size_t k = 0;

	for (; *name != '\0' && k < PAGE_BASE_MAX; name++) {
		char c = *name;

		if (c == '/')
			c = '_';
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-')
			buf[k++] = c;
	}
	buf[k] = '\0';
	if (k == 0)
		strcpy(buf, "bench");
}

static int name_taken(char (*names)[PAGE_NAME_SIZE], size_t i, const char *s)
{
	if (strcmp(s, "index") == 0)
		return 1;
	for (size_t j = 0; j < i; j++)
		if (strcmp(names[j], s) == 0)
			return 1;
	return 0;
}

/* Unique page names (without ".html"): a name taken by an earlier record
 * or by the index gets the record's number, then a counter, appended. */
static void page_names(const bench_record *records, size_t n,
		       char (*names)[PAGE_NAME_SIZE])
{
	for (size_t i = 0; i < n; i++) {
		char base[PAGE_BASE_MAX + 1];

		sanitise(record_name(&records[i]), base);
		snprintf(names[i], PAGE_NAME_SIZE, "%s", base);
		for (size_t k = 0; name_taken(names, i, names[i]); k++) {
			if (k == 0)
				snprintf(names[i], PAGE_NAME_SIZE, "%s-%zu",
					 base, i);
			else
				snprintf(names[i], PAGE_NAME_SIZE, "%s-%zu-%zu",
					 base, i, k);
		}
	}
}

/* ---- files ---------------------------------------------------------- */

/* mkdir -p: each missing component of dir is created. */
static int make_dir(const char *dir, char *err, size_t err_size)
{
	char path[PATH_SIZE];
	struct stat st;
	size_t len = strlen(dir);

	if (len == 0 || len >= sizeof(path))
		return fail(err, err_size, "report directory name is %s",
			    len == 0 ? "empty" : "too long");
	memcpy(path, dir, len + 1);
	for (size_t i = 1; i <= len; i++) {
		if (path[i] != '/' && path[i] != '\0')
			continue;
		path[i] = '\0';
		if (mkdir(path, 0777) != 0 && errno != EEXIST)
			return fail(err, err_size, "cannot create %s: %s", path,
				    strerror(errno));
		path[i] = i < len ? '/' : '\0';
	}
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return fail(err, err_size, "%s is not a directory", dir);
	return 0;
}

static int open_page(const char *dir, const char *file, html *h, char *path,
		     char *err, size_t err_size)
{
	int len = snprintf(path, PATH_SIZE, "%s/%s", dir, file);

	if (len < 0 || len >= PATH_SIZE)
		return fail(err, err_size, "path too long: %s/%s", dir, file);
	h->f = fopen(path, "w");
	h->failed = 0;
	if (h->f == NULL)
		return fail(err, err_size, "cannot write %s: %s", path,
			    strerror(errno));
	errno = 0; /* so that close_page() names only this file's error */
	return 0;
}

static int close_page(html *h, const char *path, char *err, size_t err_size)
{
	int bad = h->failed || ferror(h->f);

	if (fclose(h->f) != 0 || bad)
		return fail(err, err_size, "cannot write %s: %s", path,
			    errno ? strerror(errno) : "write error");
	return 0;
}

/* ---- page frame ----------------------------------------------------- */

static const char style[] =
	"body{font-family:sans-serif;max-width:1120px;margin:1.5em auto;"
	"padding:0 1em;color:#222;background:#fff}\n"
	"h1{font-size:1.6em;word-break:break-all}\n"
	"h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ddd}\n"
	"table{border-collapse:collapse;margin:.5em 0}\n"
	"th,td{padding:.3em .7em;border-bottom:1px solid #e4e4e4;"
	"text-align:right;white-space:nowrap}\n"
	"th{background:#f4f4f4}\n"
	"td.name,th.name,td.verdict{text-align:left;white-space:normal}\n"
	"td.iv{color:#666;font-size:.9em}\n"
	".good{color:#1a7f1a;font-weight:bold}\n"
	".bad{color:#b22222;font-weight:bold}\n"
	".neutral{color:#555}\n"
	".meta{color:#555}\n"
	"figure{margin:1.2em 0}\n"
	"figcaption{color:#555;font-size:.9em;max-width:840px}\n"
	"svg{display:block;max-width:100%;height:auto;"
	"border:1px solid #eee}\n";

static void page_head(html *h, const char *title)
{
	out(h, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	       "<meta charset=\"utf-8\">\n"
	       "<meta name=\"viewport\" content=\"width=device-width\">\n"
	       "<title>");
	esc(h, title);
	out(h, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", style);
}

static void page_tail(html *h)
{
	out(h, "</body>\n</html>\n");
}

/* ---- statistics for the plots --------------------------------------- */

/* The per-sample averages times[i] / iters[i] that are finite; returns
 * their number. `avg` holds sample_count(s) values. */
static size_t averages(const bench_samples *s, double *avg)
{
	size_t k = 0;

	for (size_t i = 0; i < sample_count(s); i++) {
		double a = s->times[i] / s->iters[i];

		if (isfinite(a))
			avg[k++] = a;
	}
	return k;
}

static double *alloc_averages(const bench_samples *s, size_t *k)
{
	double *avg = malloc((sample_count(s) + 1) * sizeof(double));

	*k = avg != NULL ? averages(s, avg) : 0;
	return avg;
}

static void min_max(const double *v, size_t n, double *lo, double *hi)
{
	for (size_t i = 0; i < n; i++) {
		*lo = fmin(*lo, v[i]);
		*hi = fmax(*hi, v[i]);
	}
}

static double mean_of(const double *v, size_t n)
{
	double sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += v[i];
	return sum / n;
}

/* Silverman's rule of thumb, (4 / 3n)^(1/5) sigma; for a single value or
 * equal values (sigma = 0), 1% of their magnitude (or 1 ns at zero), so
 * that the curve is a narrow bump instead of a division by zero. */
static double bandwidth(const double *v, size_t n)
{
	double m = mean_of(v, n), ss = 0, h;

	for (size_t i = 0; i < n; i++)
		ss += (v[i] - m) * (v[i] - m);
	h = n > 1 ? pow(4.0 / (3.0 * n), 0.2) * sqrt(ss / (n - 1)) : 0;
	if (!isfinite(h) || h <= fabs(m) * 1e-9)
		h = fabs(m) * 0.01;
	if (!isfinite(h) || h <= 0)
		h = 1.0;
	return h;
}

/* A Gaussian kernel density of v on KDE_POINTS points of [lo, hi], in
 * arbitrary units (the density times hi - lo, so that no tiny bandwidth
 * makes it overflow). */
static void kde(const double *v, size_t n, double h, double lo, double hi,
		double *xs, double *ys)
{
	double norm = (hi - lo) / h / (n * SQRT_2PI);

	for (size_t i = 0; i < KDE_POINTS; i++) {
		double x = lo + (hi - lo) * i / (KDE_POINTS - 1), sum = 0;

		for (size_t j = 0; j < n; j++) {
			double z = (x - v[j]) / h;
			sum += exp(-0.5 * z * z);
		}
		xs[i] = x;
		ys[i] = sum * norm;
	}
}

/* Least-squares slope through the origin, for a baseline (whose
 * estimates the record does not carry). */
static double slope_of(const bench_samples *s)
{
	double xy = 0, xx = 0;

	for (size_t i = 0; i < sample_count(s); i++) {
		xy += s->iters[i] * s->times[i];
		xx += s->iters[i] * s->iters[i];
	}
	return xy / xx;
}

/* An axis of times in ns, labelled in the unit that suits its range. */
static svg_axis time_axis(double lo, double hi, const char *what, char *label,
			  size_t size)
{
	const struct time_unit *u;
	svg_axis a = {lo, hi, 1.0, label, 1};

	svg_range_fix(&a.lo, &a.hi);
	u = unit_below(fmax(fabs(a.lo), fabs(a.hi)), 1000.0);
	a.scale = u->ns;
	snprintf(label, size, "%s (%s)", what, u->name);
	return a;
}

/* ---- plot 1: the distribution of the averages ----------------------- */

/* One density curve (area and outline) over [lo, hi]. */
static void density_curve(svg_plot *p, const double *v, size_t n, double lo,
			  double hi, const char *color)
{
	double xs[KDE_POINTS], ys[KDE_POINTS];

	kde(v, n, bandwidth(v, n), lo, hi, xs, ys);
	svg_plot_area(p, xs, ys, KDE_POINTS, color, 0.25);
	svg_plot_polyline(p, xs, ys, KDE_POINTS, color, 2, NULL);
}

/* The highest point of a density curve, to size the y axis. */
static double density_peak(const double *v, size_t n, double lo, double hi)
{
	double xs[KDE_POINTS], ys[KDE_POINTS], peak = 0;

	if (n == 0)
		return 0;
	kde(v, n, bandwidth(v, n), lo, hi, xs, ys);
	for (size_t i = 0; i < KDE_POINTS; i++)
		peak = fmax(peak, ys[i]);
	return peak;
}

/* The x range of the densities: the values 3 bandwidths out. */
static void density_range(const double *v, size_t n, double *lo, double *hi)
{
	double h;

	if (n == 0)
		return;
	h = bandwidth(v, n);
	for (size_t i = 0; i < n; i++) {
		*lo = fmin(*lo, v[i] - 3 * h);
		*hi = fmax(*hi, v[i] + 3 * h);
	}
}

static void mark_line(svg_plot *p, double x, double top, const char *dash,
		      const char *label)
{
	if (!isfinite(x))
		return;
	svg_plot_line(p, x, 0, x, top, COLOR_MARK, 1.5, dash);
	svg_plot_legend(p, label, COLOR_MARK,
			dash ? SVG_MARK_DASHED : SVG_MARK_LINE);
}

static void plot_density(svg_plot *p, const bench_record *r, const double *now,
			 size_t n_now, const double *base, size_t n_base)
{
	double lo = INFINITY, hi = -INFINITY, top;
	double mean = r->estimates.mean.point, med = r->estimates.median.point;
	char label[64];
	svg_axis x, y = {0, 1, 1, "Density (a.u.)", 1};

	density_range(now, n_now, &lo, &hi);
	density_range(base, n_base, &lo, &hi);
	if (n_now == 0 && n_base == 0) {
		lo = 0;
		hi = 1;
	}
	svg_range_fix(&lo, &hi);
	top = fmax(density_peak(now, n_now, lo, hi),
		   density_peak(base, n_base, lo, hi));
	y.hi = top > 0 ? top * 1.08 : 1;
	x = time_axis(lo, hi, "Average time per iteration", label,
		      sizeof(label));
	svg_plot_begin(p, "Distribution of the sample averages", &x, &y);
	if (n_base > 0) {
		density_curve(p, base, n_base, lo, hi, COLOR_BASE);
		svg_plot_legend(p, "Baseline", COLOR_BASE, SVG_MARK_AREA);
	}
	if (n_now == 0) {
		svg_plot_note(p, "No samples");
		return;
	}
	density_curve(p, now, n_now, lo, hi, COLOR_NOW);
	svg_plot_legend(p, "Current", COLOR_NOW, SVG_MARK_AREA);
	for (size_t i = 0; i < n_now; i++) /* a rug of the samples */
		svg_plot_line(p, now[i], 0, now[i], y.hi * 0.03, COLOR_NOW, 1,
			      NULL);
	if (mean >= lo && mean <= hi)
		mark_line(p, mean, y.hi, NULL, "Mean");
	if (med >= lo && med <= hi)
		mark_line(p, med, y.hi, "6 4", "Median");
}

/* ---- plot 2: samples against iterations ----------------------------- */

/* Iteration counts, labelled in thousands or millions when large. */
static svg_axis iters_axis(double hi)
{
	svg_axis a = {0, hi, 1, "Iterations", 1};

	if (hi >= 1e6) {
		a.scale = 1e6;
		a.label = "Iterations (millions)";
	} else if (hi >= 1e4) {
		a.scale = 1e3;
		a.label = "Iterations (thousands)";
	}
	return a;
}

static void scatter(svg_plot *p, const bench_samples *s, const char *fill,
		    const char *stroke)
{
	for (size_t i = 0; i < sample_count(s); i++)
		svg_plot_circle(p, s->iters[i], s->times[i], 3.5, fill, stroke);
}

/* The line time = slope * iterations across the plot. */
static void regression(svg_plot *p, double slope, double x_hi,
		       const char *color, const char *dash)
{
	if (isfinite(slope))
		svg_plot_line(p, 0, 0, x_hi, slope * x_hi, color, 2, dash);
}

static void plot_samples(svg_plot *p, const bench_record *r)
{
	const bench_samples *now = &r->samples, *base = &r->baseline;
	double slope = r->estimates.slope.point, base_slope = slope_of(base);
	double x_hi = 0, y_lo = 0, y_hi = 0, none = INFINITY;
	char label[64];
	svg_axis x, y;

	if (!isfinite(slope))
		slope = slope_of(now);
	min_max(now->iters, sample_count(now), &none, &x_hi);
	min_max(base->iters, sample_count(base), &none, &x_hi);
	min_max(now->times, sample_count(now), &y_lo, &y_hi);
	min_max(base->times, sample_count(base), &y_lo, &y_hi);
	x_hi *= 1.05;
	if (isfinite(slope * x_hi))
		y_hi = fmax(y_hi, slope * x_hi);
	x = iters_axis(x_hi > 0 ? x_hi : 1);
	y = time_axis(y_lo, y_hi * 1.05, "Total sample time", label,
		      sizeof(label));
	svg_plot_begin(p, "Samples against iterations", &x, &y);
	if (sample_count(base) > 0) {
		scatter(p, base, "none", COLOR_BASE);
		regression(p, base_slope, x.hi, COLOR_BASE, "6 4");
		svg_plot_legend(p, "Baseline sample", COLOR_BASE,
				SVG_MARK_RING);
		svg_plot_legend(p, "Baseline slope", COLOR_BASE,
				SVG_MARK_DASHED);
	}
	if (sample_count(now) == 0) {
		svg_plot_note(p, "No samples");
		return;
	}
	scatter(p, now, COLOR_NOW, COLOR_NOW);
	regression(p, slope, x.hi, COLOR_MARK, NULL);
	svg_plot_legend(p, "Sample", COLOR_NOW, SVG_MARK_DOT);
	svg_plot_legend(p, "Regression (slope)", COLOR_MARK, SVG_MARK_LINE);
}

/* ---- plot 3: averages in sample order, against the fences ---------- */

/* Fences that were computed: finite, in order, and not all zero (the
 * mark of a record without a classification). */
static int fences_usable(const bench_outliers *o)
{
	int zeros = 0;

	for (int i = 0; i < 4; i++) {
		if (!isfinite(o->fence[i]))
			return 0;
		zeros += o->fence[i] == 0;
	}
	return zeros < 4 && o->fence[0] <= o->fence[1] &&
	       o->fence[1] <= o->fence[2] && o->fence[2] <= o->fence[3];
}

/* The colour of an average: normal, mild or severe outlier. */
static const char *outlier_color(const bench_outliers *o, int fences, double v)
{
	if (!fences)
		return COLOR_NOW;
	if (v < o->fence[0] || v > o->fence[3])
		return COLOR_SEVERE;
	if (v < o->fence[1] || v > o->fence[2])
		return COLOR_MILD;
	return COLOR_NOW;
}

static void fence_lines(svg_plot *p, const bench_outliers *o, double x_hi)
{
	for (int i = 0; i < 4; i++)
		svg_plot_line(p, 0, o->fence[i], x_hi, o->fence[i],
			      i == 0 || i == 3 ? COLOR_SEVERE : COLOR_MILD, 1.5,
			      "6 4");
	svg_plot_legend(p, "Mild fences", COLOR_MILD, SVG_MARK_DASHED);
	svg_plot_legend(p, "Severe fences", COLOR_SEVERE, SVG_MARK_DASHED);
}

static void plot_outliers(svg_plot *p, const bench_record *r, const double *v,
			  size_t n)
{
	const bench_outliers *o = &r->outliers;
	int fences = fences_usable(o);
	double lo = INFINITY, hi = -INFINITY, pad;
	char label[64];
	/* At least 6 on the axis, so that its ticks are whole samples. */
	svg_axis x = {0, fmax(n + 1.0, 6), 1, "Sample", 1}, y;

	min_max(v, n, &lo, &hi);
	if (fences)
		min_max(o->fence, 4, &lo, &hi);
	if (lo > hi) {
		lo = 0;
		hi = 1;
	}
	svg_range_fix(&lo, &hi);
	pad = (hi - lo) * 0.05;
	y = time_axis(lo - pad, hi + pad, "Average time per iteration", label,
		      sizeof(label));
	svg_plot_begin(p, "Sample averages and Tukey's fences", &x, &y);
	if (fences)
		fence_lines(p, o, x.hi);
	if (n == 0) {
		svg_plot_note(p, "No samples");
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const char *c = outlier_color(o, fences, v[i]);
		svg_plot_circle(p, i + 1.0, v[i], 3.5, c, c);
	}
	svg_plot_legend(p, "Sample", COLOR_NOW, SVG_MARK_DOT);
	if (fences) {
		svg_plot_legend(p, "Mild outlier", COLOR_MILD, SVG_MARK_DOT);
		svg_plot_legend(p, "Severe outlier", COLOR_SEVERE,
				SVG_MARK_DOT);
	}
}

/* ---- benchmark page: tables ----------------------------------------- */

/* A row of lower / point / upper values, each written by `fmt`. */
static void interval_row(html *h, const char *what, const bench_interval *iv,
			 void (*fmt)(double v, char *buf, size_t size))
{
	char a[32], b[32], c[32];

	fmt(iv->lower, a, sizeof(a));
	fmt(iv->point, b, sizeof(b));
	fmt(iv->upper, c, sizeof(c));
	out(h,
	    "<tr><td class=\"name\">%s</td><td class=\"iv\">%s</td>"
	    "<td><b>%s</b></td><td class=\"iv\">%s</td></tr>\n",
	    what, a, b, c);
}

/* Throughput: the lower bound comes from the slope's upper bound. */
static void throughput_row(html *h, const bench_record *r)
{
	const bench_interval *s = &r->estimates.slope;
	char a[64], b[64], c[64];

	fmt_throughput(r->elements, s->upper, r->element_unit, a, sizeof(a));
	fmt_throughput(r->elements, s->point, r->element_unit, b, sizeof(b));
	fmt_throughput(r->elements, s->lower, r->element_unit, c, sizeof(c));
	out(h, "<tr><td class=\"name\">Throughput</td><td class=\"iv\">");
	esc(h, a);
	out(h, "</td><td><b>");
	esc(h, b);
	out(h, "</b></td><td class=\"iv\">");
	esc(h, c);
	out(h, "</td></tr>\n");
}

static void estimates_table(html *h, const bench_record *r)
{
	const bench_estimates *e = &r->estimates;
	char r2[32];

	fmt_plain(e->r_squared, "%.7f", r2, sizeof(r2));
	out(h, "<h2>Estimates</h2>\n<table>\n<tr><th class=\"name\"></th>"
	       "<th>Lower bound</th><th>Estimate</th><th>Upper bound</th>"
	       "</tr>\n");
	interval_row(h, "Slope (time per iteration)", &e->slope, fmt_time);
	if (r->elements > 0)
		throughput_row(h, r);
	interval_row(h, "Mean", &e->mean, fmt_time);
	interval_row(h, "Median", &e->median, fmt_time);
	interval_row(h, "Std. dev.", &e->std_dev, fmt_time);
	interval_row(h, "Median abs. dev. (MAD)", &e->median_abs_dev, fmt_time);
	out(h,
	    "<tr><td class=\"name\">R&sup2;</td><td class=\"iv\">" DASH
	    "</td><td><b>%s</b></td><td class=\"iv\">" DASH "</td></tr>\n"
	    "</table>\n",
	    r2);
}

static void outliers_table(html *h, const bench_record *r)
{
	const bench_outliers *o = &r->outliers;
	size_t total =
		o->low_severe + o->low_mild + o->high_mild + o->high_severe;
	size_t n = sample_count(&r->samples);
	char f[4][32];

	for (int i = 0; i < 4; i++)
		fmt_time(fences_usable(o) ? o->fence[i] : NAN, f[i],
			 sizeof(f[i]));
	out(h,
	    "<h2>Outliers</h2>\n<p>Found %zu outliers among %zu "
	    "measurements",
	    total, n);
	if (n > 0)
		out(h, " (%.2f%%)", 100.0 * total / n);
	out(h,
	    ".</p>\n<table>\n<tr><th class=\"name\"></th><th>Low severe</th>"
	    "<th>Low mild</th><th>High mild</th><th>High severe</th></tr>\n"
	    "<tr><td class=\"name\">Count</td><td>%zu</td><td>%zu</td>"
	    "<td>%zu</td><td>%zu</td></tr>\n"
	    "<tr><td class=\"name\">Fence</td><td>%s</td><td>%s</td>"
	    "<td>%s</td><td>%s</td></tr>\n</table>\n",
	    o->low_severe, o->low_mild, o->high_mild, o->high_severe, f[0],
	    f[1], f[2], f[3]);
}

static void change_table(html *h, const bench_record *r)
{
	const bench_change *c = &r->change;
	char p[32];

	if (!r->has_change) {
		if (sample_count(&r->baseline) > 0)
			out(h,
			    "<h2>Change</h2>\n<p>A baseline of %zu samples "
			    "is overlaid on the plots.</p>\n",
			    sample_count(&r->baseline));
		return;
	}
	fmt_plain(c->p_value, "%.4f", p, sizeof(p));
	out(h, "<h2>Change against the baseline</h2>\n<table>\n"
	       "<tr><th class=\"name\"></th><th>Lower bound</th>"
	       "<th>Estimate</th><th>Upper bound</th></tr>\n");
	interval_row(h, "Mean", &c->mean, fmt_pct);
	interval_row(h, "Median", &c->median, fmt_pct);
	out(h, "</table>\n<p>p-value: %s. <span class=\"%s\">%s</span></p>\n",
	    p, verdict_class(c->verdict), bench_verdict_sentence(c->verdict));
}

static void twin_section(html *h, const bench_record *records, size_t n,
			 size_t i, char (*names)[PAGE_NAME_SIZE])
{
	double ratio;
	char buf[48];

	if (!twin_ratio(records, n, i, &ratio))
		return;
	fmt_ratio(ratio, buf, sizeof(buf));
	out(h,
	    "<h2>Against the reference</h2>\n<p>Slope ratio ours / "
	    "reference: %.3f, <span class=\"%s\">%s</span> than "
	    "<a href=\"",
	    ratio, ratio <= 1 ? "good" : "bad", buf);
	esc(h, names[records[i].twin]);
	out(h, ".html\">");
	esc(h, record_name(&records[records[i].twin]));
	out(h, "</a>.</p>\n");
}

/* ---- benchmark page ------------------------------------------------- */

static void figure(html *h, svg_plot *p, const char *caption)
{
	if (svg_plot_end(p) < 0)
		h->failed = 1;
	out(h, "<figcaption>%s</figcaption>\n</figure>\n", caption);
}

static void plots(html *h, const bench_record *r, const double *now,
		  size_t n_now, const double *base, size_t n_base)
{
	svg_plot p;

	out(h, "<h2>Plots</h2>\n<figure>\n");
	svg_plot_init(&p, h->f, PLOT_W, PLOT_H);
	plot_density(&p, r, now, n_now, base, n_base);
	figure(h, &p,
	       "Gaussian kernel density (Silverman's bandwidth) of the "
	       "per-sample averages, time / iterations; ticks at the bottom "
	       "are the samples.");
	out(h, "<figure>\n");
	svg_plot_init(&p, h->f, PLOT_W, PLOT_H);
	plot_samples(&p, r);
	figure(h, &p,
	       "Each sample's total time against its iteration count; the "
	       "slope of the line through the origin is the time per "
	       "iteration.");
	out(h, "<figure>\n");
	svg_plot_init(&p, h->f, PLOT_W, PLOT_H);
	plot_outliers(&p, r, now, n_now);
	figure(h, &p,
	       "Per-sample averages in measurement order; outside the dashed "
	       "fences (1.5 and 3 interquartile ranges beyond the quartiles) "
	       "they are mild or severe outliers.");
}

static void page_body(html *h, const bench_record *records, size_t n, size_t i,
		      char (*names)[PAGE_NAME_SIZE], const double *now,
		      size_t n_now, const double *base, size_t n_base)
{
	const bench_record *r = &records[i];

	out(h, "<p><a href=\"index.html\">&larr; All benchmarks</a></p>\n"
	       "<h1>");
	esc(h, record_name(r));
	out(h, "</h1>\n<p class=\"meta\">");
	if (r->group != NULL) {
		out(h, "Group ");
		esc(h, r->group);
		out(h, " &middot; ");
	}
	out(h, "%zu samples", sample_count(&r->samples));
	if (sample_count(&r->baseline) > 0)
		out(h, " &middot; baseline of %zu samples",
		    sample_count(&r->baseline));
	out(h, "</p>\n");
	estimates_table(h, r);
	outliers_table(h, r);
	change_table(h, r);
	twin_section(h, records, n, i, names);
	plots(h, r, now, n_now, base, n_base);
}

static int write_page(const char *dir, const bench_record *records, size_t n,
		      size_t i, char (*names)[PAGE_NAME_SIZE], char *err,
		      size_t err_size)
{
	const bench_record *r = &records[i];
	char file[PAGE_NAME_SIZE + 8], path[PATH_SIZE];
	size_t n_now, n_base;
	double *now = alloc_averages(&r->samples, &n_now);
	double *base = alloc_averages(&r->baseline, &n_base);
	html h;
	int rc = -1;

	snprintf(file, sizeof(file), "%s.html", names[i]);
	if (now == NULL || base == NULL)
		fail(err, err_size, "out of memory");
	else if (open_page(dir, file, &h, path, err, err_size) == 0) {
		page_head(&h, record_name(r));
		page_body(&h, records, n, i, names, now, n_now, base, n_base);
		page_tail(&h);
		rc = close_page(&h, path, err, err_size);
	}
	free(now);
	free(base);
	return rc;
}

/* ---- index ---------------------------------------------------------- */

static void index_slope(html *h, const bench_record *r)
{
	char a[32], b[32], c[32];

	fmt_time(r->estimates.slope.lower, a, sizeof(a));
	fmt_time(r->estimates.slope.point, b, sizeof(b));
	fmt_time(r->estimates.slope.upper, c, sizeof(c));
	out(h, "<td><b>%s</b></td><td class=\"iv\">[%s, %s]</td>", b, a, c);
}

static void index_change(html *h, const bench_record *r)
{
	char pct[32];

	if (!r->has_change) {
		out(h, "<td>" DASH "</td><td>" DASH "</td>");
		return;
	}
	fmt_pct(r->change.mean.point, pct, sizeof(pct));
	out(h, "<td>%s</td><td class=\"verdict %s\">%s</td>", pct,
	    verdict_class(r->change.verdict),
	    bench_verdict_sentence(r->change.verdict));
}

static void index_row(html *h, const bench_record *records, size_t n, size_t i,
		      char (*names)[PAGE_NAME_SIZE])
{
	const bench_record *r = &records[i];
	char buf[64];
	double ratio;

	out(h, "<tr><td class=\"name\"><a href=\"");
	esc(h, names[i]);
	out(h, ".html\">");
	esc(h, record_name(r));
	out(h, "</a></td>");
	index_slope(h, r);
	if (r->elements > 0)
		fmt_throughput(r->elements, r->estimates.slope.point,
			       r->element_unit, buf, sizeof(buf));
	else
		snprintf(buf, sizeof(buf), DASH);
	out(h, "<td>");
	esc(h, buf);
	out(h, "</td>");
	index_change(h, r);
	if (twin_ratio(records, n, i, &ratio)) {
		fmt_ratio(ratio, buf, sizeof(buf));
		out(h, "<td>%.3f</td><td class=\"%s\">%s</td></tr>\n", ratio,
		    ratio <= 1 ? "good" : "bad", buf);
	} else {
		out(h, "<td>" DASH "</td><td>" DASH "</td></tr>\n");
	}
}

static void index_table(html *h, const bench_record *records, size_t n,
			char (*names)[PAGE_NAME_SIZE])
{
	out(h, "<table>\n<tr><th class=\"name\">Benchmark</th><th>Slope</th>"
	       "<th>Interval</th><th>Throughput</th><th>Change</th>"
	       "<th>Verdict</th><th>Ours / ref.</th><th>Speed</th></tr>\n");
	for (size_t i = 0; i < n; i++)
		index_row(h, records, n, i, names);
	out(h, "</table>\n");
}

/* Horizontal bars of the ratios ours / reference, one per twin pair. */
static void ratio_bars(svg_plot *p, const bench_record *records, size_t n,
		       size_t rows)
{
	size_t row = 0;
	char buf[48];

	for (size_t i = 0; i < n; i++) {
		double ratio, y;

		if (!twin_ratio(records, n, i, &ratio))
			continue;
		y = rows - row - 0.5;
		svg_plot_rect(p, 0, y - 0.3, ratio, y + 0.3,
			      ratio <= 1 ? COLOR_FASTER : COLOR_BASE);
		svg_plot_text(p, 0, y, -8, 4, "end", record_name(&records[i]));
		fmt_ratio(ratio, buf, sizeof(buf));
		svg_plot_text(p, ratio, y, 6, 4, "start", buf);
		row++;
	}
}

static void ratio_chart(html *h, const bench_record *records, size_t n)
{
	size_t rows = 0, longest = 0;
	double ratio, hi = 1;
	svg_plot p;
	svg_axis x = {0, 1, 1, "Slope ratio ours / reference (lower is faster)",
		      1};
	svg_axis y = {0, 1, 1, NULL, 0};

	for (size_t i = 0; i < n; i++) {
		if (!twin_ratio(records, n, i, &ratio))
			continue;
		rows++;
		hi = fmax(hi, ratio);
		if (strlen(record_name(&records[i])) > longest)
			longest = strlen(record_name(&records[i]));
	}
	if (rows == 0)
		return;
	x.hi = hi * 1.3;
	y.hi = rows;
	out(h, "<h2>Against the reference</h2>\n<figure>\n");
	svg_plot_init(&p, h->f, PLOT_W, 90 + 32.0 * rows);
	p.left = fmin(320, 20 + 7.0 * longest);
	svg_plot_begin(&p, "Speed against the reference", &x, &y);
	svg_plot_line(&p, 1, 0, 1, rows, COLOR_MARK, 1.5, "6 4");
	ratio_bars(&p, records, n, rows);
	svg_plot_legend(&p, "Faster", COLOR_FASTER, SVG_MARK_AREA);
	svg_plot_legend(&p, "Slower", COLOR_BASE, SVG_MARK_AREA);
	svg_plot_legend(&p, "Reference", COLOR_MARK, SVG_MARK_DASHED);
	figure(h, &p,
	       "Each benchmark's slope divided by its reference twin's; "
	       "below 1 this library is faster.");
}

static int write_index(const char *dir, const bench_record *records, size_t n,
		       char (*names)[PAGE_NAME_SIZE], char *err,
		       size_t err_size)
{
	char path[PATH_SIZE];
	html h;

	if (open_page(dir, "index.html", &h, path, err, err_size) != 0)
		return -1;
	page_head(&h, "equix-bench report");
	out(&h,
	    "<h1>equix-bench report</h1>\n<p class=\"meta\">%zu "
	    "benchmarks. Times are per iteration, with the bounds of "
	    "their bootstrap confidence intervals.</p>\n",
	    n);
	if (n == 0)
		out(&h, "<p>No benchmarks were recorded.</p>\n");
	else
		index_table(&h, records, n, names);
	ratio_chart(&h, records, n);
	page_tail(&h);
	return close_page(&h, path, err, err_size);
}

/* ---- entry point ---------------------------------------------------- */

int bench_report_html_write(const char *dir, const bench_record *records,
			    size_t n, char *err, size_t err_size)
{
	char(*names)[PAGE_NAME_SIZE];
	int rc;

	if (dir == NULL || (records == NULL && n > 0))
		return fail(err, err_size, "report: no directory or records");
	if (make_dir(dir, err, err_size) != 0)
		return -1;
	names = malloc((n + 1) * sizeof(*names));
	if (names == NULL)
		return fail(err, err_size, "out of memory");
	page_names(records, n, names);
	rc = write_index(dir, records, n, names, err, err_size);
	for (size_t i = 0; rc == 0 && i < n; i++)
		rc = write_page(dir, records, n, i, names, err, err_size);
	free(names);
	return rc;
}

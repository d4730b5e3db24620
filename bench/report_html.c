/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * report_html.c - the HTML report (see report_html.h).
 *
 * index.html lists every benchmark with its slope, throughput, change and
 * ratio against its reference twin; each benchmark's page holds its
 * tables and three plots: the distribution of the per-sample averages
 * (Gaussian kernel density, stats.c), the samples against their iteration
 * counts with the regression line, and the averages in sample order
 * against Tukey's fences. A saved baseline is overlaid on the first two.
 *
 * Numbers are formatted as on the terminal (report_text.c); those that
 * are not finite show as a dash and never reach an SVG attribute
 * (svg_plot.c guards every coordinate).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchutil.h"
#include "report_html.h"
#include "report_text.h"
#include "svg_plot.h"

/* Page file names: a sanitised benchmark name cut to this many bytes,
 * room for a "-N-M" suffix that makes it unique, and ".html". */
#define PAGE_BASE_MAX 180
#define PAGE_NAME_SIZE 240
#define PATH_SIZE 4096

#define KDE_POINTS 200 /* points of a density curve */
#define PLOT_W 840     /* plot sizes in pixels */
#define PLOT_H 380

#define COLOR_NOW "#1f77b4"
#define COLOR_BASE "#d62728"
#define COLOR_MARK "#222222"
#define COLOR_MILD "#ff9f1c"
#define COLOR_SEVERE "#c0392b"
#define COLOR_FASTER "#2ca02c"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

typedef char page_name[PAGE_NAME_SIZE];

/* The report being written: the page open now, where `failed` remembers
 * any write error, and every record with its page's name. */
typedef struct html {
	FILE *f;
	int failed;
	const bench_record *records;
	size_t n;
	page_name *names;
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

/* ---- records -------------------------------------------------------- */

static const char *name_of(const bench_record *r)
{
	return r->name != NULL ? r->name : "";
}

/* Samples usable for plotting: none when the arrays are missing. */
static size_t count_of(const bench_samples *s)
{
	return s->iters != NULL && s->times != NULL ? s->n : 0;
}

/* The slope ratio ours / reference of record i, when it has a valid twin
 * and the ratio is a positive number. */
static bool twin_ratio(const html *h, size_t i, double *ratio)
{
	long t = h->records[i].twin;

	if (t < 0 || (size_t)t >= h->n || (size_t)t == i)
		return false;
	*ratio = bench_time_ratio(&h->records[i], &h->records[t]).point;
	return isfinite(*ratio) && *ratio > 0;
}

/* The CSS class of a verdict, or of a ratio (below 1 is faster). */
static const char *verdict_class(bench_verdict v)
{
	return v == BENCH_IMPROVED    ? "good"
	       : v == BENCH_REGRESSED ? "bad"
				      : "neutral";
}

static const char *ratio_class(double ratio)
{
	return ratio <= 1 ? "good" : "bad";
}

/* ---- page names ----------------------------------------------------- */

/* The name with '/' as '_' and only [A-Za-z0-9_.-] kept; "bench" when
 * nothing is left. */
static void sanitise(const char *name, char *buf)
{
	size_t k = 0;

	for (; *name != '\0' && k < PAGE_BASE_MAX; name++) {
		char c = *name == '/' ? '_' : *name;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-')
			buf[k++] = c;
	}
	buf[k] = '\0';
	if (k == 0)
		strcpy(buf, "bench");
}

static bool name_taken(const page_name *names, size_t i, const char *s)
{
	for (size_t j = 0; j < i; j++)
		if (strcmp(names[j], s) == 0)
			return true;
	return strcmp(s, "index") == 0;
}

/* Unique page names (without ".html"): a name taken by an earlier record
 * or by the index gets the record's number, then a counter, appended. */
static void page_names(const bench_record *records, size_t n, page_name *names)
{
	for (size_t i = 0; i < n; i++) {
		char base[PAGE_BASE_MAX + 1];

		sanitise(name_of(&records[i]), base);
		snprintf(names[i], PAGE_NAME_SIZE, "%s", base);
		for (size_t k = 0; name_taken(names, i, names[i]); k++)
			snprintf(names[i], PAGE_NAME_SIZE,
				 k == 0 ? "%s-%zu" : "%s-%zu-%zu", base, i, k);
	}
}

/* ---- page frame and tables ------------------------------------------ */

static const char style[] =
	"body{font-family:sans-serif;max-width:1120px;margin:1.5em auto;"
	"padding:0 1em;color:#222;background:#fff}\n"
	"h1{font-size:1.6em;word-break:break-all}\n"
	"h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ddd}\n"
	"table{border-collapse:collapse;margin:.5em 0}\n"
	"th,td{padding:.3em .7em;border-bottom:1px solid #e4e4e4;"
	"text-align:right;white-space:nowrap}\n"
	"th{background:#f4f4f4}\n"
	"td.name,th.name,td.verdict,th.verdict{text-align:left;"
	"white-space:normal}\n"
	"td.iv{color:#666;font-size:.9em}\n"
	".good{color:#1a7f1a;font-weight:bold}\n"
	".bad{color:#b22222;font-weight:bold}\n"
	".neutral{color:#555}\n"
	".meta{color:#555}\n"
	"figure{margin:1.2em 0}\n"
	"figcaption{color:#555;font-size:.9em;max-width:840px}\n"
	"svg{display:block;max-width:100%;height:auto;"
	"border:1px solid #eee}\n";

/* Opens dir/file and writes the head of the page. */
static int open_page(html *h, const char *dir, const char *file,
		     const char *title, char *path, char *err, size_t err_size)
{
	int len = snprintf(path, PATH_SIZE, "%s/%s", dir, file);

	if (len < 0 || len >= PATH_SIZE)
		return fail(err, err_size, "path too long: %s/%s", dir, file);
	if ((h->f = fopen(path, "w")) == NULL)
		return fail(err, err_size, "cannot write %s: %s", path,
			    strerror(errno));
	h->failed = 0;
	errno = 0; /* so that close_page() names only this file's error */
	out(h, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	       "<meta charset=\"utf-8\">\n"
	       "<meta name=\"viewport\" content=\"width=device-width\">\n"
	       "<title>");
	esc(h, title);
	out(h, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", style);
	return 0;
}

static int close_page(html *h, const char *path, char *err, size_t err_size)
{
	int bad;

	out(h, "</body>\n</html>\n");
	bad = h->failed || ferror(h->f);
	if (fclose(h->f) != 0 || bad)
		return fail(err, err_size, "cannot write %s: %s", path,
			    errno ? strerror(errno) : "write error");
	return 0;
}

/* A table's header row: the name column's title, then the others; the
 * verdict's title is left-aligned like its sentences (CSS). */
static void table_head(html *h, const char *const *titles, size_t n)
{
	out(h, "<table>\n<tr><th class=\"name\">%s</th>", titles[0]);
	for (size_t i = 1; i < n; i++)
		out(h, "<th%s>%s</th>",
		    strcmp(titles[i], "Verdict") == 0 ? " class=\"verdict\"" : "",
		    titles[i]);
	out(h, "</tr>\n");
}

static const char *const bounds_titles[] = {"", "Lower bound", "Estimate",
					    "Upper bound"};

/* A row of lower bound, estimate and upper bound. */
static void bounds_row(html *h, const char *what, bench_num v[3])
{
	out(h, "<tr><td class=\"name\">%s</td><td class=\"iv\">", what);
	esc(h, v[0]);
	out(h, "</td><td><b>");
	esc(h, v[1]);
	out(h, "</b></td><td class=\"iv\">");
	esc(h, v[2]);
	out(h, "</td></tr>\n");
}

static void interval_row(html *h, const char *what, const bench_interval *iv,
			 bench_format *format)
{
	bench_num v[3];

	bench_format_bounds(iv, format, v);
	bounds_row(h, what, v);
}

/* ---- the plots ------------------------------------------------------ */

/* A benchmark's page: its record and the per-sample averages of its
 * samples and of its baseline. */
typedef struct page {
	const bench_record *r;
	double *now, *base;
	size_t n_now, n_base;
} page;

/* The finite averages times[i] / iters[i] into a new array; NULL when
 * out of memory. */
static double *averages(const bench_samples *s, size_t *k)
{
	double *avg = malloc((count_of(s) + 1) * sizeof(double));

	*k = 0;
	for (size_t i = 0; avg != NULL && i < count_of(s); i++)
		if (isfinite(s->times[i] / s->iters[i]))
			avg[(*k)++] = s->times[i] / s->iters[i];
	return avg;
}

/* Widens [*lo, *hi] to hold every v[i] - pad and v[i] + pad. */
static void extend(const double *v, size_t n, double pad, double *lo,
		   double *hi)
{
	for (size_t i = 0; i < n; i++) {
		*lo = fmin(*lo, v[i] - pad);
		*hi = fmax(*hi, v[i] + pad);
	}
}

/* An axis of times in ns, labelled in the unit that suits its range. */
static svg_axis time_axis(double lo, double hi, const char *what, char *label,
			  size_t size)
{
	svg_axis a = {lo, hi, 1.0, label, 1, 0};
	const char *unit;

	svg_range_fix(&a.lo, &a.hi);
	unit = bench_time_unit(fmax(fabs(a.lo), fabs(a.hi)), &a.scale);
	snprintf(label, size, "%s (%s)", what, unit);
	return a;
}

/* Plot 1: one density curve of v over [lo, hi], drawn when `p` is not
 * NULL; returns its peak, to size the y axis. */
static double density(svg_plot *p, const double *v, size_t n, double lo,
		      double hi, const char *color, const char *legend)
{
	double xs[KDE_POINTS], ys[KDE_POINTS], peak = 0;

	if (n == 0)
		return 0;
	bench_kde(v, n, bench_kde_bandwidth(v, n), lo, hi, KDE_POINTS, xs, ys);
	for (size_t i = 0; i < KDE_POINTS; i++)
		peak = fmax(peak, ys[i]);
	if (p != NULL) {
		svg_plot_curve(p, xs, ys, KDE_POINTS, color);
		svg_plot_legend(p, legend, color, SVG_MARK_AREA);
	}
	return peak;
}

/* A vertical line at x in [lo, hi], with its legend. */
static void mark_line(svg_plot *p, double x, double top, const char *dash,
		      const char *label)
{
	if (!isfinite(x) || x < p->x.lo || x > p->x.hi)
		return;
	svg_plot_line(p, x, 0, x, top, COLOR_MARK, 1.5, dash);
	svg_plot_legend(p, label, COLOR_MARK,
			dash ? SVG_MARK_DASHED : SVG_MARK_LINE);
}

static void plot_density(svg_plot *p, const page *g)
{
	double lo = INFINITY, hi = -INFINITY, top;
	char label[64];
	svg_axis x, y = {0, 1, 1, "Density (a.u.)", 1, 0};

	/* The x range: the values 3 bandwidths out. */
	if (g->n_now > 0)
		extend(g->now, g->n_now,
		       3 * bench_kde_bandwidth(g->now, g->n_now), &lo, &hi);
	if (g->n_base > 0)
		extend(g->base, g->n_base,
		       3 * bench_kde_bandwidth(g->base, g->n_base), &lo, &hi);
	svg_range_fix(&lo, &hi);
	top = fmax(density(NULL, g->now, g->n_now, lo, hi, NULL, NULL),
		   density(NULL, g->base, g->n_base, lo, hi, NULL, NULL));
	y.hi = top > 0 ? top * 1.08 : 1;
	x = time_axis(lo, hi, "Average time per iteration", label,
		      sizeof label);
	svg_plot_begin(p, "Distribution of the sample averages", &x, &y);
	density(p, g->base, g->n_base, lo, hi, COLOR_BASE, "Baseline");
	if (g->n_now == 0) {
		svg_plot_note(p, "No samples");
		return;
	}
	density(p, g->now, g->n_now, lo, hi, COLOR_NOW, "Current");
	for (size_t i = 0; i < g->n_now; i++) /* a rug of the samples */
		svg_plot_line(p, g->now[i], 0, g->now[i], y.hi * 0.03,
			      COLOR_NOW, 1, NULL);
	mark_line(p, g->r->estimates.mean.point, y.hi, NULL, "Mean");
	mark_line(p, g->r->estimates.median.point, y.hi, "6 4", "Median");
}

/* Plot 2: the samples of s as dots, and the line time = slope *
 * iterations through the origin. */
static void scatter(svg_plot *p, const bench_samples *s, double slope,
		    const char *fill, const char *stroke, const char *line,
		    const char *dash)
{
	for (size_t i = 0; i < count_of(s); i++)
		svg_plot_dot(p, s->iters[i], s->times[i], fill, stroke);
	if (isfinite(slope))
		svg_plot_line(p, 0, 0, p->x.hi, slope * p->x.hi, line, 2, dash);
}

static void plot_samples(svg_plot *p, const page *g)
{
	const bench_samples *now = &g->r->samples, *base = &g->r->baseline;
	double slope = g->r->estimates.slope.point;
	double x_hi = 0, y_lo = 0, y_hi = 0, none = INFINITY;
	char label[64];
	svg_axis x = {0, 1, 1, "Iterations", 1, 0}, y;

	if (!isfinite(slope))
		slope = bench_slope(now->iters, now->times, count_of(now));
	extend(now->iters, count_of(now), 0, &none, &x_hi);
	extend(base->iters, count_of(base), 0, &none, &x_hi);
	extend(now->times, count_of(now), 0, &y_lo, &y_hi);
	extend(base->times, count_of(base), 0, &y_lo, &y_hi);
	x.hi = x_hi > 0 ? x_hi * 1.05 : 1;
	if (isfinite(slope * x.hi))
		y_hi = fmax(y_hi, slope * x.hi);
	/* Iteration counts in thousands or millions when large. */
	if (x.hi >= 1e4) {
		x.scale = x.hi >= 1e6 ? 1e6 : 1e3;
		x.label = x.hi >= 1e6 ? "Iterations (millions)"
				      : "Iterations (thousands)";
	}
	y = time_axis(y_lo, y_hi * 1.05, "Total sample time", label,
		      sizeof label);
	svg_plot_begin(p, "Samples against iterations", &x, &y);
	if (count_of(base) > 0) {
		scatter(p, base,
			bench_slope(base->iters, base->times, count_of(base)),
			"none", COLOR_BASE, COLOR_BASE, "6 4");
		svg_plot_legend(p, "Baseline sample", COLOR_BASE,
				SVG_MARK_RING);
		svg_plot_legend(p, "Baseline slope", COLOR_BASE,
				SVG_MARK_DASHED);
	}
	if (count_of(now) == 0) {
		svg_plot_note(p, "No samples");
		return;
	}
	scatter(p, now, slope, COLOR_NOW, COLOR_NOW, COLOR_MARK, NULL);
	svg_plot_legend(p, "Sample", COLOR_NOW, SVG_MARK_DOT);
	svg_plot_legend(p, "Regression (slope)", COLOR_MARK, SVG_MARK_LINE);
}

/* Plot 3. Fences that were computed: finite, in order, and not all zero
 * (the mark of a record without a classification). */
static bool fences_usable(const bench_outliers *o)
{
	int zeros = 0;

	for (int i = 0; i < 4; i++) {
		if (!isfinite(o->fence[i]))
			return false;
		zeros += o->fence[i] == 0;
	}
	return zeros < 4 && o->fence[0] <= o->fence[1] &&
	       o->fence[1] <= o->fence[2] && o->fence[2] <= o->fence[3];
}

/* The colour of an average: normal, mild or severe outlier. */
static const char *outlier_color(const bench_outliers *o, bool fences,
				 double v)
{
	if (fences && (v < o->fence[0] || v > o->fence[3]))
		return COLOR_SEVERE;
	if (fences && (v < o->fence[1] || v > o->fence[2]))
		return COLOR_MILD;
	return COLOR_NOW;
}

static void plot_outliers(svg_plot *p, const page *g)
{
	const bench_outliers *o = &g->r->outliers;
	bool fences = fences_usable(o);
	double lo = INFINITY, hi = -INFINITY, pad;
	char label[64];
	/* At least 6 on the axis, so that its ticks are whole samples. */
	svg_axis x = {0, fmax(g->n_now + 1.0, 6), 1, "Sample", 1, 0}, y;

	extend(g->now, g->n_now, 0, &lo, &hi);
	extend(o->fence, fences ? 4 : 0, 0, &lo, &hi);
	svg_range_fix(&lo, &hi);
	pad = (hi - lo) * 0.05;
	y = time_axis(lo - pad, hi + pad, "Average time per iteration", label,
		      sizeof label);
	svg_plot_begin(p, "Sample averages and Tukey's fences", &x, &y);
	for (int i = 0; fences && i < 4; i++)
		svg_plot_line(p, 0, o->fence[i], x.hi, o->fence[i],
			      i == 0 || i == 3 ? COLOR_SEVERE : COLOR_MILD, 1.5,
			      "6 4");
	if (fences) {
		svg_plot_legend(p, "Mild fences", COLOR_MILD, SVG_MARK_DASHED);
		svg_plot_legend(p, "Severe fences", COLOR_SEVERE,
				SVG_MARK_DASHED);
	}
	if (g->n_now == 0) {
		svg_plot_note(p, "No samples");
		return;
	}
	for (size_t i = 0; i < g->n_now; i++) {
		const char *c = outlier_color(o, fences, g->now[i]);

		svg_plot_dot(p, i + 1.0, g->now[i], c, c);
	}
	svg_plot_legend(p, "Sample", COLOR_NOW, SVG_MARK_DOT);
	if (fences) {
		svg_plot_legend(p, "Mild outlier", COLOR_MILD, SVG_MARK_DOT);
		svg_plot_legend(p, "Severe outlier", COLOR_SEVERE,
				SVG_MARK_DOT);
	}
}

static const struct {
	void (*draw)(svg_plot *p, const page *g);
	const char *caption;
} plots[] = {
	{plot_density,
	 "Gaussian kernel density (Silverman's bandwidth) of the per-sample "
	 "averages, time / iterations; ticks at the bottom are the samples."},
	{plot_samples,
	 "Each sample's total time against its iteration count; the slope of "
	 "the line through the origin is the time per iteration."},
	{plot_outliers,
	 "Per-sample averages in measurement order; outside the dashed fences "
	 "(1.5 and 3 interquartile ranges beyond the quartiles) they are mild "
	 "or severe outliers."},
};

/* Closes the plot, and its figure with the caption. */
static void figure_end(html *h, svg_plot *p, const char *caption)
{
	if (svg_plot_end(p) < 0)
		h->failed = 1;
	out(h, "<figcaption>%s</figcaption>\n</figure>\n", caption);
}

/* ---- benchmark page ------------------------------------------------- */

static void estimates_table(html *h, const bench_record *r)
{
	const bench_estimates *e = &r->estimates;
	bench_num v[3], r2[3] = {BENCH_DASH, "", BENCH_DASH};

	out(h, "<h2>Estimates</h2>\n");
	table_head(h, bounds_titles, COUNT(bounds_titles));
	interval_row(h, "Slope (time per iteration)", &e->slope,
		     bench_format_time);
	if (r->elements > 0) {
		bench_format_throughput(r, v);
		bounds_row(h, "Throughput", v);
	}
	interval_row(h, "Mean", &e->mean, bench_format_time);
	interval_row(h, "Median", &e->median, bench_format_time);
	interval_row(h, "Std. dev.", &e->std_dev, bench_format_time);
	interval_row(h, "Median abs. dev. (MAD)", &e->median_abs_dev,
		     bench_format_time);
	snprintf(r2[1], sizeof r2[1],
		 isfinite(e->r_squared) ? "%.7f" : BENCH_DASH, e->r_squared);
	bounds_row(h, "R&sup2;", r2);
	out(h, "</table>\n");
}

static void outliers_table(html *h, const bench_record *r)
{
	static const char *const titles[] = {"", "Low severe", "Low mild",
					     "High mild", "High severe"};
	const bench_outliers *o = &r->outliers;
	size_t total = bench_outliers_total(o), n = count_of(&r->samples);
	bench_num fence;

	out(h, "<h2>Outliers</h2>\n<p>Found %zu outliers among %zu "
	       "measurements", total, n);
	if (n > 0)
		out(h, " (%.2f%%)", 100.0 * total / n);
	out(h, ".</p>\n");
	table_head(h, titles, COUNT(titles));
	out(h, "<tr><td class=\"name\">Count</td><td>%zu</td><td>%zu</td>"
	       "<td>%zu</td><td>%zu</td></tr>\n<tr><td class=\"name\">Fence"
	       "</td>",
	    o->low_severe, o->low_mild, o->high_mild, o->high_severe);
	for (int i = 0; i < 4; i++) {
		bench_format_time(fences_usable(o) ? o->fence[i] : NAN, fence);
		out(h, "<td>%s</td>", fence);
	}
	out(h, "</tr>\n</table>\n");
}

static void change_table(html *h, const bench_record *r)
{
	const bench_change *c = &r->change;

	if (!r->has_change) {
		if (count_of(&r->baseline) > 0)
			out(h, "<h2>Change</h2>\n<p>A baseline of %zu samples "
			       "is overlaid on the plots.</p>\n",
			    count_of(&r->baseline));
		return;
	}
	out(h, "<h2>Change against the baseline</h2>\n");
	table_head(h, bounds_titles, COUNT(bounds_titles));
	interval_row(h, "Mean", &c->mean, bench_format_percent);
	interval_row(h, "Median", &c->median, bench_format_percent);
	out(h, "</table>\n<p>p-value: ");
	out(h, isfinite(c->p_value) ? "%.4f" : BENCH_DASH, c->p_value);
	out(h, ". <span class=\"%s\">%s</span></p>\n",
	    verdict_class(c->verdict), bench_verdict_sentence(c->verdict));
}

/* The link to record i's page, named after it. */
static void link_to(html *h, size_t i)
{
	out(h, "<a href=\"");
	esc(h, h->names[i]);
	out(h, ".html\">");
	esc(h, name_of(&h->records[i]));
	out(h, "</a>");
}

static void twin_section(html *h, size_t i)
{
	double ratio;
	bench_num speed;

	if (!twin_ratio(h, i, &ratio))
		return;
	bench_format_speed(ratio, speed);
	out(h, "<h2>Against the reference</h2>\n<p>Slope ratio ours / "
	       "reference: %.3f, <span class=\"%s\">%s</span> than ",
	    ratio, ratio_class(ratio), speed);
	link_to(h, (size_t)h->records[i].twin);
	out(h, ".</p>\n");
}

static void page_body(html *h, size_t i, const page *g)
{
	const bench_record *r = g->r;
	svg_plot p;

	out(h, "<p><a href=\"index.html\">&larr; All benchmarks</a></p>\n"
	       "<h1>");
	esc(h, name_of(r));
	out(h, "</h1>\n<p class=\"meta\">");
	if (r->group != NULL) {
		out(h, "Group ");
		esc(h, r->group);
		out(h, " &middot; ");
	}
	out(h, "%zu samples", count_of(&r->samples));
	if (count_of(&r->baseline) > 0)
		out(h, " &middot; baseline of %zu samples",
		    count_of(&r->baseline));
	out(h, "</p>\n");
	estimates_table(h, r);
	outliers_table(h, r);
	change_table(h, r);
	twin_section(h, i);
	out(h, "<h2>Plots</h2>\n");
	for (size_t k = 0; k < COUNT(plots); k++) {
		out(h, "<figure>\n");
		svg_plot_init(&p, h->f, PLOT_W, PLOT_H);
		plots[k].draw(&p, g);
		figure_end(h, &p, plots[k].caption);
	}
}

static int write_page(html *h, const char *dir, size_t i, char *err,
		      size_t err_size)
{
	page g = {&h->records[i], NULL, NULL, 0, 0};
	char file[PAGE_NAME_SIZE + 8], path[PATH_SIZE];
	int rc = -1;

	g.now = averages(&g.r->samples, &g.n_now);
	g.base = averages(&g.r->baseline, &g.n_base);
	snprintf(file, sizeof file, "%s.html", h->names[i]);
	if (g.now == NULL || g.base == NULL)
		fail(err, err_size, "out of memory");
	else if (open_page(h, dir, file, name_of(g.r), path, err, err_size) ==
		 0) {
		page_body(h, i, &g);
		rc = close_page(h, path, err, err_size);
	}
	free(g.now);
	free(g.base);
	return rc;
}

/* ---- index ---------------------------------------------------------- */

static void index_row(html *h, size_t i)
{
	const bench_record *r = &h->records[i];
	bench_num v[3], rate[3];
	double ratio;

	out(h, "<tr><td class=\"name\">");
	link_to(h, i);
	bench_format_bounds(&r->estimates.slope, bench_format_time, v);
	bench_format_throughput(r, rate);
	out(h, "</td><td><b>%s</b></td><td class=\"iv\">[%s, %s]</td><td>",
	    v[1], v[0], v[2]);
	esc(h, rate[1]);
	out(h, "</td>");
	if (r->has_change) {
		bench_format_percent(r->change.mean.point, v[0]);
		out(h, "<td>%s</td><td class=\"verdict %s\">%s</td>", v[0],
		    verdict_class(r->change.verdict),
		    bench_verdict_sentence(r->change.verdict));
	} else {
		out(h, "<td>" BENCH_DASH "</td><td>" BENCH_DASH "</td>");
	}
	if (twin_ratio(h, i, &ratio)) {
		bench_format_speed(ratio, v[0]);
		out(h, "<td>%.3f</td><td class=\"%s\">%s</td></tr>\n", ratio,
		    ratio_class(ratio), v[0]);
	} else {
		out(h, "<td>" BENCH_DASH "</td><td>" BENCH_DASH "</td></tr>\n");
	}
}

/* Horizontal bars of the ratios ours / reference, one per twin pair. */
static void ratio_chart(html *h)
{
	size_t rows = 0, row = 0, longest = 0;
	double ratio, hi = 1;
	bench_num speed;
	svg_plot p;
	svg_axis x = {0, 1, 1, "Slope ratio ours / reference (lower is faster)",
		      1, 0};
	svg_axis y = {0, 1, 1, NULL, 0, 0};

	for (size_t i = 0; i < h->n; i++)
		if (twin_ratio(h, i, &ratio)) {
			rows++;
			hi = fmax(hi, ratio);
			if (strlen(name_of(&h->records[i])) > longest)
				longest = strlen(name_of(&h->records[i]));
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
	for (size_t i = 0; i < h->n; i++) {
		double yc = rows - row - 0.5;

		if (!twin_ratio(h, i, &ratio))
			continue;
		svg_plot_rect(&p, 0, yc - 0.3, ratio, yc + 0.3,
			      ratio <= 1 ? COLOR_FASTER : COLOR_BASE);
		svg_plot_text(&p, 0, yc, -8, 4, "end", name_of(&h->records[i]));
		bench_format_speed(ratio, speed);
		svg_plot_text(&p, ratio, yc, 6, 4, "start", speed);
		row++;
	}
	svg_plot_legend(&p, "Faster", COLOR_FASTER, SVG_MARK_AREA);
	svg_plot_legend(&p, "Slower", COLOR_BASE, SVG_MARK_AREA);
	svg_plot_legend(&p, "Reference", COLOR_MARK, SVG_MARK_DASHED);
	figure_end(h, &p,
		   "Each benchmark's slope divided by its reference twin's; "
		   "below 1 this library is faster.");
}

static int write_index(html *h, const char *dir, char *err, size_t err_size)
{
	static const char *const titles[] = {
		"Benchmark", "Slope",       "Interval", "Throughput", "Change",
		"Verdict",   "Ours / ref.", "Speed"};
	char path[PATH_SIZE];

	if (open_page(h, dir, "index.html", "equix-bench report", path, err,
		      err_size) != 0)
		return -1;
	out(h, "<h1>equix-bench report</h1>\n<p class=\"meta\">%zu "
	       "benchmarks. Times are per iteration, with the bounds of "
	       "their bootstrap confidence intervals.</p>\n",
	    h->n);
	if (h->n == 0)
		out(h, "<p>No benchmarks were recorded.</p>\n");
	else
		table_head(h, titles, COUNT(titles));
	for (size_t i = 0; i < h->n; i++)
		index_row(h, i);
	if (h->n > 0)
		out(h, "</table>\n");
	ratio_chart(h);
	return close_page(h, path, err, err_size);
}

/* ---- entry point ---------------------------------------------------- */

int bench_report_html_write(const char *dir, const bench_record *records,
			    size_t n, char *err, size_t err_size)
{
	html h = {NULL, 0, records, n, NULL};
	int rc;

	if (dir == NULL || (records == NULL && n > 0))
		return fail(err, err_size, "report: no directory or records");
	if (bench_make_dirs(dir) != 0)
		return fail(err, err_size, "cannot create %s: %s", dir,
			    strerror(errno));
	if ((h.names = malloc((n + 1) * sizeof *h.names)) == NULL)
		return fail(err, err_size, "out of memory");
	page_names(records, n, h.names);
	rc = write_index(&h, dir, err, err_size);
	for (size_t i = 0; rc == 0 && i < n; i++)
		rc = write_page(&h, dir, i, err, err_size);
	free(h.names);
	return rc;
}

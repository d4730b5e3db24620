/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * svg_plot.c - a tiny SVG plotting helper (see svg_plot.h).
 */
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "svg_plot.h"

/* Pixel coordinates are clamped to this, far outside any picture. */
#define SVG_COORD_MAX 100000.0
/* Ticks aimed for on an axis, and the most ever drawn. */
#define SVG_TICKS_TARGET 6
#define SVG_TICKS_MAX 30
#define SVG_LEGEND_ROW 20.0

/* printf into the picture, remembering a failure. */
static void out(svg_plot *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void out(svg_plot *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (vfprintf(p->f, fmt, ap) < 0)
		p->failed = 1;
	va_end(ap);
}

static void text(svg_plot *p, const char *s)
{
	if (svg_write_escaped(p->f, s) < 0)
		p->failed = 1;
}

/* A <text> element at pixel (x, y) with more attributes (`attrs`, which
 * starts with a space, or ""), holding `s` escaped. */
static void text_at(svg_plot *p, double x, double y, const char *attrs,
		    const char *s)
{
	out(p, "<text x=\"%.2f\" y=\"%.2f\"%s>", x, y, attrs);
	text(p, s);
	out(p, "</text>\n");
}

int svg_write_escaped(FILE *f, const char *s)
{
	static const char specials[] = "&<>\"'";
	static const char *const entities[] = {"&amp;", "&lt;", "&gt;",
					       "&quot;", "&#39;"};

	for (; s != NULL && *s != '\0'; s++) {
		const char *e = strchr(specials, *s);

		if ((e != NULL ? fputs(entities[e - specials], f)
			       : fputc(*s, f)) == EOF)
			return -1;
	}
	return 0;
}

/* The single gate for coordinates: never NaN, never inf, never huge. */
static double safe(double v)
{
	if (!isfinite(v))
		return 0.0;
	if (v > SVG_COORD_MAX)
		return SVG_COORD_MAX;
	if (v < -SVG_COORD_MAX)
		return -SVG_COORD_MAX;
	return v;
}

void svg_range_fix(double *lo, double *hi)
{
	double a = *lo, b = *hi, mid, mag;

	if (!isfinite(a) || !isfinite(b) || !isfinite(b - a)) {
		*lo = 0.0;
		*hi = 1.0;
		return;
	}
	if (a > b) {
		double t = a;
		a = b;
		b = t;
	}
	mid = a / 2 + b / 2;
	mag = fmax(fabs(a), fabs(b));
	/* A point, or a range lost in rounding: widen it around its middle
	 * (by 1% of its magnitude, or to +-1 around zero). */
	if (b - a <= mag * 1e-9 || b - a < 1e-200) {
		double half = mag > 1e-200 ? mag * 0.01 : 1.0;
		a = mid - half;
		b = mid + half;
	}
	*lo = a;
	*hi = b;
}

static double plot_w(const svg_plot *p)
{
	return p->width - p->left - p->right;
}

static double plot_h(const svg_plot *p)
{
	return p->height - p->top - p->bottom;
}

/* A tick label's value: finite (labels are not clamped like pixels). */
static double label_value(double v)
{
	return isfinite(v) ? v : 0.0;
}

/* Data to pixel coordinates. */
static double px(const svg_plot *p, double x)
{
	return safe(p->left + (x - p->x.lo) / (p->x.hi - p->x.lo) * plot_w(p));
}

static double py(const svg_plot *p, double y)
{
	return safe(p->top + plot_h(p) -
		    (y - p->y.lo) / (p->y.hi - p->y.lo) * plot_h(p));
}

void svg_plot_init(svg_plot *p, FILE *f, double width, double height)
{
	memset(p, 0, sizeof(*p));
	p->f = f;
	p->width = width;
	p->height = height;
	p->left = 76;
	p->right = 170;
	p->top = 34;
	p->bottom = 48;
}

/* A "nice" tick step (1, 2 or 5 times a power of ten) for a range. */
static double nice_step(double range)
{
	double raw = range / SVG_TICKS_TARGET;
	double mag = pow(10.0, floor(log10(raw)));
	double f = raw / mag;

	if (!isfinite(f) || !(mag > 0))
		return range;
	if (f < 1.5)
		return mag;
	if (f < 3)
		return 2 * mag;
	if (f < 7)
		return 5 * mag;
	return 10 * mag;
}

/* The grid line, tick and label of one tick at value t of the x axis
 * (vertical) or the y axis; the label shows t / scale. */
static void tick(svg_plot *p, int vertical, double t, double scale)
{
	double x = vertical ? px(p, t) : p->left;
	double y = vertical ? p->top + plot_h(p) : py(p, t);
	const char *grid = "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" "
			   "y2=\"%.2f\" stroke=\"%s\"/>\n";

	if (vertical) {
		out(p, grid, x, p->top, x, y, "#e4e4e4");
		out(p, grid, x, y, x, y + 5, "#333");
	} else {
		out(p, grid, x, y, x + plot_w(p), y, "#e4e4e4");
		out(p, grid, x - 5, y, x, y, "#333");
	}
	out(p, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"%s\">%.6g</text>\n",
	    vertical ? x : x - 8, vertical ? y + 18 : y + 4,
	    vertical ? "middle" : "end", label_value(t / scale));
}

/* Every tick of an axis over [lo, hi] (exactly 0 for the tick at
 * zero). */
static void ticks(svg_plot *p, const svg_axis *a, int vertical)
{
	double step = nice_step(a->hi - a->lo);
	double first = ceil(a->lo / step) * step;

	for (int i = 0; i < SVG_TICKS_MAX && a->ticks; i++) {
		double t = first + i * step;

		if (t > a->hi + step * 1e-6)
			break;
		tick(p, vertical, fabs(t) < step * 1e-6 ? 0.0 : t,
		     a->scale > 0 && isfinite(a->scale) ? a->scale : 1);
	}
}

/* Title above the plot area, axis labels below and left of it. */
static void labels(svg_plot *p, const char *title)
{
	double cx = p->left + plot_w(p) / 2, cy = p->top + plot_h(p) / 2;
	char rotate[80];

	text_at(p, cx, 20,
		" text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\"",
		title);
	if (p->x.label != NULL)
		text_at(p, cx, p->height - 10, " text-anchor=\"middle\"",
			p->x.label);
	snprintf(rotate, sizeof rotate,
		 " text-anchor=\"middle\" transform=\"rotate(-90 16 %.2f)\"",
		 cy);
	if (p->y.label != NULL)
		text_at(p, 16, cy, rotate, p->y.label);
}

void svg_plot_begin(svg_plot *p, const char *title, const svg_axis *x,
		    const svg_axis *y)
{
	p->x = *x;
	p->y = *y;
	svg_range_fix(&p->x.lo, &p->x.hi);
	svg_range_fix(&p->y.lo, &p->y.hi);
	out(p,
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
	    "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" "
	    "font-family=\"sans-serif\" font-size=\"12\">\n<title>",
	    safe(p->width), safe(p->height), safe(p->width), safe(p->height));
	text(p, title);
	out(p,
	    "</title>\n<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" "
	    "fill=\"#fff\"/>\n",
	    safe(p->width), safe(p->height));
	ticks(p, &p->x, 1);
	ticks(p, &p->y, 0);
	out(p,
	    "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
	    "fill=\"none\" stroke=\"#333\"/>\n",
	    p->left, p->top, safe(plot_w(p)), safe(plot_h(p)));
	labels(p, title);
}

static void points(svg_plot *p, const double *xs, const double *ys, size_t n)
{
	for (size_t i = 0; i < n; i++)
		out(p, "%s%.2f,%.2f", i ? " " : "", px(p, xs[i]), py(p, ys[i]));
}

void svg_plot_polyline(svg_plot *p, const double *xs, const double *ys,
		       size_t n, const char *color, double width,
		       const char *dash)
{
	if (n == 0)
		return;
	out(p, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%.2f\"",
	    color, safe(width));
	if (dash != NULL)
		out(p, " stroke-dasharray=\"%s\"", dash);
	out(p, " points=\"");
	points(p, xs, ys, n);
	out(p, "\"/>\n");
}

void svg_plot_area(svg_plot *p, const double *xs, const double *ys, size_t n,
		   const char *color, double opacity)
{
	/* The base line: y = 0, or the bottom when 0 is out of range. */
	double base = fmin(fmax(0.0, p->y.lo), p->y.hi);

	if (n == 0)
		return;
	out(p,
	    "<polygon fill=\"%s\" fill-opacity=\"%.2f\" stroke=\"none\" "
	    "points=\"%.2f,%.2f ",
	    color, safe(opacity), px(p, xs[0]), py(p, base));
	points(p, xs, ys, n);
	out(p, " %.2f,%.2f\"/>\n", px(p, xs[n - 1]), py(p, base));
}

void svg_plot_circle(svg_plot *p, double x, double y, double r,
		     const char *fill, const char *stroke)
{
	out(p,
	    "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\" fill=\"%s\" "
	    "stroke=\"%s\"/>\n",
	    px(p, x), py(p, y), safe(r), fill, stroke);
}

/* A line in pixel coordinates. */
static void pixel_line(svg_plot *p, double x0, double y0, double x1, double y1,
		       const char *color, double width, const char *dash)
{
	out(p,
	    "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
	    "stroke=\"%s\" stroke-width=\"%.2f\"",
	    safe(x0), safe(y0), safe(x1), safe(y1), color, safe(width));
	if (dash != NULL)
		out(p, " stroke-dasharray=\"%s\"", dash);
	out(p, "/>\n");
}

void svg_plot_line(svg_plot *p, double x0, double y0, double x1, double y1,
		   const char *color, double width, const char *dash)
{
	pixel_line(p, px(p, x0), py(p, y0), px(p, x1), py(p, y1), color, width,
		   dash);
}

void svg_plot_rect(svg_plot *p, double x0, double y0, double x1, double y1,
		   const char *color)
{
	double a = px(p, x0), b = px(p, x1), c = py(p, y0), d = py(p, y1);

	out(p,
	    "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
	    "fill=\"%s\"/>\n",
	    fmin(a, b), fmin(c, d), fabs(b - a), fabs(d - c), color);
}

void svg_plot_text(svg_plot *p, double x, double y, double dx, double dy,
		   const char *anchor, const char *s)
{
	char attrs[48];

	snprintf(attrs, sizeof attrs, " text-anchor=\"%s\"", anchor);
	text_at(p, safe(px(p, x) + dx), safe(py(p, y) + dy), attrs, s);
}

void svg_plot_note(svg_plot *p, const char *s)
{
	text_at(p, safe(p->left + plot_w(p) / 2), safe(p->top + plot_h(p) / 2),
		" text-anchor=\"middle\" fill=\"#888\" font-size=\"16\"", s);
}

/* The sample glyph of a legend entry, 24 pixels wide, centred on y. */
static void legend_glyph(svg_plot *p, double x, double y, const char *color,
			 svg_mark mark)
{
	switch (mark) {
	case SVG_MARK_LINE:
	case SVG_MARK_DASHED:
		pixel_line(p, x, y, x + 24, y, color, 2,
			   mark == SVG_MARK_DASHED ? "6 4" : NULL);
		break;
	case SVG_MARK_DOT:
	case SVG_MARK_RING:
		out(p,
		    "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"4\" fill=\"%s\" "
		    "stroke=\"%s\"/>\n",
		    x + 12, y, mark == SVG_MARK_DOT ? color : "none", color);
		break;
	case SVG_MARK_AREA:
		out(p,
		    "<rect x=\"%.2f\" y=\"%.2f\" width=\"24\" height=\"12\" "
		    "fill=\"%s\" fill-opacity=\"0.35\" stroke=\"%s\"/>\n",
		    x, y - 6, color, color);
		break;
	}
}

void svg_plot_legend(svg_plot *p, const char *label, const char *color,
		     svg_mark mark)
{
	double x = safe(p->width - p->right + 14);
	double y = safe(p->top + 10 + SVG_LEGEND_ROW * p->legend_rows);

	legend_glyph(p, x, y, color, mark);
	text_at(p, x + 30, y + 4, "", label);
	p->legend_rows++;
}

int svg_plot_end(svg_plot *p)
{
	out(p, "</svg>\n");
	return p->failed ? -1 : 0;
}

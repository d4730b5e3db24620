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

int svg_write_escaped(FILE *f, const char *s)
{
	for (; s != NULL && *s != '\0'; s++) {
		const char *e = NULL;
		int rc;

		switch (*s) {
		case '&':
			e = "&amp;";
			break;
		case '<':
			e = "&lt;";
			break;
		case '>':
			e = "&gt;";
			break;
		case '"':
			e = "&quot;";
			break;
		case '\'':
			e = "&#39;";
			break;
		}
		rc = e != NULL ? fputs(e, f) : fputc(*s, f);
		if (rc == EOF)
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

/* Calls draw(p, value) for each tick of [lo, hi]; draw receives the tick
 * value (exactly 0 for the tick at zero). */
static void each_tick(svg_plot *p, const svg_axis *a,
		      void (*draw)(svg_plot *, double, double))
{
	double step = nice_step(a->hi - a->lo);
	double first = ceil(a->lo / step) * step;

	for (int i = 0; i < SVG_TICKS_MAX; i++) {
		double t = first + i * step;

		if (t > a->hi + step * 1e-6)
			break;
		if (fabs(t) < step * 1e-6)
			t = 0.0;
		draw(p, t, a->scale > 0 && isfinite(a->scale) ? a->scale : 1);
	}
}

static void x_tick(svg_plot *p, double t, double scale)
{
	double x = px(p, t), y = p->top + plot_h(p);

	out(p,
	    "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
	    "stroke=\"#e4e4e4\"/>\n",
	    x, p->top, x, y);
	out(p,
	    "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
	    "stroke=\"#333\"/>\n",
	    x, y, x, y + 5);
	out(p,
	    "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">%.6g</text>\n",
	    x, y + 18, label_value(t / scale));
}

static void y_tick(svg_plot *p, double t, double scale)
{
	double y = py(p, t), x = p->left;

	out(p,
	    "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
	    "stroke=\"#e4e4e4\"/>\n",
	    x, y, x + plot_w(p), y);
	out(p,
	    "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
	    "stroke=\"#333\"/>\n",
	    x - 5, y, x, y);
	out(p, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\">%.6g</text>\n",
	    x - 8, y + 4, label_value(t / scale));
}

/* Title above the plot area, axis labels below and left of it. */
static void labels(svg_plot *p, const char *title)
{
	double cx = p->left + plot_w(p) / 2, cy = p->top + plot_h(p) / 2;

	out(p,
	    "<text x=\"%.2f\" y=\"20\" text-anchor=\"middle\" "
	    "font-size=\"15\" font-weight=\"bold\">",
	    cx);
	text(p, title);
	out(p, "</text>\n");
	if (p->x.label != NULL) {
		out(p, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">",
		    cx, p->height - 10);
		text(p, p->x.label);
		out(p, "</text>\n");
	}
	if (p->y.label != NULL) {
		out(p,
		    "<text x=\"16\" y=\"%.2f\" text-anchor=\"middle\" "
		    "transform=\"rotate(-90 16 %.2f)\">",
		    cy, cy);
		text(p, p->y.label);
		out(p, "</text>\n");
	}
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
	if (p->x.ticks)
		each_tick(p, &p->x, x_tick);
	if (p->y.ticks)
		each_tick(p, &p->y, y_tick);
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
	out(p, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"%s\">",
	    safe(px(p, x) + dx), safe(py(p, y) + dy), anchor);
	text(p, s);
	out(p, "</text>\n");
}

void svg_plot_note(svg_plot *p, const char *s)
{
	out(p,
	    "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\" "
	    "fill=\"#888\" font-size=\"16\">",
	    safe(p->left + plot_w(p) / 2), safe(p->top + plot_h(p) / 2));
	text(p, s);
	out(p, "</text>\n");
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
	out(p, "<text x=\"%.2f\" y=\"%.2f\">", x + 30, y + 4);
	text(p, label);
	out(p, "</text>\n");
	p->legend_rows++;
}

int svg_plot_end(svg_plot *p)
{
	out(p, "</svg>\n");
	return p->failed ? -1 : 0;
}

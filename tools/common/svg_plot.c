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
/* About the most labelled powers of ten on either side of a log axis. */
#define SVG_LOG_TICKS 8
#define SVG_LEGEND_ROW 20.0
/* Markers along a series. */
#define SVG_MARKERS 10

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

static void esc(svg_plot *p, const char *s)
{
	if (svg_write_escaped(p->f, s) < 0)
		p->failed = 1;
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
	return isfinite(v) ? fmin(fmax(v, -SVG_COORD_MAX), SVG_COORD_MAX) : 0;
}

void svg_range_fix(double *lo, double *hi)
{
	double a = fmin(*lo, *hi), b = fmax(*lo, *hi);
	double mid = a / 2 + b / 2, mag = fmax(fabs(a), fabs(b));

	if (!isfinite(*lo) || !isfinite(*hi) || !isfinite(b - a)) {
		a = 0;
		b = 1;
	} else if (b - a <= mag * 1e-9 || b - a < 1e-200) {
		/* A point, or a range lost in rounding: widen it around its
		 * middle (by 1% of its magnitude, or to +-1 around zero). */
		a = mid - (mag > 1e-200 ? mag * 0.01 : 1.0);
		b = mid + (mag > 1e-200 ? mag * 0.01 : 1.0);
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

/* The axis's coordinate of v: v itself on a linear axis; on a log one,
 * v / log_from up to 1 in magnitude, then 1 more per power of ten. */
static double axis_coord(const svg_axis *a, double v)
{
	double m;

	if (!(a->log_from > 0))
		return v;
	m = fabs(v) / a->log_from;
	m = m <= 1 ? m : 1 + log10(m);
	return v < 0 ? -m : m;
}

double svg_axis_pos(const svg_axis *a, double v)
{
	double lo = axis_coord(a, a->lo);

	return (axis_coord(a, v) - lo) / (axis_coord(a, a->hi) - lo);
}

/* Data to pixel coordinates. */
static double px(const svg_plot *p, double x)
{
	return safe(p->left + svg_axis_pos(&p->x, x) * plot_w(p));
}

static double py(const svg_plot *p, double y)
{
	return safe(p->top + plot_h(p) - svg_axis_pos(&p->y, y) * plot_h(p));
}

/* The elements in pixel coordinates. */
static void line_px(svg_plot *p, double x0, double y0, double x1, double y1,
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

static void circle_px(svg_plot *p, double x, double y, double r,
		      const char *fill, const char *stroke)
{
	out(p,
	    "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\" fill=\"%s\" "
	    "stroke=\"%s\"/>\n",
	    safe(x), safe(y), r, fill, stroke);
}

/* A rectangle; `paint` holds its fill and stroke attributes. */
static void rect_px(svg_plot *p, double x, double y, double w, double h,
		    const char *paint)
{
	out(p,
	    "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" %s/>\n",
	    safe(x), safe(y), safe(w), safe(h), paint);
}

static void text_px(svg_plot *p, double x, double y, const char *attrs,
		    const char *s)
{
	out(p, "<text x=\"%.2f\" y=\"%.2f\"%s>", safe(x), safe(y), attrs);
	esc(p, s);
	out(p, "</text>\n");
}

void svg_plot_init(svg_plot *p, FILE *f, double width, double height)
{
	svg_plot init = {.f = f, .width = width, .height = height,
			 .left = 76, .right = 170, .top = 34, .bottom = 48};

	*p = init;
}

/* A "nice" tick step (1, 2 or 5 times a power of ten) for a range. */
static double nice_step(double range)
{
	double raw = range / SVG_TICKS_TARGET;
	double mag = pow(10.0, floor(log10(raw)));
	double f = raw / mag;

	if (!isfinite(f) || !(mag > 0))
		return range;
	return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * mag;
}

/* The ticks of a linear axis: multiples of a nice step, exactly 0 at
 * zero. */
static size_t linear_ticks(const svg_axis *a, double *t, size_t max)
{
	double step = nice_step(a->hi - a->lo);
	double first = ceil(a->lo / step) * step;
	size_t n = 0;

	for (int i = 0; i < SVG_TICKS_MAX && n < max; i++) {
		double v = first + i * step;

		if (!isfinite(v) || v > a->hi + step * 1e-6)
			break;
		t[n++] = fabs(v) < step * 1e-6 ? 0.0 : v;
	}
	return n;
}

/* The ticks of a log axis: 0 and +-log_from * 10^j inside the range
 * (give or take rounding), every `every`-th power so that each side of 0
 * has about SVG_LOG_TICKS at most. */
static size_t log_ticks(const svg_axis *a, double *t, size_t max)
{
	double top = fmax(fabs(a->lo), fabs(a->hi)) / a->log_from;
	/* The powers tried: 10^0 to 10^(decades - 1), the first at or past
	 * the range's end. */
	int decades = top > 1 ? (int)fmin(ceil(log10(top)), 400) + 1 : 1;
	int every = decades / SVG_LOG_TICKS + 1;
	size_t n = 0;

	/* From the most negative power to the most positive one. */
	for (int k = -decades; k <= decades && n < max; k++) {
		int j = (k < 0 ? -k : k) - 1; /* the power; -1 for zero */
		double v = 0, pos;

		if (k != 0 && j % every != 0)
			continue;
		if (k != 0)
			v = (k < 0 ? -1 : 1) * a->log_from * pow(10.0, j);
		pos = svg_axis_pos(a, v);
		if (pos >= -1e-9 && pos <= 1 + 1e-9)
			t[n++] = v;
	}
	return n;
}

size_t svg_axis_ticks(const svg_axis *a, double *t, size_t max)
{
	size_t n = a->log_from > 0 ? log_ticks(a, t, max) : 0;

	/* A log axis whose range holds fewer than two of its ticks (all in
	 * its linear part) gets the linear ticks. */
	return n >= 2 ? n : linear_ticks(a, t, max);
}

/* A tick at t: its grid line and mark (long for a labelled one), and its
 * label t / scale when `label`. The x axis when `vertical`. */
static void tick(svg_plot *p, const svg_axis *a, int vertical, double t,
		 int label)
{
	double scale = a->scale > 0 && isfinite(a->scale) ? a->scale : 1;
	double x = p->left, y = p->top + plot_h(p), len = label ? 5 : 3;
	const char *grid = label ? "#e4e4e4" : "#f2f2f2";
	char text[32];

	snprintf(text, sizeof text, "%.6g",
		 isfinite(t / scale) ? t / scale : 0.0);
	if (vertical) {
		x = px(p, t);
		line_px(p, x, p->top, x, y, grid, 1, NULL);
		line_px(p, x, y, x, y + len, "#333", 1, NULL);
		if (label)
			text_px(p, x, y + 18, " text-anchor=\"middle\"", text);
	} else {
		y = py(p, t);
		line_px(p, x, y, x + plot_w(p), y, grid, 1, NULL);
		line_px(p, x - len, y, x, y, "#333", 1, NULL);
		if (label)
			text_px(p, x - 8, y + 4, " text-anchor=\"end\"", text);
	}
}

/* The ticks of an axis (the x axis when `vertical`); on a log axis, the
 * unlabelled ones between two labelled powers of ten too (2 to 9 times
 * the lower one), when they are adjacent powers. */
static void ticks(svg_plot *p, const svg_axis *a, int vertical)
{
	double t[SVG_TICKS_MAX];
	size_t n = a->ticks ? svg_axis_ticks(a, t, SVG_TICKS_MAX) : 0;

	for (size_t i = 0; i < n; i++) {
		double lo = fabs(t[i]), next = i + 1 < n ? fabs(t[i + 1]) : 0;

		tick(p, a, vertical, t[i], 1);
		if (!(a->log_from > 0) || lo == 0 || t[i] < 0 ||
		    fabs(next / lo - 10) > 1e-6)
			continue;
		for (int m = 2; m <= 9; m++)
			tick(p, a, vertical, lo * m, 0);
	}
}

/* On a log axis, two lines at the foot of the right margin saying how
 * zero is shown. */
static void log_note(svg_plot *p, const svg_axis *a, const char *which)
{
	double x = p->width - p->right + 14, y = p->top + plot_h(p);
	const char *attrs = " fill=\"#555\" font-size=\"11\"";
	double scale = a->scale > 0 && isfinite(a->scale) ? a->scale : 1;
	char line[64];

	if (!(a->log_from > 0) || !a->ticks)
		return;
	snprintf(line, sizeof line, "%s axis: log scale above %.6g,", which,
		 a->log_from / scale);
	text_px(p, x, y - 14, attrs, line);
	snprintf(line, sizeof line, "linear from 0 to %.6g: 0 shows", a->log_from / scale);
	text_px(p, x, y, attrs, line);
}

void svg_plot_begin(svg_plot *p, const char *title, const svg_axis *x,
		    const svg_axis *y)
{
	double cx = p->left + plot_w(p) / 2, cy = p->top + plot_h(p) / 2;
	char rotate[80];

	p->x = *x;
	p->y = *y;
	svg_range_fix(&p->x.lo, &p->x.hi);
	svg_range_fix(&p->y.lo, &p->y.hi);
	out(p,
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
	    "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" "
	    "font-family=\"sans-serif\" font-size=\"12\">\n<title>",
	    safe(p->width), safe(p->height), safe(p->width), safe(p->height));
	esc(p, title);
	out(p, "</title>\n");
	rect_px(p, 0, 0, p->width, p->height, "fill=\"#fff\"");
	ticks(p, &p->x, 1);
	ticks(p, &p->y, 0);
	log_note(p, &p->x, "x");
	log_note(p, &p->y, "y");
	rect_px(p, p->left, p->top, plot_w(p), plot_h(p),
		"fill=\"none\" stroke=\"#333\"");
	text_px(p, cx, 20,
		" text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\"",
		title);
	if (p->x.label != NULL)
		text_px(p, cx, p->height - 10, " text-anchor=\"middle\"",
			p->x.label);
	snprintf(rotate, sizeof rotate,
		 " text-anchor=\"middle\" transform=\"rotate(-90 16 %.2f)\"",
		 safe(cy));
	if (p->y.label != NULL)
		text_px(p, 16, cy, rotate, p->y.label);
}

static void points(svg_plot *p, const double *xs, const double *ys, size_t n)
{
	for (size_t i = 0; i < n; i++)
		out(p, "%s%.2f,%.2f", i ? " " : "", px(p, xs[i]), py(p, ys[i]));
}

void svg_plot_curve(svg_plot *p, const double *xs, const double *ys,
		    size_t n, const char *color)
{
	/* The area's base line: y = 0, or the bottom when 0 is out of range. */
	double base = py(p, fmin(fmax(0.0, p->y.lo), p->y.hi));

	if (n == 0)
		return;
	out(p,
	    "<polygon fill=\"%s\" fill-opacity=\"0.25\" stroke=\"none\" "
	    "points=\"%.2f,%.2f ",
	    color, px(p, xs[0]), base);
	points(p, xs, ys, n);
	out(p, " %.2f,%.2f\"/>\n", px(p, xs[n - 1]), base);
	out(p,
	    "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2.00\" "
	    "points=\"",
	    color);
	points(p, xs, ys, n);
	out(p, "\"/>\n");
}

/* The marker of a style at pixel (x, y). */
static void marker_px(svg_plot *p, double x, double y, const svg_style *s)
{
	double r = 4.5;

	x = safe(x);
	y = safe(y);
	switch (s->shape) {
	case SVG_SHAPE_CIRCLE:
		circle_px(p, x, y, 3.5, s->color, "#fff");
		break;
	case SVG_SHAPE_SQUARE:
		out(p,
		    "<rect x=\"%.2f\" y=\"%.2f\" width=\"7\" height=\"7\" "
		    "fill=\"%s\" stroke=\"#fff\"/>\n",
		    x - 3.5, y - 3.5, s->color);
		break;
	case SVG_SHAPE_TRIANGLE:
		out(p,
		    "<path d=\"M%.2f %.2fL%.2f %.2fL%.2f %.2fZ\" fill=\"%s\" "
		    "stroke=\"#fff\"/>\n",
		    x, y - r, x + r, y + r * 0.75, x - r, y + r * 0.75,
		    s->color);
		break;
	case SVG_SHAPE_DIAMOND:
		out(p,
		    "<path d=\"M%.2f %.2fL%.2f %.2fL%.2f %.2fL%.2f %.2fZ\" "
		    "fill=\"%s\" stroke=\"#fff\"/>\n",
		    x, y - r, x + r, y, x, y + r, x - r, y, s->color);
		break;
	case SVG_SHAPE_NONE:
	default:
		break;
	}
}

static void stroke_attrs(svg_plot *p, const svg_style *s)
{
	out(p, " fill=\"none\" stroke=\"%s\" stroke-width=\"%.2f\"",
	    s->color, safe(s->width));
	if (s->dash != NULL)
		out(p, " stroke-dasharray=\"%s\"", s->dash);
}

void svg_plot_series(svg_plot *p, const double *xs, const double *ys,
		     size_t n, const svg_style *s)
{
	/* Each shape at its own offset between two markers. */
	double shift = 0.2 * (double)s->shape;

	if (n == 0)
		return;
	out(p, "<polyline");
	stroke_attrs(p, s);
	out(p, " points=\"");
	points(p, xs, ys, n);
	out(p, "\"/>\n");
	for (int j = 0; j < SVG_MARKERS && s->shape != SVG_SHAPE_NONE; j++) {
		size_t i = (size_t)((j + shift) * (double)n / SVG_MARKERS);

		i = i < n ? i : n - 1;
		marker_px(p, px(p, xs[i]), py(p, ys[i]), s);
	}
}

void svg_plot_dot(svg_plot *p, double x, double y, const char *fill,
		  const char *stroke)
{
	circle_px(p, px(p, x), py(p, y), 3.5, fill, stroke);
}

void svg_plot_line(svg_plot *p, double x0, double y0, double x1, double y1,
		   const char *color, double width, const char *dash)
{
	line_px(p, px(p, x0), py(p, y0), px(p, x1), py(p, y1), color, width,
		dash);
}

void svg_plot_rect(svg_plot *p, double x0, double y0, double x1, double y1,
		   const char *color)
{
	double a = px(p, x0), b = px(p, x1), c = py(p, y0), d = py(p, y1);
	char paint[48];

	snprintf(paint, sizeof paint, "fill=\"%s\"", color);
	rect_px(p, fmin(a, b), fmin(c, d), fabs(b - a), fabs(d - c), paint);
}

void svg_plot_text(svg_plot *p, double x, double y, double dx, double dy,
		   const char *anchor, const char *s)
{
	char attrs[48];

	snprintf(attrs, sizeof attrs, " text-anchor=\"%s\"", anchor);
	text_px(p, px(p, x) + dx, py(p, y) + dy, attrs, s);
}

void svg_plot_note(svg_plot *p, const char *s)
{
	text_px(p, p->left + plot_w(p) / 2, p->top + plot_h(p) / 2,
		" text-anchor=\"middle\" fill=\"#888\" font-size=\"16\"", s);
}

/* An entry in the right margin: a 24-pixel glyph, then the label. */
void svg_plot_legend(svg_plot *p, const char *label, const char *color,
		     svg_mark mark)
{
	double x = p->width - p->right + 14;
	double y = p->top + 10 + SVG_LEGEND_ROW * p->legend_rows++;
	char paint[80];

	if (mark == SVG_MARK_LINE || mark == SVG_MARK_DASHED)
		line_px(p, x, y, x + 24, y, color, 2,
			mark == SVG_MARK_DASHED ? "6 4" : NULL);
	if (mark == SVG_MARK_DOT || mark == SVG_MARK_RING)
		circle_px(p, x + 12, y, 4, mark == SVG_MARK_DOT ? color : "none",
			  color);
	if (mark == SVG_MARK_AREA) {
		snprintf(paint, sizeof paint,
			 "fill=\"%s\" fill-opacity=\"0.35\" stroke=\"%s\"",
			 color, color);
		rect_px(p, x, y - 6, 24, 12, paint);
	}
	text_px(p, x + 30, y + 4, "", label);
}

void svg_plot_legend_series(svg_plot *p, const char *label,
			    const svg_style *s)
{
	double x = p->width - p->right + 14;
	double y = p->top + 10 + SVG_LEGEND_ROW * p->legend_rows++;

	out(p, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"",
	    safe(x), safe(y), safe(x + 28), safe(y));
	stroke_attrs(p, s);
	out(p, "/>\n");
	marker_px(p, x + 14, y, s);
	text_px(p, x + 34, y + 4, "", label);
}

int svg_plot_end(svg_plot *p)
{
	out(p, "</svg>\n");
	return p->failed ? -1 : 0;
}

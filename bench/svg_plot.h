/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * svg_plot.h - a tiny SVG plotting helper for the HTML report: one plot
 * area with two linear axes (ticks, tick labels, grid, axis labels), a
 * title, a legend in the right margin, and the marks drawn in data
 * coordinates (polylines, filled areas, circles, lines, rectangles, text).
 *
 * Every coordinate goes through one writer that replaces a non-finite
 * value by 0 and clamps huge ones, so no "nan" or "inf" ever reaches the
 * SVG, whatever the data. Write errors are remembered and reported by
 * svg_plot_end().
 */
#ifndef EQUIX_BENCH_SVG_PLOT_H
#define EQUIX_BENCH_SVG_PLOT_H

#include <stddef.h>
#include <stdio.h>

/* One axis: the data range [lo, hi], and how its ticks are labelled. */
typedef struct svg_axis {
	double lo, hi;
	double scale;      /* tick labels show value / scale */
	const char *label; /* plain text (escaped when written), or NULL */
	int ticks;         /* 0: no ticks, labels or grid on this axis */
} svg_axis;

/* How a legend entry is drawn. */
typedef enum svg_mark {
	SVG_MARK_LINE,
	SVG_MARK_DASHED,
	SVG_MARK_DOT,
	SVG_MARK_RING, /* a hollow circle */
	SVG_MARK_AREA,
} svg_mark;

typedef struct svg_plot {
	FILE *f;
	int failed;           /* a write failed */
	double width, height; /* of the picture, in pixels */
	/* The plot area: margins around it, in pixels. The legend sits in
	 * the right margin. */
	double left, right, top, bottom;
	svg_axis x, y;
	int legend_rows;
} svg_plot;

/* Writes `s` with &, <, >, " and ' replaced by entities (valid in HTML
 * text, HTML attributes and SVG alike). Returns 0, or -1 on a write
 * error. */
int svg_write_escaped(FILE *f, const char *s);

/* Makes [*lo, *hi] a usable range: finite, lo < hi, and not so narrow
 * that ticks would be indistinguishable. */
void svg_range_fix(double *lo, double *hi);

/* Prepares a plot of width x height pixels with default margins; the
 * caller may change the margins before svg_plot_begin(). */
void svg_plot_init(svg_plot *p, FILE *f, double width, double height);

/* Opens the <svg> element and draws the frame, grid, ticks, axis labels
 * and the title. The axis ranges are fixed with svg_range_fix(). */
void svg_plot_begin(svg_plot *p, const char *title, const svg_axis *x,
		    const svg_axis *y);

/* A polyline through (xs[i], ys[i]); dash is a stroke-dasharray or NULL. */
void svg_plot_polyline(svg_plot *p, const double *xs, const double *ys,
		       size_t n, const char *color, double width,
		       const char *dash);

/* The area between the curve (xs[i], ys[i]) and y = 0, filled with
 * `color` at the given opacity. */
void svg_plot_area(svg_plot *p, const double *xs, const double *ys, size_t n,
		   const char *color, double opacity);

/* A circle of radius r pixels at (x, y); fill or stroke may be "none". */
void svg_plot_circle(svg_plot *p, double x, double y, double r,
		     const char *fill, const char *stroke);

/* A line segment from (x0, y0) to (x1, y1). */
void svg_plot_line(svg_plot *p, double x0, double y0, double x1, double y1,
		   const char *color, double width, const char *dash);

/* A filled rectangle with corners (x0, y0) and (x1, y1). */
void svg_plot_rect(svg_plot *p, double x0, double y0, double x1, double y1,
		   const char *color);

/* Text at (x, y), shifted by (dx, dy) pixels; anchor is "start",
 * "middle" or "end". */
void svg_plot_text(svg_plot *p, double x, double y, double dx, double dy,
		   const char *anchor, const char *text);

/* Text centred in the plot area (for "no data"). */
void svg_plot_note(svg_plot *p, const char *text);

/* Appends a legend entry (in the right margin). */
void svg_plot_legend(svg_plot *p, const char *label, const char *color,
		     svg_mark mark);

/* Closes the <svg> element. Returns 0, or -1 if any write failed. */
int svg_plot_end(svg_plot *p);

#endif

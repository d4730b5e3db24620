/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * svg_plot.h - a tiny SVG plotting helper for the HTML reports of
 * equix-bench and equix-cli pow simulate: one plot area with two axes,
 * each linear or a symmetric log (ticks, tick labels, grid, axis labels),
 * a title, a legend in the right margin, and marks drawn in data
 * coordinates: series told apart by colour, dash pattern and marker
 * shape, so that they stay apart in greyscale and for colour-blind
 * readers.
 *
 * Every coordinate goes through one writer that replaces a non-finite
 * value by 0 and clamps huge ones, so no "nan" or "inf" ever reaches the
 * SVG, whatever the data. Write errors are remembered and reported by
 * svg_plot_end().
 */
#ifndef EQUIX_TOOLS_SVG_PLOT_H
#define EQUIX_TOOLS_SVG_PLOT_H

#include <stddef.h>
#include <stdio.h>

/* One axis: the data range [lo, hi]; tick labels show value / scale;
 * the label is plain text or NULL; ticks = 0 draws no ticks, tick labels
 * or grid on it. log_from 0 makes a linear axis; above 0, a symmetric log
 * axis: linear from -log_from to log_from, so that 0 has its place (a
 * log axis alone has none), logarithmic beyond, each power of ten the
 * same length as the linear part. Its ticks are 0 and log_from times the
 * powers of ten, and the plot says in its margin how zero is shown. */
typedef struct svg_axis {
	double lo, hi, scale;
	const char *label;
	int ticks;
	double log_from;
} svg_axis;

/* Where `v` falls along the axis: 0 at lo, 1 at hi (below 0 or above 1
 * out of the range); increasing in v, and continuous. */
double svg_axis_pos(const svg_axis *a, double v);

/* The labelled ticks of the axis, ascending, in t[0 .. max - 1]: "nice"
 * steps (1, 2 or 5 times a power of ten) on a linear axis, 0 and
 * log_from times powers of ten on a log one (every other power, or
 * fewer, when there are too many). Returns how many. */
size_t svg_axis_ticks(const svg_axis *a, double *t, size_t max);

/* How a legend entry is drawn. */
typedef enum svg_mark {
	SVG_MARK_LINE,
	SVG_MARK_DASHED,
	SVG_MARK_DOT,
	SVG_MARK_RING, /* a hollow circle */
	SVG_MARK_AREA,
} svg_mark;

/* A shape drawn along a series and in its legend entry. */
typedef enum svg_shape {
	SVG_SHAPE_NONE,
	SVG_SHAPE_CIRCLE,
	SVG_SHAPE_SQUARE,
	SVG_SHAPE_TRIANGLE,
	SVG_SHAPE_DIAMOND,
} svg_shape;

/* How a series is drawn: its colour, its dash pattern (a
 * stroke-dasharray, or NULL for a solid line), its stroke's width in
 * pixels, and its marker. */
typedef struct svg_style {
	const char *color, *dash;
	double width;
	svg_shape shape;
} svg_style;

typedef struct svg_plot {
	FILE *f;
	int failed;           /* a write failed */
	double width, height; /* of the picture, in pixels */
	/* Margins around the plot area; the legend sits in the right one. */
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

/* A plot of width x height pixels with default margins, which the
 * caller may change before svg_plot_begin(). */
void svg_plot_init(svg_plot *p, FILE *f, double width, double height);

/* Opens the <svg> element and draws the frame, grid, ticks, axis labels
 * and the title, over the ranges fixed with svg_range_fix(). */
void svg_plot_begin(svg_plot *p, const char *title, const svg_axis *x,
		    const svg_axis *y);

/* The curve through (xs[i], ys[i]) over its area down to y = 0, tinted. */
void svg_plot_curve(svg_plot *p, const double *xs, const double *ys,
		    size_t n, const char *color);

/* The line through (xs[i], ys[i]), without an area, in style `s`, with
 * its marker at ten places along it (shifted by shape, so that two
 * series on the same values still show both markers): a time series. */
void svg_plot_series(svg_plot *p, const double *xs, const double *ys,
		     size_t n, const svg_style *s);

/* Marks in data coordinates: a dot (fill may be "none"), a line (dash is
 * a stroke-dasharray or NULL), a filled rectangle between two corners,
 * and text shifted by (dx, dy) pixels, anchored "start", "middle" or
 * "end". */
void svg_plot_dot(svg_plot *p, double x, double y, const char *fill,
		  const char *stroke);
void svg_plot_line(svg_plot *p, double x0, double y0, double x1, double y1,
		   const char *color, double width, const char *dash);
void svg_plot_rect(svg_plot *p, double x0, double y0, double x1, double y1,
		   const char *color);
void svg_plot_text(svg_plot *p, double x, double y, double dx, double dy,
		   const char *anchor, const char *text);

/* Text centred in the plot area (for "no data"). */
void svg_plot_note(svg_plot *p, const char *text);

/* Appends a legend entry. */
void svg_plot_legend(svg_plot *p, const char *label, const char *color,
		     svg_mark mark);

/* Appends a legend entry for a series: its line and its marker. */
void svg_plot_legend_series(svg_plot *p, const char *label,
			    const svg_style *s);

/* Closes the <svg> element. Returns 0, or -1 if any write failed. */
int svg_plot_end(svg_plot *p);

#endif

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sim_report.c - what "pow simulate" writes (sim.h): the summary on
 * stdout, the CSV and JSON files (jansson), and the HTML report and SVG
 * pictures drawn with the tools' plotting code (tools/common/svg_plot.c,
 * which equix-bench's report draws with too).
 *
 * Every figure is printed with a fixed format, so that one seed gives
 * the same bytes; nothing measured at run time (wall time, events per
 * second) goes into the files, only into --stats on stderr.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <equix_pow.h>
#include <jansson.h>

#include "args.h"
#include "output.h"
#include "sim.h"
#include "svg_plot.h"

static const char *const class_names[SIM_CLASSES] = {"legit", "attack"};

/* The size of a quoted scenario text: the longest, the description. */
#define TEXT_SIZE sizeof(((sim_scenario *)0)->description)

/* Text from the scenario (its name, its description) as every command
 * shows text from its input: cli_quote() makes each byte that is not
 * printable ASCII a '?', so that no escape sequence or line break of the
 * file reaches a terminal or a report. cli_quote() cuts after about 40
 * characters; given slices of 32, it keeps the text whole. Returns
 * `out`, TEXT_SIZE bytes. */
static const char *quoted(char *out, const char *text)
{
	size_t n = 0, len = strlen(text);

	out[0] = '\0';
	for (size_t i = 0; i < len && n < TEXT_SIZE; i += 32) {
		char slice[33];
		snprintf(slice, sizeof slice, "%.32s", text + i);
		n += (size_t)snprintf(out + n, TEXT_SIZE - n, "%s",
				      cli_quote(slice).text);
	}
	return out;
}

/* ---- Per-class figures ----------------------------------------------- */

typedef struct class_figures {
	uint64_t decided, pending;
	double success, p50, p90, p99, cpu_per_success;
} class_figures;

/* Legitimate clients succeed or give up; the ones still trying at the
 * end count as pending, in neither. An attacker's request succeeds when
 * it is launched and completes. */
static class_figures figures(const sim_class_result *c, int cls)
{
	class_figures f;

	f.decided = cls == SIM_LEGIT ? c->succeeded + c->failed : c->started;
	f.pending = cls == SIM_LEGIT ? c->started - f.decided : 0;
	f.success = f.decided ? (double)c->succeeded / (double)f.decided : 0;
	f.p50 = sim_quantile(c, 0.50);
	f.p90 = sim_quantile(c, 0.90);
	f.p99 = sim_quantile(c, 0.99);
	f.cpu_per_success = c->succeeded ? c->cpu_s / (double)c->succeeded : 0;
	return f;
}

bool sim_print_summary(const sim_scenario *s, uint64_t seed,
		       const sim_result *r)
{
	char name[TEXT_SIZE];
	bool ok = cli_printf(
		"scenario %s: %.0f s simulated, seed %llu\n"
		"machine: %.1f nonces/s per core, %.4f solutions per nonce, "
		"verification %.1f us\n"
		"class   started connected failed pending success  p50_s   "
		"p90_s   p99_s   cpu_s/success\n",
		quoted(name, s->name), s->duration_s,
		(unsigned long long)seed, s->solve_rate,
		s->solutions_per_nonce, s->verify_cost_us);

	for (int c = 0; c < SIM_CLASSES && ok; c++) {
		const sim_class_result *k = &r->cls[c];
		class_figures f = figures(k, c);
		ok = cli_printf("%-7s %7llu %9llu %6llu %7llu %7.4f %7.2f "
				"%7.2f %7.2f %.4g\n",
				class_names[c], (unsigned long long)k->started,
				(unsigned long long)k->succeeded,
				(unsigned long long)k->failed,
				(unsigned long long)f.pending, f.success, f.p50,
				f.p90, f.p99, f.cpu_per_success);
	}
	return ok && cli_printf("launches %llu, longest queue %lu (high level "
				"%lu), most launches in 1 s %lu\n"
				"invariants: %s\n",
				(unsigned long long)r->launches,
				(unsigned long)r->max_queue,
				(unsigned long)r->high_level,
				(unsigned long)r->max_window,
				r->invariant[0] ? r->invariant : "ok");
}

/* ---- Files ----------------------------------------------------------- */

static FILE *open_out(const char *path)
{
	FILE *f = fopen(path, "w");

	if (f == NULL)
		cli_fail("pow simulate: %s: %s", path, strerror(errno));
	return f;
}

/* Closes `f`; false (reported) when anything written to it was lost. */
static bool close_out(FILE *f, const char *path, bool ok)
{
	int saved = errno;

	if (ferror(f))
		ok = false;
	else
		saved = 0;
	if (fclose(f) != 0) {
		saved = errno;
		ok = false;
	}
	if (!ok)
		cli_fail("pow simulate: %s: write error%s%s", path,
			 saved ? ": " : "", saved ? strerror(saved) : "");
	return ok;
}

/* ---- CSV ------------------------------------------------------------- */

static const char row_header[] =
	"series,t_s,suggested,published,seen,queue,trimmed,expired,"
	"served_legit,served_attack,arrivals_legit,arrivals_attack\n";

static void csv_rows(FILE *f, const char *series, const sim_series *rows)
{
	for (size_t i = 0; i < rows->n; i++) {
		const sim_row *w = &rows->rows[i];
		fprintf(f, "%s,%.3f,%lu,%lu,%lu,%lu,%lu,%lu,%lu,%lu,%lu,%lu\n",
			series, w->t_s, (unsigned long)w->suggested,
			(unsigned long)w->published, (unsigned long)w->seen,
			(unsigned long)w->queue, (unsigned long)w->trimmed,
			(unsigned long)w->expired,
			(unsigned long)w->served[SIM_LEGIT],
			(unsigned long)w->served[SIM_ATTACK],
			(unsigned long)w->arrivals[SIM_LEGIT],
			(unsigned long)w->arrivals[SIM_ATTACK]);
	}
}

static void csv_results(FILE *f, const sim_result *r)
{
	fputs("class,started,succeeded,failed,pending,requests,success_ratio,"
	      "p50_s,p90_s,p99_s,cpu_s,cpu_s_per_success,trimmed,expired\n",
	      f);
	for (int c = 0; c < SIM_CLASSES; c++) {
		const sim_class_result *k = &r->cls[c];
		class_figures g = figures(k, c);
		fprintf(f,
			"%s,%llu,%llu,%llu,%llu,%llu,%.6f,%.2f,%.2f,%.2f,%.3f,"
			"%.6g,%llu,%llu\n",
			class_names[c], (unsigned long long)k->started,
			(unsigned long long)k->succeeded,
			(unsigned long long)k->failed,
			(unsigned long long)g.pending,
			(unsigned long long)k->requests, g.success, g.p50,
			g.p90, g.p99, k->cpu_s, g.cpu_per_success,
			(unsigned long long)k->trimmed,
			(unsigned long long)k->expired);
	}
}

/* Two tables, one empty line between: the time series (per second, then
 * per update period), then the results per class. */
bool sim_write_csv(const char *path, const sim_scenario *s, uint64_t seed,
		   const sim_result *r)
{
	FILE *f = open_out(path);

	(void)s;
	(void)seed;
	if (f == NULL)
		return false;
	fputs(row_header, f);
	csv_rows(f, "second", &r->seconds);
	csv_rows(f, "period", &r->periods);
	fputc('\n', f);
	csv_results(f, r);
	return close_out(f, path, true);
}

/* ---- JSON ------------------------------------------------------------ */

static json_t *series_json(const sim_series *rows)
{
	json_t *arr = json_array();

	for (size_t i = 0; arr != NULL && i < rows->n; i++) {
		const sim_row *w = &rows->rows[i];
		json_t *row = json_pack(
			"[f,I,I,I,I,I,I,I,I,I,I]", w->t_s,
			(json_int_t)w->suggested, (json_int_t)w->published,
			(json_int_t)w->seen, (json_int_t)w->queue,
			(json_int_t)w->trimmed, (json_int_t)w->expired,
			(json_int_t)w->served[SIM_LEGIT],
			(json_int_t)w->served[SIM_ATTACK],
			(json_int_t)w->arrivals[SIM_LEGIT],
			(json_int_t)w->arrivals[SIM_ATTACK]);
		if (json_array_append_new(arr, row) != 0) {
			json_decref(arr);
			arr = NULL;
		}
	}
	return arr;
}

static json_t *class_json(const sim_class_result *k, int c)
{
	class_figures g = figures(k, c);

	return json_pack("{s:I,s:I,s:I,s:I,s:I,s:f,s:f,s:f,s:f,s:f,s:f,s:I,"
			 "s:I}",
			 "started", (json_int_t)k->started, "succeeded",
			 (json_int_t)k->succeeded, "failed",
			 (json_int_t)k->failed, "pending",
			 (json_int_t)g.pending, "requests",
			 (json_int_t)k->requests, "success_ratio", g.success,
			 "p50_s", g.p50, "p90_s", g.p90, "p99_s", g.p99,
			 "cpu_s", k->cpu_s, "cpu_s_per_success",
			 g.cpu_per_success, "trimmed", (json_int_t)k->trimmed,
			 "expired", (json_int_t)k->expired);
}

static json_t *report_json(const sim_scenario *s, uint64_t seed,
			   const sim_result *r)
{
	return json_pack(
		"{s:o?,s:I,s:{s:o?,s:o?},s:s,s:I,s:I,s:I,s:[s,s,s,s,s,s,s,s,s,s,"
		"s],s:o?,s:o?}",
		"scenario", sim_scenario_json(s), "seed", (json_int_t)seed,
		"results", "legit", class_json(&r->cls[SIM_LEGIT], SIM_LEGIT),
		"attack", class_json(&r->cls[SIM_ATTACK], SIM_ATTACK),
		"invariants", r->invariant[0] ? r->invariant : "ok",
		"launches", (json_int_t)r->launches, "max_queue",
		(json_int_t)r->max_queue, "max_launches_per_second",
		(json_int_t)r->max_window, "columns", "t_s", "suggested",
		"published", "seen", "queue", "trimmed", "expired",
		"served_legit", "served_attack", "arrivals_legit",
		"arrivals_attack", "seconds", series_json(&r->seconds),
		"periods", series_json(&r->periods));
}

bool sim_write_json(const char *path, const sim_scenario *s, uint64_t seed,
		    const sim_result *r)
{
	json_t *root = report_json(s, seed, r);
	FILE *f;
	bool ok;

	if (root == NULL)
		return !cli_fail("pow simulate: %s: out of memory", path);
	f = open_out(path);
	if (f == NULL) {
		json_decref(root);
		return false;
	}
	ok = json_dumpf(root, f, JSON_COMPACT | JSON_PRESERVE_ORDER |
					 JSON_REAL_PRECISION(10)) == 0 &&
	     fputc('\n', f) != EOF;
	json_decref(root);
	return close_out(f, path, ok);
}

/* ---- Plots ----------------------------------------------------------- */

enum column {
	COL_SUGGESTED,
	COL_PUBLISHED,
	COL_SEEN,
	COL_QUEUE,
	COL_TRIMMED,
	COL_EXPIRED,
	COL_SERVED_LEGIT,
	COL_SERVED_ATTACK,
	COL_ARRIVALS_LEGIT,
	COL_ARRIVALS_ATTACK,
};

static double column(const sim_row *w, enum column c)
{
	switch (c) {
	case COL_SUGGESTED:
		return w->suggested;
	case COL_PUBLISHED:
		return w->published;
	case COL_SEEN:
		return w->seen;
	case COL_QUEUE:
		return w->queue;
	case COL_TRIMMED:
		return w->trimmed;
	case COL_EXPIRED:
		return w->expired;
	case COL_SERVED_LEGIT:
		return w->served[SIM_LEGIT];
	case COL_SERVED_ATTACK:
		return w->served[SIM_ATTACK];
	case COL_ARRIVALS_LEGIT:
		return w->arrivals[SIM_LEGIT];
	case COL_ARRIVALS_ATTACK:
	default:
		return w->arrivals[SIM_ATTACK];
	}
}

/* Points drawn per line at most: longer runs are averaged in groups. */
#define PLOT_POINTS 1200
#define PLOT_W 960
#define PLOT_H 300

typedef struct line_spec {
	enum column col;
	const char *label;
	svg_style style;
} line_spec;

/* A plot over time. `log`: the y axis is logarithmic above 1 (linear
 * from 0 to 1, so that an empty second has its place), for series that
 * span several powers of ten. `points`: drawn per line at most. */
typedef struct plot_spec {
	const char *title, *ylabel;
	const line_spec *lines;
	size_t n_lines;
	int log;
	size_t points;
} plot_spec;

/* Rows averaged per point when `rows` rows are drawn as `points` at
 * most. */
static size_t group_of(size_t rows, size_t points)
{
	size_t group = (rows + points - 1) / points;

	return group ? group : 1;
}

/* The column averaged over groups of rows: xs and ys get `*n` points. */
static void downsample(const sim_series *rows, enum column c, size_t group,
		       double *xs, double *ys, size_t *n)
{
	size_t k = 0;

	for (size_t i = 0; i < rows->n; i += group, k++) {
		size_t end = i + group < rows->n ? i + group : rows->n;
		double x = 0, y = 0;
		for (size_t j = i; j < end; j++) {
			x += rows->rows[j].t_s / 60.0; /* minutes */
			y += column(&rows->rows[j], c);
		}
		xs[k] = x / (double)(end - i);
		ys[k] = y / (double)(end - i);
	}
	*n = k;
}

static double column_max(const sim_series *rows, enum column c)
{
	double m = 0;

	for (size_t i = 0; i < rows->n; i++)
		m = fmax(m, column(&rows->rows[i], c));
	return m;
}

/* The top of a y axis over data up to `top`: 5% above it on a linear
 * axis; on a log one, the power of ten above it (at least 10), so that
 * the axis ends on a labelled tick. */
static double y_top(double top, int log)
{
	if (!log)
		return top > 0 ? top * 1.05 : 1;
	return pow(10.0, fmax(1, ceil(log10(fmax(top, 1) * 1.05))));
}

static int time_plot(FILE *f, const plot_spec *spec, const sim_scenario *s,
		     const sim_series *rows)
{
	static double xs[PLOT_POINTS + 1], ys[PLOT_POINTS + 1];
	size_t group = group_of(rows->n, spec->points), n;
	double top = 0;
	char xlabel[80];
	svg_axis x = {0, s->duration_s / 60.0, 1, xlabel, 1, 0};
	svg_axis y = {0, 1, 1, spec->ylabel, 1, spec->log ? 1 : 0};
	svg_plot p;

	/* Rows are per simulated second: say what one point stands for. */
	if (group > 1)
		snprintf(xlabel, sizeof xlabel,
			 "Simulated time (min); each point the mean of %zu s",
			 group);
	else
		snprintf(xlabel, sizeof xlabel, "Simulated time (min)");
	for (size_t i = 0; i < spec->n_lines; i++)
		top = fmax(top, column_max(rows, spec->lines[i].col));
	y.hi = y_top(top, spec->log);
	svg_range_fix(&x.lo, &x.hi);
	svg_range_fix(&y.lo, &y.hi);
	svg_plot_init(&p, f, PLOT_W, PLOT_H);
	p.right = 200;
	svg_plot_begin(&p, spec->title, &x, &y);
	for (size_t i = 0; i < spec->n_lines; i++) {
		const line_spec *l = &spec->lines[i];
		downsample(rows, l->col, group, xs, ys, &n);
		svg_plot_series(&p, xs, ys, n, &l->style);
		svg_plot_legend_series(&p, l->label, &l->style);
	}
	if (rows->n == 0)
		svg_plot_note(&p, "No data");
	return svg_plot_end(&p);
}

/* Okabe and Ito's colours, told apart by colour-blind readers; each
 * series also has its own dash pattern and marker, for greyscale. Warm
 * colours are the attack, cool ones the legitimate clients; within a
 * class, served is a wide line, arrivals a thin dashed one over it. No
 * two series of a plot share a colour or a dash pattern
 * (tests/simulate.sh checks it). */
#define BLACK "#000000"
#define ORANGE "#e69f00"
#define SKY "#56b4e9"
#define GREEN "#009e73"
#define BLUE "#0072b2"
#define VERMILION "#d55e00"
#define PURPLE "#cc79a7"
#define GREY "#777777"

static const line_spec effort_lines[] = {
	{COL_SUGGESTED, "suggested", {BLUE, NULL, 4, SVG_SHAPE_SQUARE}},
	{COL_PUBLISHED, "published", {ORANGE, "8 4", 2, SVG_SHAPE_TRIANGLE}},
	{COL_SEEN, "seen by clients", {BLACK, "2 3", 1.5, SVG_SHAPE_CIRCLE}},
};
static const line_spec traffic_lines[] = {
	{COL_SERVED_ATTACK, "attack served", {ORANGE, "10 3 2 3", 3,
					      SVG_SHAPE_DIAMOND}},
	{COL_ARRIVALS_ATTACK, "attack arrivals", {VERMILION, "8 4", 1.5,
						  SVG_SHAPE_TRIANGLE}},
	{COL_SERVED_LEGIT, "legit served", {BLUE, NULL, 3, SVG_SHAPE_SQUARE}},
	{COL_ARRIVALS_LEGIT, "legit arrivals", {SKY, "3 3", 1.5,
						SVG_SHAPE_CIRCLE}},
};
static const line_spec legit_lines[] = {
	{COL_SERVED_LEGIT, "legit served", {BLUE, NULL, 3, SVG_SHAPE_SQUARE}},
	{COL_ARRIVALS_LEGIT, "legit arrivals", {SKY, "3 3", 1.5,
						SVG_SHAPE_CIRCLE}},
};
static const line_spec queue_lines[] = {
	{COL_QUEUE, "queued", {BLACK, NULL, 2, SVG_SHAPE_SQUARE}},
	{COL_TRIMMED, "trimmed per s", {VERMILION, "8 4", 2,
					SVG_SHAPE_TRIANGLE}},
	{COL_EXPIRED, "expired per s", {GREEN, "2 3", 2, SVG_SHAPE_CIRCLE}},
};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* The attack's requests outnumber the legitimate ones by a thousand or
 * more: a linear axis would show the latter as a line at 0, so traffic
 * and the queue are on log axes, and the legitimate clients have a
 * linear plot of their own in the HTML report. Counts per second jump
 * from one second to the next (a few clients a second; trims in bursts):
 * they are drawn as means over 15 s (240 points an hour). The effort
 * moves in steps, which 1200 points an hour keep sharp. */
static const plot_spec plots[] = {
	{"Suggested effort", "Effort", effort_lines, N_OF(effort_lines), 0,
	 PLOT_POINTS},
	{"Requests per second, attack and legitimate", "Requests / s",
	 traffic_lines, N_OF(traffic_lines), 1, 240},
	{"Legitimate requests per second", "Requests / s", legit_lines,
	 N_OF(legit_lines), 0, 240},
	{"The queue", "Requests", queue_lines, N_OF(queue_lines), 1, 240},
};

/* The share of the decided legitimate clients connected within x
 * seconds: its plateau is their success ratio. A dashed line marks the
 * rendezvous timeout, after which a client retries. */
static int connect_plot(FILE *f, const sim_result *r)
{
	static const svg_style cdf = {BLUE, NULL, 2, SVG_SHAPE_NONE};
	static const svg_style timeout = {GREY, "6 4", 1.5, SVG_SHAPE_NONE};
	static double xs[PLOT_POINTS + 2], ys[PLOT_POINTS + 2];
	const sim_class_result *c = &r->cls[SIM_LEGIT];
	uint64_t decided = c->succeeded + c->failed, sum = 0;
	size_t last = 0, step, n = 0;
	double retry = EQUIX_POW_REND_TIMEOUT_MS / 1000.0;
	svg_axis x = {0, 1, 1, "Time to connect (s)", 1, 0};
	svg_axis y = {0, 1, 0.01, "Clients (%)", 1, 0};
	svg_plot p;

	for (size_t b = 0; b < SIM_HIST_BUCKETS; b++)
		if (c->hist[b] != 0)
			last = b;
	step = last / PLOT_POINTS + 1;
	xs[n] = 0;
	ys[n++] = 0;
	for (size_t b = 0; b <= last && decided > 0; b++) {
		sum += c->hist[b];
		if (b % step == step - 1 || b == last) {
			xs[n] = (double)(b + 1) * SIM_HIST_STEP_MS / 1000.0;
			ys[n++] = (double)sum / (double)decided;
		}
	}
	x.hi = fmax(retry * 1.1, xs[n - 1] * 1.05);
	svg_range_fix(&x.lo, &x.hi);
	svg_plot_init(&p, f, PLOT_W, PLOT_H);
	p.right = 200;
	svg_plot_begin(&p, "Legitimate clients connected within a time", &x,
		       &y);
	svg_plot_line(&p, retry, 0, retry, 1, timeout.color, timeout.width,
		      timeout.dash);
	svg_plot_series(&p, xs, ys, n, &cdf);
	svg_plot_legend_series(&p, "legit clients", &cdf);
	svg_plot_legend_series(&p, "rendezvous timeout", &timeout);
	if (c->succeeded == 0)
		svg_plot_note(&p, "No legitimate client connected");
	return svg_plot_end(&p);
}

/* ---- HTML ------------------------------------------------------------ */

static void html_results(FILE *f, const sim_result *r)
{
	fputs("<table><tr><th>class</th><th>started</th><th>succeeded</th>"
	      "<th>failed</th><th>success ratio</th><th>p50 (s)</th>"
	      "<th>p90 (s)</th><th>p99 (s)</th><th>CPU s per success</th>"
	      "</tr>\n",
	      f);
	for (int c = 0; c < SIM_CLASSES; c++) {
		const sim_class_result *k = &r->cls[c];
		class_figures g = figures(k, c);
		fprintf(f,
			"<tr><td>%s</td><td>%llu</td><td>%llu</td><td>%llu"
			"</td><td>%.4f</td><td>%.2f</td><td>%.2f</td><td>%.2f"
			"</td><td>%.4g</td></tr>\n",
			class_names[c], (unsigned long long)k->started,
			(unsigned long long)k->succeeded,
			(unsigned long long)k->failed, g.success, g.p50, g.p90,
			g.p99, g.cpu_per_success);
	}
	fputs("</table>\n", f);
}

static void html_head(FILE *f, const sim_scenario *s, uint64_t seed)
{
	char text[TEXT_SIZE];

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8"
	      "\">\n<meta name=\"viewport\" content=\"width=device-width\">\n"
	      "<title>equix-cli pow simulate: ",
	      f);
	svg_write_escaped(f, quoted(text, s->name));
	fputs("</title>\n<style>body{font-family:sans-serif;max-width:1000px;"
	      "margin:1.5em auto;padding:0 1em;color:#222}table{border-"
	      "collapse:collapse}td,th{border:1px solid #ccc;padding:.25em "
	      ".6em;text-align:right}svg{display:block;max-width:100%;height:"
	      "auto;margin:1em 0}</style></head><body>\n<h1>Scenario ",
	      f);
	svg_write_escaped(f, quoted(text, s->name));
	fputs("</h1>\n<p>", f);
	svg_write_escaped(f, quoted(text, s->description));
	fprintf(f,
		"</p>\n<p>%.0f s simulated, seed %llu. Service: rate %lu/s, "
		"burst %lu, in-flight limit %lu, %.2f s in flight, "
		"verification %.1f us, update period %.0f s, publication delay "
		"%.0f s. Clients: %.3g/s, CPU &times;%.3g, patience %.0f s; "
		"%.1f nonces/s per core, %.4f solutions per nonce; %zu "
		"attacker(s).</p>\n",
		s->duration_s, (unsigned long long)seed,
		(unsigned long)s->rate, (unsigned long)s->burst,
		(unsigned long)s->max_in_flight, s->rend_s, s->verify_cost_us,
		s->period_s, s->publish_delay_s, s->client_rate, s->client_cpu,
		s->patience_s, s->solve_rate, s->solutions_per_nonce,
		s->n_attackers);
}

bool sim_write_html(const char *path, const sim_scenario *s, uint64_t seed,
		    const sim_result *r)
{
	FILE *f = open_out(path);
	int rc = 0;

	if (f == NULL)
		return false;
	html_head(f, s, seed);
	html_results(f, r);
	fprintf(f, "<p>Invariants: ");
	svg_write_escaped(f, r->invariant[0] ? r->invariant : "ok");
	fputs(".</p>\n", f);
	for (size_t i = 0; i < N_OF(plots); i++)
		rc |= time_plot(f, &plots[i], s, &r->seconds);
	rc |= connect_plot(f, r);
	fputs("</body></html>\n", f);
	return close_out(f, path, rc == 0);
}

static bool write_svg(const char *prefix, const char *what, int which,
		      const sim_scenario *s, const sim_result *r)
{
	size_t len = strlen(prefix) + strlen(what) + 6;
	char *path = malloc(len);
	FILE *f;
	bool ok = false;

	if (path == NULL)
		return !cli_fail("pow simulate: out of memory");
	snprintf(path, len, "%s-%s.svg", prefix, what);
	f = open_out(path);
	if (f != NULL) {
		/* The pictures are committed under doc/defence/, where every
		 * file carries the project's lines (tests/licence.sh). */
		int rc = fputs("<!-- Copyright (c) 2026 The equix authors -->\n"
			       "<!-- SPDX-License-Identifier: BSD-3-Clause "
			       "-->\n",
			       f) < 0;
		rc |= which < 0 ? connect_plot(f, r)
				   : time_plot(f, &plots[which], s,
					       &r->seconds);
		ok = close_out(f, path, rc == 0);
	}
	free(path);
	return ok;
}

bool sim_write_svgs(const char *prefix, const sim_scenario *s,
		    const sim_result *r)
{
	return write_svg(prefix, "effort", 0, s, r) &&
	       write_svg(prefix, "traffic", 1, s, r) &&
	       write_svg(prefix, "connect", -1, s, r);
}

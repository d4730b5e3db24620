/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * report_text.c - Criterion's terminal report, and the JSON document.
 */
#include <math.h>
#include <stdio.h>

#include "json.h"
#include "report_text.h"

/* Criterion's column: names up to 23 characters share the time line. */
#define NAME_WIDTH 24

void bench_format_short(double x, char *buf, size_t size)
{
	double a = fabs(x);
	int decimals = a < 10      ? 4
		       : a < 100   ? 3
		       : a < 1000  ? 2
		       : a < 10000 ? 1
				   : 0;

	snprintf(buf, size, "%.*f", decimals, x);
}

void bench_format_time(double ns, char *buf, size_t size)
{
	static const struct {
		double limit, scale;
		const char *unit;
	} units[] = {
		{1, 1e3, "ps"},    {1e3, 1, "ns"},        {1e6, 1e-3, "µs"},
		{1e9, 1e-6, "ms"}, {INFINITY, 1e-9, "s"},
	};
	char num[32];
	size_t u = 0;

	while (u < 4 && !(fabs(ns) < units[u].limit))
		u++;
	bench_format_short(ns * units[u].scale, num, sizeof num);
	snprintf(buf, size, "%s %s", num, units[u].unit);
}

void bench_format_percent(double ratio, char *buf, size_t size)
{
	char num[32];
	double pct = ratio * 100;

	bench_format_short(fabs(pct), num, sizeof num);
	snprintf(buf, size, "%c%s%%", pct < 0 ? '-' : '+', num);
}

void bench_format_rate(double per_second, const char *unit, char *buf,
		       size_t size)
{
	static const char *const prefix[] = {"", "K", "M", "G"};
	char num[32];
	int p = 0;

	while (p < 3 && per_second >= 1000) {
		per_second /= 1000;
		p++;
	}
	bench_format_short(per_second, num, sizeof num);
	snprintf(buf, size, "%s %s%s/s", num, prefix[p], unit);
}

/* The name column: the name padded to 24, or on its own line. */
static void name_column(FILE *f, const char *name)
{
	size_t n = 0;

	/* µ and friends are one column: count characters, not bytes. */
	for (const char *p = name; *p != '\0'; p++)
		n += ((unsigned char)*p & 0xc0) != 0x80;
	if (n >= NAME_WIDTH)
		fprintf(f, "%s\n%*s", name, NAME_WIDTH, "");
	else
		fprintf(f, "%s%*s", name, (int)(NAME_WIDTH - n), "");
}

static void time_line(FILE *f, const bench_record *r)
{
	char lo[32], pt[32], hi[32];
	const bench_interval *s = &r->estimates.slope;

	bench_format_time(s->lower, lo, sizeof lo);
	bench_format_time(s->point, pt, sizeof pt);
	bench_format_time(s->upper, hi, sizeof hi);
	name_column(f, r->name);
	fprintf(f, "time:   [%s %s %s]\n", lo, pt, hi);
}

/* Elements per second: the lower bound from the upper time. */
static void throughput_line(FILE *f, const bench_record *r)
{
	char lo[48], pt[48], hi[48];
	const bench_interval *s = &r->estimates.slope;

	if (r->elements <= 0 || r->element_unit == NULL || s->point <= 0)
		return;
	bench_format_rate(r->elements * 1e9 / s->upper, r->element_unit, lo,
			  sizeof lo);
	bench_format_rate(r->elements * 1e9 / s->point, r->element_unit, pt,
			  sizeof pt);
	bench_format_rate(r->elements * 1e9 / s->lower, r->element_unit, hi,
			  sizeof hi);
	fprintf(f, "%*sthrpt:  [%s %s %s]\n", NAME_WIDTH, "", lo, pt, hi);
}

static void change_lines(FILE *f, const bench_record *r, double significance)
{
	char lo[32], pt[32], hi[32];
	const bench_change *c = &r->change;

	if (!r->has_change)
		return;
	bench_format_percent(c->mean.lower, lo, sizeof lo);
	bench_format_percent(c->mean.point, pt, sizeof pt);
	bench_format_percent(c->mean.upper, hi, sizeof hi);
	fprintf(f, "%*schange: [%s %s %s] (p = %.2f %c %.2f)\n", NAME_WIDTH, "",
		lo, pt, hi, c->p_value, c->p_value < significance ? '<' : '>',
		significance);
	fprintf(f, "%*s%s\n", NAME_WIDTH, "",
		bench_verdict_sentence(c->verdict));
}

static void outlier_lines(FILE *f, const bench_record *r)
{
	const bench_outliers *o = &r->outliers;
	size_t total = bench_outliers_total(o);
	double n = (double)r->samples.n;
	const struct {
		size_t count;
		const char *what;
	} kinds[] = {
		{o->low_severe, "low severe"},
		{o->low_mild, "low mild"},
		{o->high_mild, "high mild"},
		{o->high_severe, "high severe"},
	};

	if (total == 0)
		return;
	fprintf(f, "Found %zu outliers among %zu measurements (%.2f%%)\n",
		total, r->samples.n, 100.0 * (double)total / n);
	for (int k = 0; k < 4; k++)
		if (kinds[k].count > 0)
			fprintf(f, "  %zu (%.2f%%) %s\n", kinds[k].count,
				100.0 * (double)kinds[k].count / n,
				kinds[k].what);
}

void bench_report_record(FILE *f, const bench_record *r, double significance)
{
	time_line(f, r);
	throughput_line(f, r);
	change_lines(f, r, significance);
	outlier_lines(f, r);
	fflush(f);
}

/* ours / ref of the slopes: the point, and the widest ratio the two
 * intervals allow. */
static bench_interval ratio(const bench_record *ours, const bench_record *ref)
{
	const bench_interval *a = &ours->estimates.slope,
			     *b = &ref->estimates.slope;
	bench_interval q = {a->point / b->point, a->lower / b->upper,
			    a->upper / b->lower};

	return q;
}

void bench_report_ratio(FILE *f, const bench_record *ours,
			const bench_record *ref)
{
	bench_interval q = ratio(ours, ref);

	fprintf(f, "%*svs reference: %.2fx the time [%.2fx %.2fx] (%.2fx %s)\n",
		NAME_WIDTH, "", q.point, q.lower, q.upper,
		q.point <= 1 ? 1 / q.point : q.point,
		q.point <= 1 ? "faster" : "slower");
	fflush(f);
}

void bench_report_skip(FILE *f, const char *name, const char *why)
{
	fprintf(f, "SKIP: %s (%s)\n", name, why);
	fflush(f);
}

/* ---- JSON ----------------------------------------------------------- */

static void json_interval(FILE *f, const char *key, const bench_interval *v)
{
	fprintf(f, "\"%s\": {\"point\": ", key);
	bench_json_number(f, v->point);
	fputs(", \"lower\": ", f);
	bench_json_number(f, v->lower);
	fputs(", \"upper\": ", f);
	bench_json_number(f, v->upper);
	fputc('}', f);
}

static void json_estimates(FILE *f, const bench_estimates *e)
{
	fputs("    \"estimates_ns\": {", f);
	json_interval(f, "slope", &e->slope);
	fputs(",\n      ", f);
	json_interval(f, "mean", &e->mean);
	fputs(",\n      ", f);
	json_interval(f, "median", &e->median);
	fputs(",\n      ", f);
	json_interval(f, "std_dev", &e->std_dev);
	fputs(",\n      ", f);
	json_interval(f, "median_abs_dev", &e->median_abs_dev);
	fputs(",\n      \"r_squared\": ", f);
	bench_json_number(f, e->r_squared);
	fputs("},\n", f);
}

static void json_throughput(FILE *f, const bench_record *r)
{
	const bench_interval *s = &r->estimates.slope;

	fputs("    \"throughput\": ", f);
	if (r->elements <= 0 || r->element_unit == NULL) {
		fputs("null,\n", f);
		return;
	}
	bench_interval t = {r->elements * 1e9 / s->point,
			    r->elements * 1e9 / s->upper,
			    r->elements * 1e9 / s->lower};
	fputs("{\"unit\": ", f);
	bench_json_string(f, r->element_unit);
	fputs(", \"elements\": ", f);
	bench_json_number(f, r->elements);
	fputs(", ", f);
	json_interval(f, "per_second", &t);
	fputs("},\n", f);
}

static void json_outliers(FILE *f, const bench_outliers *o)
{
	fprintf(f,
		"    \"outliers\": {\"total\": %zu, \"low_severe\": %zu, "
		"\"low_mild\": %zu, \"high_mild\": %zu, \"high_severe\": "
		"%zu},\n",
		bench_outliers_total(o), o->low_severe, o->low_mild,
		o->high_mild, o->high_severe);
}

static void json_change(FILE *f, const bench_record *r)
{
	static const char *const verdicts[] = {"no_change", "within_noise",
					       "improved", "regressed"};
	const bench_change *c = &r->change;

	fputs("    \"change\": ", f);
	if (!r->has_change) {
		fputs("null,\n", f);
		return;
	}
	fputc('{', f);
	json_interval(f, "mean", &c->mean);
	fputs(", ", f);
	json_interval(f, "median", &c->median);
	fputs(", \"p_value\": ", f);
	bench_json_number(f, c->p_value);
	fprintf(f, ", \"verdict\": \"%s\"},\n",
		(unsigned)c->verdict < 4 ? verdicts[c->verdict] : "unknown");
}

static void json_record(FILE *f, const bench_record *records, size_t i)
{
	const bench_record *r = &records[i];

	fputs("   {\"name\": ", f);
	bench_json_string(f, r->name);
	fputs(", \"group\": ", f);
	bench_json_string(f, r->group);
	fprintf(f, ", \"samples\": %zu,\n", r->samples.n);
	json_estimates(f, &r->estimates);
	json_throughput(f, r);
	json_outliers(f, &r->outliers);
	json_change(f, r);
	fputs("    \"reference\": ", f);
	if (r->twin < 0) {
		fputs("null}", f);
		return;
	}
	bench_interval q = ratio(r, &records[r->twin]);
	fputs("{\"name\": ", f);
	bench_json_string(f, records[r->twin].name);
	fputs(", ", f);
	json_interval(f, "time_ratio", &q);
	fputs("}}", f);
}

static void json_opt_string(FILE *f, const char *s)
{
	if (s == NULL)
		fputs("null", f);
	else
		bench_json_string(f, s);
}

void bench_report_json(FILE *f, const bench_record *records, size_t n,
		       const bench_json_meta *m)
{
	fputs("{\"tool\": \"equix-bench\", \"format\": 1,\n \"config\": {", f);
	fprintf(f, "\"sample_size\": %zu, \"nresamples\": %zu, ",
		m->sample_size, m->nresamples);
	fprintf(f, "\"warm_up_s\": %g, \"measurement_s\": %g, ", m->warm_up_s,
		m->measurement_s);
	fprintf(f, "\"confidence\": %g, \"significance\": %g, \"noise\": %g,\n",
		m->confidence, m->significance, m->noise);
	fputs("  \"reference\": ", f);
	json_opt_string(f, m->reference);
	fputs(", \"baseline\": ", f);
	json_opt_string(f, m->baseline);
	fputs(", \"saved_as\": ", f);
	json_opt_string(f, m->saved_as);
	fputs("},\n \"benchmarks\": [\n", f);
	for (size_t i = 0; i < n; i++) {
		json_record(f, records, i);
		fputs(i + 1 < n ? ",\n" : "\n", f);
	}
	fputs(" ],\n \"skipped\": [", f);
	for (size_t i = 0; i < m->n_skipped; i++) {
		fputs(i > 0 ? ",\n  {\"name\": " : "\n  {\"name\": ", f);
		bench_json_string(f, m->skipped[2 * i]);
		fputs(", \"reason\": ", f);
		bench_json_string(f, m->skipped[2 * i + 1]);
		fputc('}', f);
	}
	fputs("]}\n", f);
	fflush(f);
}

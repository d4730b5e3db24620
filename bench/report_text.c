/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * report_text.c - Criterion's terminal report.
 */
#include <math.h>
#include <stdio.h>

#include "report_text.h"

/* Criterion's column: names up to 23 characters share the time line. */
#define NAME_WIDTH 24

/* 4 significant digits. */
static void format_short(double x, char *buf, size_t size)
{
	double a = fabs(x);
	int decimals = a < 10      ? 4
		       : a < 100   ? 3
		       : a < 1000  ? 2
		       : a < 10000 ? 1
				   : 0;

	snprintf(buf, size, "%.*f", decimals, x);
}

static const struct {
	double limit, ns;
	const char *name;
} time_units[] = {
	{1, 1e-3, "ps"}, {1e3, 1, "ns"},          {1e6, 1e3, "\xc2\xb5s"},
	{1e9, 1e6, "ms"}, {INFINITY, 1e9, "s"},
};

const char *bench_time_unit(double ns, double *unit_ns)
{
	size_t u = 0;

	while (u < 4 && !(fabs(ns) < time_units[u].limit))
		u++;
	*unit_ns = time_units[u].ns;
	return time_units[u].name;
}

void bench_format_time(double ns, char *buf, size_t size)
{
	char num[32];
	double unit;
	const char *name = bench_time_unit(ns, &unit);

	format_short(ns / unit, num, sizeof num);
	if (!isfinite(ns))
		snprintf(buf, size, BENCH_DASH);
	else
		snprintf(buf, size, "%s %s", num, name);
}

void bench_format_percent(double ratio, char *buf, size_t size)
{
	char num[32];
	double pct = ratio * 100;

	format_short(fabs(pct), num, sizeof num);
	if (!isfinite(pct))
		snprintf(buf, size, BENCH_DASH);
	else
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
	format_short(per_second, num, sizeof num);
	if (!isfinite(per_second) || !(per_second > 0))
		snprintf(buf, size, BENCH_DASH);
	else
		snprintf(buf, size, "%s %s%s/s", num, prefix[p], unit);
}

void bench_format_speed(double ratio, char *buf, size_t size)
{
	if (!isfinite(ratio) || !(ratio > 0))
		snprintf(buf, size, BENCH_DASH);
	else
		snprintf(buf, size, "%.2fx %s", ratio <= 1 ? 1 / ratio : ratio,
			 ratio <= 1 ? "faster" : "slower");
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

bench_interval bench_time_ratio(const bench_record *ours,
				const bench_record *ref)
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
	bench_interval q = bench_time_ratio(ours, ref);
	char speed[48];

	bench_format_speed(q.point, speed, sizeof speed);
	fprintf(f, "%*svs reference: %.2fx the time [%.2fx %.2fx] (%s)\n",
		NAME_WIDTH, "", q.point, q.lower, q.upper, speed);
	fflush(f);
}

void bench_report_skip(FILE *f, const char *name, const char *why)
{
	fprintf(f, "SKIP: %s (%s)\n", name, why);
	fflush(f);
}

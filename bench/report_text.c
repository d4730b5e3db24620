/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * report_text.c - Criterion's terminal report.
 */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>

#include "report_text.h"

/* Criterion's column: names up to 23 characters share the time line. */
#define NAME_WIDTH 24

/* The formatted number when it is valid, else the dash. */
static void put(bench_num out, bool valid, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void put(bench_num out, bool valid, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (valid)
		vsnprintf(out, sizeof(bench_num), fmt, ap);
	else
		snprintf(out, sizeof(bench_num), BENCH_DASH);
	va_end(ap);
}

/* 4 significant digits. */
static int decimals(double x)
{
	double a = fabs(x);

	return a < 10 ? 4 : a < 100 ? 3 : a < 1000 ? 2 : a < 10000 ? 1 : 0;
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

void bench_format_time(double ns, bench_num out)
{
	double unit;
	const char *name = bench_time_unit(ns, &unit);

	put(out, isfinite(ns), "%.*f %s", decimals(ns / unit), ns / unit, name);
}

void bench_format_percent(double ratio, bench_num out)
{
	double pct = fabs(ratio * 100);

	put(out, isfinite(pct), "%c%.*f%%", ratio < 0 ? '-' : '+',
	    decimals(pct), pct);
}

/* Elements per second with a K, M or G prefix. */
static void format_rate(double per_second, const char *unit, bench_num out)
{
	static const char *const prefix[] = {"", "K", "M", "G"};
	int p = 0;

	while (p < 3 && per_second >= 1000) {
		per_second /= 1000;
		p++;
	}
	put(out, isfinite(per_second) && per_second > 0, "%.*f %s%s/s",
	    decimals(per_second), per_second, prefix[p], unit);
}

void bench_format_speed(double ratio, bench_num out)
{
	put(out, isfinite(ratio) && ratio > 0, "%.2fx %s",
	    ratio <= 1 ? 1 / ratio : ratio, ratio <= 1 ? "faster" : "slower");
}

void bench_format_bounds(const bench_interval *iv, bench_format *format,
			 bench_num out[3])
{
	format(iv->lower, out[0]);
	format(iv->point, out[1]);
	format(iv->upper, out[2]);
}

void bench_format_throughput(const bench_record *r, bench_num out[3])
{
	const bench_interval *s = &r->estimates.slope;
	double e = r->elements > 0 ? r->elements * 1e9 : NAN;
	const char *unit = r->element_unit != NULL ? r->element_unit : "elem";

	format_rate(e / s->upper, unit, out[0]);
	format_rate(e / s->point, unit, out[1]);
	format_rate(e / s->lower, unit, out[2]);
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
	const bench_change *c = &r->change;
	bench_num v[3];

	bench_format_bounds(&r->estimates.slope, bench_format_time, v);
	name_column(f, r->name);
	fprintf(f, "time:   [%s %s %s]\n", v[0], v[1], v[2]);
	if (r->elements > 0 && r->element_unit != NULL &&
	    r->estimates.slope.point > 0) {
		bench_format_throughput(r, v);
		fprintf(f, "%*sthrpt:  [%s %s %s]\n", NAME_WIDTH, "", v[0],
			v[1], v[2]);
	}
	if (r->has_change) {
		bench_format_bounds(&c->mean, bench_format_percent, v);
		fprintf(f, "%*schange: [%s %s %s] (p = %.2f %c %.2f)\n",
			NAME_WIDTH, "", v[0], v[1], v[2], c->p_value,
			c->p_value < significance ? '<' : '>', significance);
		fprintf(f, "%*s%s\n", NAME_WIDTH, "",
			bench_verdict_sentence(c->verdict));
	}
	outlier_lines(f, r);
	fflush(f);
}

bench_interval bench_time_ratio(const bench_record *ours,
				const bench_record *ref)
{
	const bench_interval *a = &ours->estimates.slope;
	const bench_interval *b = &ref->estimates.slope;
	bench_interval q = {a->point / b->point, a->lower / b->upper,
			    a->upper / b->lower};

	return q;
}

void bench_report_ratio(FILE *f, const bench_record *ours,
			const bench_record *ref)
{
	bench_interval q = bench_time_ratio(ours, ref);
	bench_num speed;

	bench_format_speed(q.point, speed);
	fprintf(f, "%*svs reference: %.2fx the time [%.2fx %.2fx] (%s)\n",
		NAME_WIDTH, "", q.point, q.lower, q.upper, speed);
	fflush(f);
}

void bench_report_skip(FILE *f, const char *name, const char *why)
{
	fprintf(f, "SKIP: %s (%s)\n", name, why);
	fflush(f);
}

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * report_text.h - the terminal report, line for line as Criterion.rs
 * prints it, and the machine-readable JSON document (--json).
 *
 *   verify/interp           time:   [41.200 µs 41.512 µs 41.903 µs]
 *                           thrpt:  [23.865 Kverification/s ...]
 *                           change: [-12.512% -12.103% -11.700%] (p = 0.00 <
 * 0.05) Performance has improved. Found 3 outliers among 100 measurements
 * (3.00%) 2 (2.00%) high mild 1 (1.00%) high severe
 */
#ifndef EQUIX_BENCH_REPORT_TEXT_H
#define EQUIX_BENCH_REPORT_TEXT_H

#include <stddef.h>
#include <stdio.h>

#include "record.h"

/* Criterion's number formats: 4 significant digits ("41.51", "1.2345"),
 * a time with its unit (ps, ns, µs, ms, s), a signed percentage
 * ("+1.2345%"), elements per second with K/M/G prefixes. */
void bench_format_short(double x, char *buf, size_t size);
void bench_format_time(double ns, char *buf, size_t size);
void bench_format_percent(double ratio, char *buf, size_t size);
void bench_format_rate(double per_second, const char *unit, char *buf,
		       size_t size);

/* One benchmark's block: time, throughput, change against the baseline
 * with its p-value against `significance`, and the outliers. */
void bench_report_record(FILE *f, const bench_record *r, double significance);

/* The ratio of this library's time to the reference's (the point
 * estimates of the slopes, and the interval from their bounds). */
void bench_report_ratio(FILE *f, const bench_record *ours,
			const bench_record *ref);

/* A benchmark that could not run here. */
void bench_report_skip(FILE *f, const char *name, const char *why);

/* Everything measured, as one JSON document. `skipped` holds n_skipped
 * pairs of name and reason. */
typedef struct bench_json_meta {
	const char *reference; /* path, or NULL */
	const char *baseline;  /* compared against, or NULL */
	const char *saved_as;  /* saved baseline, or NULL */
	size_t sample_size, nresamples;
	double warm_up_s, measurement_s, confidence, significance, noise;
	const char *const *skipped;
	size_t n_skipped;
} bench_json_meta;

void bench_report_json(FILE *f, const bench_record *records, size_t n,
		       const bench_json_meta *meta);

#endif

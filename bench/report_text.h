/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * report_text.h - the terminal report, line for line as Criterion.rs
 * prints it, and the number formats every report uses.
 *
 *   verify/interp           time:   [41.200 µs 41.512 µs 41.903 µs]
 *                           thrpt:  [23.865 Kverification/s ...]
 *                           change: [-12.512% -12.103% -11.700%] (p = ...)
 *                           Performance has improved.
 *   Found 3 outliers among 100 measurements (3.00%)
 *     2 (2.00%) high mild
 *     1 (1.00%) high severe
 */
#ifndef EQUIX_BENCH_REPORT_TEXT_H
#define EQUIX_BENCH_REPORT_TEXT_H

#include <stdio.h>

#include "record.h"

/* Criterion's number formats, for the terminal and the HTML report alike:
 * 4 significant digits ("41.51", "1.2345"), a time with its unit (ps,
 * ns, µs, ms, s), a signed percentage ("+1.2345%"), elements per second
 * with K/M/G prefixes, and a ratio of times as "2.00x faster". A number
 * that is not finite (or a rate or ratio that is not positive) is an em
 * dash. */
#define BENCH_DASH "\xe2\x80\x94"
typedef char bench_num[48];
typedef void bench_format(double v, bench_num out);
bench_format bench_format_time, bench_format_percent, bench_format_speed;

/* The lower bound, point and upper bound of iv, in one format. */
void bench_format_bounds(const bench_interval *iv, bench_format *format,
			 bench_num out[3]);

/* Elements per second at the slope's bounds (the lower bound from the
 * upper time), per "elem" when the record names no unit. */
void bench_format_throughput(const bench_record *r, bench_num out[3]);

/* The unit bench_format_time shows `ns` in, and its size in ns. */
const char *bench_time_unit(double ns, double *unit_ns);

/* ours / ref of the slopes: the point, and the widest ratio the two
 * intervals allow. */
bench_interval bench_time_ratio(const bench_record *ours,
				const bench_record *ref);

/* One benchmark's block: time, throughput, change against the baseline
 * with its p-value against `significance`, and the outliers. */
void bench_report_record(FILE *f, const bench_record *r, double significance);

/* The ratio of this library's time to the reference's. */
void bench_report_ratio(FILE *f, const bench_record *ours,
			const bench_record *ref);

/* A benchmark that could not run here. */
void bench_report_skip(FILE *f, const char *name, const char *why);

#endif

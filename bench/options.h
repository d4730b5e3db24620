/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * options.h - equix-bench's command line.
 */
#ifndef EQUIX_BENCH_OPTIONS_H
#define EQUIX_BENCH_OPTIONS_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct bench_options {
	bool has_filter;
	regex_t filter;
	size_t sample_size;
	bool sample_size_given; /* --sample-size on the command line */
	double warm_up_s, measurement_s;
	size_t nresamples;
	double noise, significance, confidence;
	const char *save_baseline; /* NULL: Criterion's default, "base" */
	const char *baseline;      /* compare only, never save */
	/* What the run compares with: --baseline, else --save-baseline,
	 * else "base"; and saves as: none with --baseline. */
	const char *compare, *save;
	const char *results;       /* default "bench-results" */
	const char *report;        /* default RESULTS/report */
	int no_report, json, quick, list, list_impls, help, version;
	const char *reference;
	const char *reference_hashx;
	const char *reference_hashwx;
	const char *vectors;
} bench_options;

/* Parses argv. Returns 0, or 2 after a one-line message on stderr. */
int bench_options_parse(int argc, char **argv, bench_options *o);

/* The --help text. */
void bench_options_usage(FILE *f);

#endif

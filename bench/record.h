/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * record.h - one measured benchmark, as the reports (terminal, JSON,
 * HTML) see it.
 */
#ifndef EQUIX_BENCH_RECORD_H
#define EQUIX_BENCH_RECORD_H

#include <stddef.h>

#include "stats.h"

typedef struct bench_samples {
	size_t n;
	double *iters; /* iterations in sample i */
	double *times; /* total nanoseconds of sample i */
} bench_samples;

typedef struct bench_record {
	const char *name;  /* "verify/interp", or "verify/interp-ref" */
	const char *group; /* "verify" */
	bench_samples samples;
	bench_estimates estimates;
	bench_outliers outliers;
	/* A saved baseline of the same name: samples.n == 0 when none. */
	bench_samples baseline;
	int has_change;
	bench_change change;
	/* Throughput: elements per iteration and their unit ("hash",
	 * "solution", "verification"); 0 / NULL when not declared. */
	double elements;
	const char *element_unit;
	/* For a benchmark of this library measured against the reference:
	 * the index of its "-ref" twin among the records, or -1. */
	long twin;
} bench_record;

#endif

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * measure.h - Criterion's sampling: a warm-up with doubling iteration
 * counts, then samples whose iteration counts grow linearly.
 */
#ifndef EQUIX_BENCH_MEASURE_H
#define EQUIX_BENCH_MEASURE_H

#include <stddef.h>
#include <stdint.h>

#include "record.h"

/* Runs the operation `iters` times and returns the nanoseconds those runs
 * took, measured with a monotonic clock by the routine itself (so it can
 * leave set-up work, such as recreating a replay cache, out). */
typedef double bench_routine(void *state, uint64_t iters);

typedef struct bench_measure_config {
	size_t sample_size;    /* n, at least 2 */
	double warm_up_ns;     /* default 3 s */
	double measurement_ns; /* target of all samples together, 5 s */
} bench_measure_config;

/* Warms up, then fills out->iters and out->times (allocated here,
 * sample_size each). *met_out gets the warm-up's time per iteration.
 * Returns 0, or -1 when out of memory. */
int bench_measure(const bench_measure_config *config, bench_routine *run,
		  void *state, bench_samples *out, double *met_out);

/* The iteration step d of the samples d, 2d, ..., n*d: the target time
 * spread over n(n+1)/2 steps of `met` ns per iteration, at least 1. */
uint64_t bench_sample_step(double target_ns, double met, size_t n);

void bench_samples_free(bench_samples *s);

#endif

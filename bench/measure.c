/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * measure.c - warm-up and sampling, as Criterion.rs does them.
 */
#include <math.h>
#include <stdlib.h>

#include "benchutil.h"
#include "measure.h"

/* Runs the routine with 1, 2, 4, ... iterations until the warm-up time
 * has passed; returns the mean time per iteration over all of it. */
static double warm_up(double warm_up_ns, bench_routine *run, void *state)
{
	double start = bench_now_ns(), spent = 0, done = 0;
	uint64_t iters = 1;

	for (;;) {
		spent += run(state, iters);
		done += (double)iters;
		if (bench_now_ns() - start >= warm_up_ns)
			break;
		iters *= 2;
	}
	/* A clock too coarse to see the operation: still a positive
	 * estimate, so the step below stays finite. */
	return spent > 0 ? spent / done : 1.0;
}

uint64_t bench_sample_step(double target_ns, double met, size_t n)
{
	double total = (double)n * (double)(n + 1) / 2.0;
	double d = ceil(target_ns / (met * total));

	return d < 1 ? 1 : (uint64_t)d;
}

int bench_measure(const bench_measure_config *config, bench_routine *run,
		  void *state, bench_samples *out, double *met_out)
{
	size_t n = config->sample_size;

	out->n = 0;
	out->iters = calloc(n, sizeof(double));
	out->times = calloc(n, sizeof(double));
	if (out->iters == NULL || out->times == NULL) {
		bench_samples_free(out);
		return -1;
	}
	double met = warm_up(config->warm_up_ns, run, state);
	uint64_t d = bench_sample_step(config->measurement_ns, met, n);

	for (size_t i = 0; i < n; i++) {
		uint64_t iters = (uint64_t)(i + 1) * d;

		out->iters[i] = (double)iters;
		out->times[i] = run(state, iters);
	}
	out->n = n;
	*met_out = met;
	return 0;
}

void bench_samples_free(bench_samples *s)
{
	free(s->iters);
	free(s->times);
	s->iters = s->times = NULL;
	s->n = 0;
}

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * benchmarks.h - what is measured: each benchmark's set-up (which first
 * checks the library's outputs against the reference vectors), its timed
 * routine and its tear-down.
 */
#ifndef EQUIX_BENCH_BENCHMARKS_H
#define EQUIX_BENCH_BENCHMARKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "library.h"
#include "vectors.h"

typedef enum bench_status {
	BENCH_READY, /* checked against the vectors, ready to time */
	BENCH_SKIP,  /* cannot run in this build (message says why) */
	BENCH_WRONG, /* an output differs from the reference vectors */
	BENCH_ERROR, /* out of memory, or the library failed to set up */
} bench_status;

/* Allocates the state for `lib` in *state (which the tear-down frees,
 * whatever the status) and checks the outputs; on anything but
 * BENCH_READY, msg says why. `param` tells apart the benchmarks that
 * share a set-up (a HashX type, Equi-X context flags). */
typedef bench_status bench_setup(const bench_library *lib,
				 const bench_vectors *vectors, int param,
				 void **state, char *msg, size_t msg_size);

/* Runs the operation `iters` times and returns the nanoseconds those runs
 * took, measured with a monotonic clock by the routine itself (so it can
 * leave set-up work, such as recreating a replay cache, out). */
typedef double bench_routine(void *state, uint64_t iters);

typedef struct bench_def {
	const char *name;  /* "verify/interp" */
	const char *group; /* "verify" */
	/* Throughput: the unit of the one element per iteration, or NULL. */
	const char *unit;
	/* This library only (the reference has no such layer): no -ref
	 * twin. */
	bool ours_only;
	bench_setup *setup;
	int param;
	bench_routine *run;
	void (*teardown)(void *state);
	/* Samples when --sample-size is not given, for operations too slow
	 * for the default 100 (as Criterion users set a group's sample size);
	 * 0: the default. */
	size_t sample_size;
} bench_def;

/* Every benchmark, in the order they run; n_bench_defs of them. */
extern const bench_def bench_defs[];
extern const size_t n_bench_defs;

/* The PoW layer's (pow_benchmarks.c): param POW_EFFORT or POW_SERVICE. */
enum { POW_EFFORT, POW_SERVICE };
bench_setup bench_pow_setup;
bench_routine bench_pow_effort, bench_pow_verify;
void bench_pow_free(void *state);

/* Formats the reason into msg; returns st. */
bench_status bench_say(bench_status st, char *msg, size_t size,
		       const char *format, ...)
	__attribute__((format(printf, 4, 5)));

#endif

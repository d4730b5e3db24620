/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * benchmarks.h - what is measured: each benchmark's set-up (which first
 * checks the library's outputs against the reference vectors), its timed
 * routine and its tear-down.
 */
#ifndef EQUIX_BENCH_BENCHMARKS_H
#define EQUIX_BENCH_BENCHMARKS_H

#include <stddef.h>

#include "library.h"
#include "measure.h"
#include "vectors.h"

typedef enum bench_status {
	BENCH_READY, /* checked against the vectors, ready to time */
	BENCH_SKIP,  /* cannot run in this build (message says why) */
	BENCH_WRONG, /* an output differs from the reference vectors */
	BENCH_ERROR, /* out of memory, or the library failed to set up */
} bench_status;

typedef struct bench_def {
	const char *name;  /* "verify/interp" */
	const char *group; /* "verify" */
	/* Throughput: elements per iteration and their unit, or 0 / NULL. */
	double elements;
	const char *unit;
	/* This library only (the reference has no such layer): no -ref
	 * twin. */
	int ours_only;
	/* Allocates the state for `lib` in *state and checks the outputs;
	 * on anything but BENCH_READY, *state is NULL and msg says why.
	 * `param` is the next field: what distinguishes benchmarks that share
	 * a set-up (a HashX type, Equi-X context flags). */
	bench_status (*setup)(const bench_library *lib,
			      const bench_vectors *vectors, int param,
			      void **state, char *msg, size_t msg_size);
	int param;
	bench_routine *run;
	void (*teardown)(void *state);
	/* Samples when --sample-size is not given, for operations too slow
	 * for the default 100 (as Criterion users set a group's sample size);
	 * 0: the default. */
	size_t sample_size;
} bench_def;

/* The end of every setup: keeps `s` in *state when `st` is BENCH_READY,
 * otherwise frees it with `teardown`; returns `st`. */
bench_status bench_setup_finish(void *s, bench_status st,
				void (*teardown)(void *state), void **state);

/* Every benchmark, in the order they run. */
const bench_def *bench_defs(size_t *n);

/* The PoW layer's benchmarks (pow_benchmarks.c). */
const bench_def *bench_pow_defs(size_t *n);

/* Hex of the first bytes of `data` for messages ("-" when empty,
 * "..." after 12 bytes). */
const char *bench_hex_short(const void *data, size_t len, char *buf,
			    size_t size);

#endif

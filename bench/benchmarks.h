/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * benchmarks.h - what is measured: each benchmark's set-up (which first
 * checks the library's outputs against the reference vectors), its timed
 * routine and its tear-down; and the workloads' pieces that equix-count
 * counts with (which vectors an operation runs on, how its outputs are
 * compared with them), defined here once for both.
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

/* The benchmark named `name`, or NULL. */
const bench_def *bench_def_find(const char *name);

/* ---- The workloads' pieces (equix-count's too) ---------------------- */

/* The first `cap` seeds that make a function (and, when `hashed`, that
 * have recorded hashes), in file order, into `out`; returns how many. */
size_t bench_seeds(const bench_vectors *v, bool hashed,
		   const bench_hashx_vec **out, size_t cap);

/* What bench_function_diff() returns when the function is not of the
 * type wanted, and when it gives every recorded hash. */
enum { BENCH_DIFF_TYPE = -2, BENCH_DIFF_NONE = -1 };

/* Compares the function made in `ctx` from x's seed with the record: its
 * type must be `type`, its hash of each recorded input the recorded one
 * (lib->hashx_size bytes). BENCH_DIFF_NONE, BENCH_DIFF_TYPE, or the first
 * input (an index of x->nonce) that differs, its hash in `got`. */
int bench_function_diff(const bench_library *lib, hashx_ctx *ctx,
			hashx_type type, const bench_hashx_vec *x,
			uint8_t got[32]);

/* `out` is x's recorded hash of its k-th input. */
bool bench_hash_matches(const bench_library *lib, const bench_hashx_vec *x,
			int k, const uint8_t *out);

/* A challenge and one of its recorded solutions. */
typedef struct bench_equix_pair {
	const bench_equix_vec *vec;
	const equix_solution *sol;
} bench_equix_pair;

/* The first `cap` recorded solutions of the valid challenges, in file
 * order, into `out`; returns how many. */
size_t bench_solutions(const bench_vectors *v, bench_equix_pair *out,
		       size_t cap);

/* `lib` refuses p's solution with one index changed. */
bool bench_tampered_refused(const bench_library *lib, equix_ctx *ctx,
			    const bench_equix_pair *p);

/* A solve of x's challenge gave the record: x is valid, r EQUIX_OK, and
 * b the recorded solutions in the recorded order. */
bool bench_solve_matches(const bench_equix_vec *x, equix_result r,
			 const equix_solutions_buffer *b);

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

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * benchmarks.c - the HashX and Equi-X benchmarks. Each set-up first runs
 * the operation on the reference vectors and compares the outputs: a
 * library that computes something else is refused, never timed.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchmarks.h"
#include "benchutil.h"

/* Functions cycled over by generate/ and hash/, and challenges by
 * solve/. */
#define HASHX_SEEDS 16
#define SOLVE_CHALLENGES 16
/* Challenges whose solutions are compared before solve/ is timed. */
#define SOLVE_CHECKS 6

const char *bench_hex_short(const void *data, size_t len, char *buf,
			    size_t size)
{
	const uint8_t *p = data;
	size_t o = 0;

	if (len == 0)
		snprintf(buf, size, "-");
	for (size_t i = 0; i < len && i < 12 && o + 3 < size; i++)
		o += (size_t)snprintf(buf + o, size - o, "%02x", p[i]);
	if (len > 12 && o + 4 < size)
		snprintf(buf + o, size - o, "...");
	return buf;
}

/* ---- HashX -------------------------------------------------------- */

typedef struct hashx_state {
	const bench_library *lib;
	hashx_ctx *ctx;
	const bench_hashx_vec *seeds[HASHX_SEEDS];
	size_t n_seeds, next;
	uint64_t input;
	unsigned sink;
} hashx_state;

/* Makes every vector's function and compares each recorded hash (the
 * bytes this library's HASHX_SIZE gives, at most 32). */
static bench_status check_hashx(hashx_state *s, const bench_vectors *v,
				hashx_type want, char *msg, size_t size)
{
	const bench_library *lib = s->lib;
	char hex[32];

	for (size_t i = 0; i < v->n_hashx; i++) {
		const bench_hashx_vec *x = &v->hashx[i];
		hashx_result r = lib->hashx_make(s->ctx, x->seed, x->seed_len);
		hashx_type type;
		uint8_t out[32];

		bench_hex_short(x->seed, x->seed_len, hex, sizeof hex);
		if ((r == HASHX_OK) != x->ok) {
			snprintf(msg, size,
				 "seed %s: hashx_make gave %d, "
				 "expected %s",
				 hex, (int)r,
				 x->ok ? "HASHX_OK" : "HASHX_FAIL_SEED");
			return BENCH_WRONG;
		}
		if (!x->ok)
			continue;
		if (lib->hashx_query_type(s->ctx, &type) != HASHX_OK ||
		    type != want) {
			snprintf(msg, size,
				 "seed %s: the function is not of "
				 "the type measured (%d)",
				 hex, (int)want);
			return BENCH_WRONG;
		}
		for (int k = 0; k < x->pairs; k++) {
			memset(out, 0, sizeof out);
			(lib->hashx_exec)(s->ctx, x->nonce[k], out);
			if (memcmp(out, x->hash[k], lib->hashx_size) != 0) {
				char got[32], rec[32];

				snprintf(msg, size,
					 "seed %s, input %llx: "
					 "hash %s, expected %s",
					 hex, (unsigned long long)x->nonce[k],
					 bench_hex_short(out, lib->hashx_size,
							 got, sizeof got),
					 bench_hex_short(x->hash[k],
							 lib->hashx_size, rec,
							 sizeof rec));
				return BENCH_WRONG;
			}
		}
	}
	return BENCH_READY;
}

static void hashx_teardown(void *state)
{
	hashx_state *s = state;

	if (s != NULL) {
		s->lib->hashx_free(s->ctx);
		free(s);
	}
}

/* A context of `type`, checked, with the seeds to cycle over; the last
 * seed's function made. */
static bench_status hashx_setup(const bench_library *lib,
				const bench_vectors *v, int type, void **state,
				char *msg, size_t size)
{
	hashx_state *s;
	bench_status st;

	*state = NULL;
	if (lib->hashx_alloc == NULL) {
		snprintf(msg, size,
			 "the reference library exports no "
			 "hashx_* functions");
		return BENCH_SKIP;
	}
	if ((s = calloc(1, sizeof *s)) == NULL)
		return BENCH_ERROR;
	s->lib = lib;
	if ((s->ctx = (lib->hashx_alloc)(type)) == NULL) {
		free(s);
		snprintf(msg, size, "hashx_alloc failed");
		return BENCH_ERROR;
	}
	for (size_t i = 0; i < v->n_hashx && s->n_seeds < HASHX_SEEDS; i++)
		if (v->hashx[i].ok)
			s->seeds[s->n_seeds++] = &v->hashx[i];
	if (s->n_seeds == 0) {
		snprintf(msg, size, "no valid seed among the vectors");
		hashx_teardown(s);
		return BENCH_ERROR;
	}
	/* A compiled context without a compiler: not this build's path. */
	if (lib->hashx_make(s->ctx, s->seeds[0]->seed, s->seeds[0]->seed_len) ==
	    HASHX_FAIL_COMPILE) {
		snprintf(msg, size, "no HashX compiler in this build");
		hashx_teardown(s);
		return BENCH_SKIP;
	}
	st = check_hashx(s, v, type, msg, size);
	return bench_setup_finish(s, st, hashx_teardown, state);
}

/* generate/: one hashx_make per iteration (for a compiled context, the
 * compilation included), cycling over the seeds. */
static double run_generate(void *state, uint64_t iters)
{
	hashx_state *s = state;
	double t0 = bench_now_ns();

	for (uint64_t i = 0; i < iters; i++) {
		const bench_hashx_vec *x = s->seeds[s->next];

		s->sink += (unsigned)s->lib->hashx_make(s->ctx, x->seed,
							x->seed_len);
		s->next = (s->next + 1) % s->n_seeds;
	}
	return bench_now_ns() - t0;
}

/* hash/: one hashx_exec per iteration, on successive inputs. */
static double run_hash(void *state, uint64_t iters)
{
	hashx_state *s = state;
	uint8_t out[32];
	double t0 = bench_now_ns();

	for (uint64_t i = 0; i < iters; i++) {
		(s->lib->hashx_exec)(s->ctx, s->input++, out);
		s->sink += out[0];
	}
	return bench_now_ns() - t0;
}

/* ---- Equi-X ------------------------------------------------------- */

typedef struct equix_pair {
	const bench_equix_vec *vec;
	const equix_solution *sol;
} equix_pair;

typedef struct equix_state {
	const bench_library *lib;
	equix_ctx *ctx;
	equix_pair *pairs; /* verify/: every recorded solution */
	const bench_equix_vec *challenges[SOLVE_CHALLENGES]; /* solve/ */
	size_t n, next;
	unsigned sink;
} equix_state;

static void equix_teardown(void *state)
{
	equix_state *s = state;

	if (s != NULL) {
		s->lib->equix_free(s->ctx);
		free(s->pairs);
		free(s);
	}
}

static equix_state *equix_state_new(const bench_library *lib,
				    equix_ctx_flags flags)
{
	equix_state *s = calloc(1, sizeof *s);

	if (s == NULL)
		return NULL;
	s->lib = lib;
	if ((s->ctx = lib->equix_alloc(flags)) == NULL) {
		free(s);
		return NULL;
	}
	return s;
}

/* Every recorded solution must verify, and a tampered one must not. */
static bench_status check_verify(equix_state *s, char *msg, size_t size)
{
	char hex[32];

	for (size_t i = 0; i < s->n; i++) {
		const equix_pair *p = &s->pairs[i];
		equix_result r = s->lib->equix_verify(s->ctx, p->vec->challenge,
						      p->vec->len, p->sol);

		if (r != EQUIX_OK) {
			snprintf(msg, size,
				 "challenge %s: a recorded "
				 "solution gave %d, expected EQUIX_OK",
				 bench_hex_short(p->vec->challenge, p->vec->len,
						 hex, sizeof hex),
				 (int)r);
			return BENCH_WRONG;
		}
	}
	equix_solution bad = *s->pairs[0].sol;
	bad.idx[7] ^= 1;
	if (s->lib->equix_verify(s->ctx, s->pairs[0].vec->challenge,
				 s->pairs[0].vec->len, &bad) == EQUIX_OK) {
		snprintf(msg, size, "a tampered solution was accepted");
		return BENCH_WRONG;
	}
	return BENCH_READY;
}

static bench_status verify_setup(const bench_library *lib,
				 const bench_vectors *v, int flags, void **state,
				 char *msg, size_t size)
{
	equix_state *s = equix_state_new(lib, flags);
	bench_status st;

	*state = NULL;
	if (s == NULL || (s->pairs = calloc(v->n_equix * EQUIX_MAX_SOLS,
					    sizeof *s->pairs)) == NULL) {
		snprintf(msg, size, "equix_alloc failed");
		equix_teardown(s);
		return BENCH_ERROR;
	}
	for (size_t i = 0; i < v->n_equix; i++)
		for (unsigned k = 0; v->equix[i].ok && k < v->equix[i].count;
		     k++)
			s->pairs[s->n++] = (equix_pair){&v->equix[i],
							&v->equix[i].sols[k]};
	if (s->n == 0) {
		snprintf(msg, size, "no solutions among the vectors");
		equix_teardown(s);
		return BENCH_ERROR;
	}
	st = check_verify(s, msg, size);
	return bench_setup_finish(s, st, equix_teardown, state);
}

/* verify/: one equix_verify per iteration (it makes the challenge's
 * HashX function, as a service does for every request), cycling over the
 * recorded solutions. */
static double run_verify(void *state, uint64_t iters)
{
	equix_state *s = state;
	double t0 = bench_now_ns();

	for (uint64_t i = 0; i < iters; i++) {
		const equix_pair *p = &s->pairs[s->next];

		s->sink += (unsigned)s->lib->equix_verify(
			s->ctx, p->vec->challenge, p->vec->len, p->sol);
		s->next = (s->next + 1) % s->n;
	}
	return bench_now_ns() - t0;
}

/* The first SOLVE_CHECKS challenges with solutions and the first without
 * a function: the same solutions in the same order, or the same
 * failure. */
static bench_status check_solve(equix_state *s, const bench_vectors *v,
				char *msg, size_t size)
{
	size_t with = 0, without = 0;
	char hex[32];

	for (size_t i = 0; i < v->n_equix; i++) {
		const bench_equix_vec *x = &v->equix[i];
		equix_solutions_buffer b;
		equix_result r;

		if (x->ok ? with++ >= SOLVE_CHECKS : without++ >= 1)
			continue;
		r = s->lib->equix_solve(s->ctx, x->challenge, x->len, &b);
		bench_hex_short(x->challenge, x->len, hex, sizeof hex);
		if (r == EQUIX_FAIL_COMPILE)
			return BENCH_SKIP;
		if (!x->ok && r != EQUIX_FAIL_CHALLENGE) {
			snprintf(msg, size,
				 "challenge %s: equix_solve gave "
				 "%d, expected EQUIX_FAIL_CHALLENGE",
				 hex, (int)r);
			return BENCH_WRONG;
		}
		if (x->ok && (r != EQUIX_OK || b.count != x->count ||
			      memcmp(b.sols, x->sols,
				     x->count * sizeof x->sols[0]) != 0)) {
			snprintf(msg, size,
				 "challenge %s: the solutions "
				 "differ (%u found, %u recorded)",
				 hex, r == EQUIX_OK ? b.count : 0, x->count);
			return BENCH_WRONG;
		}
	}
	return BENCH_READY;
}

static bench_status solve_setup(const bench_library *lib,
				const bench_vectors *v, int flags, void **state,
				char *msg, size_t size)
{
	equix_state *s = equix_state_new(lib, EQUIX_CTX_SOLVE | flags);
	bench_status st;

	*state = NULL;
	if (s == NULL) {
		/* The reference's equix_alloc fails when it cannot
		 * compile. */
		snprintf(msg, size, "%s",
			 flags & EQUIX_CTX_MUST_COMPILE
				 ? "no HashX compiler in this build"
				 : "equix_alloc failed");
		return flags & EQUIX_CTX_MUST_COMPILE ? BENCH_SKIP
						      : BENCH_ERROR;
	}
	for (size_t i = 0; i < v->n_equix && s->n < SOLVE_CHALLENGES; i++)
		if (v->equix[i].ok)
			s->challenges[s->n++] = &v->equix[i];
	st = s->n == 0 ? BENCH_ERROR : check_solve(s, v, msg, size);
	if (st == BENCH_SKIP)
		snprintf(msg, size, "no HashX compiler in this build");
	return bench_setup_finish(s, st, equix_teardown, state);
}

/* solve/: one equix_solve per iteration, cycling over challenges. */
static double run_solve(void *state, uint64_t iters)
{
	equix_state *s = state;
	equix_solutions_buffer b;
	double t0 = bench_now_ns();

	for (uint64_t i = 0; i < iters; i++) {
		const bench_equix_vec *x = s->challenges[s->next];

		if (s->lib->equix_solve(s->ctx, x->challenge, x->len, &b) ==
		    EQUIX_OK)
			s->sink += b.count;
		s->next = (s->next + 1) % s->n;
	}
	return bench_now_ns() - t0;
}

/* ---- The list ----------------------------------------------------- */

static const bench_def equix_defs[] = {
	{"generate/interp", "generate", 0, NULL, 0, hashx_setup,
	 HASHX_TYPE_INTERPRETED, run_generate, hashx_teardown, 0},
	{"generate/compiled", "generate", 0, NULL, 0, hashx_setup,
	 HASHX_TYPE_COMPILED, run_generate, hashx_teardown, 0},
	{"hash/interp", "hash", 1, "hash", 0, hashx_setup,
	 HASHX_TYPE_INTERPRETED, run_hash, hashx_teardown, 0},
	{"hash/compiled", "hash", 1, "hash", 0, hashx_setup,
	 HASHX_TYPE_COMPILED, run_hash, hashx_teardown, 0},
	{"verify/interp", "verify", 1, "verification", 0, verify_setup,
	 EQUIX_CTX_VERIFY, run_verify, equix_teardown, 0},
	{"verify/try-compile", "verify", 1, "verification", 0, verify_setup,
	 EQUIX_CTX_VERIFY | EQUIX_CTX_TRY_COMPILE, run_verify, equix_teardown,
	 0},
	/* One solve takes milliseconds: 100 samples of at least 1, 2, ...,
	 * 100 solves would take minutes, 10 samples fit the target time. */
	{"solve/interp", "solve", 1, "solve", 0, solve_setup, 0, run_solve,
	 equix_teardown, 10},
	{"solve/compiled", "solve", 1, "solve", 0, solve_setup,
	 EQUIX_CTX_MUST_COMPILE, run_solve, equix_teardown, 10},
};

#define N_EQUIX_DEFS (sizeof equix_defs / sizeof equix_defs[0])

bench_status bench_setup_finish(void *s, bench_status st,
				void (*teardown)(void *state), void **state)
{
	*state = NULL;
	if (st != BENCH_READY)
		teardown(s);
	else
		*state = s;
	return st;
}

const bench_def *bench_defs(size_t *n)
{
	static bench_def all[N_EQUIX_DEFS + 8];
	static size_t count;

	if (count == 0) {
		size_t n_pow;
		const bench_def *pow = bench_pow_defs(&n_pow);

		memcpy(all, equix_defs, sizeof equix_defs);
		count = N_EQUIX_DEFS;
		for (size_t i = 0; i < n_pow && count < N_EQUIX_DEFS + 8; i++)
			all[count++] = pow[i];
	}
	*n = count;
	return all;
}

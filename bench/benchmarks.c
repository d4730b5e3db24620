/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * benchmarks.c - the HashX, HashWX, Equi-X and Equi-X v2 benchmarks,
 * and the list of all.
 * Each set-up first runs the operation on the reference vectors and
 * compares the outputs: a library that computes something else is
 * refused, never timed.
 */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchmarks.h"
#include "benchutil.h"
#include "clock.h"

/* Functions cycled over by generate/ and hash/, and challenges by
 * solve/. */
#define HASHX_SEEDS 16
#define SOLVE_CHALLENGES 16
/* Challenges whose solutions are compared before solve/ is timed. */
#define SOLVE_CHECKS 6
#define NO_COMPILER "no HashX compiler in this build"
#define NO_HASHWX_COMPILER "no HashWX compiler in this build"
/* The one an Equi-X context of `flags` lacks. */
#define NO_COMPILER_FOR(flags)                                             \
	((flags) & EQUIX_CTX_V2 ? NO_HASHWX_COMPILER : NO_COMPILER)

/* Hex of the first bytes of `data` for messages ("-" when empty,
 * "..." after 12 bytes). */
static const char *hex_short(const void *data, size_t len, char *buf,
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

bench_status bench_say(bench_status st, char *msg, size_t size,
		       const char *format, ...)
{
	va_list ap;

	va_start(ap, format);
	vsnprintf(msg, size, format, ap);
	va_end(ap);
	return st;
}

/* ---- HashX -------------------------------------------------------- */

typedef struct hashx_state {
	const bench_library *lib;
	hashx_ctx *ctx;
	const bench_hashx_vec *seeds[HASHX_SEEDS];
	size_t n, next;
	uint64_t input;
	unsigned sink;
} hashx_state;

static void hashx_teardown(void *state)
{
	hashx_state *s = state;

	if (s != NULL && s->ctx != NULL)
		s->lib->hashx_free(s->ctx);
	free(s);
}

size_t bench_seeds(const bench_vectors *v, bool hashed,
		   const bench_hashx_vec **out, size_t cap)
{
	size_t n = 0;

	for (size_t i = 0; i < v->n_hashx && n < cap; i++)
		if (v->hashx[i].ok && (!hashed || v->hashx[i].pairs > 0))
			out[n++] = &v->hashx[i];
	return n;
}

/* The bytes this library's HASHX_SIZE gives, at most 32. */
bool bench_hash_matches(const bench_library *lib, const bench_hashx_vec *x,
			int k, const uint8_t *out)
{
	return memcmp(out, x->hash[k], lib->hashx_size) == 0;
}

int bench_function_diff(const bench_library *lib, hashx_ctx *ctx,
			hashx_type type, const bench_hashx_vec *x,
			uint8_t got[32])
{
	hashx_type t;

	if (lib->hashx_query_type(ctx, &t) != HASHX_OK || t != type)
		return BENCH_DIFF_TYPE;
	for (int k = 0; k < x->pairs; k++) {
		memset(got, 0, 32);
		(lib->hashx_exec)(ctx, x->nonce[k], got);
		if (!bench_hash_matches(lib, x, k, got))
			return k;
	}
	return BENCH_DIFF_NONE;
}

/* Makes every vector's function, which must be of the type measured, and
 * compares its hashes. */
static bench_status check_hashx(hashx_state *s, const bench_vectors *v,
				hashx_type want, char *msg, size_t size)
{
	for (size_t i = 0; i < v->n_hashx; i++) {
		const bench_hashx_vec *x = &v->hashx[i];
		hashx_result r = s->lib->hashx_make(s->ctx, x->seed,
						    x->seed_len);
		size_t n = s->lib->hashx_size;
		char hex[32], got[32], rec[32];
		uint8_t out[32];
		int d;

		hex_short(x->seed, x->seed_len, hex, sizeof hex);
		if ((r == HASHX_OK) != x->ok)
			return bench_say(BENCH_WRONG, msg, size,
					 "seed %s: hashx_make gave %d, "
					 "expected %s",
					 hex, (int)r,
					 x->ok ? "HASHX_OK"
					       : "HASHX_FAIL_SEED");
		if (!x->ok)
			continue;
		d = bench_function_diff(s->lib, s->ctx, want, x, out);
		if (d == BENCH_DIFF_TYPE)
			return bench_say(BENCH_WRONG, msg, size,
					 "seed %s: the function is not of "
					 "the type measured (%d)",
					 hex, (int)want);
		if (d != BENCH_DIFF_NONE)
			return bench_say(
				BENCH_WRONG, msg, size,
				"seed %s, input %llx: hash %s, expected %s",
				hex, (unsigned long long)x->nonce[d],
				hex_short(out, n, got, sizeof got),
				hex_short(x->hash[d], n, rec, sizeof rec));
	}
	return BENCH_READY;
}

/* A context of `type`, checked, with the seeds to cycle over. */
static bench_status hashx_setup(const bench_library *lib,
				const bench_vectors *v, int type, void **state,
				char *msg, size_t size)
{
	hashx_state *s;

	*state = NULL;
	if (lib->hashx_alloc == NULL)
		return bench_say(BENCH_SKIP, msg, size,
				 "the reference library exports no "
				 "hashx_* functions");
	if ((*state = s = calloc(1, sizeof *s)) == NULL)
		return BENCH_ERROR;
	s->lib = lib;
	if ((s->ctx = (lib->hashx_alloc)(type)) == NULL)
		return bench_say(BENCH_ERROR, msg, size, "hashx_alloc failed");
	if ((s->n = bench_seeds(v, false, s->seeds, HASHX_SEEDS)) == 0)
		return bench_say(BENCH_ERROR, msg, size,
				 "no valid seed among the vectors");
	/* A compiled context without a compiler: not this build's path. */
	if (lib->hashx_make(s->ctx, s->seeds[0]->seed,
			    s->seeds[0]->seed_len) == HASHX_FAIL_COMPILE)
		return bench_say(BENCH_SKIP, msg, size, NO_COMPILER);
	return check_hashx(s, v, type, msg, size);
}

/* generate/: one hashx_make per iteration (for a compiled context, the
 * compilation included), cycling over the seeds. */
static double run_generate(void *state, uint64_t iters)
{
	hashx_state *s = state;
	double t0 = cli_now_ns();

	for (uint64_t i = 0; i < iters; i++) {
		const bench_hashx_vec *x = s->seeds[s->next];

		s->sink += (unsigned)s->lib->hashx_make(s->ctx, x->seed,
							x->seed_len);
		s->next = (s->next + 1) % s->n;
	}
	return cli_now_ns() - t0;
}

/* hash/: one hashx_exec per iteration, on successive inputs. */
static double run_hash(void *state, uint64_t iters)
{
	hashx_state *s = state;
	uint8_t out[32];
	double t0 = cli_now_ns();

	for (uint64_t i = 0; i < iters; i++) {
		(s->lib->hashx_exec)(s->ctx, s->input++, out);
		s->sink += out[0];
	}
	return cli_now_ns() - t0;
}

/* ---- Equi-X ------------------------------------------------------- */

/* A challenge, and for verify/ one of its recorded solutions. */
typedef struct equix_state {
	const bench_library *lib;
	equix_ctx *ctx;
	bench_equix_pair *pairs; /* cycled over */
	size_t n, next;
	unsigned sink;
} equix_state;

static void equix_teardown(void *state)
{
	equix_state *s = state;

	if (s != NULL && s->ctx != NULL)
		s->lib->equix_free(s->ctx);
	if (s != NULL)
		free(s->pairs);
	free(s);
}

/* A context of `flags` and room for `cap` pairs, in *state; NULL when
 * any of them cannot be allocated. */
static equix_state *equix_state_new(const bench_library *lib, int flags,
				    size_t cap, void **state)
{
	equix_state *s = calloc(1, sizeof *s);

	if ((*state = s) == NULL)
		return NULL;
	s->lib = lib;
	s->ctx = bench_equix_alloc(lib, flags);
	s->pairs = calloc(cap, sizeof *s->pairs);
	return s->ctx != NULL && s->pairs != NULL ? s : NULL;
}

size_t bench_solutions(const bench_vectors *v, bench_equix_pair *out,
		       size_t cap)
{
	size_t n = 0;

	for (size_t i = 0; i < v->n_equix && n < cap; i++)
		for (unsigned k = 0;
		     v->equix[i].ok && k < v->equix[i].count && n < cap; k++)
			out[n++] = (bench_equix_pair){&v->equix[i],
						      &v->equix[i].sols[k]};
	return n;
}

bool bench_tampered_refused(const bench_library *lib, equix_ctx *ctx,
			    const bench_equix_pair *p)
{
	equix_solution bad = *p->sol;

	bad.idx[7] ^= 1;
	return lib->equix_verify(ctx, p->vec->challenge, p->vec->len, &bad) !=
	       EQUIX_OK;
}

bool bench_solve_matches(const bench_equix_vec *x, equix_result r,
			 const equix_solutions_buffer *b)
{
	return x->ok && r == EQUIX_OK && b->count == x->count &&
	       memcmp(b->sols, x->sols, x->count * sizeof x->sols[0]) == 0;
}

/* Every recorded solution must verify, and a tampered one must not. */
static bench_status check_verify(equix_state *s, char *msg, size_t size)
{
	char hex[32];

	for (size_t i = 0; i < s->n; i++) {
		const bench_equix_pair *p = &s->pairs[i];
		equix_result r = s->lib->equix_verify(s->ctx, p->vec->challenge,
						      p->vec->len, p->sol);

		if (r != EQUIX_OK)
			return bench_say(BENCH_WRONG, msg, size,
					 "challenge %s: a recorded solution "
					 "gave %d, expected EQUIX_OK",
					 hex_short(p->vec->challenge,
							 p->vec->len, hex,
							 sizeof hex),
					 (int)r);
	}
	if (!bench_tampered_refused(s->lib, s->ctx, &s->pairs[0]))
		return bench_say(BENCH_WRONG, msg, size,
				 "a tampered solution was accepted");
	return BENCH_READY;
}

/* A library whose v1 is not Tor's (library.h): its v1 rows are skipped. */
static bool no_v1(const bench_library *lib, int flags)
{
	return !(flags & EQUIX_CTX_V2) && lib->no_v1[0] != '\0';
}

static bench_status verify_setup(const bench_library *lib,
				 const bench_vectors *v, int flags, void **state,
				 char *msg, size_t size)
{
	if (no_v1(lib, flags)) {
		*state = NULL;
		return bench_say(BENCH_SKIP, msg, size, "%s", lib->no_v1);
	}
	equix_state *s = equix_state_new(lib, flags,
					 v->n_equix * EQUIX_MAX_SOLS, state);

	if (s == NULL)
		return bench_say(BENCH_ERROR, msg, size, "equix_alloc failed");
	if ((s->n = bench_solutions(v, s->pairs,
				    v->n_equix * EQUIX_MAX_SOLS)) == 0)
		return bench_say(BENCH_ERROR, msg, size,
				 "no solutions among the vectors");
	return check_verify(s, msg, size);
}

/* verify/: one equix_verify per iteration (it makes the challenge's
 * HashX function, as a service does for every request), cycling over the
 * recorded solutions. */
static double run_verify(void *state, uint64_t iters)
{
	equix_state *s = state;
	double t0 = cli_now_ns();

	for (uint64_t i = 0; i < iters; i++) {
		const bench_equix_pair *p = &s->pairs[s->next];

		s->sink += (unsigned)s->lib->equix_verify(
			s->ctx, p->vec->challenge, p->vec->len, p->sol);
		s->next = (s->next + 1) % s->n;
	}
	return cli_now_ns() - t0;
}

/* The first SOLVE_CHECKS challenges with solutions and the first without
 * a function: the same solutions in the same order, or the same
 * failure. */
static bench_status check_solve(equix_state *s, const bench_vectors *v,
				int flags, char *msg, size_t size)
{
	size_t with = 0, without = 0;
	char hex[32];

	for (size_t i = 0; i < v->n_equix; i++) {
		const bench_equix_vec *x = &v->equix[i];
		equix_solutions_buffer b;
		equix_result r;

		if (x->ok ? with++ >= SOLVE_CHECKS : without++ >= 1)
			continue;
		r = bench_equix_solve(s->lib, s->ctx, x->challenge, x->len,
				      &b);
		hex_short(x->challenge, x->len, hex, sizeof hex);
		if (r == EQUIX_FAIL_COMPILE)
			return bench_say(BENCH_SKIP, msg, size,
					 NO_COMPILER_FOR(flags));
		if (!x->ok && r != EQUIX_FAIL_CHALLENGE)
			return bench_say(BENCH_WRONG, msg, size,
					 "challenge %s: equix_solve gave "
					 "%d, expected EQUIX_FAIL_CHALLENGE",
					 hex, (int)r);
		if (x->ok && !bench_solve_matches(x, r, &b))
			return bench_say(BENCH_WRONG, msg, size,
					 "challenge %s: the solutions "
					 "differ (%u found, %u recorded)",
					 hex, r == EQUIX_OK ? b.count : 0,
					 x->count);
	}
	return BENCH_READY;
}

static bench_status solve_setup(const bench_library *lib,
				const bench_vectors *v, int flags, void **state,
				char *msg, size_t size)
{
	if (no_v1(lib, flags)) {
		*state = NULL;
		return bench_say(BENCH_SKIP, msg, size, "%s", lib->no_v1);
	}
	equix_state *s = equix_state_new(lib, EQUIX_CTX_SOLVE | flags,
					 SOLVE_CHALLENGES, state);

	/* The reference's equix_alloc fails when it cannot compile. */
	if (s == NULL && (flags & EQUIX_CTX_MUST_COMPILE))
		return bench_say(BENCH_SKIP, msg, size, NO_COMPILER_FOR(flags));
	if (s == NULL)
		return bench_say(BENCH_ERROR, msg, size, "equix_alloc failed");
	for (size_t i = 0; i < v->n_equix && s->n < SOLVE_CHALLENGES; i++)
		if (v->equix[i].ok)
			s->pairs[s->n++].vec = &v->equix[i];
	return s->n == 0 ? BENCH_ERROR : check_solve(s, v, flags, msg, size);
}

/* solve/: one equix_solve per iteration, cycling over challenges. */
static double run_solve(void *state, uint64_t iters)
{
	equix_state *s = state;
	equix_solutions_buffer b;
	double t0 = cli_now_ns();

	for (uint64_t i = 0; i < iters; i++) {
		const bench_equix_vec *x = s->pairs[s->next].vec;

		if (bench_equix_solve(s->lib, s->ctx, x->challenge, x->len,
				      &b) == EQUIX_OK)
			s->sink += b.count;
		s->next = (s->next + 1) % s->n;
	}
	return cli_now_ns() - t0;
}

/* ---- Equi-X v2 ---------------------------------------------------- */

/* The v2 rows: the v1 set-ups (param has EQUIX_CTX_V2) on the v2 corpus,
 * once the library is known to do v2 (bench_library_probe). */
static bench_status v2_ready(const bench_library *lib, const bench_vectors *v,
			     char *msg, size_t size)
{
	if (lib->equix_v2 == 0)
		return bench_say(BENCH_SKIP, msg, size, "%s", lib->no_v2);
	if (v->n_equixv2 == 0)
		return bench_say(BENCH_SKIP, msg, size,
				 "no equix-v2.txt among the vectors");
	return BENCH_READY;
}

/* The vectors with the v2 challenges where the v1 ones were: each
 * set-up and check then runs unchanged. */
static bench_vectors v2_view(const bench_vectors *v)
{
	bench_vectors w = *v;

	w.equix = v->equixv2;
	w.n_equix = v->n_equixv2;
	return w;
}

static bench_status verify_v2_setup(const bench_library *lib,
				    const bench_vectors *v, int flags,
				    void **state, char *msg, size_t size)
{
	bench_vectors w = v2_view(v);
	bench_status st = v2_ready(lib, v, msg, size);

	*state = NULL;
	return st != BENCH_READY ? st
				 : verify_setup(lib, &w, flags, state, msg, size);
}

/* The pairs point into the vectors, not into the view: it may go. */
static bench_status solve_v2_setup(const bench_library *lib,
				   const bench_vectors *v, int flags,
				   void **state, char *msg, size_t size)
{
	bench_vectors w = v2_view(v);
	bench_status st = v2_ready(lib, v, msg, size);

	*state = NULL;
	return st != BENCH_READY ? st
				 : solve_setup(lib, &w, flags, state, msg, size);
}

/* ---- HashWX ------------------------------------------------------- */

/* Seeds cycled over by hashwx-generate/. */
#define HASHWX_SEEDS 16

typedef struct hashwx_state {
	const bench_library *lib;
	hashwx_ctx *ctx;
	const bench_hashwx_vec *seeds;
	size_t n, next;
	uint64_t input, sink;
} hashwx_state;

static void hashwx_teardown(void *state)
{
	hashwx_state *s = state;

	if (s != NULL && s->ctx != NULL && s->ctx != HASHWX_NOTSUPP)
		s->lib->hashwx_free(s->ctx);
	free(s);
}

/* Every recorded seed's function must give every recorded hash. */
static bench_status check_hashwx(hashwx_state *s, const bench_vectors *v,
				 char *msg, size_t size)
{
	char hex[32];

	for (size_t i = 0; i < v->n_hashwx; i++) {
		const bench_hashwx_vec *x = &v->hashwx[i];

		s->lib->hashwx_make(s->ctx, x->seed);
		for (int k = 0; k < x->pairs; k++) {
			uint64_t h = s->lib->hashwx_exec(s->ctx, x->nonce[k]);

			if (h != x->hash[k])
				return bench_say(
					BENCH_WRONG, msg, size,
					"seed %s, input %llx: hash %016llx, "
					"expected %016llx",
					hex_short(x->seed, sizeof x->seed, hex,
						  sizeof hex),
					(unsigned long long)x->nonce[k],
					(unsigned long long)h,
					(unsigned long long)x->hash[k]);
		}
	}
	return BENCH_READY;
}

/* A context of `type` (HASHWX_INTERPRETED or HASHWX_COMPILED, the same
 * numbers in tevador's hashwx.h), checked against the corpus. */
static bench_status hashwx_setup(const bench_library *lib,
				 const bench_vectors *v, int type,
				 void **state, char *msg, size_t size)
{
	hashwx_state *s;

	*state = NULL;
	if (lib->hashwx_alloc == NULL)
		return bench_say(BENCH_SKIP, msg, size,
				 "no reference HashWX (--reference-hashwx "
				 "names his libhashwx.so)");
	if (v->n_hashwx == 0)
		return bench_say(BENCH_SKIP, msg, size,
				 "no hashwx-v2.txt among the vectors");
	if ((*state = s = calloc(1, sizeof *s)) == NULL)
		return BENCH_ERROR;
	s->lib = lib;
	s->seeds = v->hashwx;
	s->n = v->n_hashwx < HASHWX_SEEDS ? v->n_hashwx : HASHWX_SEEDS;
	s->ctx = lib->hashwx_alloc((hashwx_type)type);
	if (s->ctx == HASHWX_NOTSUPP)
		return bench_say(BENCH_SKIP, msg, size, NO_HASHWX_COMPILER);
	if (s->ctx == NULL)
		return bench_say(BENCH_ERROR, msg, size,
				 "hashwx_alloc failed");
	return check_hashwx(s, v, msg, size);
}

/* hashwx-generate/: one hashwx_make per iteration (compiling it, for a
 * compiled context), cycling over the seeds. */
static double run_hashwx_generate(void *state, uint64_t iters)
{
	hashwx_state *s = state;
	double t0 = cli_now_ns();

	for (uint64_t i = 0; i < iters; i++) {
		s->lib->hashwx_make(s->ctx, s->seeds[s->next].seed);
		s->next = (s->next + 1) % s->n;
	}
	return cli_now_ns() - t0;
}

/* hashwx-hash/: one hashwx_exec per iteration, on successive inputs. */
static double run_hashwx_hash(void *state, uint64_t iters)
{
	hashwx_state *s = state;
	double t0 = cli_now_ns();

	for (uint64_t i = 0; i < iters; i++)
		s->sink += s->lib->hashwx_exec(s->ctx, s->input++);
	return cli_now_ns() - t0;
}

/* ---- The list ----------------------------------------------------- */

const bench_def bench_defs[] = {
	{"generate/interp", "generate", NULL, false, hashx_setup,
	 HASHX_TYPE_INTERPRETED, run_generate, hashx_teardown, 0},
	{"generate/compiled", "generate", NULL, false, hashx_setup,
	 HASHX_TYPE_COMPILED, run_generate, hashx_teardown, 0},
	{"hash/interp", "hash", "hash", false, hashx_setup,
	 HASHX_TYPE_INTERPRETED, run_hash, hashx_teardown, 0},
	{"hash/compiled", "hash", "hash", false, hashx_setup,
	 HASHX_TYPE_COMPILED, run_hash, hashx_teardown, 0},
	{"verify/interp", "verify", "verification", false, verify_setup,
	 EQUIX_CTX_VERIFY, run_verify, equix_teardown, 0},
	{"verify/try-compile", "verify", "verification", false, verify_setup,
	 EQUIX_CTX_VERIFY | EQUIX_CTX_TRY_COMPILE, run_verify, equix_teardown,
	 0},
	/* One solve takes milliseconds: 100 samples of at least 1, 2, ...,
	 * 100 solves would take minutes, 10 samples fit the target time. */
	{"solve/interp", "solve", "solve", false, solve_setup, 0, run_solve,
	 equix_teardown, 10},
	{"solve/compiled", "solve", "solve", false, solve_setup,
	 EQUIX_CTX_MUST_COMPILE, run_solve, equix_teardown, 10},
	{"pow/effort-check", "pow", "check", true, bench_pow_setup,
	 POW_EFFORT, bench_pow_effort, bench_pow_free, 0},
	{"pow/verify", "pow", "verification", true, bench_pow_setup,
	 POW_SERVICE, bench_pow_verify, bench_pow_free, 0},
	/* Issue 46: HashWX and Equi-X v2, after every older row, whose order
	 * (and --list) stays as it was. */
	{"hashwx-generate/interp", "hashwx-generate", NULL, false,
	 hashwx_setup, HASHWX_INTERPRETED, run_hashwx_generate,
	 hashwx_teardown, 0},
	{"hashwx-generate/compiled", "hashwx-generate", NULL, false,
	 hashwx_setup, HASHWX_COMPILED, run_hashwx_generate, hashwx_teardown,
	 0},
	{"hashwx-hash/interp", "hashwx-hash", "hash", false, hashwx_setup,
	 HASHWX_INTERPRETED, run_hashwx_hash, hashwx_teardown, 0},
	{"hashwx-hash/compiled", "hashwx-hash", "hash", false, hashwx_setup,
	 HASHWX_COMPILED, run_hashwx_hash, hashwx_teardown, 0},
	{"verify-v2/interp", "verify-v2", "verification", false,
	 verify_v2_setup, EQUIX_CTX_V2, run_verify, equix_teardown, 0},
	{"verify-v2/try-compile", "verify-v2", "verification", false,
	 verify_v2_setup, EQUIX_CTX_V2 | EQUIX_CTX_TRY_COMPILE, run_verify,
	 equix_teardown, 0},
	{"solve-v2/interp", "solve-v2", "solve", false, solve_v2_setup,
	 EQUIX_CTX_V2, run_solve, equix_teardown, 10},
	{"solve-v2/compiled", "solve-v2", "solve", false, solve_v2_setup,
	 EQUIX_CTX_V2 | EQUIX_CTX_MUST_COMPILE, run_solve, equix_teardown, 10},
};

const size_t n_bench_defs = sizeof bench_defs / sizeof bench_defs[0];

const bench_def *bench_def_find(const char *name)
{
	for (size_t i = 0; i < n_bench_defs; i++)
		if (strcmp(bench_defs[i].name, name) == 0)
			return &bench_defs[i];
	return NULL;
}

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * solve.c - the client's search for a proof, as Tor's client does it:
 * nonces in increasing little-endian order from the start nonce; for each,
 * the Equi-X solutions in the solver's order; the first one that passes
 * the effort check wins.
 *
 * With several threads the nonces are handed out in that same order from
 * one counter (an offset from the start nonce). A thread that finds a
 * proof records its offset if it is the lowest so far; no offset above the
 * lowest winner is handed out afterwards, while the lower ones in flight
 * finish. Every offset below the winner has then been tried, so the
 * result is exactly the single-threaded one.
 *
 * Short of memory or threads, the search goes on with whoever could start.
 * A worker first gets its context (about 1.5 MiB) and only then takes
 * offsets; one that cannot get it drops out before taking any, and a
 * thread that cannot be started takes none either. The offsets come from
 * the one counter, so the workers that run take all of them between them
 * and a dropout leaves no hole: the proof is still the single-threaded
 * one, only found more slowly. The calling thread gets its context before
 * any thread is started, so where one thread would find the proof, more
 * threads do too. Only when no worker at all got its context does the
 * search fail, with EQUIX_POW_FAIL_NO_MEMORY.
 */
#include <config.h>

#include <stdbool.h>
#include <math.h>
#include <stddef.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "equix_pow.h"
#include "solve_compat.h"
#include "v1_flags.h"

#define NO_WINNER UINT64_MAX

/*
 * The options' layouts (doc/abi.md, "Growing structs"). The first release
 * had no struct_size: its programs call the symbols equix_pow_solve and
 * equix_pow_solve_options_init with that layout (solve_compat.h), and keep
 * working through the two functions at the end of this file. Every later
 * program passes its struct through the _sized functions, with
 * struct_size first; fields are only ever added at the end, so a size
 * tells which fields the caller knows.
 */
/* The size of the first sized layout (this release's): the least a
 * sized caller can pass. Written from the fields, not as sizeof, so that
 * it stays the same when fields are appended. */
#define SIZED_OPTIONS_MIN \
	(offsetof(equix_pow_solve_options, progress_user) + sizeof(void *))

typedef struct search {
	/* Read-only while the workers run. */
	const equix_pow_solve_options *options;
	uint8_t id[EQUIX_POW_ID_LEN];
	uint8_t seed[EQUIX_POW_SEED_LEN];
	uint8_t start_nonce[EQUIX_POW_NONCE_LEN];
	uint32_t effort;
	double started;
	/* Shared, under `lock`. */
	pthread_mutex_t lock;
	uint64_t next_offset;
	uint64_t tried;
	uint64_t winner; /* lowest winning offset, or NO_WINNER */
	uint8_t winning_solution[EQUIX_POW_SOLUTION_LEN];
	equix_pow_result stop; /* EQUIX_POW_OK while the search goes on */
	unsigned running; /* workers that got their context */
	/* The lowest offset whose solve failed, and why: a proof above it is
	 * not the single-threaded result (one thread would have stopped
	 * there). */
	uint64_t failed_at;
	equix_pow_result failure;
} search;

static double seconds_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* This release's defaults, in a struct of this release's size. */
static void defaults_init(equix_pow_solve_options *o)
{
	memset(o, 0, sizeof *o);
	o->struct_size = sizeof *o;
	o->threads = 1;
	o->ctx_flags = EQUIX_CTX_TRY_COMPILE;
}

void equix_pow_solve_options_init_sized(equix_pow_solve_options *options,
					size_t size)
{
	equix_pow_solve_options d;

	if (options == NULL || size < SIZED_OPTIONS_MIN)
		return;
	/* A caller built against a newer header may have fields this
	 * library does not know: zero is their default, by the rule that a
	 * new field's zero keeps the old behaviour. A caller's struct from
	 * an older header is shorter than ours: it gets the fields it has. */
	defaults_init(&d);
	if (size > sizeof d) {
		memset((unsigned char *)options + sizeof d, 0, size - sizeof d);
		memcpy(options, &d, sizeof d);
	} else {
		memcpy(options, &d, size);
	}
	options->struct_size = size;
}

/*
 * The caller's options as a struct of this release's layout: the fields
 * its struct_size covers, the defaults for the rest. 0 on a size that no
 * release has, or on a field set that this library does not know.
 */
static int options_from_caller(const equix_pow_solve_options *in,
			       equix_pow_solve_options *out)
{
	size_t size = in->struct_size;

	defaults_init(out);
	if (size == 0) /* zeroed by hand, then filled: this release's fields */
		size = SIZED_OPTIONS_MIN;
	if (size < SIZED_OPTIONS_MIN)
		return 0;
	if (size > sizeof *out) {
		const unsigned char *extra = (const unsigned char *)in;
		for (size_t i = sizeof *out; i < size; i++)
			if (extra[i] != 0)
				return 0;
		size = sizeof *out;
	}
	memcpy(out, in, size);
	out->struct_size = sizeof *out;
	return 1;
}

/* The next offset to try, or NO_WINNER when this worker should stop. */
static uint64_t take_offset(search *s)
{
	uint64_t offset = NO_WINNER;
	uint64_t limit = s->options->max_attempts;
	pthread_mutex_lock(&s->lock);
	if (s->stop == EQUIX_POW_OK && s->next_offset < s->winner &&
	    (limit == 0 || s->next_offset < limit))
		offset = s->next_offset++;
	pthread_mutex_unlock(&s->lock);
	return offset;
}

static void fail_at(search *s, uint64_t offset, equix_pow_result why)
{
	pthread_mutex_lock(&s->lock);
	if (offset < s->failed_at) {
		s->failed_at = offset;
		s->failure = why;
	}
	if (s->stop == EQUIX_POW_OK)
		s->stop = why;
	pthread_mutex_unlock(&s->lock);
}

static void set_stop(search *s, equix_pow_result why)
{
	pthread_mutex_lock(&s->lock);
	if (s->stop == EQUIX_POW_OK)
		s->stop = why;
	pthread_mutex_unlock(&s->lock);
}

/* Tries one nonce: 1 with `proof_bytes` set when a solution passes the
 * effort check, 0 when none does, -1 with `*error` on a hard failure. */
static int try_nonce(search *s, equix_ctx *ctx, uint64_t offset,
		     uint8_t *proof_bytes, equix_pow_result *error)
{
	uint8_t nonce[EQUIX_POW_NONCE_LEN], challenge[EQUIX_POW_CHALLENGE_LEN];
	equix_solutions_buffer found;

	memcpy(nonce, s->start_nonce, sizeof nonce);
	equix_pow_nonce_add(nonce, offset);
	equix_pow_challenge_build(challenge, s->id, s->seed, nonce, s->effort);
	switch (equix_solve(ctx, challenge, sizeof challenge, &found)) {
	case EQUIX_OK:
		break;
	case EQUIX_FAIL_CHALLENGE:
		return 0; /* this nonce's HashX program was rejected: next one
			   */
	case EQUIX_FAIL_COMPILE:
		*error = EQUIX_POW_FAIL_COMPILE;
		return -1;
	default:
		*error = EQUIX_POW_FAIL_INTERNAL;
		return -1;
	}
	for (unsigned i = 0; i < found.count; i++) {
		equix_solution_pack(&found.sols[i], proof_bytes);
		if (equix_pow_effort_check(challenge, proof_bytes, s->effort))
			return 1;
	}
	return 0;
}

static void record(search *s, uint64_t offset, int won,
		   const uint8_t *proof_bytes)
{
	pthread_mutex_lock(&s->lock);
	s->tried++;
	if (won && offset < s->winner) {
		s->winner = offset;
		memcpy(s->winning_solution, proof_bytes,
		       EQUIX_POW_SOLUTION_LEN);
	}
	pthread_mutex_unlock(&s->lock);
}

static bool cancel_requested(const search *s)
{
	/* The public flag is a plain volatile int (what a signal handler
	 * can set), not an _Atomic object, so <stdatomic.h>'s loads do not
	 * apply: the compiler's atomic builtin reads it without a data race
	 * between the threads that poll it. */
	const volatile int *flag = s->options->cancel;

	return flag != NULL && __atomic_load_n(flag, __ATOMIC_RELAXED) != 0;
}

/* After each nonce: the caller's thread reports progress, and any thread
 * may notice the cancel flag or the clock. */
static void after_nonce(search *s, int is_caller)
{
	const equix_pow_solve_options *o = s->options;
	double elapsed = seconds_now() - s->started;
	if (is_caller && o->progress != NULL) {
		pthread_mutex_lock(&s->lock);
		uint64_t tried = s->tried;
		pthread_mutex_unlock(&s->lock);
		o->progress(o->progress_user, tried, elapsed);
	}
	if (cancel_requested(s))
		set_stop(s, EQUIX_POW_FAIL_CANCELLED);
	else if (o->max_seconds > 0 && elapsed >= o->max_seconds)
		set_stop(s, EQUIX_POW_FAIL_LIMIT);
}

/* A worker's context, counted in `running`; NULL (out of memory) drops
 * the worker out, leaving the search to the others. */
static equix_ctx *join_search(search *s)
{
	equix_ctx *ctx = equix_alloc((equix_ctx_flags)(
		(s->options->ctx_flags & EQUIX_POW_V1_FLAGS) | EQUIX_CTX_SOLVE));

	if (ctx != NULL) {
		pthread_mutex_lock(&s->lock);
		s->running++;
		pthread_mutex_unlock(&s->lock);
	}
	return ctx;
}

/* Searches on `ctx` (freed at the end) until no offset is left. NULL:
 * the worker has no context and drops out before taking any offset, so
 * the others take them all. */
static void work(search *s, equix_ctx *ctx, int is_caller)
{
	uint8_t proof_bytes[EQUIX_POW_SOLUTION_LEN];
	equix_pow_result error = EQUIX_POW_OK;

	if (ctx == NULL)
		return;
	for (uint64_t offset; (offset = take_offset(s)) != NO_WINNER;) {
		int won = try_nonce(s, ctx, offset, proof_bytes, &error);
		if (won < 0) {
			fail_at(s, offset, error);
			break;
		}
		record(s, offset, won, proof_bytes);
		after_nonce(s, is_caller);
	}
	equix_free(ctx);
}

static void *worker_thread(void *arg)
{
	work(arg, join_search(arg), 0);
	return NULL;
}

/*
 * Runs the search on the calling thread and threads - 1 more. The calling
 * thread gets its context first, before any other thread takes memory
 * (its stack, its context): when memory is short, it is then as well off
 * as a search on one thread, so more threads never turn a success into a
 * failure. A thread that cannot be started (nor the array of their
 * handles allocated) only makes the search slower.
 */
static void run_workers(search *s, unsigned threads)
{
	equix_ctx *mine = join_search(s);
	pthread_t *extra = NULL;
	unsigned started = 0;

	if (threads > 1)
		extra = calloc(threads - 1, sizeof *extra);
	for (unsigned i = 0; extra != NULL && i < threads - 1; i++) {
		if (pthread_create(&extra[i], NULL, worker_thread, s) != 0)
			break;
		started++;
	}
	work(s, mine, 1);
	for (unsigned i = 0; i < started; i++)
		pthread_join(extra[i], NULL);
	free(extra);
}

static bool options_valid(const equix_pow_solve_options *o)
{
	return o->threads <= EQUIX_POW_MAX_THREADS && !isnan(o->max_seconds) &&
	       o->max_seconds >= 0;
}

/* The search, with options of this release's layout (never NULL). */
static equix_pow_result solve(const uint8_t id[EQUIX_POW_ID_LEN],
			      const uint8_t seed[EQUIX_POW_SEED_LEN],
			      uint32_t effort,
			      const uint8_t start_nonce[EQUIX_POW_NONCE_LEN],
			      const equix_pow_solve_options *options,
			      equix_pow_solution *proof, uint64_t *attempts)
{
	search s;

	if (id == NULL || seed == NULL || proof == NULL ||
	    !options_valid(options))
		return EQUIX_POW_FAIL_ARGUMENT;
	if (sodium_init() < 0)
		return EQUIX_POW_FAIL_INTERNAL;
	memset(&s, 0, sizeof s);
	s.options = options;
	memcpy(s.id, id, sizeof s.id);
	memcpy(s.seed, seed, sizeof s.seed);
	if (start_nonce != NULL)
		memcpy(s.start_nonce, start_nonce, sizeof s.start_nonce);
	else
		randombytes_buf(s.start_nonce, sizeof s.start_nonce);
	s.effort = effort;
	s.winner = NO_WINNER;
	s.failed_at = NO_WINNER;
	s.started = seconds_now();
	pthread_mutex_init(&s.lock, NULL);
	/* A flag raised before the call stops the search before any work. */
	if (cancel_requested(&s))
		s.stop = EQUIX_POW_FAIL_CANCELLED;

	run_workers(&s, options->threads);
	pthread_mutex_destroy(&s.lock);

	/* Nobody could search (a cancel before the call still says so). */
	if (s.running == 0 && s.stop == EQUIX_POW_OK) {
		if (attempts != NULL)
			*attempts = 0;
		return EQUIX_POW_FAIL_NO_MEMORY;
	}
	if (s.failed_at < s.winner) {
		if (attempts != NULL)
			*attempts = s.tried;
		return s.failure;
	}
	if (s.winner == NO_WINNER) {
		if (attempts != NULL)
			*attempts = s.tried;
		return s.stop != EQUIX_POW_OK ? s.stop : EQUIX_POW_FAIL_LIMIT;
	}
	memcpy(proof->nonce, s.start_nonce, EQUIX_POW_NONCE_LEN);
	equix_pow_nonce_add(proof->nonce, s.winner);
	proof->effort = effort;
	memcpy(proof->seed_head, seed, EQUIX_POW_SEED_HEAD_LEN);
	memcpy(proof->solution, s.winning_solution, EQUIX_POW_SOLUTION_LEN);
	if (attempts != NULL)
		*attempts = s.winner + 1;
	return EQUIX_POW_OK;
}

equix_pow_result equix_pow_solve_sized(
	const uint8_t id[EQUIX_POW_ID_LEN],
	const uint8_t seed[EQUIX_POW_SEED_LEN], uint32_t effort,
	const uint8_t start_nonce[EQUIX_POW_NONCE_LEN],
	const equix_pow_solve_options *options, equix_pow_solution *proof,
	uint64_t *attempts)
{
	equix_pow_solve_options o;

	if (options == NULL)
		defaults_init(&o);
	else if (!options_from_caller(options, &o))
		return EQUIX_POW_FAIL_ARGUMENT;
	return solve(id, seed, effort, start_nonce, &o, proof, attempts);
}

/* The first release's two symbols, for the programs built against it:
 * their names are the header's macros, undefined by solve_compat.h. */
void equix_pow_solve_options_init(equix_pow_solve_options_v1 *o)
{
	if (o == NULL)
		return;
	memset(o, 0, sizeof *o);
	o->threads = 1;
	o->ctx_flags = EQUIX_CTX_TRY_COMPILE;
}

equix_pow_result equix_pow_solve(const uint8_t id[EQUIX_POW_ID_LEN],
				 const uint8_t seed[EQUIX_POW_SEED_LEN],
				 uint32_t effort,
				 const uint8_t start_nonce[EQUIX_POW_NONCE_LEN],
				 const equix_pow_solve_options_v1 *options,
				 equix_pow_solution *proof, uint64_t *attempts)
{
	equix_pow_solve_options o;

	defaults_init(&o);
	if (options != NULL) {
		o.threads = options->threads;
		o.ctx_flags = options->ctx_flags;
		o.max_attempts = options->max_attempts;
		o.max_seconds = options->max_seconds;
		o.cancel = options->cancel;
		o.progress = options->progress;
		o.progress_user = options->progress_user;
	}
	return solve(id, seed, effort, start_nonce, &o, proof, attempts);
}

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_concurrency.c - many threads at once on the public API, as a busy
 * service or a multi-threaded client uses it:
 *
 *   - the first use of the once-per-process implementation choice, from
 *     every thread at once in a fresh process;
 *   - solving and verifying, each thread on its own equix_ctx (compiled,
 *     interpreted, try-compile), each on distinct challenges;
 *   - hashing, each thread on its own hashx_ctx;
 *   - one equix_pow_service shared by every thread: the same proof sent
 *     from several threads at once is accepted exactly once, a proof that
 *     fails gives its reservation back, and meanwhile another thread
 *     rotates the seed and reads the replay cache's figures;
 *   - the same service while one thread rotates among three seeds (swaps,
 *     retirements, refused returns) and the others replay every proof:
 *     none is ever accepted twice;
 *   - a full cache evicting while forged proofs hold reservations: no
 *     evicted proof is accepted again when a reservation is given back.
 *
 * Every output is compared with the same work done by one thread. Under
 * ThreadSanitizer (scripts/test.sh --tsan) the run also shows that these
 * paths have no data race. EQUIX_TEST_THREADS sets the thread count
 * (default 8).
 */
#include <config.h>

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <equix.h>
#include <equix_pow.h>
#include <hashx.h>

#include "compiler.h"
#include "context.h"
#include "service_model.h"
#include "testutil.h"

#define DEFAULT_THREADS 8
#define MAX_THREADS 64

/* ---- Threads ------------------------------------------------------------ */

/* The number of worker threads: EQUIX_TEST_THREADS, or the default. */
static unsigned thread_count(void)
{
	const char *env = getenv("EQUIX_TEST_THREADS");
	char *end;
	unsigned long n;

	if (env == NULL || *env == '\0')
		return DEFAULT_THREADS;
	n = strtoul(env, &end, 10);
	ck_assert_msg(*end == '\0' && n >= 2 && n <= MAX_THREADS,
		      "EQUIX_TEST_THREADS must be 2 to %d, not '%s'",
		      MAX_THREADS, env);
	return (unsigned)n;
}

typedef void *worker_fn(void *);

/* Runs `fn` on `n` threads, the i-th given first + i * size, and waits for
 * all of them. Workers record what they saw; the main thread asserts. */
static void run_workers(unsigned n, worker_fn *fn, void *first, size_t size)
{
	pthread_t th[MAX_THREADS + 1];
	char *arg = first;

	ck_assert_uint_le(n, MAX_THREADS + 1);
	for (unsigned i = 0; i < n; i++)
		ck_assert_int_eq(pthread_create(&th[i], NULL, fn,
						arg + (size_t)i * size),
				 0);
	for (unsigned i = 0; i < n; i++)
		ck_assert_int_eq(pthread_join(th[i], NULL), 0);
}

/*
 * A barrier that releases its threads as close together as it can: they
 * poll a generation counter (yielding, since threads outnumber cores)
 * instead of sleeping in the kernel, so the threads that are on a core
 * when the last one arrives leave within a microsecond or so of each
 * other, and meet inside the library's short critical windows.
 */
typedef struct spin_barrier {
	atomic_uint arrived, generation;
	unsigned count;
} spin_barrier;

static void spin_barrier_init(spin_barrier *b, unsigned count)
{
	atomic_init(&b->arrived, 0);
	atomic_init(&b->generation, 0);
	b->count = count;
}

static void spin_barrier_wait(spin_barrier *b)
{
	unsigned generation = atomic_load(&b->generation);

	if (atomic_fetch_add(&b->arrived, 1) + 1 == b->count) {
		atomic_store(&b->arrived, 0);
		atomic_fetch_add(&b->generation, 1);
		return;
	}
	while (atomic_load(&b->generation) == generation)
		sched_yield();
}

/* ---- How each thread runs HashX ------------------------------------------ */

/* A mix of the three ways, by thread index. Where this build has no
 * compiler, "must compile" would only fail, so it tries instead. */
enum mode { TRY_COMPILE, INTERPRETED, MUST_COMPILE, MODES };

static enum mode mode_of(unsigned index)
{
	enum mode m = (enum mode)(index % MODES);

	return m == MUST_COMPILE && !HASHX_HAVE_COMPILER ? TRY_COMPILE : m;
}

static equix_ctx_flags equix_flags(enum mode m, equix_ctx_flags base)
{
	switch (m) {
	case INTERPRETED:
		return base;
	case MUST_COMPILE:
		return (equix_ctx_flags)(base | EQUIX_CTX_MUST_COMPILE);
	default:
		return (equix_ctx_flags)(base | EQUIX_CTX_TRY_COMPILE);
	}
}

static hashx_type hashx_type_of(enum mode m)
{
	switch (m) {
	case INTERPRETED:
		return HASHX_TYPE_INTERPRETED;
	case MUST_COMPILE:
		return HASHX_TYPE_COMPILED;
	default:
		return HASHX_TRY_COMPILE;
	}
}

/* The solver's "used the compiler" flag a thread of mode `m` must report,
 * given the one-thread reference's (made with EQUIX_CTX_TRY_COMPILE). */
static int want_compiled_flag(enum mode m, int reference)
{
	if (m == INTERPRETED)
		return 0;
	return m == MUST_COMPILE ? 1 : reference;
}

/* ---- Equi-X: what one thread gets ---------------------------------------- */

typedef struct solve_case {
	char challenge[32];
	size_t len;
	equix_result result; /* from one thread, beforehand */
	equix_solutions_buffer sols;
} solve_case;

static int compiled_flag(const equix_solutions_buffer *b)
{
	return (b->flags & EQUIX_SOLVER_DID_USE_COMPILER) != 0;
}

static int same_solutions(const equix_solutions_buffer *a,
			  const equix_solutions_buffer *b)
{
	return a->count == b->count &&
	       memcmp(a->sols, b->sols, a->count * sizeof a->sols[0]) == 0;
}

/* Fills `c` with challenge `name`, number `n`, and solves it on `ctx`
 * (EQUIX_CTX_TRY_COMPILE), on this thread alone. */
static void solve_reference(equix_ctx *ctx, solve_case *c, const char *name,
			    unsigned n)
{
	c->len = (size_t)snprintf(c->challenge, sizeof c->challenge, "%s %u",
				  name, n);
	c->result = equix_solve(ctx, c->challenge, c->len, &c->sols);
	ck_assert(c->result == EQUIX_OK || c->result == EQUIX_FAIL_CHALLENGE);
}

/* Solves `c` on `ctx` and verifies what it finds; returns the number of
 * disagreements with the reference (0 or 1). */
static unsigned solve_and_check(equix_ctx *ctx, enum mode m,
				const solve_case *c)
{
	equix_solutions_buffer got;
	equix_result r = equix_solve(ctx, c->challenge, c->len, &got);

	if (r != c->result)
		return 1;
	if (r != EQUIX_OK)
		return 0;
	if (!same_solutions(&got, &c->sols) ||
	    compiled_flag(&got) !=
		    want_compiled_flag(m, compiled_flag(&c->sols)))
		return 1;
	for (unsigned s = 0; s < got.count; s++)
		if (equix_verify(ctx, c->challenge, c->len, &got.sols[s]) !=
		    EQUIX_OK)
			return 1;
	return 0;
}

/* ---- The first use of the implementation choice -------------------------- */

#define FIRST_USE_INPUTS 16
static const char first_use_seed[] = "first use";

typedef struct first_use_job {
	unsigned index;
	spin_barrier *start;
	hashx_impl impl; /* the hashx_ctx's batch implementation */
	hashx_result made;
	uint8_t hashes[FIRST_USE_INPUTS][HASHX_SIZE];
	equix_result solved;
	equix_solutions_buffer sols;
	int failed; /* an allocation or hashx_exec failed */
} first_use_job;

static void first_use_hash(first_use_job *j, enum mode m)
{
	hashx_ctx *ctx = hashx_alloc(hashx_type_of(m));

	if (ctx == NULL) {
		j->failed = 1;
		return;
	}
	j->impl = ctx->impl;
	j->made = hashx_make(ctx, first_use_seed, sizeof first_use_seed - 1);
	for (unsigned i = 0; j->made == HASHX_OK && i < FIRST_USE_INPUTS; i++)
		if (hashx_exec(ctx, i, j->hashes[i]) != HASHX_OK)
			j->failed = 1;
	hashx_free(ctx);
}

static void first_use_solve(first_use_job *j, enum mode m)
{
	equix_ctx *ctx = equix_alloc(equix_flags(m, EQUIX_CTX_SOLVE));

	if (ctx == NULL) {
		j->failed = 1;
		return;
	}
	j->solved = equix_solve(ctx, first_use_seed, sizeof first_use_seed - 1,
				&j->sols);
	equix_free(ctx);
}

/* Every thread waits, then makes its first contexts at once: libhashx's
 * and libequix's copies of the choice are both made here for the first
 * time in this process. */
static void *first_use_worker(void *arg)
{
	first_use_job *j = arg;
	enum mode m = mode_of(j->index);

	spin_barrier_wait(j->start);
	if (j->index % 2 == 0) {
		first_use_hash(j, m);
		first_use_solve(j, m);
	} else {
		first_use_solve(j, m);
		first_use_hash(j, m);
	}
	return NULL;
}

static void check_first_use(const first_use_job *j, const first_use_job *ref)
{
	enum mode m = mode_of(j->index);

	ck_assert_int_eq(j->failed, 0);
	ck_assert_int_eq(j->impl, hashx_impl_default());
	ck_assert_int_eq(j->made, ref->made);
	if (j->made == HASHX_OK)
		ck_assert_mem_eq(j->hashes, ref->hashes, sizeof j->hashes);
	ck_assert_int_eq(j->solved, ref->solved);
	if (j->solved != EQUIX_OK)
		return;
	ck_assert(same_solutions(&j->sols, &ref->sols));
	ck_assert_int_eq(compiled_flag(&j->sols),
			 want_compiled_flag(m, compiled_flag(&ref->sols)));
}

/* The first test of the program (and, in Check's fork mode, the first
 * thing its process does with the libraries): nothing has chosen the
 * implementation yet when the threads start. */
START_TEST(first_use)
{
	unsigned n = thread_count();
	first_use_job jobs[MAX_THREADS], ref = {.index = 0};
	spin_barrier start;

	memset(jobs, 0, sizeof jobs);
	spin_barrier_init(&start, n);
	for (unsigned i = 0; i < n; i++) {
		jobs[i].index = i;
		jobs[i].start = &start;
	}
	run_workers(n, first_use_worker, jobs, sizeof jobs[0]);
	/* the same work on this thread, now */
	first_use_hash(&ref, TRY_COMPILE);
	first_use_solve(&ref, TRY_COMPILE);
	ck_assert_int_eq(ref.failed, 0);
	ck_assert_int_eq(ref.made, HASHX_OK);
	for (unsigned i = 0; i < n; i++)
		check_first_use(&jobs[i], &ref);
}
END_TEST

/* ---- Solving and verifying, one context per thread ----------------------- */

#define SOLVES_PER_THREAD 3

typedef struct solver_job {
	unsigned index, threads;
	const solve_case *cases; /* threads * SOLVES_PER_THREAD */
	spin_barrier *start;
	unsigned mismatches;
	int alloc_failed;
} solver_job;

/* Thread i takes cases i, i + threads, ...: distinct challenges. */
static void *solver_worker(void *arg)
{
	solver_job *j = arg;
	enum mode m = mode_of(j->index);
	equix_ctx *ctx = equix_alloc(equix_flags(m, EQUIX_CTX_SOLVE));

	spin_barrier_wait(j->start);
	if (ctx == NULL) {
		j->alloc_failed = 1;
		return NULL;
	}
	for (unsigned k = 0; k < SOLVES_PER_THREAD; k++)
		j->mismatches += solve_and_check(
			ctx, m, &j->cases[k * j->threads + j->index]);
	equix_free(ctx);
	return NULL;
}

START_TEST(solve_and_verify)
{
	unsigned n = thread_count();
	static solve_case cases[MAX_THREADS * SOLVES_PER_THREAD];
	solver_job jobs[MAX_THREADS];
	spin_barrier start;
	unsigned solutions = 0;
	equix_ctx *ctx = equix_alloc(EQUIX_CTX_SOLVE | EQUIX_CTX_TRY_COMPILE);

	ck_assert_ptr_nonnull(ctx);
	for (unsigned c = 0; c < n * SOLVES_PER_THREAD; c++) {
		solve_reference(ctx, &cases[c], "concurrent challenge", c);
		solutions +=
			cases[c].result == EQUIX_OK ? cases[c].sols.count : 0;
	}
	equix_free(ctx);
	ck_assert_uint_gt(solutions, 0);
	spin_barrier_init(&start, n);
	for (unsigned i = 0; i < n; i++)
		jobs[i] = (solver_job){.index = i,
				       .threads = n,
				       .cases = cases,
				       .start = &start};
	run_workers(n, solver_worker, jobs, sizeof jobs[0]);
	for (unsigned i = 0; i < n; i++) {
		ck_assert_int_eq(jobs[i].alloc_failed, 0);
		ck_assert_msg(jobs[i].mismatches == 0,
			      "thread %u (mode %d): %u challenges differ from "
			      "one thread's results",
			      i, (int)mode_of(i), jobs[i].mismatches);
	}
	printf("solve_and_verify: %u threads, %u challenges, %u solutions\n", n,
	       n * SOLVES_PER_THREAD, solutions);
}
END_TEST

/* ---- Hashing, one context per thread ------------------------------------- */

#define HASH_SEEDS 16
#define HASH_INPUTS 64

typedef struct hash_reference {
	hashx_result made[HASH_SEEDS];
	uint8_t out[HASH_SEEDS][HASH_INPUTS][HASHX_SIZE];
} hash_reference;

typedef struct hash_job {
	unsigned index;
	const hash_reference *ref;
	spin_barrier *start;
	unsigned mismatches;
	int alloc_failed;
} hash_job;

static uint64_t hash_input(unsigned i)
{
	return (uint64_t)i * UINT64_C(0x9e3779b97f4a7c15);
}

/* Makes the function of seed `s` and hashes every input into out[s]
 * (those of a seed without a function are left alone). */
static hashx_result hash_seed(hashx_ctx *ctx, unsigned s,
			      uint8_t out[HASH_INPUTS][HASHX_SIZE])
{
	char seed[32];
	int len = snprintf(seed, sizeof seed, "concurrent seed %u", s);
	hashx_result r = hashx_make(ctx, seed, (size_t)len);

	for (unsigned i = 0; r == HASHX_OK && i < HASH_INPUTS; i++)
		r = hashx_exec(ctx, hash_input(i), out[i]);
	return r;
}

/* Every seed, starting from the thread's own, so that threads work on
 * different functions at any moment. */
static void *hash_worker(void *arg)
{
	hash_job *j = arg;
	hashx_ctx *ctx = hashx_alloc(hashx_type_of(mode_of(j->index)));
	uint8_t out[HASH_INPUTS][HASHX_SIZE];

	spin_barrier_wait(j->start);
	if (ctx == NULL) {
		j->alloc_failed = 1;
		return NULL;
	}
	for (unsigned k = 0; k < HASH_SEEDS; k++) {
		unsigned s = (j->index + k) % HASH_SEEDS;

		if (hash_seed(ctx, s, out) != j->ref->made[s] ||
		    (j->ref->made[s] == HASHX_OK &&
		     memcmp(out, j->ref->out[s], sizeof out) != 0))
			j->mismatches++;
	}
	hashx_free(ctx);
	return NULL;
}

START_TEST(hash)
{
	unsigned n = thread_count(), made = 0;
	static hash_reference ref;
	hash_job jobs[MAX_THREADS];
	spin_barrier start;
	hashx_ctx *ctx = hashx_alloc(HASHX_TRY_COMPILE);

	ck_assert_ptr_nonnull(ctx);
	for (unsigned s = 0; s < HASH_SEEDS; s++) {
		ref.made[s] = hash_seed(ctx, s, ref.out[s]);
		made += ref.made[s] == HASHX_OK;
	}
	hashx_free(ctx);
	ck_assert_uint_gt(made, HASH_SEEDS / 2);
	spin_barrier_init(&start, n);
	for (unsigned i = 0; i < n; i++)
		jobs[i] = (hash_job){.index = i, .ref = &ref, .start = &start};
	run_workers(n, hash_worker, jobs, sizeof jobs[0]);
	for (unsigned i = 0; i < n; i++) {
		ck_assert_int_eq(jobs[i].alloc_failed, 0);
		ck_assert_msg(jobs[i].mismatches == 0,
			      "thread %u (mode %d): %u seeds differ from one "
			      "thread's hashes",
			      i, (int)mode_of(i), jobs[i].mismatches);
	}
}
END_TEST

/* ---- One interpreted context hashed by every thread ----------------------- */

/* hashx_exec takes a const context, so threads may hash with one at
 * once; an interpreted one decodes its paired form on the first hash
 * (hashx.c), which these threads race to. */
typedef struct shared_hash_job {
	const hashx_ctx *ctx;
	const hash_reference *ref;
	unsigned seed;
	spin_barrier *start;
	unsigned mismatches;
} shared_hash_job;

static void *shared_hash_worker(void *arg)
{
	shared_hash_job *j = arg;
	uint8_t out[HASHX_SIZE];

	spin_barrier_wait(j->start);
	for (unsigned i = 0; i < HASH_INPUTS; i++) {
		hashx_exec(j->ctx, hash_input(i), out);
		if (memcmp(out, j->ref->out[j->seed][i], sizeof out) != 0)
			j->mismatches++;
	}
	return NULL;
}

START_TEST(hash_shared_context)
{
	unsigned n = thread_count();
	static hash_reference ref;
	shared_hash_job jobs[MAX_THREADS];
	spin_barrier start;
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_INTERPRETED);
	unsigned s = 0;
	char seed[32];
	int len;

	ck_assert_ptr_nonnull(ctx);
	/* the reference, from one thread; then the same function made
	 * again, so that no hash has decoded it yet */
	while (hash_seed(ctx, s, ref.out[s]) != HASHX_OK)
		ck_assert_uint_lt(++s, HASH_SEEDS);
	len = snprintf(seed, sizeof seed, "concurrent seed %u", s);
	ck_assert_int_eq(hashx_make(ctx, seed, (size_t)len), HASHX_OK);
	spin_barrier_init(&start, n);
	for (unsigned i = 0; i < n; i++)
		jobs[i] = (shared_hash_job){
			.ctx = ctx, .ref = &ref, .seed = s, .start = &start};
	run_workers(n, shared_hash_worker, jobs, sizeof jobs[0]);
	for (unsigned i = 0; i < n; i++)
		ck_assert_msg(jobs[i].mismatches == 0,
			      "thread %u: %u hashes differ", i,
			      jobs[i].mismatches);
	hashx_free(ctx);
}
END_TEST

/* ---- One service shared by every thread ---------------------------------- */

/*
 * Proofs under seed A, made beforehand: GOOD_PROOFS valid ones, and
 * BAD_PROOFS that pass the cheap checks but fail equix_verify (a valid
 * proof's solution under another nonce, at effort 1, which every solution
 * meets). In each round every verifier thread sends one proof, each group
 * of `group` threads the same one at once (all of them, or groups of
 * four, by pass); over all rounds every thread sends every proof once.
 * One more thread reads the figures each round and, in the middle round,
 * rotates to seed B: A becomes the previous seed, so A's proofs and their
 * replay entries stay valid and every outcome is fixed in advance.
 */
#define GOOD_PROOFS 12
#define BAD_PROOFS 4
#define ALL_PROOFS (GOOD_PROOFS + BAD_PROOFS)
#define PROOF_EFFORT 4
#define REPLAY_CAP ((size_t)1 << 20)

/* The watcher's record: rotation result, figures read. */
typedef struct watch_record {
	equix_pow_result rotated;
	unsigned reads, bad_reads; /* all; out of bounds or failed */
	size_t max_entries;
} watch_record;

typedef struct service_setup {
	uint8_t id[EQUIX_POW_ID_LEN];
	uint8_t seed_a[EQUIX_POW_SEED_LEN], seed_b[EQUIX_POW_SEED_LEN];
	equix_pow_solution proofs[ALL_PROOFS];   /* under seed A */
	equix_pow_result bad_result[ALL_PROOFS]; /* one thread's failure */
	equix_pow_solution proof_b;              /* under seed B */
	equix_pow_service *service;
	spin_barrier round;
	unsigned verifiers;
	unsigned group; /* threads sending the same proof in a round */
	watch_record watch;
} service_setup;

/* Threads 0 .. verifiers - 1 verify; thread `verifiers` watches. */
typedef struct service_job {
	unsigned index;
	service_setup *setup;
	equix_pow_result results[ALL_PROOFS]; /* by proof */
	int alloc_failed;
} service_job;

/* A proof of PROOF_EFFORT under `seed`, searched from a nonce whose top
 * byte is `tag`: different tags never reach the same nonce. */
static equix_pow_solution make_proof(const service_setup *s,
				     const uint8_t *seed, uint8_t tag)
{
	uint8_t start[EQUIX_POW_NONCE_LEN] = {0};
	equix_pow_solution proof;

	start[EQUIX_POW_NONCE_LEN - 1] = tag;
	ck_assert_int_eq(equix_pow_solve(s->id, seed, PROOF_EFFORT, start, NULL,
					 &proof, NULL),
			 EQUIX_POW_OK);
	return proof;
}

/* The bad proof made from `good`: another nonce, effort 1. */
static equix_pow_solution break_proof(const equix_pow_solution *good)
{
	equix_pow_solution bad = *good;

	bad.nonce[EQUIX_POW_NONCE_LEN - 2] ^= 0x5a;
	bad.effort = 1;
	return bad;
}

/* What one thread gets for a bad proof: a failure of equix_verify. */
static equix_pow_result bad_reference(const service_setup *s,
				      const equix_pow_solution *bad)
{
	equix_pow_service *svc =
		equix_pow_service_alloc(s->id, s->seed_a, REPLAY_CAP, 0);
	equix_pow_result r;

	ck_assert_ptr_nonnull(svc);
	r = equix_pow_service_verify(svc, NULL, bad);
	ck_assert_msg(r == EQUIX_POW_FAIL_ORDER ||
			      r == EQUIX_POW_FAIL_CHALLENGE ||
			      r == EQUIX_POW_FAIL_PARTIAL_SUM ||
			      r == EQUIX_POW_FAIL_FINAL_SUM,
		      "bad proof: %s", equix_pow_result_string(r));
	equix_pow_service_free(svc);
	return r;
}

static void service_setup_init(service_setup *s, unsigned verifiers)
{
	memset(s, 0, sizeof *s);
	memset(s->id, 0x1d, sizeof s->id);
	memset(s->seed_a, 0xaa, sizeof s->seed_a);
	memset(s->seed_b, 0xbb, sizeof s->seed_b);
	for (unsigned p = 0; p < GOOD_PROOFS; p++)
		s->proofs[p] = make_proof(s, s->seed_a, (uint8_t)(p + 1));
	for (unsigned p = GOOD_PROOFS; p < ALL_PROOFS; p++) {
		s->proofs[p] = break_proof(&s->proofs[p - GOOD_PROOFS]);
		s->bad_result[p] = bad_reference(s, &s->proofs[p]);
	}
	s->proof_b = make_proof(s, s->seed_b, 0xff);
	s->verifiers = verifiers;
	/* the verifiers and the watcher */
	spin_barrier_init(&s->round, verifiers + 1);
}

/* The proof thread `index` sends in round `r`. */
static unsigned proof_for(const service_setup *s, unsigned index, unsigned r)
{
	return (r + index / s->group) % ALL_PROOFS;
}

/* Every fourth thread uses the service's own context (NULL), which the
 * service locks for one caller at a time; the others their own. */
static int uses_service_ctx(unsigned index)
{
	return index % 4 == 3;
}

static void verify_all(service_job *j)
{
	service_setup *s = j->setup;
	equix_ctx *ctx = NULL;

	if (!uses_service_ctx(j->index)) {
		ctx = equix_alloc(
			equix_flags(mode_of(j->index), EQUIX_CTX_VERIFY));
		j->alloc_failed = ctx == NULL;
	}
	for (unsigned r = 0; r < ALL_PROOFS; r++) {
		unsigned p = proof_for(s, j->index, r);

		spin_barrier_wait(&s->round);
		j->results[p] =
			j->alloc_failed
				? EQUIX_POW_FAIL_INTERNAL
				: equix_pow_service_verify(s->service, ctx,
							   &s->proofs[p]);
	}
	equix_free(ctx);
}

/* Whether figures read while verifiers run are within their bounds. */
static int figures_hold(const equix_pow_replay_stats *st)
{
	return st->cap_bytes == REPLAY_CAP && st->bytes <= st->cap_bytes &&
	       st->entries <= ALL_PROOFS;
}

static void read_figures(service_setup *s)
{
	watch_record *w = &s->watch;
	equix_pow_replay_stats st;

	w->reads++;
	if (equix_pow_service_stats(s->service, &st) != EQUIX_POW_OK ||
	    !figures_hold(&st))
		w->bad_reads++;
	else if (st.entries > w->max_entries)
		w->max_entries = st.entries;
}

/* Reads the figures a few times each round, while the verifiers work;
 * rotates in the middle round. */
static void watch(service_setup *s)
{
	for (unsigned r = 0; r < ALL_PROOFS; r++) {
		spin_barrier_wait(&s->round);
		if (r == ALL_PROOFS / 2)
			s->watch.rotated =
				equix_pow_service_rotate(s->service, s->seed_b);
		for (int k = 0; k < 4; k++) {
			read_figures(s);
			sched_yield();
		}
	}
}

static void *service_worker(void *arg)
{
	service_job *j = arg;

	if (j->index < j->setup->verifiers)
		verify_all(j);
	else
		watch(j->setup);
	return NULL;
}

/* Per proof: exactly one acceptance of a good one; a bad one fails as on
 * one thread at least once, and otherwise only meets a reservation. */
static void check_outcomes(const service_setup *s, const service_job *jobs)
{
	for (unsigned p = 0; p < ALL_PROOFS; p++) {
		unsigned ok = 0, replay = 0, failed = 0;

		for (unsigned i = 0; i < s->verifiers; i++) {
			equix_pow_result r = jobs[i].results[p];

			ok += r == EQUIX_POW_OK;
			replay += r == EQUIX_POW_FAIL_REPLAY;
			failed += p >= GOOD_PROOFS && r == s->bad_result[p];
		}
		if (p < GOOD_PROOFS) {
			ck_assert_msg(ok == 1 && replay == s->verifiers - 1,
				      "proof %u: %u accepted, %u replays of %u",
				      p, ok, replay, s->verifiers);
		} else {
			ck_assert_msg(failed >= 1 &&
					      failed + replay == s->verifiers,
				      "bad proof %u: %u failed as expected, %u "
				      "replays of %u",
				      p, failed, replay, s->verifiers);
		}
	}
}

/* After the run, on one thread: A's proofs are recorded (A is now the
 * previous seed), no bad proof left an entry, B is the current seed. */
static void check_final_state(const service_setup *s)
{
	equix_pow_replay_stats st;

	ck_assert_int_eq(equix_pow_service_stats(s->service, &st),
			 EQUIX_POW_OK);
	ck_assert_uint_eq(st.entries, GOOD_PROOFS);
	for (unsigned p = 0; p < GOOD_PROOFS; p++)
		ck_assert_int_eq(equix_pow_service_verify(s->service, NULL,
							  &s->proofs[p]),
				 EQUIX_POW_FAIL_REPLAY);
	for (unsigned p = GOOD_PROOFS; p < ALL_PROOFS; p++)
		ck_assert_int_eq(equix_pow_service_verify(s->service, NULL,
							  &s->proofs[p]),
				 s->bad_result[p]);
	ck_assert_int_eq(
		equix_pow_service_verify(s->service, NULL, &s->proof_b),
		EQUIX_POW_OK);
	ck_assert_int_eq(equix_pow_service_stats(s->service, &st),
			 EQUIX_POW_OK);
	ck_assert_uint_eq(st.entries, GOOD_PROOFS + 1);
}

/* One pass: a fresh service, every thread at once, then the checks. */
static void service_pass(service_setup *s, service_job *jobs)
{
	s->service = equix_pow_service_alloc(s->id, s->seed_a, REPLAY_CAP,
					     EQUIX_CTX_TRY_COMPILE);
	ck_assert_ptr_nonnull(s->service);
	s->watch = (watch_record){.rotated = EQUIX_POW_FAIL_INTERNAL};
	for (unsigned i = 0; i <= s->verifiers; i++)
		jobs[i] = (service_job){.index = i, .setup = s};
	run_workers(s->verifiers + 1, service_worker, jobs, sizeof jobs[0]);
	for (unsigned i = 0; i < s->verifiers; i++)
		ck_assert_int_eq(jobs[i].alloc_failed, 0);
	ck_assert_int_eq(s->watch.rotated, EQUIX_POW_OK);
	ck_assert_uint_eq(s->watch.bad_reads, 0);
	ck_assert_uint_ge(s->watch.max_entries, 1);
	check_outcomes(s, jobs);
	check_final_state(s);
	equix_pow_service_free(s->service);
}

/* The race to accept one proof is won or lost in a microsecond or so:
 * the same proofs go through several fresh services to meet it often. */
#define SERVICE_PASSES 32

START_TEST(service_shared)
{
	static service_setup s;
	static service_job jobs[MAX_THREADS + 1];
	unsigned n = thread_count();
	/* under valgrind, which runs one thread at a time, two passes: one
	 * of each group size */
	unsigned passes = (unsigned)tu_count(SERVICE_PASSES);

	service_setup_init(&s, n);
	for (unsigned pass = 0; pass < passes; pass++) {
		s.group = pass % 2 == 0 ? n : 4;
		service_pass(&s, jobs);
	}
	printf("service_shared: %u passes, %u verifiers (%u on the service's "
	       "context), %u proofs each\n",
	       passes, n, (n + 1) / 4, ALL_PROOFS);
}
END_TEST

/* Proofs of efforts `e1` and `e2` with one nonce, the first such nonce
 * from `start` up: the challenge covers the effort, so a nonce with a
 * solution at one effort may have none at another. */
static void same_nonce_pair(const uint8_t *id, const uint8_t *seed,
			    uint32_t e1, uint32_t e2, const uint8_t *start,
			    equix_pow_solution *p1, equix_pow_solution *p2)
{
	ck_assert_int_eq(equix_pow_solve(id, seed, e1, start, NULL, p1, NULL),
			 EQUIX_POW_OK);
	for (;;) {
		ck_assert_int_eq(equix_pow_solve(id, seed, e2, p1->nonce, NULL,
						 p2, NULL),
				 EQUIX_POW_OK);
		if (memcmp(p1->nonce, p2->nonce, EQUIX_POW_NONCE_LEN) == 0)
			return;
		ck_assert_int_eq(equix_pow_solve(id, seed, e1, p2->nonce, NULL,
						 p1, NULL),
				 EQUIX_POW_OK);
		if (memcmp(p1->nonce, p2->nonce, EQUIX_POW_NONCE_LEN) == 0)
			return;
	}
}

/* ---- Rotation among known seeds while proofs are replayed ----------------- */

/*
 * One thread rotates among ROT_SEEDS seeds, mostly back and forth between
 * the first two (swaps, which keep both seeds' entries), at times to the
 * third (which retires one) and back to a retired one (refused), each
 * result predicted by its own model of the rule. Meanwhile every other
 * thread sends every proof of every seed and its twin (the same nonce at
 * effort 0: the same (seed, nonce)), ROT_PASSES times and once more after
 * the rotations. No nonce may be accepted twice in all, at any effort,
 * and every nonce of a seed still live at the end is accepted exactly
 * once.
 */
#define ROT_SEEDS 3
#define ROT_PROOFS 4
#define ROT_STEPS 400
#define ROT_PASSES 200

typedef struct rotation_setup {
	uint8_t id[EQUIX_POW_ID_LEN];
	uint8_t seeds[ROT_SEEDS][EQUIX_POW_SEED_LEN];
	equix_pow_solution proofs[ROT_SEEDS][ROT_PROOFS];
	equix_pow_solution twins[ROT_SEEDS][ROT_PROOFS];
	equix_pow_service *service;
	unsigned verifiers;
	atomic_int rotating;    /* 1 until the rotator is done */
	unsigned mismatches;    /* rotator: results unlike the model's */
	unsigned refused;       /* rotator: rotations refused, as predicted */
	int live[ROT_SEEDS];    /* rotator: the model's final state */
} rotation_setup;

typedef struct rotation_job {
	unsigned index;
	rotation_setup *setup;
	unsigned accepted[ROT_SEEDS][ROT_PROOFS];
	unsigned sent;
} rotation_job;

/* Mostly 0 <-> 1; every 50th step seed 2, every 50th + 25 a seed that
 * may have been retired. */
static int rotation_target(unsigned step)
{
	if (step % 50 == 49)
		return 2;
	if (step % 50 == 24)
		return (int)(step / 50) % 2;
	return (int)(step % 2);
}

static void rotate_all(rotation_setup *s)
{
	service_model m = service_model_start(0);

	for (unsigned step = 0; step < ROT_STEPS; step++) {
		int seed = rotation_target(step);
		equix_pow_result want = service_model_rotate(&m, seed);
		equix_pow_result got =
			equix_pow_service_rotate(s->service, s->seeds[seed]);

		s->mismatches += got != want;
		s->refused += got == EQUIX_POW_FAIL_SEED_RETIRED;
		sched_yield();
	}
	for (int i = 0; i < ROT_SEEDS; i++)
		s->live[i] = service_model_live(&m, i);
	atomic_store(&s->rotating, 0);
}

static void send_every_proof(rotation_job *j)
{
	rotation_setup *s = j->setup;

	for (unsigned p = 0; p < ROT_SEEDS * ROT_PROOFS; p++) {
		/* each thread in its own order */
		unsigned q = (p + j->index * 5) % (ROT_SEEDS * ROT_PROOFS);
		unsigned seed = q / ROT_PROOFS, k = q % ROT_PROOFS;
		/* the twin first on odd threads */
		const equix_pow_solution *both[2] = {&s->proofs[seed][k],
						     &s->twins[seed][k]};

		for (unsigned t = 0; t < 2; t++)
			if (equix_pow_service_verify(s->service, NULL,
						     both[t ^ (j->index & 1)]) ==
			    EQUIX_POW_OK)
				j->accepted[seed][k]++;
		j->sent += 2;
	}
}

static void *rotation_worker(void *arg)
{
	rotation_job *j = arg;

	if (j->index == j->setup->verifiers) {
		rotate_all(j->setup);
		return NULL;
	}
	/* a bounded count (the rotator may get the cores last), and at
	 * least one pass after the rotations end, when these come first */
	for (unsigned pass = 0; pass < ROT_PASSES; pass++)
		send_every_proof(j);
	while (atomic_load(&j->setup->rotating))
		sched_yield();
	send_every_proof(j);
	return NULL;
}

START_TEST(service_rotation_replay)
{
	static rotation_setup s;
	static rotation_job jobs[MAX_THREADS + 1];
	rotation_job last = {0};
	unsigned n = thread_count(), sent = 0;

	memset(&s, 0, sizeof s);
	memset(s.id, 0x2e, sizeof s.id);
	for (unsigned seed = 0; seed < ROT_SEEDS; seed++) {
		memset(s.seeds[seed], 0x60 + (int)seed, EQUIX_POW_SEED_LEN);
		for (unsigned k = 0; k < ROT_PROOFS; k++) {
			uint8_t start[EQUIX_POW_NONCE_LEN] = {0};

			start[0] = (uint8_t)(16 * k);
			same_nonce_pair(s.id, s.seeds[seed], 1, 0, start,
					&s.proofs[seed][k], &s.twins[seed][k]);
		}
	}
	s.verifiers = n;
	atomic_init(&s.rotating, 1);
	s.service = equix_pow_service_alloc(s.id, s.seeds[0], REPLAY_CAP, 0);
	ck_assert_ptr_nonnull(s.service);
	for (unsigned i = 0; i <= n; i++)
		jobs[i] = (rotation_job){.index = i, .setup = &s};
	run_workers(n + 1, rotation_worker, jobs, sizeof jobs[0]);
	ck_assert_uint_eq(s.mismatches, 0);
	ck_assert_uint_gt(s.refused, 0);
	/* after the rotations: one pass on this thread */
	last.setup = &s;
	send_every_proof(&last);
	for (unsigned seed = 0; seed < ROT_SEEDS; seed++)
		for (unsigned k = 0; k < ROT_PROOFS; k++) {
			unsigned total = last.accepted[seed][k];

			for (unsigned i = 0; i < n; i++)
				total += jobs[i].accepted[seed][k];
			ck_assert_msg(total <= 1 &&
					      (!s.live[seed] || total == 1),
				      "seed %u nonce %u accepted %u times "
				      "(seed %s)",
				      seed, k, total,
				      s.live[seed] ? "live" : "retired");
		}
	for (unsigned i = 0; i < n; i++)
		sent += jobs[i].sent;
	printf("service_rotation_replay: %u rotations (%u refused), %u "
	       "verifiers sent %u proofs\n",
	       ROT_STEPS, s.refused, n, sent);
	equix_pow_service_free(s.service);
}
END_TEST

/* ---- Eviction while forged proofs hold reservations ----------------------- */

/*
 * A forged proof (a valid solution under another nonce, at effort 1,
 * which every solution meets) passes the cheap checks and holds a
 * reservation while equix_verify() refuses it. Here FORGERS threads send
 * forged proofs without pause into a smallest cache filled to one entry
 * below full, so the last slot is mostly held; meanwhile the main thread
 * sends dearer proofs, each of which evicts a cheap one when it finds the
 * cache full, and after each replays every cheap proof and its twin (the
 * same nonce at effort 1). However the reservations come and go, no cheap
 * nonce may be accepted twice, at either effort: one the cache evicted is
 * refused as evicted once the slot comes free.
 */
#define FORGERS 2
#define EVICT_CHEAP 96 /* more than the smallest cache holds */
#define EVICT_DEAR 6
#define EVICT_TRIALS 6

typedef struct eviction_setup {
	uint8_t id[EQUIX_POW_ID_LEN], seed[EQUIX_POW_SEED_LEN];
	equix_pow_solution cheap[EVICT_CHEAP], cheap_twin[EVICT_CHEAP];
	equix_pow_solution dear[EVICT_DEAR];
	equix_pow_solution forged[FORGERS];
	equix_pow_service *service;
	atomic_int forging;
} eviction_setup;

typedef struct forger_job {
	unsigned index;
	eviction_setup *setup;
	unsigned sent, accepted;
} forger_job;

/* Entries the service's replay cache holds. */
static size_t service_entries(equix_pow_service *svc)
{
	equix_pow_replay_stats st;

	ck_assert_int_eq(equix_pow_service_stats(svc, &st), EQUIX_POW_OK);
	return st.entries;
}

/* The proof of `effort` found first from nonce (hi, lo); distinct pairs
 * never reach the same nonce. */
static equix_pow_solution proof_at(const eviction_setup *s, uint32_t effort,
				   uint8_t hi, uint8_t lo)
{
	uint8_t start[EQUIX_POW_NONCE_LEN] = {0};
	equix_pow_solution proof;

	start[EQUIX_POW_NONCE_LEN - 1] = hi;
	start[EQUIX_POW_NONCE_LEN - 2] = lo;
	ck_assert_int_eq(equix_pow_solve(s->id, s->seed, effort, start, NULL,
					 &proof, NULL),
			 EQUIX_POW_OK);
	return proof;
}

static void *forger_worker(void *arg)
{
	forger_job *j = arg;
	eviction_setup *s = j->setup;

	while (atomic_load(&s->forging)) {
		j->accepted += equix_pow_service_verify(s->service, NULL,
							&s->forged[j->index]) ==
			       EQUIX_POW_OK;
		j->sent++;
	}
	return NULL;
}

typedef struct eviction_count {
	unsigned accepted_twice, forgotten, forged_sent;
} eviction_count;

/* Sends the first `fill` cheap proofs again, each accepted once before,
 * and their twins. */
static void replay_cheap(eviction_setup *s, unsigned fill, eviction_count *c)
{
	for (unsigned i = 0; i < fill; i++) {
		equix_pow_result r =
			equix_pow_service_verify(s->service, NULL, &s->cheap[i]);
		equix_pow_result t = equix_pow_service_verify(
			s->service, NULL, &s->cheap_twin[i]);

		c->accepted_twice += (r == EQUIX_POW_OK) + (t == EQUIX_POW_OK);
		c->forgotten += r == EQUIX_POW_FAIL_EVICTED;
	}
}

/* The main thread's side of one trial, the forgers running: the cache
 * holds the first `fill` cheap proofs. */
static void evict_and_replay(eviction_setup *s, unsigned fill,
			     eviction_count *c)
{
	for (unsigned d = 0; d < EVICT_DEAR; d++) {
		equix_pow_result r =
			equix_pow_service_verify(s->service, NULL, &s->dear[d]);

		ck_assert_msg(r == EQUIX_POW_OK, "dear proof %u: %s", d,
			      equix_pow_result_string(r));
		replay_cheap(s, fill, c);
	}
}

START_TEST(service_eviction_pending)
{
	static eviction_setup s;
	forger_job jobs[FORGERS];
	eviction_count c = {0};
	unsigned capacity = 0;
	pthread_t th[FORGERS];

	memset(&s, 0, sizeof s);
	memset(s.id, 0x3f, sizeof s.id);
	memset(s.seed, 0xcc, sizeof s.seed);
	for (unsigned i = 0; i < EVICT_CHEAP; i++) {
		uint8_t start[EQUIX_POW_NONCE_LEN] = {0};

		start[EQUIX_POW_NONCE_LEN - 1] = 1;
		start[EQUIX_POW_NONCE_LEN - 2] = (uint8_t)i;
		same_nonce_pair(s.id, s.seed, 0, 1, start, &s.cheap[i],
				&s.cheap_twin[i]);
	}
	for (unsigned d = 0; d < EVICT_DEAR; d++)
		s.dear[d] = proof_at(&s, 1, 2, (uint8_t)d);
	for (unsigned f = 0; f < FORGERS; f++) {
		s.forged[f] = s.dear[f];
		s.forged[f].nonce[0] ^= 0xa5;
	}
	/* how many entries the smallest cache holds: until one more proof
	 * no longer adds one */
	s.service = equix_pow_service_alloc(s.id, s.seed,
					    EQUIX_POW_REPLAY_MIN_BYTES, 0);
	ck_assert_ptr_nonnull(s.service);
	while (capacity < EVICT_CHEAP) {
		ck_assert_int_eq(equix_pow_service_verify(s.service, NULL,
							  &s.cheap[capacity]),
				 EQUIX_POW_OK);
		if (service_entries(s.service) == capacity)
			break;
		capacity++;
	}
	ck_assert_uint_lt(capacity, EVICT_CHEAP);
	equix_pow_service_free(s.service);
	/* under valgrind, which runs one thread at a time, one trial */
	unsigned trials = (unsigned)tu_count(EVICT_TRIALS);

	for (unsigned t = 0; t < trials; t++) {
		s.service = equix_pow_service_alloc(
			s.id, s.seed, EQUIX_POW_REPLAY_MIN_BYTES, 0);
		ck_assert_ptr_nonnull(s.service);
		for (unsigned i = 0; i + 1 < capacity; i++)
			ck_assert_int_eq(equix_pow_service_verify(
						 s.service, NULL, &s.cheap[i]),
					 EQUIX_POW_OK);
		atomic_store(&s.forging, 1);
		for (unsigned f = 0; f < FORGERS; f++) {
			jobs[f] = (forger_job){.index = f, .setup = &s};
			ck_assert_int_eq(pthread_create(&th[f], NULL,
							forger_worker, &jobs[f]),
					 0);
		}
		evict_and_replay(&s, capacity - 1, &c);
		atomic_store(&s.forging, 0);
		for (unsigned f = 0; f < FORGERS; f++) {
			ck_assert_int_eq(pthread_join(th[f], NULL), 0);
			ck_assert_uint_eq(jobs[f].accepted, 0);
			c.forged_sent += jobs[f].sent;
		}
		/* no reservation left: the cache has its room back */
		replay_cheap(&s, capacity - 1, &c);
		equix_pow_service_free(s.service);
	}
	printf("service_eviction_pending: %u trials, cache of %u entries, %u "
	       "forged proofs sent, %u replays refused as evicted\n",
	       trials, capacity, c.forged_sent, c.forgotten);
	ck_assert_msg(c.accepted_twice == 0,
		      "%u cheap proofs accepted a second time",
		      c.accepted_twice);
}
END_TEST

int main(void)
{
	static const char *const names[] = {"first_use", "solve_and_verify",
					    "hash", "service_shared",
					    "service_rotation_replay",
					    "service_eviction_pending"};
	Suite *s = suite_create("concurrency");
	TCase *t = tcase_create("threads");

	/* qemu-user (Debian 12) hangs in pthread_create */
	if (tu_emulated()) {
		for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
			printf("SKIP: %s (threads do not start under the "
			       "emulator)\n",
			       names[i]);
	} else {
		/* first: nothing may have used the libraries before it */
		tcase_add_test(t, first_use);
		tcase_add_test(t, solve_and_verify);
		tcase_add_test(t, hash);
		tcase_add_test(t, hash_shared_context);
		tcase_add_test(t, service_shared);
		tcase_add_test(t, service_rotation_replay);
		tcase_add_test(t, service_eviction_pending);
	}
	tcase_set_timeout(t, 300);
	/* what a ThreadSanitizer run picks (CK_INCLUDE_TAGS=threads) */
	tcase_set_tags(t, "threads");
	suite_add_tcase(s, t);
	return tu_run_suite(s);
}

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_pow_faults.c - equix_pow_solve() when the system runs short of
 * memory or threads, and the service's queue and controller when it runs
 * short of memory; and the queue's largest request for memory, which its
 * cap bounds at any rate.
 *
 * For 1, 2 and 4 threads, the N-th request for memory or for a thread that
 * a search makes is refused (only that one, or that one and every later
 * one), for N = 1, 2, ... until a search makes fewer than N requests.
 * Whatever is refused, the search must either find exactly the proof and
 * attempt count of one thread without faults (Tor's own vector), or,
 * only when no worker got its memory, return EQUIX_POW_FAIL_NO_MEMORY
 * having tried no nonce: never EQUIX_POW_FAIL_INTERNAL, never another
 * proof. A single refusal among several threads only drops one worker, so
 * there the search must always succeed.
 *
 * The requests are caught by defining malloc, calloc, realloc,
 * aligned_alloc, posix_memalign, mmap and pthread_create in this program:
 * the dynamic linker binds the libraries' calls to these. Each forwards to
 * the next definition (dlsym(RTLD_NEXT)): the C library's, or a
 * sanitizer's or valgrind's, whose bookkeeping stays whole, so these tests
 * also run under --sanitizers, --tsan and --valgrind. Only the requests
 * made from the libraries' code are numbered (a sanitizer's runtime also
 * allocates when a thread starts, and must not be refused). Where the
 * search's requests are not caught (a probe search before the tests sees
 * none), the program is skipped (exit 77) and says so.
 *
 * The budget tests (memory_for_one_worker) model a limit of address
 * space such as ulimit -v: requests past a number of bytes are refused,
 * and a new thread's stack, which the C library maps, counts against it.
 */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <config.h>

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <equix_pow.h>

#include "testutil.h"

/* ---- The interposer ------------------------------------------------- */

/*
 * The interposer runs before a sanitizer's runtime is initialized (its
 * own start-up allocates), when instrumented code would touch shadow
 * memory that is not mapped yet: none of it is instrumented. (The
 * libraries and the tests below still are.)
 */
#if defined(__has_attribute)
#if __has_attribute(no_sanitize)
#define UNINSTRUMENTED __attribute__((no_sanitize("address", "thread", \
						   "undefined")))
#endif
#endif
#ifndef UNINSTRUMENTED
#define UNINSTRUMENTED
#endif

/* Requests numbered from 1 while `armed`; those from `refuse_first` to
 * `refuse_last` are refused. */
static atomic_int armed;
static atomic_long refuse_first, refuse_last;
static atomic_long requests; /* numbered so far */
static atomic_long refused;  /* of them refused */
static atomic_long largest;  /* the most bytes one of them asked for */
/* While set, every thread start is refused (and still numbered). */
static atomic_int refuse_threads;
/* Bytes the search may be granted in all (what a limit like ulimit -v
 * leaves it; freed bytes are not given back), and granted so far. A
 * request that would pass the budget is refused. */
static atomic_long budget, spent;
static atomic_long mapped; /* of `spent`, by mmap */
/* Allocations of at least HEAP_MIN that succeeded while armed: in a
 * search, only a worker's solver heap (1.5 MiB, the last part of its
 * context) is that large, so this counts the workers that got their
 * memory. The reference run checks it equals the thread count. */
#define HEAP_MIN ((size_t)1 << 20)
static atomic_long heaps;

/* Where the libraries' code is loaded: libequix (which carries its own
 * HashX), and the program itself, which holds them in a static build. */
static const void *library_base, *program_base;

/* Whether `caller` (the return address of a request) is the libraries':
 * a request of the search itself. Those of the C library, a sanitizer's
 * runtime or valgrind (a new thread's TLS, the sanitizer's own
 * bookkeeping) are numbered and refused by none of this. */
UNINSTRUMENTED static bool from_search(const void *caller)
{
	Dl_info info;

	if (dladdr(caller, &info) == 0)
		return false;
	return info.dli_fbase == library_base || info.dli_fbase == program_base;
}

/* Takes `bytes` from the budget; false, and nothing taken, when they are
 * not left. */
UNINSTRUMENTED static bool within_budget(size_t bytes)
{
	long want = bytes > (size_t)LONG_MAX ? LONG_MAX : (long)bytes;

	if (atomic_fetch_add(&spent, want) <= atomic_load(&budget) - want)
		return true;
	atomic_fetch_sub(&spent, want);
	return false;
}

/* Keeps the size of the largest request numbered. */
UNINSTRUMENTED static void note_largest(size_t bytes)
{
	long want = bytes > (size_t)LONG_MAX ? LONG_MAX : (long)bytes;
	long seen = atomic_load(&largest);

	while (want > seen &&
	       !atomic_compare_exchange_weak(&largest, &seen, want))
		;
}

/* Whether to refuse a request for `bytes` made from `caller`. */
UNINSTRUMENTED static bool refuse(const void *caller, size_t bytes)
{
	long n;

	if (!atomic_load(&armed) || !from_search(caller))
		return false;
	n = atomic_fetch_add(&requests, 1) + 1;
	note_largest(bytes);
	if ((n < atomic_load(&refuse_first) || n > atomic_load(&refuse_last)) &&
	    within_budget(bytes))
		return false;
	atomic_fetch_add(&refused, 1);
	return true;
}

/* n * size, or SIZE_MAX when that overflows. */
UNINSTRUMENTED static size_t product(size_t n, size_t size)
{
	return size != 0 && n > SIZE_MAX / size ? SIZE_MAX : n * size;
}

UNINSTRUMENTED static void *granted(void *p, size_t size)
{
	if (p != NULL && size >= HEAP_MIN && atomic_load(&armed))
		atomic_fetch_add(&heaps, 1);
	return p;
}

typedef void *malloc_fn(size_t);
typedef void *calloc_fn(size_t, size_t);
typedef void *realloc_fn(void *, size_t);
typedef void free_fn(void *);
typedef void *aligned_alloc_fn(size_t, size_t);
typedef int posix_memalign_fn(void **, size_t, size_t);
typedef void *mmap_fn(void *, size_t, int, int, int, off_t);
typedef int pthread_create_fn(pthread_t *, const pthread_attr_t *,
			      void *(*)(void *), void *);

/* The definitions forwarded to. Looked up by the first call of any of
 * them, which comes before main() and before any thread: written once,
 * then only read. */
static struct {
	free_fn *free; /* first: the lookups themselves may free */
	malloc_fn *malloc;
	calloc_fn *calloc;
	realloc_fn *realloc;
	aligned_alloc_fn *aligned_alloc;
	posix_memalign_fn *posix_memalign;
	mmap_fn *mmap;
	pthread_create_fn *pthread_create;
} real;
static atomic_int resolved;

/* While the lookups run (dlsym may allocate: older glibc did for its
 * error state, and glibc does when a sanitizer's start-up looks up a
 * symbol it lacks), allocations are served from here; freeing one does
 * nothing. */
static alignas(max_align_t) unsigned char bootstrap[4096];
static atomic_size_t bootstrap_used;
static _Thread_local int looking_up;

UNINSTRUMENTED static void *bootstrap_alloc(size_t size)
{
	size_t rounded = (size + 15) / 16 * 16;
	size_t at = atomic_fetch_add(&bootstrap_used, rounded);

	return at + rounded <= sizeof bootstrap ? bootstrap + at : NULL;
}

UNINSTRUMENTED static bool from_bootstrap(const void *p)
{
	const unsigned char *c = p;

	return c >= bootstrap && c < bootstrap + sizeof bootstrap;
}

/* The next definition of `name` after this program's, into *fn (a
 * function pointer's storage); aborts if there is none. */
UNINSTRUMENTED static void next_definition(const char *name, void *fn,
					   size_t fn_size)
{
	void *p = dlsym(RTLD_NEXT, name);

	if (p == NULL) {
		fprintf(stderr, "test_pow_faults: no %s to forward to\n", name);
		abort();
	}
	/* Object to function pointer: allowed by POSIX (as for dlsym). */
	memcpy(fn, &p, fn_size);
}

#define LOOK_UP(name) next_definition(#name, &real.name, sizeof real.name)

/* True once `real` is filled; false for a call made by the lookups. */
UNINSTRUMENTED static bool ready(void)
{
	if (atomic_load(&resolved))
		return true;
	if (looking_up)
		return false;
	looking_up = 1;
	LOOK_UP(free);
	LOOK_UP(malloc);
	LOOK_UP(calloc);
	LOOK_UP(realloc);
	LOOK_UP(aligned_alloc);
	LOOK_UP(posix_memalign);
	LOOK_UP(mmap);
	LOOK_UP(pthread_create);
	looking_up = 0;
	atomic_store(&resolved, 1);
	return true;
}

UNINSTRUMENTED void *malloc(size_t size)
{
	if (!ready())
		return bootstrap_alloc(size);
	if (refuse(__builtin_return_address(0), size)) {
		errno = ENOMEM;
		return NULL;
	}
	return granted(real.malloc(size), size);
}

UNINSTRUMENTED void *calloc(size_t n, size_t size)
{
	if (!ready())
		return bootstrap_alloc(product(n, size)); /* static: already zero */
	if (refuse(__builtin_return_address(0), product(n, size))) {
		errno = ENOMEM;
		return NULL;
	}
	return granted(real.calloc(n, size), n * size);
}

UNINSTRUMENTED void *realloc(void *p, size_t size)
{
	if (!ready() || from_bootstrap(p)) {
		fprintf(stderr, "test_pow_faults: realloc while looking up\n");
		abort();
	}
	if (refuse(__builtin_return_address(0), size)) {
		errno = ENOMEM;
		return NULL;
	}
	return granted(real.realloc(p, size), size);
}

UNINSTRUMENTED void free(void *p)
{
	/* (the lookups free nothing they did not allocate from bootstrap:
	 * free is looked up first) */
	if (from_bootstrap(p) || !ready() || real.free == NULL)
		return;
	real.free(p);
}

UNINSTRUMENTED void *aligned_alloc(size_t alignment, size_t size)
{
	if (!ready())
		return NULL;
	if (refuse(__builtin_return_address(0), size)) {
		errno = ENOMEM;
		return NULL;
	}
	return granted(real.aligned_alloc(alignment, size), size);
}

UNINSTRUMENTED int posix_memalign(void **out, size_t alignment, size_t size)
{
	int r;

	if (!ready())
		return ENOMEM;
	if (refuse(__builtin_return_address(0), size))
		return ENOMEM;
	r = real.posix_memalign(out, alignment, size);
	if (r == 0)
		granted(*out, size);
	return r;
}

UNINSTRUMENTED void *mmap(void *addr, size_t len, int prot, int flags, int fd,
			  off_t off)
{
	if (!ready() || refuse(__builtin_return_address(0), len)) {
		errno = ENOMEM;
		return MAP_FAILED;
	}
	if (atomic_load(&armed))
		atomic_fetch_add(&mapped, (long)len);
	return real.mmap(addr, len, prot, flags, fd, off);
}

/* The bytes of a new thread's stack: the C library maps it, so under a
 * limit of address space (ulimit -v) it counts as the search's. */
UNINSTRUMENTED static size_t stack_bytes(const pthread_attr_t *attr)
{
	pthread_attr_t defaults;
	size_t bytes = 0;

	if (attr == NULL && pthread_attr_init(&defaults) == 0) {
		pthread_attr_getstacksize(&defaults, &bytes);
		pthread_attr_destroy(&defaults);
	} else if (attr != NULL) {
		pthread_attr_getstacksize(attr, &bytes);
	}
	return bytes;
}

UNINSTRUMENTED int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
				  void *(*start)(void *), void *arg)
{
	if (!ready() ||
	    refuse(__builtin_return_address(0), stack_bytes(attr)) ||
	    (atomic_load(&armed) && atomic_load(&refuse_threads)))
		return EAGAIN;
	return real.pthread_create(thread, attr, start, arg);
}

/* ---- Searches under faults ------------------------------------------ */

/* Tor's vector (src/test/test_hs_pow_slow.c) of effort 10000: the proof is
 * at the fourth nonce, so several threads share the search. */
#define TOR_ID "1111111111111111111111111111111111111111111111111111111111111111"
#define TOR_SEED "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define TOR_EFFORT 10000
#define TOR_START "c5715555555555555555555555555555"
#define TOR_NONCE "c8715555555555555555555555555555"
#define TOR_SOLUTION "9f2d3d4ed831ac96ad34c25fb59ff3e2"
#define TOR_ATTEMPTS 4

static const unsigned thread_counts[] = {1, 2, 4};

/* What one search gave, and what the interposer saw meanwhile. */
typedef struct outcome {
	equix_pow_result result;
	equix_pow_solution proof;
	uint64_t attempts;
	long requests, refused, heaps;
	long spent;  /* bytes granted */
	long mapped; /* of them, by mmap */
} outcome;

static void decode(const char *hex, uint8_t *out, size_t len)
{
	ck_assert_int_eq(tu_hex_decode(hex, out, len), (long)len);
}

/* What to refuse in a search: requests first..last (0, 0: none), any
 * past `budget` bytes, and every thread start if `no_threads`. */
typedef struct fault_plan {
	long first, last;
	long budget;
	int no_threads;
} fault_plan;

#define NO_FAULTS ((fault_plan){0, 0, LONG_MAX, 0})
#define REFUSE(first, last) ((fault_plan){first, last, LONG_MAX, 0})

/* One search on `threads` threads under `plan`. */
static outcome search(unsigned threads, fault_plan plan)
{
	uint8_t id[EQUIX_POW_ID_LEN], seed[EQUIX_POW_SEED_LEN];
	uint8_t start[EQUIX_POW_NONCE_LEN];
	equix_pow_solve_options options;
	outcome o;

	decode(TOR_ID, id, sizeof id);
	decode(TOR_SEED, seed, sizeof seed);
	decode(TOR_START, start, sizeof start);
	equix_pow_solve_options_init(&options);
	options.threads = threads;
	memset(&o, 0, sizeof o);
	atomic_store(&refuse_first, plan.first);
	atomic_store(&refuse_last, plan.last);
	atomic_store(&budget, plan.budget);
	atomic_store(&refuse_threads, plan.no_threads);
	atomic_store(&requests, 0);
	atomic_store(&refused, 0);
	atomic_store(&heaps, 0);
	atomic_store(&spent, 0);
	atomic_store(&mapped, 0);
	atomic_store(&armed, 1);
	o.result = equix_pow_solve(id, seed, TOR_EFFORT, start, &options,
				   &o.proof, &o.attempts);
	atomic_store(&armed, 0);
	o.requests = atomic_load(&requests);
	o.refused = atomic_load(&refused);
	o.heaps = atomic_load(&heaps);
	o.spent = atomic_load(&spent);
	o.mapped = atomic_load(&mapped);
	return o;
}

static void assert_tor_proof(const outcome *o, const char *what)
{
	uint8_t nonce[EQUIX_POW_NONCE_LEN], solution[EQUIX_POW_SOLUTION_LEN];

	decode(TOR_NONCE, nonce, sizeof nonce);
	decode(TOR_SOLUTION, solution, sizeof solution);
	ck_assert_msg(memcmp(o->proof.nonce, nonce, sizeof nonce) == 0 &&
			      memcmp(o->proof.solution, solution,
				     sizeof solution) == 0 &&
			      o->proof.effort == TOR_EFFORT,
		      "%s: not the one-thread proof", what);
	ck_assert_msg(o->attempts == TOR_ATTEMPTS,
		      "%s: %llu attempts, one thread takes %d", what,
		      (unsigned long long)o->attempts, TOR_ATTEMPTS);
}

/* The fault-free search: Tor's proof, one solver heap per thread, and
 * requests the interposer saw. */
static void reference(unsigned threads)
{
	outcome o = search(threads, NO_FAULTS);

	ck_assert_msg(o.result == EQUIX_POW_OK, "no faults, %u threads: %s",
		      threads, equix_pow_result_string(o.result));
	assert_tor_proof(&o, "no faults");
	ck_assert_int_gt(o.requests, 0);
	ck_assert_int_eq(o.heaps, (long)threads);
}

/* What any search under faults must give. */
static void assert_outcome(const outcome *o, unsigned threads, long n,
			   const char *how)
{
	char what[96];

	snprintf(what, sizeof what, "%u threads, request %ld%s refused",
		 threads, n, how);
	ck_assert_msg(o->result == EQUIX_POW_OK ||
			      o->result == EQUIX_POW_FAIL_NO_MEMORY,
		      "%s: %s", what, equix_pow_result_string(o->result));
	if (o->result == EQUIX_POW_OK) {
		assert_tor_proof(o, what);
		return;
	}
	/* out of memory only when no worker got its memory, then no nonce
	 * was tried */
	ck_assert_msg(o->heaps == 0, "%s: out of memory, but %ld workers "
		      "had their memory", what, o->heaps);
	ck_assert_msg(o->attempts == 0, "%s: out of memory after %llu "
		      "nonces", what, (unsigned long long)o->attempts);
}

/* Refuses the N-th request, for every N a search makes: one refusal
 * among several threads drops at most one worker, so the search must
 * succeed; on one thread it succeeds or is out of memory. */
START_TEST(request_refused_once)
{
	unsigned threads = thread_counts[_i];
	long n = 1;

	reference(threads);
	for (;; n++) {
		outcome o = search(threads, REFUSE(n, n));

		if (o.refused == 0)
			break;
		assert_outcome(&o, threads, n, "");
		if (threads > 1)
			ck_assert_msg(o.result == EQUIX_POW_OK,
				      "%u threads, request %ld refused: %s",
				      threads, n,
				      equix_pow_result_string(o.result));
	}
	printf("request_refused_once: %u threads, %ld requests refused in "
	       "turn\n", threads, n - 1);
}
END_TEST

/* Refuses the N-th request and every later one: from early N no worker
 * gets its memory (out of memory); from later N some do (the proof). */
START_TEST(requests_refused_from)
{
	unsigned threads = thread_counts[_i];
	int out_of_memory = 0, found = 0;
	long n = 1;

	reference(threads);
	for (;; n++) {
		outcome o = search(threads, REFUSE(n, LONG_MAX));

		if (o.refused == 0)
			break;
		assert_outcome(&o, threads, n, " and later");
		if (o.result == EQUIX_POW_OK)
			found++;
		else
			out_of_memory++;
	}
	/* Refusing everything from the first request leaves no worker. */
	ck_assert_int_gt(out_of_memory, 0);
	printf("requests_refused_from: %u threads, N = 1..%ld: %d out of "
	       "memory, %d found the proof\n", threads, n - 1,
	       out_of_memory, found);
}
END_TEST

/* Every thread start refused: the calling thread searches alone and
 * finds the proof; with its memory refused as well, nothing can search. */
START_TEST(thread_starts_refused)
{
	unsigned threads = 4;
	fault_plan plan = {0, 0, LONG_MAX, 1};
	outcome o;

	reference(threads);
	o = search(threads, plan);
	ck_assert_msg(o.result == EQUIX_POW_OK, "threads refused: %s",
		      equix_pow_result_string(o.result));
	assert_tor_proof(&o, "threads refused");
	ck_assert_int_eq(o.heaps, 1);
	plan.first = 1;
	plan.last = LONG_MAX;
	o = search(threads, plan);
	ck_assert_msg(o.result == EQUIX_POW_FAIL_NO_MEMORY,
		      "threads and memory refused: %s",
		      equix_pow_result_string(o.result));
	ck_assert_uint_eq(o.attempts, 0);
}
END_TEST

/*
 * Address space for one worker only, as under a ulimit -v that a search on
 * one thread fits in (a thread's stack, mapped by the C library, counts
 * against the limit): either exactly what one thread is granted, or its
 * context's bytes plus a thread stack less one byte. In the second, a
 * thread started first takes its stack and leaves too little for any
 * context; the calling thread must get its context before that, as with
 * one thread, so more threads never turn a success into a failure.
 */
START_TEST(memory_for_one_worker)
{
	unsigned threads = thread_counts[_i];
	outcome one = search(1, NO_FAULTS), o;
	long context_bytes = one.spent - one.mapped;
	long budgets[2];
	int runs = tu_valgrind() ? 1 : 10;

	reference(threads);
	budgets[0] = one.spent;
	budgets[1] = context_bytes + (long)stack_bytes(NULL) - 1;
	for (int b = 0; b < 2; b++)
		for (int run = 0; run < runs; run++) {
			fault_plan plan = {0, 0, budgets[b], 0};

			o = search(threads, plan);
			ck_assert_int_gt(o.refused, 0);
			ck_assert_msg(o.result == EQUIX_POW_OK,
				      "%u threads within %ld bytes: %s",
				      threads, budgets[b],
				      equix_pow_result_string(o.result));
			assert_tor_proof(&o, "memory for one worker");
			ck_assert_int_eq(o.heaps, 1);
		}
	printf("memory_for_one_worker: %u threads within %ld and %ld bytes: "
	       "the proof, %d times each\n", threads, budgets[0], budgets[1],
	       runs);
}
END_TEST

/* The load address of the object holding `fn`. */
/* ---- The defence's queue and controller without memory ---------------- */

/* Arms the interposer: requests from the libraries numbered from 1, those
 * from `first` on refused. The counts start again at each arming and stay
 * readable after it. */
static void arm(long first)
{
	atomic_store(&refuse_first, first);
	atomic_store(&refuse_last, LONG_MAX);
	atomic_store(&budget, LONG_MAX);
	atomic_store(&refuse_threads, 0);
	atomic_store(&requests, 0);
	atomic_store(&refused, 0);
	atomic_store(&spent, 0);
	atomic_store(&largest, 0);
	atomic_store(&armed, 1);
}

/* Every request for memory from the libraries refused while armed. */
static void refuse_all(int on)
{
	if (on)
		arm(1);
	else
		atomic_store(&armed, 0);
}

/* Every request from the libraries numbered and granted while armed. */
static void count_all(void)
{
	arm(LONG_MAX);
}

static void count_discard(void *user, void *payload, uint32_t effort,
			  equix_pow_discard_reason reason)
{
	(void)payload;
	(void)effort;
	(void)reason;
	++*(int *)user;
}

/*
 * A queue or controller that cannot get its memory is NULL; an addition
 * that cannot grow the queue is EQUIX_POW_FAIL_NO_MEMORY and changes
 * nothing: the request is not queued, its payload is not handed to the
 * discard callback (it stays the caller's), and the requests already
 * queued are served as before.
 */
START_TEST(queue_without_memory)
{
	equix_pow_queue *q;
	equix_pow_queue_stats st;
	equix_pow_popped out;
	equix_pow_controller *ctl;
	equix_pow_result r;
	int discarded = 0;

	refuse_all(1);
	q = equix_pow_queue_alloc(0, 0, 0, count_discard, &discarded);
	refuse_all(0);
	ck_assert_ptr_null(q);
	ck_assert_int_gt(atomic_load(&refused), 0);

	q = equix_pow_queue_alloc(0, 0, 0, count_discard, &discarded);
	ck_assert_ptr_nonnull(q);
	/* Nothing of Check's runs while armed: it allocates too, and the
	 * interposer counts this program's requests with the libraries'. */
	refuse_all(1);
	ctl = equix_pow_controller_alloc(q, 0, 0, NULL, NULL);
	r = equix_pow_queue_add(q, 5, &discarded, 0);
	refuse_all(0);
	ck_assert_ptr_null(ctl);
	ck_assert_int_eq(r, EQUIX_POW_FAIL_NO_MEMORY);
	ck_assert_int_eq(equix_pow_queue_stats_get(q, &st), EQUIX_POW_OK);
	ck_assert_uint_eq(st.length, 0);
	ck_assert_uint_eq(st.added, 0);

	/* The first addition with memory, then more without until the
	 * array must grow (its size is the queue's business: the refused
	 * growth shows where it ends). */
	ck_assert_int_eq(equix_pow_queue_add(q, 1, NULL, 0), EQUIX_POW_OK);
	for (uint32_t e = 2;; e++) {
		refuse_all(1);
		r = equix_pow_queue_add(q, e, NULL, 0);
		refuse_all(0);
		if (r == EQUIX_POW_FAIL_NO_MEMORY)
			break;
		ck_assert_int_eq(r, EQUIX_POW_OK);
		ck_assert_uint_lt(e, EQUIX_POW_QUEUE_HIGH_LEVEL / 2);
	}
	ck_assert_int_eq(equix_pow_queue_stats_get(q, &st), EQUIX_POW_OK);
	ck_assert_uint_gt(st.length, 0);
	ck_assert_uint_eq(st.added, st.length);
	/* Served highest first, every one of them, and nothing discarded. */
	for (uint32_t want = st.length; want > 0; want--) {
		ck_assert_int_eq(equix_pow_queue_pop(q, 1, 0, &out),
				 EQUIX_POW_OK);
		ck_assert_int_eq(out.status, EQUIX_POW_POP_SERVED);
		ck_assert_uint_eq(out.effort, want);
	}
	ck_assert_int_eq(equix_pow_queue_pop(q, 1, 0, &out), EQUIX_POW_OK);
	ck_assert_int_eq(out.status, EQUIX_POW_POP_EMPTY);
	equix_pow_queue_free(q);
	ck_assert_int_eq(discarded, 0);
}
END_TEST

/*
 * At the largest rate and burst the high level would be 2^32 - 1 without
 * a cap, and the queue's array would grow with every request queued (32
 * bytes each on a 64-bit system: 1.5 GiB after 50 million). With the cap,
 * a queue trimmed at 65536 requests asks for at most 2 MiB at once
 * (EQUIX_POW_QUEUE_MAX_BYTES), however many are added: 98304 here, one
 * and a half times the cap.
 */
START_TEST(queue_memory_capped)
{
	const long cap_bytes = 2L << 20;
	equix_pow_queue *q;
	equix_pow_queue_stats st;
	equix_pow_result r = EQUIX_POW_OK;
	long added = 0;

	ck_assert_uint_eq(EQUIX_POW_QUEUE_MAX_BYTES, (size_t)cap_bytes);
	count_all();
	q = equix_pow_queue_alloc(UINT32_MAX, UINT32_MAX, 0, NULL, NULL);
	while (q != NULL && r == EQUIX_POW_OK && added < 98304)
		r = equix_pow_queue_add(q, (uint32_t)(added++ % 1000), NULL,
					0);
	refuse_all(0);
	ck_assert_ptr_nonnull(q);
	ck_assert_int_eq(r, EQUIX_POW_OK);
	ck_assert_int_eq(atomic_load(&refused), 0);
	ck_assert_msg(atomic_load(&largest) <= cap_bytes,
		      "one request for %ld bytes, the cap is %ld",
		      atomic_load(&largest), cap_bytes);
	ck_assert_int_eq(equix_pow_queue_stats_get(q, &st), EQUIX_POW_OK);
	ck_assert_uint_gt(st.trimmed, 0);
	ck_assert_uint_lt(st.length, 65536);
	equix_pow_queue_free(q);
}
END_TEST

static const void *base_of(void (*fn)(void))
{
	Dl_info info;
	void *p;

	memcpy(&p, &fn, sizeof p);
	if (dladdr(p, &info) == 0) {
		fprintf(stderr, "test_pow_faults: dladdr failed\n");
		exit(EXIT_FAILURE);
	}
	return info.dli_fbase;
}

/* Whether the interposer sees a search's allocations at all: not where
 * the libraries' calls are bound elsewhere first (valgrind replaces a
 * program's own malloc unless told --soname-synonyms=somalloc=
 * nouserintercepts, as make check-valgrind does). */
static bool interposable(void)
{
	uint8_t zero[EQUIX_POW_SEED_LEN] = {0};
	equix_pow_solution proof;
	equix_pow_result r;

	atomic_store(&budget, LONG_MAX);
	atomic_store(&requests, 0);
	atomic_store(&heaps, 0);
	atomic_store(&armed, 1);
	r = equix_pow_solve(zero, zero, 0, zero, NULL, &proof, NULL);
	atomic_store(&armed, 0);
	/* the solver heap's malloc among them */
	return r == EQUIX_POW_OK && atomic_load(&heaps) > 0;
}

/* Registers the cases that start threads, or says why they are skipped:
 * none under qemu-user (Debian 12's hangs in pthread_create), 2 threads
 * only under valgrind (4 take the same failure paths, minutes slower). */
static void add_threaded(TCase *threaded)
{
	int counts = (int)(sizeof thread_counts / sizeof thread_counts[0]);
	int until = tu_emulated() ? 1 : tu_valgrind() ? 2 : counts;
	const char *why = tu_emulated()
				  ? "threads do not start under the emulator"
				  : "under valgrind, 2 threads take the same "
				    "paths";

	tcase_add_loop_test(threaded, request_refused_once, 1, until);
	tcase_add_loop_test(threaded, requests_refused_from, 1, until);
	tcase_add_loop_test(threaded, memory_for_one_worker, 1, until);
	if (!tu_emulated())
		tcase_add_test(threaded, thread_starts_refused);
	else
		printf("SKIP: thread_starts_refused (%s)\n", why);
	for (int i = until; i < counts; i++) {
		printf("SKIP: request_refused_once, %u threads (%s)\n",
		       thread_counts[i], why);
		printf("SKIP: requests_refused_from, %u threads (%s)\n",
		       thread_counts[i], why);
		printf("SKIP: memory_for_one_worker, %u threads (%s)\n",
		       thread_counts[i], why);
	}
}

int main(void)
{
	Suite *s = suite_create("pow_faults");
	TCase *one = tcase_create("one_thread");
	/* tagged, so a ThreadSanitizer run picks them (CK_INCLUDE_TAGS) */
	TCase *threaded = tcase_create("threads");

	tu_skip_unless_reference_salt("test_pow_faults");
	/* Any function of libequix (equix_pow_solve_options_init is a
	 * macro now, doc/abi.md). */
	library_base =
		base_of((void (*)(void))equix_pow_solve_options_init_sized);
	program_base = base_of((void (*)(void))base_of);
	if (!interposable()) {
		printf("SKIP: test_pow_faults (the search's allocations do not "
		       "come to this program's malloc here)\n");
		return 77;
	}
	tcase_set_timeout(one, 240);
	tcase_set_timeout(threaded, 240);
	tcase_set_tags(threaded, "threads");
	tcase_add_loop_test(one, request_refused_once, 0, 1);
	tcase_add_loop_test(one, requests_refused_from, 0, 1);
	add_threaded(threaded);
	tcase_add_test(one, queue_without_memory);
	tcase_add_test(one, queue_memory_capped);
	suite_add_tcase(s, one);
	suite_add_tcase(s, threaded);
	return tu_run_suite(s);
}

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * library.c - the function tables of "ours" and "the reference".
 */
/* RTLD_DEEPBIND (glibc) */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "library.h"

/* The sanitizer runtimes refuse RTLD_DEEPBIND (the library's calls would
 * escape their interceptors) and end the program, so a build with ASan or
 * TSan loads without it: there the reference's calls to its own exported
 * functions may bind to this build's, which only a benchmark would
 * notice, and sanitizer builds are not for benchmarks. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define BENCH_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define BENCH_SANITIZED 1
#endif
#endif

/* RTLD_LOCAL, so that two builds of the same API sit side by side, and
 * RTLD_DEEPBIND where there is one, so that the reference's calls to its
 * own functions stay inside it. */
#if defined(RTLD_DEEPBIND) && !defined(BENCH_SANITIZED)
#define OPEN_FLAGS (RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND)
#else
#define OPEN_FLAGS (RTLD_NOW | RTLD_LOCAL)
#endif

const bench_library bench_library_ours = {
	.hashx_alloc = hashx_alloc,
	.hashx_make = hashx_make,
	.hashx_query_type = hashx_query_type,
	.hashx_exec = hashx_exec,
	.hashx_free = hashx_free,
	.hashx_size = HASHX_SIZE,
	.equix_alloc = equix_alloc,
	.equix_free = equix_free,
	.equix_solve = equix_solve,
	.equix_verify = equix_verify,
	.api = BENCH_API_TOR,
	.hashwx_alloc = hashwx_alloc,
	.hashwx_make = hashwx_make,
	.hashwx_exec = hashwx_exec,
	.hashwx_free = hashwx_free,
	.equix_v2 = EQUIX_CTX_V2,
};

/* Each function's name and place in the table, for dlsym. */
#define SYM(f) {#f, offsetof(bench_library, f)}
typedef struct sym {
	const char *name;
	size_t offset;
} sym;

static const sym equix_syms[] = {SYM(equix_alloc), SYM(equix_free),
				 SYM(equix_solve), SYM(equix_verify)};
static const sym hashx_syms[] = {SYM(hashx_alloc), SYM(hashx_make),
				 SYM(hashx_query_type), SYM(hashx_exec),
				 SYM(hashx_free)};
static const sym hashwx_syms[] = {SYM(hashwx_alloc), SYM(hashwx_make),
				  SYM(hashwx_exec), SYM(hashwx_free)};

/* Looks up n symbols of `path` into lib; NULL, or the first one missing
 * (`path` itself when it cannot be opened). */
static const char *lookup(const char *path, const sym *syms, size_t n,
			  bench_library *lib)
{
	void *h = dlopen(path, OPEN_FLAGS), *f;

	for (size_t i = 0; h != NULL && i < n; i++) {
		if ((f = dlsym(h, syms[i].name)) == NULL)
			return syms[i].name;
		/* object to function pointer, as POSIX allows for dlsym */
		memcpy((char *)lib + syms[i].offset, &f, sizeof f);
	}
	return h == NULL ? path : NULL;
}

int bench_library_load(const char *path, const char *hashx_path,
		       bench_library *lib)
{
	const char *missing;
	bench_library with_hashx;

	memset(lib, 0, sizeof *lib);
	/* Until bench_library_probe() knows better: Tor's API, and the
	 * flag our equix.h gives v2. */
	lib->api = BENCH_API_TOR;
	lib->equix_v2 = EQUIX_CTX_V2;
	if ((missing = lookup(path, equix_syms, 4, lib)) != NULL) {
		if (missing == path)
			fprintf(stderr, "equix-bench: %s\n", dlerror());
		else
			fprintf(stderr, "equix-bench: %s has no %s\n", path,
				missing);
		return -1;
	}
	/* The HashX functions, all five or none: Tor's CMake build of
	 * libequix.so keeps them internal, other builds may export them,
	 * and --reference-hashx can name a separate libhashx.so. The
	 * reference compiles HashX with HASHX_SIZE 8, a prefix of every
	 * size: 8 bytes are compared. */
	memcpy(&lib->equix_solve_tevador, &lib->equix_solve,
	       sizeof lib->equix_solve);
	with_hashx = *lib;
	with_hashx.hashx_size = 8;
	if (lookup(hashx_path != NULL ? hashx_path : path, hashx_syms, 5,
		   &with_hashx) == NULL) {
		*lib = with_hashx;
		return 0;
	}
	if (hashx_path == NULL)
		return 0;
	fprintf(stderr, "equix-bench: %s does not export the hashx_* functions\n",
		hashx_path);
	return -1;
}

int bench_library_load_hashwx(const char *path, bench_library *lib)
{
	bench_library with = *lib;
	const char *missing = lookup(path, hashwx_syms, 4, &with);

	if (missing == NULL) {
		*lib = with;
		return 0;
	}
	if (missing == path)
		fprintf(stderr, "equix-bench: %s\n", dlerror());
	else
		fprintf(stderr, "equix-bench: %s has no %s\n", path, missing);
	return -1;
}

/* ---- The two APIs ------------------------------------------------- */

/* tevador's flags (his equix.h on the equix_v2 branch). */
enum {
	TEV_SOLVE = 1,
	TEV_COMPILE = 2,
	TEV_HUGEPAGES = 4,
};
/* His EQUIX_NOTSUPP: the context type is impossible here. */
#define TEV_NOTSUPP ((equix_ctx *)-1)

/* Tor's flags, and EQUIX_CTX_V2, as tevador's; `compile` says whether
 * to ask for compiled hashing (both MUST_ and TRY_COMPILE do). */
static int tevador_flags(const bench_library *lib, int flags, bool compile)
{
	int t = 0;

	if (flags & EQUIX_CTX_SOLVE)
		t |= TEV_SOLVE;
	if (compile)
		t |= TEV_COMPILE;
	if (flags & EQUIX_CTX_HUGEPAGES)
		t |= TEV_HUGEPAGES;
	if (flags & EQUIX_CTX_V2)
		t |= lib->equix_v2;
	return t;
}

equix_ctx *bench_equix_alloc(const bench_library *lib, int flags)
{
	equix_ctx *ctx;

	if (lib->api == BENCH_API_TOR) {
		if ((flags & EQUIX_CTX_V2) && lib->equix_v2 != EQUIX_CTX_V2)
			flags = (flags & ~EQUIX_CTX_V2) | lib->equix_v2;
		return lib->equix_alloc((equix_ctx_flags)flags);
	}
	ctx = lib->equix_alloc((equix_ctx_flags)tevador_flags(
		lib, flags,
		(flags & (EQUIX_CTX_MUST_COMPILE | EQUIX_CTX_TRY_COMPILE)) != 0));
	/* TRY_COMPILE: his interpreter where he cannot compile. */
	if (ctx == TEV_NOTSUPP && (flags & EQUIX_CTX_TRY_COMPILE) &&
	    !(flags & EQUIX_CTX_MUST_COMPILE))
		ctx = lib->equix_alloc(
			(equix_ctx_flags)tevador_flags(lib, flags, false));
	return ctx == TEV_NOTSUPP ? NULL : ctx;
}

equix_result bench_equix_solve(const bench_library *lib, equix_ctx *ctx,
			       const void *challenge, size_t size,
			       equix_solutions_buffer *out)
{
	static const equix_solution zero;
	int n;

	if (lib->api == BENCH_API_TOR)
		return lib->equix_solve(ctx, challenge, size, out);
	n = lib->equix_solve_tevador(ctx, challenge, size, out->sols);
	out->flags = 0;
	out->count = n < 0 ? 0 : (unsigned)n;
	/* His solver reports a challenge without a HashX function as no
	 * solutions; his verifier tells it apart (EQUIX_CHALLENGE is
	 * Tor's EQUIX_FAIL_CHALLENGE, 1). */
	if (n <= 0 && lib->equix_verify(ctx, challenge, size, &zero) ==
			      EQUIX_FAIL_CHALLENGE)
		return EQUIX_FAIL_CHALLENGE;
	return EQUIX_OK;
}

/* ---- Probing ------------------------------------------------------ */

/* The first vector of `x` (n of them) with a solution. */
static const bench_equix_vec *first_solved(const bench_equix_vec *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (x[i].ok && x[i].count > 0)
			return &x[i];
	return NULL;
}

/* Tor's equix_solve returns EQUIX_OK (0) and fills the buffer's count;
 * tevador's returns the count and writes the solutions from the buffer's
 * start, which Tor's buffer has room for. A solve with his v2 flag (8)
 * of a v2 challenge that has solutions tells them apart: his gives the
 * recorded v2 solutions, Tor's reads 8 as HUGEPAGES and solves v1. */
static int probe_api(bench_library *lib, const bench_equix_vec *x)
{
	equix_solutions_buffer b;
	equix_ctx *ctx = lib->equix_alloc(EQUIX_CTX_SOLVE | 8);
	int n;

	if (ctx == NULL || ctx == TEV_NOTSUPP)
		ctx = lib->equix_alloc(EQUIX_CTX_SOLVE);
	if (ctx == NULL || ctx == TEV_NOTSUPP) {
		fprintf(stderr, "equix-bench: the reference's equix_alloc "
				"fails\n");
		return -1;
	}
	memset(&b, 0, sizeof b);
	/* The whole buffer: Tor's fills all of it, tevador's its first
	 * 8 solutions' worth. */
	n = lib->equix_solve_tevador(ctx, x->challenge, x->len,
				     (equix_solution *)(void *)&b);
	lib->equix_free(ctx);
	if (n == (int)x->count &&
	    memcmp(&b, x->sols, x->count * sizeof b.sols[0]) == 0) {
		lib->api = BENCH_API_TEVADOR;
		lib->equix_v2 = 8; /* his EQUIX_V2 */
		/* His build's v1 path is a shim over Tor's HashX, and it
		 * refuses Tor's v1 challenges: no Tor v1 to time. */
		snprintf(lib->no_v1, sizeof lib->no_v1,
			 "tevador's equix_v2 library: its v1 path is not "
			 "Tor's Equi-X (time v1 with Tor's libequix)");
		return 0;
	}
	if (n == EQUIX_OK && b.count <= EQUIX_MAX_SOLS) {
		lib->api = BENCH_API_TOR;
		return 0;
	}
	fprintf(stderr, "equix-bench: the reference's equix_solve follows "
			"neither Tor's equix.h nor tevador's, or its v2 "
			"solutions differ from the vectors\n");
	return -1;
}

/* Whether the v2 flag gives Equi-X v2: a context it makes must not
 * accept a v1 solution (which a library ignoring the flag, or reading it
 * as something else, does). */
static void probe_v2(bench_library *lib, const bench_equix_vec *x)
{
	int flag = lib->equix_v2;
	equix_ctx *ctx = bench_equix_alloc(lib, EQUIX_CTX_V2);
	equix_result r;

	if (ctx == NULL) {
		snprintf(lib->no_v2, sizeof lib->no_v2,
			 "no Equi-X v2: equix_alloc refuses the v2 flag %d",
			 flag);
		lib->equix_v2 = 0;
		return;
	}
	r = lib->equix_verify(ctx, x->challenge, x->len, &x->sols[0]);
	lib->equix_free(ctx);
	if (r == EQUIX_OK) {
		snprintf(lib->no_v2, sizeof lib->no_v2,
			 "no Equi-X v2: with the v2 flag %d the library "
			 "still does v1",
			 flag);
		lib->equix_v2 = 0;
	}
}

int bench_library_probe(bench_library *lib, const bench_vectors *v)
{
	const bench_equix_vec *x = first_solved(v->equix, v->n_equix);
	const bench_equix_vec *x2 = first_solved(v->equixv2, v->n_equixv2);

	if (x == NULL) {
		fprintf(stderr, "equix-bench: no solved challenge among the "
				"vectors\n");
		return -1;
	}
	/* This build's own table has no tevador pointer: its API is
	 * known. Without v2 vectors only Tor's can be recognised. */
	if (lib->equix_solve_tevador != NULL && x2 != NULL &&
	    probe_api(lib, x2) < 0)
		return -1;
	if (lib->api == BENCH_API_TOR)
		probe_v2(lib, x);
	return 0;
}

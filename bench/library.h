/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * library.h - the functions a benchmark calls, as a table: this build's
 * libhashx, libhashwx and libequix (linked), or a reference libequix.so
 * (and libhashx.so, libhashwx.so) loaded with dlopen beside them.
 *
 * Two equix.h exist: Tor's (ours follows it: equix_solve fills an
 * equix_solutions_buffer, EQUIX_CTX_TRY_COMPILE 4, HUGEPAGES 8) and
 * tevador's (his equix_v2 branch: equix_solve returns the count and
 * fills an array, EQUIX_CTX_COMPILE 2, HUGEPAGES 4, EQUIX_V2 8, and
 * EQUIX_NOTSUPP for an impossible context). The benchmarks speak Tor's
 * (with our EQUIX_CTX_V2) and call through bench_equix_alloc() and
 * bench_equix_solve(), which translate for tevador's.
 */
#ifndef EQUIX_BENCH_LIBRARY_H
#define EQUIX_BENCH_LIBRARY_H

#include <stddef.h>

#include <equix.h>
#include <hashwx.h>
#include <hashx.h>

#include "vectors.h"

/* Whose equix.h a library's equix_* functions follow. */
typedef enum bench_api {
	BENCH_API_TOR,     /* Tor's, as this build's */
	BENCH_API_TEVADOR, /* tevador's equix_v2 branch */
} bench_api;

typedef struct bench_library {
	/* HashX: NULL pointers when the library exports no hashx_*. */
	hashx_ctx *(*hashx_alloc)(hashx_type);
	hashx_result (*hashx_make)(hashx_ctx *, const void *, size_t);
	hashx_result (*hashx_query_type)(hashx_ctx *, hashx_type *);
	hashx_result (*hashx_exec)(const hashx_ctx *, uint64_t, void *);
	void (*hashx_free)(hashx_ctx *);
	/* Bytes of hashx_exec output compared with the vectors. */
	size_t hashx_size;
	equix_ctx *(*equix_alloc)(equix_ctx_flags);
	void (*equix_free)(equix_ctx *);
	equix_result (*equix_solve)(equix_ctx *, const void *, size_t,
				    equix_solutions_buffer *);
	equix_result (*equix_verify)(equix_ctx *, const void *, size_t,
				     const equix_solution *);
	/* tevador's equix_solve (the same symbol, another type), used when
	 * api is BENCH_API_TEVADOR. */
	int (*equix_solve_tevador)(equix_ctx *, const void *, size_t,
				   equix_solution *);
	bench_api api;
	/* HashWX: NULL pointers when there is none. The reference's
	 * hashwx_type values are ours (0 interpreted, 1 compiled). */
	hashwx_ctx *(*hashwx_alloc)(hashwx_type);
	void (*hashwx_make)(hashwx_ctx *, const uint8_t *);
	uint64_t (*hashwx_exec)(const hashwx_ctx *, uint64_t);
	void (*hashwx_free)(hashwx_ctx *);
	/* Equi-X v2: the context flag that asks for it (ours EQUIX_CTX_V2,
	 * tevador's 8), or 0 when bench_library_probe() found the library
	 * without it; then no_v2 says why. */
	int equix_v2;
	char no_v2[160];
	/* Not empty: the v1 Equi-X rows are skipped, for this reason. */
	char no_v1[160];
} bench_library;

/* This build's libraries. */
extern const bench_library bench_library_ours;

/* A reference libequix.so at `path`: the equix_* functions are required
 * (-1 after a one-line message when missing), the hashx_* ones used when
 * the object exports them all, or taken from `hashx_path` (a reference
 * libhashx.so, required to have them) when that is not NULL. */
int bench_library_load(const char *path, const char *hashx_path,
		       bench_library *lib);

/* The reference's HashWX functions from `path` (his libhashwx.so): -1
 * after a one-line message when it lacks them. */
int bench_library_load_hashwx(const char *path, bench_library *lib);

/* Finds out, by running it on the v1 vectors, whose equix.h the library
 * follows and whether it does Equi-X v2 (a library that takes the v2
 * flag but verifies a v1 solution with it, as Tor's v1 libequix does, has
 * no v2). -1 after a one-line message when it follows neither API. */
int bench_library_probe(bench_library *lib, const bench_vectors *v);

/* equix_alloc with Tor's flags (and EQUIX_CTX_V2) translated for the
 * library; NULL when it cannot make such a context. */
equix_ctx *bench_equix_alloc(const bench_library *lib, int flags);

/* equix_solve, into Tor's buffer, for either API. */
equix_result bench_equix_solve(const bench_library *lib, equix_ctx *ctx,
			       const void *challenge, size_t size,
			       equix_solutions_buffer *out);

#endif

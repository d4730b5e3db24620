/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * library.h - the functions a benchmark calls, as a table: this build's
 * libhashx and libequix (linked), or a reference libequix.so loaded with
 * dlopen beside them.
 */
#ifndef EQUIX_BENCH_LIBRARY_H
#define EQUIX_BENCH_LIBRARY_H

#include <stddef.h>

#include <equix.h>
#include <hashx.h>

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
} bench_library;

/* This build's libraries. */
extern const bench_library bench_library_ours;

/* A reference libequix.so at `path`: the equix_* functions are required
 * (-1 after a one-line message when missing), the hashx_* ones used when
 * the object exports them all, or taken from `hashx_path` (a reference
 * libhashx.so, required to have them) when that is not NULL. */
int bench_library_load(const char *path, const char *hashx_path,
		       bench_library *lib);

#endif

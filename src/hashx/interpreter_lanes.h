/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * interpreter_lanes.h - the interpreter on 8 inputs at once, for the few
 * hashes of an Equi-X verification: one walk of the program
 * (interpreter_lanes_walk.h) in AVX-512 lanes or in AVX2 lanes.
 */
#ifndef HASHX_INTERPRETER_LANES_H
#define HASHX_INTERPRETER_LANES_H

#include <stdbool.h>
#include <stdint.h>

#include "batch.h"
#include "program.h"
#include "siphash.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define HASHX_HAVE_LANES 1
#else
#define HASHX_HAVE_LANES 0
#endif

/*
 * The whole hash (input expansion with `key`, `prog`, finalization) of
 * input[l] for each lane l: word j of its 32 bytes, as a little-endian
 * integer, goes to out[j][l].
 */
typedef void hashx_lanes8_fn(const hashx_program *prog,
			     const hashx_sip_state *key,
			     const uint64_t input[8], uint64_t out[4][8]);

/* One way of running them, for the tests that try every way. */
typedef struct hashx_lanes_impl {
	const char *name;
	bool (*available)(void); /* this CPU and OS run `hash` */
	hashx_lanes8_fn *hash;
} hashx_lanes_impl;

#define HASHX_LANES_IMPL_COUNT 2

#if HASHX_HAVE_LANES
/* AVX-512 F and DQ, then AVX2. */
extern const hashx_lanes_impl hashx_lanes_impls[HASHX_LANES_IMPL_COUNT];

hashx_lanes8_fn hashx_lanes8_avx512;
hashx_lanes8_fn hashx_lanes8_avx2;

/*
 * The lanes an interpreted context whose implementation is `impl` hashes
 * a verification's 8 inputs in, or NULL for one input at a time.
 */
hashx_lanes8_fn *hashx_lanes_for(hashx_impl impl);
#else
static inline hashx_lanes8_fn *hashx_lanes_for(hashx_impl impl)
{
	(void)impl;
	return NULL;
}
#endif

#endif

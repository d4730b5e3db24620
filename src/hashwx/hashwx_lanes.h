/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hashwx_lanes.h - the HashWX interpreter on 8 nonces at once, for the
 * many hashes of one instance that Equi-X v2 asks for (its solver hashes
 * nonces 0..65535, its verifier 8): one walk of the 32 programs
 * (hashwx_lanes_walk.h) in AVX-512 lanes, in C with intrinsics, so that
 * every instance runs without generating code.
 */
#ifndef HASHWX_LANES_H
#define HASHWX_LANES_H

#include <stdint.h>

#include "hashwx_interpreter.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define HASHWX_HAVE_LANES 1
#else
#define HASHWX_HAVE_LANES 0
#endif

#define HASHWX_LANES 8
/* The most groups of 8 lanes one call runs interleaved. */
#define HASHWX_LANES_GROUPS 2

/* out[i] = the hash of nonce[i] under `inst`, for i below 8 * groups;
 * groups is 1 or 2 (HASHWX_LANES_GROUPS). */
typedef void hashwx_lanes8_fn(const hashwx_instance *inst,
			      const uint64_t *nonce, unsigned groups,
			      uint64_t *out);

#if HASHWX_HAVE_LANES
/* AVX-512 F and DQ (vpmullq); the facade (src/facade/hashwx.c) asks the
 * CPU first. */
hashwx_lanes8_fn hashwx_lanes8_avx512;
#endif

#endif

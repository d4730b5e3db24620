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

/* out[l] = the hash of nonce[l] under `inst`, for each lane l. */
typedef void hashwx_lanes8_fn(const hashwx_instance *inst,
			      const uint64_t nonce[HASHWX_LANES],
			      uint64_t out[HASHWX_LANES]);

#if HASHWX_HAVE_LANES
/* AVX-512 F and DQ (vpmullq); the facade (src/facade/hashwx.c) asks the
 * CPU first. */
hashwx_lanes8_fn hashwx_lanes8_avx512;
#endif

#endif

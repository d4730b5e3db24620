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

#if HASHX_HAVE_LANES
/* AVX-512 F and DQ, and AVX2 (which a context uses, and the table of both
 * for tests: src/facade/dispatch.c). */
hashx_lanes8_fn hashx_lanes8_avx512;
hashx_lanes8_fn hashx_lanes8_avx2;
#endif

#endif

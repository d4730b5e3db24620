/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * interpreter_lanes.h - the interpreter on 8 inputs at once (AVX-512
 * lanes), for the few hashes of an Equi-X verification.
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

#if HASHX_HAVE_LANES
/* Whether this CPU and OS run hashx_lanes8_hash (AVX-512 F and DQ). */
bool hashx_lanes_available(void);

/*
 * The whole hash (input expansion with `key`, `prog`, finalization) of
 * input[l] for each lane l: word j of its 32 bytes, as a little-endian
 * integer, goes to out[j][l]. Only where hashx_lanes_available().
 */
void hashx_lanes8_hash(const hashx_program *prog, const hashx_sip_state *key,
		       const uint64_t input[8], uint64_t out[4][8]);
#else
static inline bool hashx_lanes_available(void)
{
	return false;
}
#endif

#endif

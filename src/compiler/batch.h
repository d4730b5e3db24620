/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * batch.h - one HashX function evaluated on many consecutive inputs at
 * once, in the lanes of vector registers (the solver's hot path).
 *
 * A solve evaluates the same program on 65,536 inputs. One input at a
 * time, a core runs the program's 192 multiplications on its single
 * scalar multiplier; in vector lanes, one instruction multiplies 4 (AVX2)
 * or 8 (AVX-512) inputs' registers. The batch form compiles the whole
 * hash (SipHash input expansion, the program with per-lane branch masks,
 * finalization) into one function that hashes `groups` groups of `lanes`
 * consecutive inputs.
 *
 * Output layout, for group g, output word j (0..3, the 32-byte hash as
 * four little-endian words) and lane l:
 *
 *     out[(g * 4 + j) * lanes + l] = word j of hash(first + g * lanes + l)
 *
 * so the solver, which needs word 0 only, reads `lanes` words in a row.
 */
#ifndef HASHX_BATCH_H
#define HASHX_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef void hashx_batch_fn(uint64_t first, size_t groups, uint64_t *out);

typedef struct hashx_batch {
	hashx_batch_fn *fn; /* NULL: not compiled */
	unsigned lanes;     /* inputs per group */
} hashx_batch;

/*
 * The fused form of stage 0 (compiler.h's HASHX_FORM_BATCH_SCATTER): the
 * same loop, but each group's word-0 hashes go straight into the scatter
 * table built into the code (scatter.h's rule, in input order),
 * and nothing is written to an output. It hashes whole groups only: the
 * caller does the last inputs of a range that is not a multiple of
 * `lanes`.
 */
typedef void hashx_batch_scatter_fn(uint64_t first, size_t groups);

typedef struct hashx_batch_scatter {
	hashx_batch_scatter_fn *fn; /* NULL: not compiled */
	unsigned lanes;
} hashx_batch_scatter;

/* Most lanes any batch implementation uses per group. */
#define HASHX_BATCH_MAX_LANES 24

/* These forms are compiled from a back-end's description
 * (batch_backend.h: hashx_compile_batch, hashx_compile_batch_scatter),
 * which the facade's table of implementations names for each one
 * (src/facade/dispatch.c). */

#endif

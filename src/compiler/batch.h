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
 * (The hybrid's group is its 4 vector lanes, then its scalar input.)
 */
#ifndef HASHX_BATCH_H
#define HASHX_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "code_buffer.h"
#include "hashx_internal.h"
#include "cpu.h"
#include "program.h"
#include "siphash.h"

/* The ways this library can evaluate a HashX function (the table in
 * dispatch.c says what each is; their order means nothing). */
typedef enum hashx_impl {
	HASHX_IMPL_PORTABLE, /* the interpreter, one input at a time */
	HASHX_IMPL_SCALAR,   /* the scalar JIT (compiler.h), one at a time */
	HASHX_IMPL_AVX2,     /* batch JIT, 256-bit vectors */
	HASHX_IMPL_AVX512,   /* batch JIT, 512-bit vectors (F + DQ) */
	HASHX_IMPL_HYBRID2,  /* batch JIT, 4 AVX2 lanes + 1 scalar input */
	HASHX_IMPL_COUNT
} hashx_impl;

typedef void hashx_batch_fn(uint64_t first, size_t groups, uint64_t *out);

typedef struct hashx_batch {
	hashx_batch_fn *fn; /* NULL: not compiled */
	unsigned lanes;     /* inputs per group */
} hashx_batch;

/*
 * The fused form of stage 0 (compiler.h's HASHX_FORM_BATCH_SCATTER): the
 * same loop, but each group's word-0 hashes go straight into the scatter
 * table built into the code (hashx_internal.h's rule, in input order),
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

/*
 * Compiles the batch form of `prog` for input key `key` with `impl` (one
 * for which hashx_impl_batches()) into `buf`. False when this build or
 * CPU has no such code generator or the system refuses executable
 * memory. The generators are per architecture (batch_backend.h).
 */
bool hashx_compile_batch(const hashx_program *prog, const hashx_sip_state *key,
			 hashx_impl impl, hashx_code_buffer *buf,
			 hashx_batch *out);

/* The fused form of `impl` into table `t`; false, and nothing compiled,
 * also when the back-end has none (hashx_impl_scatters). */
bool hashx_compile_batch_scatter(const hashx_program *prog,
				 const hashx_sip_state *key, hashx_impl impl,
				 const hashx_scatter *t,
				 hashx_code_buffer *buf,
				 hashx_batch_scatter *out);

/* The name used in HASHX_IMPL and in reports ("portable", "scalar",
 * "avx2", "avx512", "hybrid2"), and back; HASHX_IMPL_COUNT for an unknown name. */
const char *hashx_impl_name(hashx_impl impl);
hashx_impl hashx_impl_from_name(const char *name);

/* Whether this build and this CPU (and OS) can run `impl`. */
bool hashx_impl_available(hashx_impl impl);

/* Whether `impl` hashes with compiled code (the scalar JIT's forms or a
 * batch form), and whether it has a batch form (hashx_compile_batch). */
bool hashx_impl_uses_jit(hashx_impl impl);
bool hashx_impl_batches(hashx_impl impl);
/* Whether `impl`'s batch back-end has the fused stage 0 form. */
bool hashx_impl_scatters(hashx_impl impl);

/*
 * The implementation compiled contexts use: the one named by the
 * environment variable HASHX_IMPL if available here, else the first
 * available in the order measured fastest on this class of CPU (impl.c).
 * Decided once per process; thread-safe.
 */
hashx_impl hashx_impl_default(void);

/* The same choice made afresh, and in `*why` (unless NULL) the reason, as
 * a sentence for reports such as equix-bench's first line. */
hashx_impl hashx_impl_choose(const char **why);

/* The k-th implementation (from 0) in the order measured for CPU `id`,
 * with or without AVX-512, whether available or not; HASHX_IMPL_COUNT past
 * its end. `*why` (unless NULL): the measurement behind that order. */
hashx_impl hashx_impl_order_for(hashx_cpu_id id, bool avx512, size_t k,
				const char **why);

#endif

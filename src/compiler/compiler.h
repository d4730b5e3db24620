/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * compiler.h - translating a HashX program to native code.
 *
 * A compiled program is a function in one of four forms (hashx_form):
 * the register file run in place (what the interpreter does, for tests),
 * the whole hash of one input, the scatter form that hashes a range of
 * inputs into Equi-X's first bucket table, and the batch form of the
 * vector back-ends (batch.h) that hashes groups of inputs, plain or
 * with the bucket table's update in its loop. Which scalar
 * emitter exists is decided at configure time from the host CPU
 * (HASHX_JIT_X86_64, HASHX_JIT_AARCH64), or is the WebAssembly one for
 * the JavaScript package's core (HASHX_JIT_WASM); elsewhere every compile function
 * fails and the interpreter runs.
 */
#ifndef HASHX_COMPILER_H
#define HASHX_COMPILER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "code_buffer.h"
#include "program.h"
#include "scatter.h"
#include "siphash.h"

/* Register-file form: runs the program on r[0..7] in place. */
typedef void hashx_compiled_fn(uint64_t r[8]);

/* Whole-hash form: input expansion, program and finalization with the
 * key built in; writes the 32-byte hash and returns its first 8 bytes as a
 * little-endian integer. What hashx_exec() calls. */
typedef uint64_t hashx_hash_fn(uint64_t input, uint8_t out[32]);

/* Scatter form: hashes first .. first + n - 1 into the table built into
 * the code (scatter.h: Equi-X's stage 0). */
typedef void hashx_scatter_fn(uint64_t first, size_t n);

/* The output words the scatter form computes (bit j: word j, as in
 * finalize.h's hashx_finalize_steps): the table's v is word 0 alone. */
#define HASHX_SCATTER_WORDS (1u << 0)

/* Whether this build has a code generator at all (native, or WebAssembly
 * modules for the host to compile: wasm.c). */
#if defined(HASHX_JIT_X86_64) || defined(HASHX_JIT_AARCH64) ||          \
	defined(HASHX_JIT_WASM)
#define HASHX_HAVE_COMPILER 1
#else
#define HASHX_HAVE_COMPILER 0
#endif

/* Whether hashx_compile_scatter() can succeed (elsewhere the solver
 * hashes one input at a time). */
#if defined(HASHX_JIT_X86_64) || defined(HASHX_JIT_AARCH64) ||          \
	defined(HASHX_JIT_WASM)
#define HASHX_HAVE_SCATTER 1
#else
#define HASHX_HAVE_SCATTER 0
#endif

/* The shapes of compiled function (the typedefs above; batch.h has the
 * batch form's). */
typedef enum hashx_form {
	HASHX_FORM_REGFILE,
	HASHX_FORM_HASH,
	HASHX_FORM_SCATTER,
	HASHX_FORM_BATCH,
	/* the batch form with stage 0 fused into its loop (batch.h's
	 * hashx_batch_scatter_fn; a back-end's `scatters`) */
	HASHX_FORM_BATCH_SCATTER,
} hashx_form;

/*
 * What every code generator is asked to emit, and the one argument the
 * shared builder hands to it: the program, the form, the input key (all
 * forms but the register file), the scatter table (scatter form). The
 * emitter sets `entry`, the offset of the function's first instruction
 * from the buffer's start (a constant pool may come first).
 */
typedef struct hashx_compile_job {
	const hashx_program *prog;
	hashx_form form;
	const hashx_sip_state *key;
	const hashx_scatter *scatter;
	size_t entry;
} hashx_compile_job;

/*
 * For the code generators: fills `buf` (at least `capacity` bytes) with
 * emit(start, end, job), which must stay within [start, end) and return
 * the end of what it wrote, or NULL if it does not fit; the buffer is
 * writable but never executable while emit runs. Returns the function's
 * first instruction (buffer start + job->entry), read-execute, or NULL;
 * buf->used tells how much was written.
 */
typedef uint8_t *hashx_emit_fn(uint8_t *start, uint8_t *end,
			       hashx_compile_job *job);
void *hashx_compiler_build(hashx_code_buffer *buf, size_t capacity,
			   hashx_emit_fn *emit, hashx_compile_job *job);

/*
 * What each code generator implements (x86_64.c, aarch64.c, wasm.c,
 * none.c):
 * compiles `prog` in `form` (`key` for the hash and scatter forms, `t` for
 * scatter) into `buf`; returns the code's start, or NULL when the form is
 * not available here or the system refuses executable memory.
 */
void *hashx_arch_compile(const hashx_program *prog, hashx_form form,
			 const hashx_sip_state *key, const hashx_scatter *t,
			 hashx_code_buffer *buf);

/*
 * Compiles `prog` into `buf` (mapping it on first use) and leaves the
 * buffer read-execute. Returns the function, or NULL when there is no
 * compiler or the system refuses executable memory.
 */
hashx_compiled_fn *hashx_compile(const hashx_program *prog,
				 hashx_code_buffer *buf);

/* The same in whole-hash form for the input key `key` (hashx_keys.input). */
hashx_hash_fn *hashx_compile_hash(const hashx_program *prog,
				  const hashx_sip_state *key,
				  hashx_code_buffer *buf);

/* The same in scatter form, into table `t`. */
hashx_scatter_fn *hashx_compile_scatter(const hashx_program *prog,
					const hashx_sip_state *key,
					const hashx_scatter *t,
					hashx_code_buffer *buf);

#endif

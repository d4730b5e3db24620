/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * code_size.h - the most code each generator writes for one program.
 *
 * Every emitter asks its buffer for `capacity` bytes (mapped in whole
 * pages) and checks its room while it writes: code that would not fit
 * makes the compilation fail, and the caller falls back (batch form, then
 * the scalar JIT, then the interpreter); nothing is written past the
 * buffer. Each emitter derives its figures next to its code and publishes
 * them here (a batch back-end in its description, batch_backend.h), so
 * that tests/test_code_size.c can measure every part, build the largest
 * programs and check them against these numbers.
 *
 * For the scalar emitters and AVX2, capacity = fixed + HASHX_PROGRAM_SIZE
 * * per_instr exactly: any program of HASHX_PROGRAM_SIZE instructions
 * fits. AVX-512 also copies each BRANCH's block (the instructions since
 * its TARGET) for the lanes that take it, so its code grows with branches
 * times block length; its capacity covers the branches of every program
 * the generator makes (program.h), and bigger programs fail to compile.
 */
#ifndef HASHX_CODE_SIZE_H
#define HASHX_CODE_SIZE_H

#include <stddef.h>

typedef struct hashx_code_bounds {
	size_t capacity;  /* bytes asked of the buffer */
	size_t fixed;     /* entry and exit code, constant pool, alignment */
	size_t per_instr; /* one HashX instruction in every way it is
			   * emitted, with what a BRANCH adds out of line
			   * and its pool entry; for AVX-512 not counting the
			   * block a BRANCH copies */
} hashx_code_bounds;

#if defined(HASHX_JIT_X86_64)
extern const hashx_code_bounds hashx_x86_64_code_bounds;
#elif defined(HASHX_JIT_AARCH64)
extern const hashx_code_bounds hashx_aarch64_code_bounds;
/* HashWX's compiler: a whole instance of 2 x 32 programs, so capacity =
 * fixed + 2 * HASHWX_PROGRAMS * HASHWX_PROGRAM_SIZE * per_instr (per_instr
 * the costliest slot; fixed also holds each program's stores). */
extern const hashx_code_bounds hashwx_aarch64_code_bounds;
#elif defined(HASHX_JIT_WASM)
extern const hashx_code_bounds hashx_wasm_code_bounds;
#endif

#endif

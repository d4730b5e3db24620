/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hashwx_compiler.h - HashWX instances to native code: the one interface
 * the facade (src/facade/hashwx.c) sees, whatever the architecture.
 *
 * A compiled instance is the whole hash of one nonce: the register
 * initialisation from the hash key, both phases over the 32 programs
 * (with the 2 KiB memory on the function's own stack), and the
 * finalization, bit for bit hashwx_interpret()'s. The code goes into a
 * W^X code buffer (code_buffer.h), under the same rules as HashX's.
 */
#ifndef HASHWX_COMPILER_H
#define HASHWX_COMPILER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "code_buffer.h"
#include "hashwx_interpreter.h"

/* A compiled instance. */
typedef uint64_t hashwx_hash_fn(uint64_t nonce);

/* Whether this build and CPU have a HashWX compiler. */
bool hashwx_compiler_available(void);

/* Compiles `inst` into `code` (mapping or reusing it); NULL when there is
 * no compiler or the system refuses executable memory. */
hashwx_hash_fn *hashwx_compile(const hashwx_instance *inst,
			       hashx_code_buffer *code);

/*
 * The code-size contract (code_size.h's, for HashWX): the compiler asks
 * its buffer for `capacity` bytes, checks its room before the entry, each
 * program and the exit, and fails (NULL: the facade interprets) rather
 * than write past the end. capacity = fixed + HASHWX_PROGRAMS *
 * per_program, where per_program covers one program in both phases in
 * every way it can be emitted; tests/test_hashwx_compiler.c compiles the
 * largest instances against it.
 */
typedef struct hashwx_code_bounds {
	size_t capacity;    /* bytes asked of the buffer */
	size_t fixed;       /* entry (register start) and exit code */
	size_t per_program; /* one program, write and read phase */
} hashwx_code_bounds;

#if defined(HASHX_JIT_X86_64)
extern const hashwx_code_bounds hashwx_x86_64_code_bounds;
#endif

#endif

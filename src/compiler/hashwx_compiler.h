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

#endif

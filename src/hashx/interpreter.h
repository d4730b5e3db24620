/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * interpreter.h - running a HashX program without native code.
 */
#ifndef HASHX_INTERPRETER_H
#define HASHX_INTERPRETER_H

#include <stdint.h>

#include "program.h"

/*
 * Run `prog` on the register file `r` (semantics in program.h). The
 * portable version is the reference path, built everywhere; the threaded
 * one needs GNU C's computed goto and is much faster. Both are tested
 * against each other and against the vectors.
 */
void hashx_interpret_portable(const hashx_program *prog, uint64_t r[8]);

#if defined(__GNUC__) && !defined(HASHX_PORTABLE_INTERPRETER)
#define HASHX_HAVE_THREADED_INTERPRETER 1
void hashx_interpret_threaded(const hashx_program *prog, uint64_t r[8]);
#else
#define HASHX_HAVE_THREADED_INTERPRETER 0
#endif

/* The fastest interpreter this build has. */
static inline void hashx_interpret(const hashx_program *prog, uint64_t r[8])
{
#if HASHX_HAVE_THREADED_INTERPRETER
	hashx_interpret_threaded(prog, r);
#else
	hashx_interpret_portable(prog, r);
#endif
}

#endif

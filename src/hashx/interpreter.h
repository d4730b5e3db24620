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

/*
 * The paired form: a program pre-decoded once (by the first hash that
 * interprets it: the facade's pairs_cache.h) into
 * elements of one or two instructions, each run by its own handler. The
 * threaded interpreter's cost is its indirect jumps, one per instruction,
 * which the branch predictor misses often on some CPUs (about 10 cycles
 * per instruction on an AMD Zen 3); pairs halve their number, and a
 * handler decodes nothing: registers are indices, immediates are already
 * extended. TARGETs are dropped (each BRANCH knows the element it
 * resumes at, and a TARGET ends an element so that one starts there); a
 * BRANCH rides in the second slot of the element it ends.
 */
#if HASHX_HAVE_THREADED_INTERPRETER
#define HASHX_HAVE_PAIRED_INTERPRETER 1

typedef struct hashx_pair {
	const void *handler; /* its code (interpreter.c) */
	uint8_t reg[2][2]; /* per slot: dst, src */
	uint16_t resume;  /* a BRANCH's: the element a jump resumes at */
	uint64_t imm[2];  /* sign-extended; a BRANCH's mask in imm[1] */
} hashx_pair;

/* At most one element per instruction, and the end. */
typedef struct hashx_pairs {
	hashx_pair elem[HASHX_PROGRAM_SIZE + 1];
} hashx_pairs;

void hashx_pairs_decode(const hashx_program *prog, hashx_pairs *out);
void hashx_interpret_pairs(const hashx_pairs *prog, uint64_t r[8]);
#else
#define HASHX_HAVE_PAIRED_INTERPRETER 0
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

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * analysis.h - the facts about a program that code generators need,
 * worked out once.
 *
 * Straight-line code is easy to translate instruction by instruction; the
 * one BRANCH per run is not. A back-end that runs several inputs at once
 * must know, before emitting a BRANCH, which instructions a jump re-runs,
 * which registers they write (to save and blend them for the lanes that
 * did not jump), and which high multiplication the BRANCH tests (to keep
 * that result where the test can read it). Each of these is a pure
 * function of the program, so it is computed here, the same way for every
 * back-end, instead of being re-derived while emitting.
 *
 * The plain interpreters follow the same rules live (a TARGET moves the
 * resume point, through hashx_resume_after_target below; a UMULH/SMULH
 * sets the tested value) because they run once per hash, where a pre-pass
 * would cost as much as the run. The
 * paired form (interpreter.h) is such a pre-pass, made once per program
 * at hashx_make; it needs only each BRANCH's resume point, which it works
 * out while decoding, and tests the value live.
 */
#ifndef HASHX_ANALYSIS_H
#define HASHX_ANALYSIS_H

#include <stdbool.h>
#include <stdint.h>

#include "program.h"

/* One BRANCH and what a jump from it does. */
typedef struct hashx_branch_info {
	uint16_t at;      /* the BRANCH's index */
	/* The first instruction a taken jump runs: after the last TARGET
	 * before the BRANCH, else HASHX_RESUME_WITHOUT_TARGET. */
	uint16_t resume;
	/* Registers that instructions resume .. at - 1 write (bit i: ri):
	 * the block a jump runs again. */
	uint8_t written;
	/* The high multiplication whose result's low 32 bits the BRANCH
	 * tests, or -1: none ran yet, the tested value is 0. */
	int16_t mulh;
	/* Whether that multiplication's destination is written again
	 * before the BRANCH, so the register no longer holds the result. */
	bool mulh_clobbered;
} hashx_branch_info;

/* Bits of hashx_analysis.mulh_use, per UMULH/SMULH. */
enum {
	HASHX_MULH_TESTED = 1,    /* some BRANCH tests this result */
	HASHX_MULH_CLOBBERED = 2, /* ...after its register was overwritten */
};

typedef struct hashx_analysis {
	size_t nbranches;
	hashx_branch_info branch[HASHX_PROGRAM_SIZE]; /* in program order */
	uint8_t mulh_use[HASHX_PROGRAM_SIZE];         /* per instruction */
} hashx_analysis;

/* Fills `a` for `prog` (at most HASHX_PROGRAM_SIZE instructions). */
void hashx_analyse(const hashx_program *prog, hashx_analysis *a);

/*
 * program.h's resume rule, in the form a walk in program order follows it
 * live: the resume point starts at HASHX_RESUME_WITHOUT_TARGET and each
 * TARGET moves it to the instruction after itself. hashx_analyse follows
 * it so, and so do the interpreters and the 8-lane walk, per hash, which
 * cannot afford hashx_analyse. The scalar code generators (x86_64.c,
 * wasm.c) cannot either (it costs about 15,900 instructions, 8% of a
 * compiling hashx_make, make bench-instructions), and need no resume
 * point: their code resumes at the TARGET itself (a landing pad, a loop
 * block), starting from HASHX_RESUME_WITHOUT_TARGET.
 */
static inline size_t hashx_resume_after_target(size_t target)
{
	return target + 1;
}

/* Whether a jump from the BRANCH at `at` to `resume` runs instructions
 * again (false for a BRANCH at index 0 without a TARGET: it resumes after
 * itself, like a no-op). */
static inline bool hashx_resume_reruns(size_t resume, size_t at)
{
	return resume <= at;
}

static inline bool hashx_branch_reruns(const hashx_branch_info *b)
{
	return hashx_resume_reruns(b->resume, b->at);
}

#endif

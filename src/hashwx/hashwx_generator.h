/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hashwx_generator.h - a seed's 32 programs (doc/hashwx.md, section 2).
 *
 * Each program is made from 16 words of the generator's stream, in the
 * order the specification gives them meaning:
 *   gen[0..6]   low halves: the opcodes of the XAS slots (even words,
 *               modulo 9) and MUL slots (odd words, modulo 3); high
 *               halves: the Fisher-Yates shuffle of R0..R7 that gives the
 *               eight destinations;
 *   gen[7]      the source permutation (modulo 625) and RMCG's
 *               multiplier register (parity);
 *   gen[8..15]  the immediates of the eight operand slots.
 * There is no rejection: every seed gives 32 programs.
 */
#ifndef HASHWX_GENERATOR_H
#define HASHWX_GENERATOR_H

#include <stdint.h>

#include "hashwx_program.h"
#include "hashwx_rng.h"

/* The permitted source permutations (specification appendix C). */
#define HASHWX_SOURCE_PERMUTATIONS 625

/* Permitted source permutation i (0..624), its eight digits three bits
 * each, the first digit highest: what doc/hashwx.md lists. */
uint32_t hashwx_source_permutation(unsigned i);

/* One program from its 16 words. */
void hashwx_generate_program(const uint64_t gen[HASHWX_WORDS_PER_PROGRAM],
			     hashwx_program *out);

/* The 32 programs of the generator key. */
void hashwx_generate(const hashwx_sip_key *key,
		     hashwx_program out[HASHWX_PROGRAMS]);

#endif

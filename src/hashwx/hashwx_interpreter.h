/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hashwx_interpreter.h - running a HashWX instance on a nonce (doc/hashwx.md,
 * section 3): the portable reference every compiled form is checked
 * against.
 */
#ifndef HASHWX_INTERPRETER_H
#define HASHWX_INTERPRETER_H

#include <stdint.h>

#include "hashwx_program.h"
#include "hashwx_rng.h"

/* An instance: what hashwx_make builds from a seed. */
typedef struct hashwx_instance {
	hashwx_program programs[HASHWX_PROGRAMS];
	hashwx_sip_key hash_key; /* the seed's second half */
} hashwx_instance;

/* The eight registers a hash starts from, and the two read-only ones. */
void hashwx_initial_registers(const hashwx_sip_key *key, uint64_t nonce,
			      uint64_t r[HASHWX_REGISTERS + 2]);

/* R8 and R9 from R4 and R7: odd multipliers (low bits 011 and 101), so
 * RMCG's products never lose their low bits. */
static inline uint64_t hashwx_r8(uint64_t r4)
{
	return (r4 & ~UINT64_C(7)) | 3;
}

static inline uint64_t hashwx_r9(uint64_t r7)
{
	return (r7 & ~UINT64_C(7)) | 5;
}

/* The finalization: a SipRound on each half, then R3 ^ R7 ^ R9. */
uint64_t hashwx_finalize(uint64_t r[HASHWX_REGISTERS + 2]);

/* Where the write phase stores register j after program p: the memory
 * fills from its end, R0 of the first program at the last word. */
static inline unsigned hashwx_memory_word(unsigned p, unsigned j)
{
	return HASHWX_MEMORY_WORDS - 1 - HASHWX_REGISTERS * p - j;
}

/* Runs one program on r[] (R0..R9): the register phase when `mem` is
 * NULL, else the memory phase reading mem[] (HASHWX_MEMORY_WORDS). *bc
 * is the phase's branch counter, shared by its programs. Returns how
 * many times the program went back to slot 0. */
unsigned hashwx_run_program(const hashwx_program *prog,
			    uint64_t r[HASHWX_REGISTERS + 2],
			    const uint64_t *mem, unsigned *bc);

/* The hash of `nonce`, interpreted. */
uint64_t hashwx_interpret(const hashwx_instance *inst, uint64_t nonce);

#endif

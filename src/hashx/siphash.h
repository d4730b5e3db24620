/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * siphash.h - the SipHash pieces HashX is built from.
 *
 * HashX does not use SipHash as a message hash. It borrows the SipRound
 * permutation and the key schedule shape for three jobs:
 *
 *  - the program generator's random stream: a SipHash-1-3-like function of
 *    a 64-bit counter (hashx_siphash13_ctr);
 *  - the initial register file: eight 64-bit words expanded from the input
 *    counter by a SipHash-2-4-like function (hashx_siphash24_ctr_state512);
 *  - the output finalization, one SipRound on each half of the registers.
 *
 * The domain constants (HASHX_SIP_*_MARK below) keep the three uses apart.
 */
#ifndef HASHX_SIPHASH_H
#define HASHX_SIPHASH_H

#include <stdint.h>

/* The four 64-bit words of a SipHash state; HashX keys are such states. */
typedef struct hashx_sip_state {
	uint64_t v0, v1, v2, v3;
} hashx_sip_state;

static inline uint64_t hashx_rotl64(uint64_t x, unsigned n)
{
	return (x << n) | (x >> (64 - n));
}

/*
 * The SipRound, written once as data: fourteen steps on the state words
 * v[0..3], each one of
 *   ADD(d, s)   v[d] += v[s]
 *   ROTL(d, n)  v[d] = v[d] rotated left by n bits
 *   XOR(d, s)   v[d] ^= v[s]
 * C code (the function below, the lanes interpreter) instantiates this
 * list with its own three step macros, and the code generators walk the
 * table made from it below, so the permutation has one definition and
 * cannot drift between back-ends.
 */
#define HASHX_SIPROUND_STEPS(ADD, ROTL, XOR)                              \
	ADD(0, 1) ADD(2, 3) ROTL(1, 13) ROTL(3, 16) XOR(1, 0) XOR(3, 2)    \
	ROTL(0, 32) ADD(2, 1) ADD(0, 3) ROTL(1, 17) ROTL(3, 21) XOR(1, 2)  \
	XOR(3, 0) ROTL(2, 32)

/*
 * The same steps as a table, for code generators: they walk it and emit
 * one instruction (or a short sequence) per step.
 */
typedef enum hashx_sip_op {
	HASHX_SIP_ADD,
	HASHX_SIP_ROTL,
	HASHX_SIP_XOR,
} hashx_sip_op;

typedef struct hashx_sip_step {
	uint8_t op;  /* hashx_sip_op */
	uint8_t dst; /* word index */
	uint8_t arg; /* source word index, or rotation in bits */
} hashx_sip_step;

#define HASHX_SIPROUND_STEP_COUNT 14
#define HASHX_SIP_TABLE_ADD(d, s) { HASHX_SIP_ADD, d, s },
#define HASHX_SIP_TABLE_ROTL(d, n) { HASHX_SIP_ROTL, d, n },
#define HASHX_SIP_TABLE_XOR(d, s) { HASHX_SIP_XOR, d, s },
static const hashx_sip_step hashx_sipround_table[HASHX_SIPROUND_STEP_COUNT] = {
	HASHX_SIPROUND_STEPS(HASHX_SIP_TABLE_ADD, HASHX_SIP_TABLE_ROTL,
			     HASHX_SIP_TABLE_XOR)
};
#undef HASHX_SIP_TABLE_ADD
#undef HASHX_SIP_TABLE_ROTL
#undef HASHX_SIP_TABLE_XOR

/* Every step of a round. */
#define HASHX_SIP_ALL_STEPS ((1u << HASHX_SIPROUND_STEP_COUNT) - 1)

/*
 * The steps (bit k: table step k) a round needs when only the words in
 * `wanted` (bit i: v[i]) are read after it: a backward liveness pass over
 * the table. The scatter form reads only v0 of the last round, which
 * needs 6 of the 14 steps.
 */
static inline unsigned hashx_sipround_needed(unsigned wanted)
{
	unsigned live = wanted, steps = 0;

	for (int k = HASHX_SIPROUND_STEP_COUNT - 1; k >= 0; k--) {
		const hashx_sip_step *st = &hashx_sipround_table[k];

		if (!(live >> st->dst & 1))
			continue;
		steps |= 1u << k;
		if (st->op != HASHX_SIP_ROTL)
			live |= 1u << st->arg;
	}
	return steps;
}

/*
 * SipHash's domain markers as HashX uses them (siphash.c shows where):
 * 0xff starts the finalization of the generator's SipHash-1-3 stream;
 * 0xee, in v1 of the key and later in v2, selects SipHash's 128-bit
 * output variant for the input expansion; 0xdd in v1 separates its
 * second squeeze (registers r4..r7) from the first (r0..r3).
 */
#define HASHX_SIP_FINAL_MARK 0xff
#define HASHX_SIP_WIDE_MARK 0xee
#define HASHX_SIP_SECOND_SQUEEZE 0xdd

/* The input expansion's round counts: SipHash-2-4's two compression
 * rounds after the input is absorbed, then four before each squeeze. */
#define HASHX_EXPAND_ABSORB_ROUNDS 2
#define HASHX_EXPAND_SQUEEZE_ROUNDS 4

/*
 * The input expansion (hashx_siphash24_ctr_state512), written once as data
 * like the SipRound: steps on the eight initial registers r0..r7, held as
 * two SipHash states, half 0 (r0..r3) and half 1 (r4..r7); word w of half
 * h is r[4h + w]. Each step is one of
 *   START(w)          half 0 = hashx_expansion_start(key), then its word w
 *                     ^= input (SipHash absorbs its message word in v3)
 *   XOR_INPUT(h, w)   word w of half h ^= input (the absorption's end, v0)
 *   XOR_MARK(h, w, m) word w of half h ^= m, one of the markers above
 *   ROUNDS(h, n)      n SipRounds on half h
 *   FORK(w, m)        half 1 = half 0, then its word w ^= m: the first
 *                     squeeze stays in r0..r3, the second goes on from
 *                     the same state under its own marker
 * C code (siphash.c, the lanes interpreter) instantiates the list with its
 * own step macros, the code generators walk hashx_expansion_table, each
 * step with its own instructions (a START or FORK may fuse its load or
 * copy with the XOR that follows it).
 */
#define HASHX_EXPANSION_STEPS(START, XOR_INPUT, XOR_MARK, ROUNDS, FORK)  \
	START(3) ROUNDS(0, HASHX_EXPAND_ABSORB_ROUNDS) XOR_INPUT(0, 0)    \
	XOR_MARK(0, 2, HASHX_SIP_WIDE_MARK)                               \
	ROUNDS(0, HASHX_EXPAND_SQUEEZE_ROUNDS)                            \
	FORK(1, HASHX_SIP_SECOND_SQUEEZE)                                 \
	ROUNDS(1, HASHX_EXPAND_SQUEEZE_ROUNDS)

typedef enum hashx_expand_op {
	HASHX_EXPAND_START,
	HASHX_EXPAND_XOR_INPUT,
	HASHX_EXPAND_XOR_MARK,
	HASHX_EXPAND_ROUNDS,
	HASHX_EXPAND_FORK,
} hashx_expand_op;

typedef struct hashx_expand_step {
	uint8_t op;   /* hashx_expand_op */
	uint8_t half; /* 0: r0..r3, 1: r4..r7 */
	uint8_t word; /* word index in the half */
	uint8_t arg;  /* a marker, or a round count */
} hashx_expand_step;

#define HASHX_EXPANSION_STEP_COUNT 7
#define HASHX_EXP_TABLE_START(w) { HASHX_EXPAND_START, 0, w, 0 },
#define HASHX_EXP_TABLE_XOR_INPUT(h, w) { HASHX_EXPAND_XOR_INPUT, h, w, 0 },
#define HASHX_EXP_TABLE_XOR_MARK(h, w, m) { HASHX_EXPAND_XOR_MARK, h, w, m },
#define HASHX_EXP_TABLE_ROUNDS(h, n) { HASHX_EXPAND_ROUNDS, h, 0, n },
#define HASHX_EXP_TABLE_FORK(w, m) { HASHX_EXPAND_FORK, 1, w, m },
static const hashx_expand_step
	hashx_expansion_table[HASHX_EXPANSION_STEP_COUNT] = {
		HASHX_EXPANSION_STEPS(HASHX_EXP_TABLE_START,
				      HASHX_EXP_TABLE_XOR_INPUT,
				      HASHX_EXP_TABLE_XOR_MARK,
				      HASHX_EXP_TABLE_ROUNDS,
				      HASHX_EXP_TABLE_FORK)
};
#undef HASHX_EXP_TABLE_START
#undef HASHX_EXP_TABLE_XOR_INPUT
#undef HASHX_EXP_TABLE_XOR_MARK
#undef HASHX_EXP_TABLE_ROUNDS
#undef HASHX_EXP_TABLE_FORK

/* One SipRound (the ARX permutation of SipHash), in place. */
static inline void hashx_sipround(uint64_t *v0, uint64_t *v1, uint64_t *v2,
				  uint64_t *v3)
{
	uint64_t *const v[4] = { v0, v1, v2, v3 };

#define HASHX_SIP_C_ADD(d, s) *v[d] += *v[s];
#define HASHX_SIP_C_ROTL(d, n) *v[d] = hashx_rotl64(*v[d], n);
#define HASHX_SIP_C_XOR(d, s) *v[d] ^= *v[s];
	HASHX_SIPROUND_STEPS(HASHX_SIP_C_ADD, HASHX_SIP_C_ROTL,
			     HASHX_SIP_C_XOR)
#undef HASHX_SIP_C_ADD
#undef HASHX_SIP_C_ROTL
#undef HASHX_SIP_C_XOR
}

/* A state's words as an array v0..v3, for code that indexes them. */
static inline void hashx_sip_words(const hashx_sip_state *s, uint64_t w[4])
{
	w[0] = s->v0;
	w[1] = s->v1;
	w[2] = s->v2;
	w[3] = s->v3;
}

static inline void hashx_sipround_state(hashx_sip_state *s)
{
	hashx_sipround(&s->v0, &s->v1, &s->v2, &s->v3);
}

/*
 * The state the input expansion starts from before the input is absorbed:
 * the key with the wide-output marker in v1. The code generators load it
 * as constants, so the marker costs them nothing per hash.
 */
static inline hashx_sip_state hashx_expansion_start(const hashx_sip_state *key)
{
	hashx_sip_state s = *key;

	s.v1 ^= HASHX_SIP_WIDE_MARK;
	return s;
}

/* 64 pseudo-random bits for `counter` under `key` (one compression round
 * and three finalization rounds). */
uint64_t hashx_siphash13_ctr(const hashx_sip_state *key, uint64_t counter);

/* Expands `input` under `key` into the eight initial register values. */
void hashx_siphash24_ctr_state512(const hashx_sip_state *key, uint64_t input,
				  uint64_t out[8]);

#endif

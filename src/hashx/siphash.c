/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * siphash.c - the two counter-mode SipHash variants of HashX.
 */
#include "siphash.h"

uint64_t hashx_siphash13_ctr(const hashx_sip_state *key, uint64_t counter)
{
	hashx_sip_state s = *key;

	/* The counter is the single message word: absorbed through v3, one
	 * compression round, then folded into v0 as SipHash does. */
	s.v3 ^= counter;
	hashx_sipround_state(&s);
	s.v0 ^= counter;
	/* Finalization: SipHash's marker, three rounds. */
	s.v2 ^= HASHX_SIP_FINAL_MARK;
	hashx_sipround_state(&s);
	hashx_sipround_state(&s);
	hashx_sipround_state(&s);
	return s.v0 ^ s.v1 ^ s.v2 ^ s.v3;
}

/* siphash.h's expansion steps, on the output words r[0..7]. */
#define EXPAND_START(w)                                                  \
	{                                                                \
		hashx_sip_state start = hashx_expansion_start(key);      \
		hashx_sip_words(&start, r);                              \
		r[w] ^= input;                                           \
	}
#define EXPAND_XOR_INPUT(h, w) r[4 * (h) + (w)] ^= input;
#define EXPAND_XOR_MARK(h, w, m) r[4 * (h) + (w)] ^= (m);
#define EXPAND_ROUNDS(h, n)                                              \
	for (int i = 0; i < (n); i++)                                    \
		hashx_sipround(&r[4 * (h)], &r[4 * (h) + 1],             \
			       &r[4 * (h) + 2], &r[4 * (h) + 3]);
#define EXPAND_FORK(w, m)                                                \
	for (int i = 0; i < 4; i++)                                      \
		r[4 + i] = r[i];                                         \
	r[4 + (w)] ^= (m);

void hashx_siphash24_ctr_state512(const hashx_sip_state *key, uint64_t input,
				  uint64_t r[8])
{
	HASHX_EXPANSION_STEPS(EXPAND_START, EXPAND_XOR_INPUT, EXPAND_XOR_MARK,
			      EXPAND_ROUNDS, EXPAND_FORK)
}

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
	/* Finalization: SipHash's 0xff marker, three rounds. */
	s.v2 ^= 0xff;
	hashx_sipround_state(&s);
	hashx_sipround_state(&s);
	hashx_sipround_state(&s);
	return s.v0 ^ s.v1 ^ s.v2 ^ s.v3;
}

void hashx_siphash24_ctr_state512(const hashx_sip_state *key, uint64_t input,
				  uint64_t out[8])
{
	hashx_sip_state s = *key;

	/* 0xee in v1 marks the 128-bit-output variant of SipHash; HashX
	 * extends it to 512 bits by squeezing the whole state twice. */
	s.v1 ^= 0xee;
	s.v3 ^= input;
	hashx_sipround_state(&s);
	hashx_sipround_state(&s);
	s.v0 ^= input;
	s.v2 ^= 0xee;
	for (int i = 0; i < 4; i++)
		hashx_sipround_state(&s);
	out[0] = s.v0;
	out[1] = s.v1;
	out[2] = s.v2;
	out[3] = s.v3;

	/* Second squeeze, separated from the first by 0xdd. */
	s.v1 ^= 0xdd;
	for (int i = 0; i < 4; i++)
		hashx_sipround_state(&s);
	out[4] = s.v0;
	out[5] = s.v1;
	out[6] = s.v2;
	out[7] = s.v3;
}

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
 * The domain constants (0xff, 0xee, 0xdd) keep the three uses apart.
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

/* One SipRound (the ARX permutation of SipHash), in place. */
static inline void hashx_sipround(uint64_t *v0, uint64_t *v1, uint64_t *v2,
				  uint64_t *v3)
{
	*v0 += *v1;
	*v2 += *v3;
	*v1 = hashx_rotl64(*v1, 13);
	*v3 = hashx_rotl64(*v3, 16);
	*v1 ^= *v0;
	*v3 ^= *v2;
	*v0 = hashx_rotl64(*v0, 32);
	*v2 += *v1;
	*v0 += *v3;
	*v1 = hashx_rotl64(*v1, 17);
	*v3 = hashx_rotl64(*v3, 21);
	*v1 ^= *v2;
	*v3 ^= *v0;
	*v2 = hashx_rotl64(*v2, 32);
}

static inline void hashx_sipround_state(hashx_sip_state *s)
{
	hashx_sipround(&s->v0, &s->v1, &s->v2, &s->v3);
}

/* 64 pseudo-random bits for `counter` under `key` (one compression round
 * and three finalization rounds). */
uint64_t hashx_siphash13_ctr(const hashx_sip_state *key, uint64_t counter);

/* Expands `input` under `key` into the eight initial register values. */
void hashx_siphash24_ctr_state512(const hashx_sip_state *key, uint64_t input,
				  uint64_t out[8]);

#endif

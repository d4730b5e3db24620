/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * seeded_rng.c - xoshiro256** and splitmix64 (Blackman and Vigna's public
 * domain generators, written here from their published definitions), and
 * the distributions of seeded_rng.h.
 */
#include "seeded_rng.h"

#include <math.h>

/* splitmix64: spreads any seed, 0 included, over a full state. */
static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

void seeded_rng_seed(seeded_rng *rng, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		rng->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t seeded_rng_next(seeded_rng *rng)
{
	uint64_t *s = rng->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

/* Lemire's multiply-and-shift, rejecting the few values that would make
 * the low results more likely than the others. */
uint32_t seeded_rng_below(seeded_rng *rng, uint32_t upper)
{
	uint32_t threshold;
	uint64_t m;

	if (upper == 0)
		return 0;
	threshold = (uint32_t)(-upper) % upper;
	do
		m = (seeded_rng_next(rng) >> 32) * upper;
	while ((uint32_t)m < threshold);
	return (uint32_t)(m >> 32);
}

/* The top 53 bits, centred in their interval: exactly representable,
 * strictly between 0 and 1. */
double seeded_rng_open01(seeded_rng *rng)
{
	return ((double)(seeded_rng_next(rng) >> 11) + 0.5) * 0x1p-53;
}

double seeded_rng_exp(seeded_rng *rng)
{
	return -log(seeded_rng_open01(rng));
}

/* With q = exp(-rate) the chance of failing one trial, the trials are
 * 1 + floor(log(u) / log(q)) = 1 + floor(-log(u) / rate): no log of a
 * number near 1, so no precision is lost for small rates (high efforts). */
uint64_t seeded_rng_geometric(seeded_rng *rng, double rate)
{
	double n = floor(seeded_rng_exp(rng) / rate);

	/* Beyond 2^62 nonces no simulated client would still be solving. */
	return n >= 0x1p62 ? (UINT64_C(1) << 62) : (uint64_t)n + 1;
}

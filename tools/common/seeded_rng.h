/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * seeded_rng.h - reproducible random numbers for the tools: xoshiro256**
 * seeded by splitmix64, and the few distributions the attack simulator
 * (equix-cli pow simulate) draws from. equix-bench's bootstrap resamples
 * with the same generator.
 *
 * Why a generator of our own and not rand() or libsodium: the same seed
 * must give the same simulation or the same confidence interval, byte for
 * byte, on every platform and C library; rand()'s sequence is the C library's choice, and libsodium's
 * generator cannot be seeded. Nothing here is meant to be unpredictable:
 * it is for reproducibility, never for security.
 */
#ifndef EQUIX_TOOLS_SEEDED_RNG_H
#define EQUIX_TOOLS_SEEDED_RNG_H

#include <stdint.h>

typedef struct seeded_rng {
	uint64_t s[4];
} seeded_rng;

/* The state for `seed` (any value, 0 included). */
void seeded_rng_seed(seeded_rng *rng, uint64_t seed);
/* The next 64 random bits. */
uint64_t seeded_rng_next(seeded_rng *rng);
/* Uniform in [0, upper) without bias; 0 when upper is 0. */
uint32_t seeded_rng_below(seeded_rng *rng, uint32_t upper);
/* Uniform in (0, 1): never 0, so that its logarithm is finite. */
double seeded_rng_open01(seeded_rng *rng);
/* Exponential with mean 1. */
double seeded_rng_exp(seeded_rng *rng);
/* Trials until the first success when each succeeds with probability
 * 1 - exp(-rate): geometric, at least 1. rate > 0. */
uint64_t seeded_rng_geometric(seeded_rng *rng, double rate);

#endif /* EQUIX_TOOLS_SEEDED_RNG_H */

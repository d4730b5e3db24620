/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sim_rng.h - the simulator's random numbers: xoshiro256** seeded by
 * splitmix64, and the few distributions the model draws from.
 *
 * Why a generator of our own and not rand() or libsodium: the same seed
 * must give the same simulation, byte for byte, on every platform and C
 * library; rand()'s sequence is the C library's choice, and libsodium's
 * generator cannot be seeded. Nothing here is meant to be unpredictable:
 * it is for reproducibility, never for security.
 */
#ifndef EQUIX_CLI_SIM_RNG_H
#define EQUIX_CLI_SIM_RNG_H

#include <stdint.h>

typedef struct sim_rng {
	uint64_t s[4];
} sim_rng;

/* The state for `seed` (any value, 0 included). */
void sim_rng_seed(sim_rng *rng, uint64_t seed);
/* The next 64 random bits. */
uint64_t sim_rng_next(sim_rng *rng);
/* Uniform in [0, upper) without bias; 0 when upper is 0. */
uint32_t sim_rng_below(sim_rng *rng, uint32_t upper);
/* Uniform in (0, 1): never 0, so that its logarithm is finite. */
double sim_rng_open01(sim_rng *rng);
/* Exponential with mean 1. */
double sim_rng_exp(sim_rng *rng);
/* Trials until the first success when each succeeds with probability
 * 1 - exp(-rate): geometric, at least 1. rate > 0. */
uint64_t sim_rng_geometric(sim_rng *rng, double rate);

#endif /* EQUIX_CLI_SIM_RNG_H */

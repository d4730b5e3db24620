/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * retired_seeds.h - every seed a service has retired, so that none can
 * ever be current again (its replay entries are gone).
 *
 * A service that rotates often keeps many: a rotation looks its seed up
 * and adds one, under the service's lock, so both take constant expected
 * time whatever the count (a list searched from end to end made each
 * rotation slower than the last). Open addressing with linear probing,
 * at most half full, slots found with the service's SipHash key. Memory
 * grows with the count (64 bytes a seed at worst); nothing is ever
 * removed, as a retired seed is retired for good.
 *
 * Not thread-safe: the service holds its lock around every call.
 */
#ifndef EQUIX_POW_RETIRED_SEEDS_H
#define EQUIX_POW_RETIRED_SEEDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "equix_pow.h"

typedef struct retired_seeds {
	uint8_t (*slots)[EQUIX_POW_SEED_LEN];
	bool *used;
	size_t size, count;
	const uint8_t *hash_key; /* crypto_shorthash_KEYBYTES, the service's */
} retired_seeds;

/* An empty set hashing with `hash_key` (kept by reference). */
void retired_seeds_init(retired_seeds *set, const uint8_t *hash_key);

void retired_seeds_clear(retired_seeds *set);

bool retired_seeds_contains(const retired_seeds *set,
			    const uint8_t seed[EQUIX_POW_SEED_LEN]);

/* Adds `seed`; false when out of memory (the set is then unchanged). */
bool retired_seeds_add(retired_seeds *set,
		       const uint8_t seed[EQUIX_POW_SEED_LEN]);

#endif

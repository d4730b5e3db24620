/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * retired_seeds.c - see retired_seeds.h.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "keyed_slot.h"
#include "retired_seeds.h"

#define MIN_SLOTS 16

void retired_seeds_init(retired_seeds *set, const uint8_t *hash_key)
{
	memset(set, 0, sizeof *set);
	set->hash_key = hash_key;
}

void retired_seeds_clear(retired_seeds *set)
{
	free(set->slots);
	free(set->used);
	retired_seeds_init(set, set->hash_key);
}

/* The slot holding `seed`, or the empty one where it would go (the load
 * limit guarantees one). */
static size_t probe(const retired_seeds *set, const uint8_t *seed)
{
	size_t i = keyed_slot(set->hash_key, seed, EQUIX_POW_SEED_LEN,
			      set->size);

	while (set->used[i] &&
	       memcmp(set->slots[i], seed, EQUIX_POW_SEED_LEN) != 0)
		i = i + 1 == set->size ? 0 : i + 1;
	return i;
}

bool retired_seeds_contains(const retired_seeds *set,
			    const uint8_t seed[EQUIX_POW_SEED_LEN])
{
	return set->size != 0 && set->used[probe(set, seed)];
}

static void place(retired_seeds *set, const uint8_t *seed)
{
	size_t i = probe(set, seed);

	memcpy(set->slots[i], seed, EQUIX_POW_SEED_LEN);
	set->used[i] = true;
	set->count++;
}

/* Doubles the table (to MIN_SLOTS at first); false when out of memory. */
static bool grow(retired_seeds *set)
{
	retired_seeds bigger;
	size_t size = set->size ? set->size * 2 : MIN_SLOTS;

	if (size > SIZE_MAX / EQUIX_POW_SEED_LEN)
		return false;
	retired_seeds_init(&bigger, set->hash_key);
	bigger.size = size;
	bigger.slots = malloc(size * EQUIX_POW_SEED_LEN);
	bigger.used = calloc(size, sizeof(bool));
	if (bigger.slots == NULL || bigger.used == NULL) {
		retired_seeds_clear(&bigger);
		return false;
	}
	for (size_t i = 0; i < set->size; i++)
		if (set->used[i])
			place(&bigger, set->slots[i]);
	retired_seeds_clear(set);
	*set = bigger;
	return true;
}

bool retired_seeds_add(retired_seeds *set,
		       const uint8_t seed[EQUIX_POW_SEED_LEN])
{
	if (retired_seeds_contains(set, seed))
		return true;
	if ((set->count + 1) * 2 > set->size && !grow(set))
		return false;
	place(set, seed);
	return true;
}

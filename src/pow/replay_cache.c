/*
 * replay_cache.c - see replay_cache.h for the design.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "replay_cache.h"

#define MIN_SLOTS 64
#define BITS_PER_WORD 64

void replay_set_init(replay_set *set, const uint8_t *hash_key)
{
	memset(set, 0, sizeof *set);
	set->hash_key = hash_key;
}

void replay_set_clear(replay_set *set)
{
	free(set->nonces);
	free(set->used);
	replay_set_init(set, set->hash_key);
}

size_t replay_set_bytes_for(size_t slots)
{
	size_t words = (slots + BITS_PER_WORD - 1) / BITS_PER_WORD;
	return slots * EQUIX_POW_NONCE_LEN + words * sizeof(uint64_t);
}

size_t replay_set_bytes(const replay_set *set)
{
	return replay_set_bytes_for(set->slots);
}

static size_t home_slot(const replay_set *set, const uint8_t *nonce)
{
	uint8_t h[crypto_shorthash_BYTES];
	uint64_t v = 0;
	crypto_shorthash(h, nonce, EQUIX_POW_NONCE_LEN, set->hash_key);
	for (unsigned i = 0; i < sizeof h; i++)
		v = v << 8 | h[i];
	return (size_t)v & (set->slots - 1);
}

static int slot_used(const replay_set *set, size_t i)
{
	return (int)(set->used[i / BITS_PER_WORD] >> (i % BITS_PER_WORD) & 1);
}

static void mark_slot(replay_set *set, size_t i, int used)
{
	uint64_t bit = (uint64_t)1 << (i % BITS_PER_WORD);
	if (used)
		set->used[i / BITS_PER_WORD] |= bit;
	else
		set->used[i / BITS_PER_WORD] &= ~bit;
}

/* The slot holding `nonce`, or the empty slot where it would go. The
 * load limit guarantees an empty slot, so the probe ends. */
static size_t probe(const replay_set *set, const uint8_t *nonce)
{
	size_t mask = set->slots - 1;
	size_t i = home_slot(set, nonce);
	while (slot_used(set, i) &&
	       memcmp(set->nonces[i], nonce, EQUIX_POW_NONCE_LEN) != 0)
		i = (i + 1) & mask;
	return i;
}

int replay_set_contains(const replay_set *set,
			const uint8_t nonce[EQUIX_POW_NONCE_LEN])
{
	return set->slots != 0 && slot_used(set, probe(set, nonce));
}

static void place(replay_set *set, const uint8_t *nonce)
{
	size_t i = probe(set, nonce);
	memcpy(set->nonces[i], nonce, EQUIX_POW_NONCE_LEN);
	mark_slot(set, i, 1);
}

/* Moves every nonce into a table of `slots` slots. The old and the new
 * table exist together here: that peak is what the budget counts. */
static replay_insert_result resize(replay_set *set, size_t slots)
{
	replay_set bigger;
	replay_set_init(&bigger, set->hash_key);
	bigger.slots = slots;
	bigger.nonces = malloc(slots * EQUIX_POW_NONCE_LEN);
	bigger.used = calloc((slots + BITS_PER_WORD - 1) / BITS_PER_WORD,
			     sizeof(uint64_t));
	if (bigger.nonces == NULL || bigger.used == NULL) {
		replay_set_clear(&bigger);
		return REPLAY_NO_MEMORY;
	}
	for (size_t i = 0; i < set->slots; i++)
		if (slot_used(set, i))
			place(&bigger, set->nonces[i]);
	bigger.count = set->count;
	replay_set_clear(set);
	*set = bigger;
	return REPLAY_INSERTED;
}

/* Keeping the table at most 3/4 full bounds the expected probe length
 * (about 8.5 slots for a miss with linear probing). */
static int has_room_for_one_more(const replay_set *set)
{
	return set->count + 1 <= set->slots / 4 * 3;
}

replay_insert_result replay_set_insert(replay_set *set,
				       const uint8_t nonce[EQUIX_POW_NONCE_LEN],
				       size_t spare_bytes)
{
	if (replay_set_contains(set, nonce))
		return REPLAY_PRESENT;
	if (!has_room_for_one_more(set)) {
		size_t slots = set->slots ? set->slots * 2 : MIN_SLOTS;
		if (slots < set->slots ||
		    replay_set_bytes_for(slots) > spare_bytes)
			return REPLAY_FULL;
		replay_insert_result r = resize(set, slots);
		if (r != REPLAY_INSERTED)
			return r;
	}
	place(set, nonce);
	set->count++;
	return REPLAY_INSERTED;
}

/* Is `k` cyclically within (from, to]? */
static int cyclic_between(size_t from, size_t k, size_t to)
{
	return from <= to ? (from < k && k <= to) : (from < k || k <= to);
}

/* Linear probing cannot leave a hole where a later nonce's probe passes
 * through it, so removal shifts following entries back (no tombstones,
 * which would slowly fill the table). */
void replay_set_remove(replay_set *set,
		       const uint8_t nonce[EQUIX_POW_NONCE_LEN])
{
	if (set->slots == 0)
		return;
	size_t mask = set->slots - 1;
	size_t hole = probe(set, nonce);
	if (!slot_used(set, hole))
		return;
	mark_slot(set, hole, 0);
	set->count--;
	for (size_t j = (hole + 1) & mask; slot_used(set, j);
	     j = (j + 1) & mask) {
		size_t home = home_slot(set, set->nonces[j]);
		if (cyclic_between(hole, home, j))
			continue; /* its probe starts after the hole: it stays
				   */
		memcpy(set->nonces[hole], set->nonces[j], EQUIX_POW_NONCE_LEN);
		mark_slot(set, hole, 1);
		mark_slot(set, j, 0);
		hole = j;
	}
}

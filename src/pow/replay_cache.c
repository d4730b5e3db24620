/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * replay_cache.c - see replay_cache.h for the design.
 */
#include <config.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "keyed_slot.h"
#include "replay_cache.h"

#define MIN_SLOTS 64

void replay_cache_init(replay_cache *cache, const uint8_t *hash_key,
		       size_t cap_bytes)
{
	memset(cache, 0, sizeof *cache);
	cache->hash_key = hash_key;
	cache->cap_bytes = cap_bytes;
}

void replay_cache_clear(replay_cache *cache)
{
	free(cache->table);
	free(cache->heap);
	replay_cache_init(cache, cache->hash_key, cache->cap_bytes);
}

/* Keeping the table at most 3/4 full bounds the expected probe length
 * (about 8.5 slots for a miss with linear probing). */
size_t replay_cache_capacity(size_t slots)
{
	return slots / 4 * 3;
}

size_t replay_cache_bytes_for(size_t slots)
{
	return slots * sizeof(uint32_t) +
	       replay_cache_capacity(slots) * sizeof(replay_entry);
}

size_t replay_cache_bytes(const replay_cache *cache)
{
	return replay_cache_bytes_for(cache->slots);
}

/* ---- The table ----------------------------------------------------------- */

static size_t home_slot(const replay_cache *cache, const uint8_t *nonce)
{
	return keyed_slot(cache->hash_key, nonce, EQUIX_POW_NONCE_LEN,
			  cache->slots);
}

static size_t next_slot(const replay_cache *cache, size_t i)
{
	return i + 1 == cache->slots ? 0 : i + 1;
}

static replay_entry *entry_at(const replay_cache *cache, size_t slot)
{
	return &cache->heap[cache->table[slot] - 1];
}

/* The same nonce under the other seed is another entry. */
static bool slot_holds(const replay_cache *cache, size_t slot, unsigned seed,
		       const uint8_t *nonce)
{
	const replay_entry *e = entry_at(cache, slot);

	return e->seed == seed &&
	       memcmp(e->nonce, nonce, EQUIX_POW_NONCE_LEN) == 0;
}

/* The slot holding (seed, nonce), or the empty slot where it would go.
 * The load limit guarantees an empty slot, so the probe ends. */
static size_t probe(const replay_cache *cache, unsigned seed,
		    const uint8_t *nonce)
{
	size_t i = home_slot(cache, nonce);

	while (cache->table[i] != 0 && !slot_holds(cache, i, seed, nonce))
		i = next_slot(cache, i);
	return i;
}

/* Points an empty slot at heap entry `h`, and the entry back at it. */
static void link_slot(replay_cache *cache, size_t slot, size_t h)
{
	cache->table[slot] = (uint32_t)(h + 1);
	cache->heap[h].slot = (uint32_t)slot & (REPLAY_MAX_SLOTS - 1);
}

/* Is `k` cyclically within (from, to]? */
static bool cyclic_between(size_t from, size_t k, size_t to)
{
	return from <= to ? (from < k && k <= to) : (from < k || k <= to);
}

/* Linear probing cannot leave a hole where a later entry's probe passes
 * through it, so removal shifts following entries back (no tombstones,
 * which would slowly fill the table). */
static void unlink_slot(replay_cache *cache, size_t hole)
{
	cache->table[hole] = 0;
	for (size_t j = next_slot(cache, hole); cache->table[j] != 0;
	     j = next_slot(cache, j)) {
		size_t home = home_slot(cache, entry_at(cache, j)->nonce);

		if (cyclic_between(hole, home, j))
			continue; /* its probe starts after the hole */
		link_slot(cache, hole, cache->table[j] - 1);
		cache->table[j] = 0;
		hole = j;
	}
}

/* ---- The heap: the cheapest recorded entry on top ------------------------ */

/* Pending entries rank after every recorded one: never evicted. */
static uint64_t rank(const replay_entry *e)
{
	return (uint64_t)e->pending << 32 | e->effort;
}

static void swap_entries(replay_cache *cache, size_t a, size_t b)
{
	replay_entry t = cache->heap[a];

	cache->heap[a] = cache->heap[b];
	cache->heap[b] = t;
	cache->table[cache->heap[a].slot] = (uint32_t)(a + 1);
	cache->table[cache->heap[b].slot] = (uint32_t)(b + 1);
}

static void sift_up(replay_cache *cache, size_t h)
{
	while (h > 0 && rank(&cache->heap[h]) <
				rank(&cache->heap[(h - 1) / 2])) {
		swap_entries(cache, h, (h - 1) / 2);
		h = (h - 1) / 2;
	}
}

static void sift_down(replay_cache *cache, size_t h)
{
	for (;;) {
		size_t least = h, l = 2 * h + 1, r = 2 * h + 2;

		if (l < cache->count &&
		    rank(&cache->heap[l]) < rank(&cache->heap[least]))
			least = l;
		if (r < cache->count &&
		    rank(&cache->heap[r]) < rank(&cache->heap[least]))
			least = r;
		if (least == h)
			return;
		swap_entries(cache, h, least);
		h = least;
	}
}

/* Removes heap entry `h` from both structures. */
static void remove_entry(replay_cache *cache, size_t h)
{
	size_t last = cache->count - 1;

	unlink_slot(cache, cache->heap[h].slot);
	if (h != last) {
		cache->heap[h] = cache->heap[last];
		cache->table[cache->heap[h].slot] = (uint32_t)(h + 1);
	}
	cache->count--;
	if (h < cache->count) {
		sift_down(cache, h);
		sift_up(cache, h);
	}
}

/* ---- Growth within the cap ------------------------------------------------ */

/* Doubling while the peak of a doubling fits the cap; then once more to
 * as many slots as the rest of the cap holds; then no more (0). */
static size_t grown_slots(const replay_cache *cache)
{
	size_t held = replay_cache_bytes(cache), want, fit;

	if (held > cache->cap_bytes)
		return 0;
	want = cache->slots ? cache->slots * 2 : MIN_SLOTS;
	if (want > REPLAY_MAX_SLOTS)
		want = REPLAY_MAX_SLOTS;
	if (replay_cache_bytes_for(want) <= cache->cap_bytes - held)
		return want > cache->slots ? want : 0;
	/* capacity(s) <= 3s/4, so s slots take at most this many bytes */
	fit = (cache->cap_bytes - held) * 4 /
	      (4 * sizeof(uint32_t) + 3 * sizeof(replay_entry));
	return replay_cache_capacity(fit) > cache->count ? fit : 0;
}

/* Moves every entry into a table of `slots` slots. The old and the new
 * table exist together here: that peak is what the cap counts. The heap
 * keeps its order; only the slots change. */
static replay_insert_result resize(replay_cache *cache, size_t slots)
{
	replay_cache bigger;

	replay_cache_init(&bigger, cache->hash_key, cache->cap_bytes);
	bigger.slots = slots;
	bigger.table = calloc(slots, sizeof(uint32_t));
	bigger.heap = malloc(replay_cache_capacity(slots) *
			     sizeof(replay_entry));
	if (bigger.table == NULL || bigger.heap == NULL) {
		replay_cache_clear(&bigger);
		return REPLAY_NO_MEMORY;
	}
	if (cache->count != 0)
		memcpy(bigger.heap, cache->heap,
		       cache->count * sizeof(replay_entry));
	bigger.count = cache->count;
	memcpy(bigger.evicted_bound, cache->evicted_bound,
	       sizeof bigger.evicted_bound);
	for (size_t h = 0; h < bigger.count; h++)
		link_slot(&bigger, probe(&bigger, bigger.heap[h].seed,
					 bigger.heap[h].nonce),
			  h);
	replay_cache_clear(cache);
	*cache = bigger;
	return REPLAY_INSERTED;
}

static replay_insert_result make_room(replay_cache *cache)
{
	size_t slots;

	if (cache->count < replay_cache_capacity(cache->slots))
		return REPLAY_INSERTED;
	slots = grown_slots(cache);
	return slots == 0 ? REPLAY_FULL : resize(cache, slots);
}

/* ---- Entries ---------------------------------------------------------------- */

bool replay_cache_contains(const replay_cache *cache, unsigned seed,
			   const uint8_t nonce[EQUIX_POW_NONCE_LEN])
{
	return cache->slots != 0 &&
	       cache->table[probe(cache, seed, nonce)] != 0;
}

replay_insert_result replay_cache_lookup(const replay_cache *cache,
					 unsigned seed,
					 const uint8_t nonce[EQUIX_POW_NONCE_LEN],
					 uint32_t effort)
{
	if (replay_cache_contains(cache, seed, nonce))
		return REPLAY_PRESENT;
	if (effort < cache->evicted_bound[seed & 1])
		return REPLAY_FORGOTTEN;
	return REPLAY_ABSENT;
}

/* Called with room for one more. */
static void place(replay_cache *cache, unsigned seed, const uint8_t *nonce,
		  uint32_t effort, int pending)
{
	size_t h = cache->count++;
	replay_entry *e = &cache->heap[h];

	memcpy(e->nonce, nonce, EQUIX_POW_NONCE_LEN);
	e->effort = effort;
	e->seed = seed & 1;
	e->pending = pending != 0;
	link_slot(cache, probe(cache, seed, nonce), h);
	sift_up(cache, h);
}

replay_insert_result replay_cache_insert(replay_cache *cache, unsigned seed,
					 const uint8_t nonce[EQUIX_POW_NONCE_LEN],
					 uint32_t effort, int pending)
{
	replay_insert_result r = replay_cache_lookup(cache, seed, nonce,
						     effort);

	if (r != REPLAY_ABSENT)
		return r;
	if ((r = make_room(cache)) != REPLAY_INSERTED)
		return r;
	place(cache, seed, nonce, effort, pending);
	return REPLAY_INSERTED;
}

bool replay_cache_cheapest(const replay_cache *cache, uint32_t *effort)
{
	if (cache->count == 0 || cache->heap[0].pending)
		return false;
	*effort = cache->heap[0].effort;
	return true;
}

/* Raises the bound of `e`'s seed past `e`'s effort, as it is evicted. */
static void forget(replay_cache *cache, const replay_entry *e)
{
	uint64_t *bound = &cache->evicted_bound[e->seed];

	if (*bound <= e->effort)
		*bound = (uint64_t)e->effort + 1;
}

replay_insert_result replay_cache_insert_evicting(
	replay_cache *cache, unsigned seed,
	const uint8_t nonce[EQUIX_POW_NONCE_LEN], uint32_t effort)
{
	replay_insert_result r = replay_cache_insert(cache, seed, nonce,
						     effort, 0);
	uint32_t cheapest;

	if (r != REPLAY_FULL)
		return r;
	if (!replay_cache_cheapest(cache, &cheapest) || cheapest >= effort)
		return REPLAY_FULL;
	forget(cache, &cache->heap[0]);
	remove_entry(cache, 0);
	place(cache, seed, nonce, effort, 0);
	return REPLAY_INSERTED;
}

void replay_cache_confirm(replay_cache *cache, unsigned seed,
			  const uint8_t nonce[EQUIX_POW_NONCE_LEN])
{
	size_t slot, h;

	if (cache->slots == 0)
		return;
	slot = probe(cache, seed, nonce);
	if (cache->table[slot] == 0)
		return;
	h = cache->table[slot] - 1;
	cache->heap[h].pending = 0;
	sift_up(cache, h); /* its rank only fell */
}

void replay_cache_remove(replay_cache *cache, unsigned seed,
			 const uint8_t nonce[EQUIX_POW_NONCE_LEN])
{
	size_t slot;

	if (cache->slots == 0)
		return;
	slot = probe(cache, seed, nonce);
	if (cache->table[slot] != 0)
		remove_entry(cache, cache->table[slot] - 1);
}

/* Rare (once per rotation), so the simplest way: keep the other seed's
 * entries, then rebuild the table and the heap around them. */
void replay_cache_drop_seed(replay_cache *cache, unsigned seed)
{
	size_t kept = 0;

	for (size_t h = 0; h < cache->count; h++)
		if (cache->heap[h].seed != (seed & 1))
			cache->heap[kept++] = cache->heap[h];
	cache->count = kept;
	if (cache->slots != 0)
		memset(cache->table, 0, cache->slots * sizeof(uint32_t));
	for (size_t h = 0; h < kept; h++)
		link_slot(cache, probe(cache, cache->heap[h].seed,
				       cache->heap[h].nonce),
			  h);
	for (size_t h = kept / 2; h-- > 0;)
		sift_down(cache, h);
	cache->evicted_bound[seed & 1] = 0;
}

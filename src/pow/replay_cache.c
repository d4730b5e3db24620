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

/* A filter larger than this gains nothing a service could use (2^38 bits
 * hold billions of nonces), and keeps its bit count within 64 bits. */
#define FILTER_MAX_BYTES ((uint64_t)1 << 35)

void replay_cache_init_split(replay_cache *cache, const uint8_t *hash_key,
			     size_t table_cap, size_t filter_bytes)
{
	memset(cache, 0, sizeof *cache);
	cache->hash_key = hash_key;
	cache->table_cap = table_cap;
	cache->cap_bytes = table_cap + 2 * filter_bytes;
	for (unsigned i = 0; i < 2; i++)
		evicted_filter_init(&cache->evicted[i], hash_key, filter_bytes);
}

/* The split (replay_cache.h): three eighths of the cap for each seed's
 * filter, in whole words, the rest for the table. */
void replay_cache_init(replay_cache *cache, const uint8_t *hash_key,
		       size_t cap_bytes)
{
	uint64_t filter = (uint64_t)(cap_bytes / 64) * 3 * 8;

	if (filter > FILTER_MAX_BYTES)
		filter = FILTER_MAX_BYTES;
	replay_cache_init_split(cache, hash_key, cap_bytes - 2 * (size_t)filter,
				(size_t)filter);
}

void replay_cache_clear(replay_cache *cache)
{
	free(cache->table);
	free(cache->heap);
	cache->table = NULL;
	cache->heap = NULL;
	cache->slots = cache->count = 0;
	cache->current = 0;
	for (unsigned i = 0; i < 2; i++)
		evicted_filter_clear(&cache->evicted[i]);
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
	return replay_cache_bytes_for(cache->slots) +
	       evicted_filter_bytes(&cache->evicted[0]) +
	       evicted_filter_bytes(&cache->evicted[1]);
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

/* ---- The heap: the first entry to evict on top ---------------------------- */

/* Pending entries rank after every recorded one: never evicted. Then the
 * current seed's after the previous seed's, then by effort. */
static uint64_t rank(const replay_cache *cache, const replay_entry *e)
{
	return (uint64_t)e->pending << 33 |
	       (uint64_t)(e->seed == cache->current) << 32 | e->effort;
}

static bool ranks_before(const replay_cache *cache, size_t a, size_t b)
{
	return rank(cache, &cache->heap[a]) < rank(cache, &cache->heap[b]);
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
	while (h > 0 && ranks_before(cache, h, (h - 1) / 2)) {
		swap_entries(cache, h, (h - 1) / 2);
		h = (h - 1) / 2;
	}
}

static void sift_down(replay_cache *cache, size_t h)
{
	for (;;) {
		size_t least = h, l = 2 * h + 1, r = 2 * h + 2;

		if (l < cache->count && ranks_before(cache, l, least))
			least = l;
		if (r < cache->count && ranks_before(cache, r, least))
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

/* Every entry of the heap into an empty table. */
static void link_all(replay_cache *cache)
{
	for (size_t h = 0; h < cache->count; h++)
		link_slot(cache, probe(cache, cache->heap[h].seed,
				       cache->heap[h].nonce),
			  h);
}

/* The heap order anew, after the ranks changed. */
static void heapify(replay_cache *cache)
{
	for (size_t h = cache->count / 2; h-- > 0;)
		sift_down(cache, h);
}

/* ---- Growth within the table's share --------------------------------------- */

/* Doubling while the peak of a doubling fits the share; then once more to
 * as many slots as the rest of it holds; then no more (0). */
static size_t grown_slots(const replay_cache *cache)
{
	size_t held = replay_cache_bytes_for(cache->slots), want, fit;

	if (held > cache->table_cap)
		return 0;
	want = cache->slots ? cache->slots * 2 : MIN_SLOTS;
	if (want > REPLAY_MAX_SLOTS)
		want = REPLAY_MAX_SLOTS;
	if (replay_cache_bytes_for(want) <= cache->table_cap - held)
		return want > cache->slots ? want : 0;
	/* capacity(s) <= 3s/4, so s slots take at most this many bytes */
	fit = (cache->table_cap - held) * 4 /
	      (4 * sizeof(uint32_t) + 3 * sizeof(replay_entry));
	return replay_cache_capacity(fit) > cache->count ? fit : 0;
}

/* Moves every entry into a table of `slots` slots. The old and the new
 * table exist together here: that peak is what the share counts. The
 * heap keeps its order; only the slots change. */
static replay_insert_result resize(replay_cache *cache, size_t slots)
{
	uint32_t *table = calloc(slots, sizeof(uint32_t));
	replay_entry *heap =
		malloc(replay_cache_capacity(slots) * sizeof(replay_entry));

	if (table == NULL || heap == NULL) {
		free(table);
		free(heap);
		return REPLAY_NO_MEMORY;
	}
	if (cache->count != 0)
		memcpy(heap, cache->heap, cache->count * sizeof(replay_entry));
	free(cache->table);
	free(cache->heap);
	cache->table = table;
	cache->heap = heap;
	cache->slots = slots;
	link_all(cache);
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
					 const uint8_t nonce[EQUIX_POW_NONCE_LEN])
{
	if (replay_cache_contains(cache, seed, nonce))
		return REPLAY_PRESENT;
	if (evicted_filter_may_contain(&cache->evicted[seed & 1], nonce))
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
	replay_insert_result r = replay_cache_lookup(cache, seed, nonce);

	if (r != REPLAY_ABSENT)
		return r;
	if ((r = make_room(cache)) != REPLAY_INSERTED)
		return r;
	place(cache, seed, nonce, effort, pending);
	return REPLAY_INSERTED;
}

bool replay_cache_evictable(const replay_cache *cache)
{
	return cache->count != 0 && !cache->heap[0].pending;
}

void replay_cache_set_current(replay_cache *cache, unsigned seed)
{
	if (cache->current == (seed & 1))
		return;
	cache->current = seed & 1;
	heapify(cache);
}

replay_insert_result replay_cache_insert_evicting(
	replay_cache *cache, unsigned seed,
	const uint8_t nonce[EQUIX_POW_NONCE_LEN], uint32_t effort)
{
	replay_insert_result r = replay_cache_insert(cache, seed, nonce,
						     effort, 0);
	const replay_entry *top;

	if (r != REPLAY_FULL)
		return r;
	if (!replay_cache_evictable(cache))
		return REPLAY_FULL;
	/* the evicted nonce is kept in its filter, or nothing is evicted */
	top = &cache->heap[0];
	if (!evicted_filter_add(&cache->evicted[top->seed], top->nonce))
		return REPLAY_NO_MEMORY;
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
 * entries, then rebuild the table and the heap around them. The seed's
 * filter goes with it. */
void replay_cache_drop_seed(replay_cache *cache, unsigned seed)
{
	size_t kept = 0;

	for (size_t h = 0; h < cache->count; h++)
		if (cache->heap[h].seed != (seed & 1))
			cache->heap[kept++] = cache->heap[h];
	cache->count = kept;
	if (cache->slots != 0)
		memset(cache->table, 0, cache->slots * sizeof(uint32_t));
	link_all(cache);
	heapify(cache);
	evicted_filter_clear(&cache->evicted[seed & 1]);
}

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_replay_cache.c - the replay cache on its own (src/pow/replay_cache.c,
 * compiled into this program): membership after many insertions and
 * removals under both seeds (removal shifts entries back, so every
 * remaining entry must stay reachable), the table and the heap pointing at
 * each other after every change, growth within the byte cap, eviction of
 * the cheapest recorded entry only, and a flood against the default cap.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "replay_cache.h"
#include "testutil.h"

#define N 20000

static uint8_t key[crypto_shorthash_KEYBYTES];
static uint8_t nonces[N][EQUIX_POW_NONCE_LEN];

static void make_nonces(void)
{
	randombytes_buf(key, sizeof key);
	for (int i = 0; i < N; i++) {
		memset(nonces[i], 0, EQUIX_POW_NONCE_LEN);
		/* Counting nonces, as a client's are: the worst case for a
		 * weak hash, fine for a keyed one. */
		nonces[i][0] = (uint8_t)i;
		nonces[i][1] = (uint8_t)(i >> 8);
		nonces[i][2] = (uint8_t)(i >> 16);
	}
}

static uint64_t rank_of(const replay_entry *e)
{
	return (uint64_t)e->pending << 32 | e->effort;
}

/* The structure's own promises: each entry's slot points back at it, each
 * used slot at an entry that names it, the heap is ordered, and every
 * entry is found. */
static void check_invariants(const replay_cache *c)
{
	size_t used = 0;

	ck_assert_uint_le(c->count, replay_cache_capacity(c->slots));
	for (size_t h = 0; h < c->count; h++) {
		const replay_entry *e = &c->heap[h];

		ck_assert_uint_lt(e->slot, c->slots);
		ck_assert_uint_eq(c->table[e->slot], h + 1);
		if (h > 0)
			ck_assert_uint_le(rank_of(&c->heap[(h - 1) / 2]),
					  rank_of(e));
		ck_assert(replay_cache_contains(c, e->seed, e->nonce));
	}
	for (size_t i = 0; i < c->slots; i++)
		used += c->table[i] != 0;
	ck_assert_uint_eq(used, c->count);
}

static void fill(replay_cache *c, unsigned seed, int count)
{
	for (int i = 0; i < count; i++)
		ck_assert_int_eq(replay_cache_insert(c, seed, nonces[i],
						     (uint32_t)i, 0),
				 REPLAY_INSERTED);
}

START_TEST(insert_contains_remove)
{
	replay_cache c;

	make_nonces();
	replay_cache_init(&c, key, SIZE_MAX);
	ck_assert_int_eq(replay_cache_contains(&c, 0, nonces[0]), 0);
	replay_cache_remove(&c, 0, nonces[0]); /* empty: nothing to do */
	fill(&c, 0, N / 2);
	/* the same nonces under the other seed are other entries */
	fill(&c, 1, N / 4);
	ck_assert_uint_eq(c.count, N / 2 + N / 4);
	check_invariants(&c);
	for (int i = 0; i < N; i++) {
		ck_assert_int_eq(replay_cache_contains(&c, 0, nonces[i]),
				 i < N / 2);
		ck_assert_int_eq(replay_cache_contains(&c, 1, nonces[i]),
				 i < N / 4);
	}
	ck_assert_int_eq(replay_cache_insert(&c, 0, nonces[7], 0, 0),
			 REPLAY_PRESENT);
	/* Remove every third; the others must all still be found. */
	for (int i = 0; i < N / 2; i += 3)
		replay_cache_remove(&c, 0, nonces[i]);
	check_invariants(&c);
	for (int i = 0; i < N / 2; i++) {
		ck_assert_int_eq(replay_cache_contains(&c, 0, nonces[i]),
				 i % 3 != 0);
		ck_assert_int_eq(replay_cache_contains(&c, 1, nonces[i]),
				 i < N / 4);
	}
	replay_cache_remove(&c, 0, nonces[N - 1]); /* absent: no change */
	ck_assert_uint_eq(c.count, N / 2 - (N / 2 + 2) / 3 + N / 4);
	for (int i = 0; i < N / 2; i += 3)
		ck_assert_int_eq(replay_cache_insert(&c, 0, nonces[i], 5, 0),
				 REPLAY_INSERTED);
	check_invariants(&c);
	/* retiring seed 1 leaves seed 0's entries, all reachable */
	replay_cache_drop_seed(&c, 1);
	ck_assert_uint_eq(c.count, N / 2);
	check_invariants(&c);
	for (int i = 0; i < N / 2; i++) {
		ck_assert(replay_cache_contains(&c, 0, nonces[i]));
		ck_assert(!replay_cache_contains(&c, 1, nonces[i]));
	}
	replay_cache_clear(&c);
	ck_assert_uint_eq(replay_cache_bytes(&c), 0);
	ck_assert_int_eq(replay_cache_contains(&c, 0, nonces[0]), 0);
}
END_TEST

START_TEST(budget)
{
	replay_cache c;
	size_t first = replay_cache_bytes_for(64);

	make_nonces();
	ck_assert_uint_eq(first, 64 * 4 + 48 * sizeof(replay_entry));
	/* Not even the smallest table fits. */
	replay_cache_init(&c, key, replay_cache_bytes_for(1) - 1);
	ck_assert_int_eq(replay_cache_insert(&c, 0, nonces[0], 0, 0),
			 REPLAY_FULL);
	ck_assert_uint_eq(c.count, 0);
	/* 48 entries fit 64 slots; the 49th needs a bigger table, and the
	 * old and the new one together must fit. */
	replay_cache_init(&c, key, first);
	fill(&c, 0, 48);
	ck_assert_int_eq(replay_cache_insert(&c, 0, nonces[48], 0, 0),
			 REPLAY_FULL);
	replay_cache_clear(&c);
	replay_cache_init(&c, key, first + replay_cache_bytes_for(128));
	fill(&c, 0, 49);
	ck_assert_uint_eq(c.slots, 128);
	ck_assert_uint_eq(replay_cache_bytes(&c), replay_cache_bytes_for(128));
	/* Full: a known nonce is still reported as present, not full. */
	ck_assert_int_eq(replay_cache_insert(&c, 0, nonces[3], 0, 0),
			 REPLAY_PRESENT);
	replay_cache_clear(&c);
	/* Where a doubling does not fit, the table grows into what the cap
	 * has left, once. */
	replay_cache_init(&c, key, first + replay_cache_bytes_for(100));
	fill(&c, 0, 49);
	ck_assert_uint_gt(c.slots, 64);
	ck_assert_uint_le(c.slots, 100);
	ck_assert_uint_le(first + replay_cache_bytes(&c), c.cap_bytes);
	for (size_t i = 49; i < replay_cache_capacity(c.slots); i++)
		ck_assert_int_eq(replay_cache_insert(&c, 0, nonces[i], 0, 0),
				 REPLAY_INSERTED);
	ck_assert_int_eq(replay_cache_insert(&c, 0, nonces[N - 1], 0, 0),
			 REPLAY_FULL);
	check_invariants(&c);
	replay_cache_clear(&c);
}
END_TEST

/* Reaching capacity without growing: the smallest table. */
static void fill_smallest(replay_cache *c, uint32_t effort, int pending)
{
	replay_cache_init(c, key, replay_cache_bytes_for(64));
	for (int i = 0; i < 48; i++)
		ck_assert_int_eq(replay_cache_insert(c, (unsigned)i & 1,
						     nonces[i],
						     effort + (uint32_t)i % 7,
						     pending),
				 REPLAY_INSERTED);
}

START_TEST(eviction_takes_the_cheapest_recorded)
{
	replay_cache c;
	uint32_t cheapest;

	make_nonces();
	/* all pending: nothing may be evicted, whatever the effort */
	fill_smallest(&c, 10, 1);
	ck_assert_int_eq(replay_cache_cheapest(&c, &cheapest), 0);
	ck_assert_int_eq(replay_cache_insert_evicting(&c, 0, nonces[100],
						      UINT32_MAX),
			 REPLAY_FULL);
	/* one confirmed: it is the only candidate */
	replay_cache_confirm(&c, 1, nonces[13]); /* effort 10 + 13 % 7 */
	check_invariants(&c);
	ck_assert_int_eq(replay_cache_cheapest(&c, &cheapest), 1);
	ck_assert_uint_eq(cheapest, 16);
	ck_assert_int_eq(replay_cache_insert_evicting(&c, 0, nonces[100], 16),
			 REPLAY_FULL); /* not above it: refused */
	ck_assert_int_eq(replay_cache_insert_evicting(&c, 0, nonces[100], 17),
			 REPLAY_INSERTED);
	ck_assert(!replay_cache_contains(&c, 1, nonces[13]));
	ck_assert_uint_eq(c.count, 48);
	check_invariants(&c);
	replay_cache_clear(&c);

	/* recorded entries of efforts 5..11: evictions go cheapest first,
	 * under either seed */
	fill_smallest(&c, 5, 0);
	for (int i = 0; i < 7; i++) {
		ck_assert_int_eq(replay_cache_insert_evicting(
					 &c, 0, nonces[200 + i], 6),
				 REPLAY_INSERTED);
		check_invariants(&c);
	}
	/* the seven of effort 5 (i % 7 == 0) are gone, all others kept */
	for (int i = 0; i < 48; i++)
		ck_assert_int_eq(replay_cache_contains(&c, (unsigned)i & 1,
						       nonces[i]),
				 i % 7 != 0);
	ck_assert_int_eq(replay_cache_cheapest(&c, &cheapest), 1);
	ck_assert_uint_eq(cheapest, 6);
	ck_assert_int_eq(replay_cache_insert_evicting(&c, 0, nonces[300], 6),
			 REPLAY_FULL);
	/* a recorded entry is present whatever its effort */
	ck_assert_int_eq(replay_cache_insert_evicting(&c, 0, nonces[200],
						      UINT32_MAX),
			 REPLAY_PRESENT);
	replay_cache_clear(&c);
}
END_TEST

/*
 * What an eviction leaves behind: the evicted entry's seed refuses every
 * nonce at or below the highest effort evicted under it (REPLAY_FORGOTTEN),
 * present or not, new or old; the other seed is untouched; the bound only
 * rises, survives the table's growth, and goes with its seed.
 */
START_TEST(eviction_bound_per_seed)
{
	replay_cache c;

	make_nonces();
	fill_smallest(&c, 5, 0); /* efforts 5..11, seeds alternate */
	ck_assert_int_eq(replay_cache_lookup(&c, 0, nonces[100], 0),
			 REPLAY_ABSENT);
	/* the cheapest is nonces[0] (seed 0, effort 5) */
	ck_assert_int_eq(replay_cache_insert_evicting(&c, 0, nonces[100], 9),
			 REPLAY_INSERTED);
	ck_assert(!replay_cache_contains(&c, 0, nonces[0]));
	ck_assert_int_eq(replay_cache_lookup(&c, 0, nonces[0], 5),
			 REPLAY_FORGOTTEN);
	ck_assert_int_eq(replay_cache_lookup(&c, 0, nonces[101], 0),
			 REPLAY_FORGOTTEN);
	ck_assert_int_eq(replay_cache_lookup(&c, 0, nonces[101], 6),
			 REPLAY_ABSENT);
	ck_assert_int_eq(replay_cache_lookup(&c, 1, nonces[101], 0),
			 REPLAY_ABSENT);
	/* a recorded entry is present before it is forgotten */
	ck_assert_int_eq(replay_cache_lookup(&c, 0, nonces[100], 0),
			 REPLAY_PRESENT);
	/* inserting refuses as lookup does, evicting or not */
	ck_assert_int_eq(replay_cache_insert(&c, 0, nonces[0], 5, 1),
			 REPLAY_FORGOTTEN);
	ck_assert_int_eq(replay_cache_insert_evicting(&c, 0, nonces[0], 5),
			 REPLAY_FORGOTTEN);
	/* next cheapest: nonces[7] (seed 1, effort 5), then nonces[14]
	 * (seed 0, 5): the bound of seed 0 stays, seed 1's rises */
	ck_assert_int_eq(replay_cache_insert_evicting(&c, 1, nonces[102], 8),
			 REPLAY_INSERTED);
	ck_assert_int_eq(replay_cache_lookup(&c, 1, nonces[7], 5),
			 REPLAY_FORGOTTEN);
	ck_assert_uint_eq(c.evicted_bound[0], 6);
	ck_assert_uint_eq(c.evicted_bound[1], 6);
	check_invariants(&c);
	/* growth keeps the bounds */
	c.cap_bytes = replay_cache_bytes_for(256);
	for (int i = 0; i < 40; i++)
		ck_assert_int_eq(replay_cache_insert(&c, 1, nonces[1000 + i],
						     20, 0),
				 REPLAY_INSERTED);
	ck_assert_uint_gt(c.slots, 64);
	ck_assert_int_eq(replay_cache_lookup(&c, 0, nonces[0], 5),
			 REPLAY_FORGOTTEN);
	/* retiring seed 0 takes its bound; seed 1 keeps its own */
	replay_cache_drop_seed(&c, 0);
	ck_assert_int_eq(replay_cache_lookup(&c, 0, nonces[0], 5),
			 REPLAY_ABSENT);
	ck_assert_int_eq(replay_cache_lookup(&c, 1, nonces[7], 5),
			 REPLAY_FORGOTTEN);
	check_invariants(&c);
	replay_cache_clear(&c);
}
END_TEST

/* ---- flood ---------------------------------------------------------- */

static void counter_nonce(uint64_t i, uint8_t out[EQUIX_POW_NONCE_LEN])
{
	memset(out, 0, EQUIX_POW_NONCE_LEN);
	for (int b = 0; b < 8; b++)
		out[b] = (uint8_t)(i >> (8 * b));
}

static long max_rss_kib(void)
{
	struct rusage u;

	ck_assert_int_eq(getrusage(RUSAGE_SELF, &u), 0);
	return u.ru_maxrss;
}

/* AddressSanitizer and valgrind hold freed blocks in quarantine and add
 * shadow memory, and ThreadSanitizer adds shadow memory, so the process's
 * RSS says nothing about the cache under them; the cache's own byte count
 * is still checked. */
static int rss_meaningful(void)
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	return 0;
#else
	return !tu_valgrind();
#endif
}

static size_t peak_bytes;

static replay_insert_result insert_watched(replay_cache *c, unsigned seed,
					   const uint8_t *nonce,
					   uint32_t effort, int evicting)
{
	replay_insert_result r =
		evicting ? replay_cache_insert_evicting(c, seed, nonce, effort)
			 : replay_cache_insert(c, seed, nonce, effort, 0);

	/* the growth's peak, old and new table together, is within the cap
	 * by construction (tested in `budget`); the held bytes here */
	if (replay_cache_bytes(c) > peak_bytes)
		peak_bytes = replay_cache_bytes(c);
	return r;
}

/*
 * Ten million distinct effort-0 nonces against the default cap (64 MiB),
 * as an attacker flooding the cheapest valid-looking proofs would send:
 * memory never passes the cap (counted by the cache and seen in the
 * process's peak RSS), the cache fails closed once full, no recorded
 * nonce is ever accepted again; then proofs of effort 1 still get in,
 * each in the place of one cheap entry, and are never evicted by cheap
 * ones; retiring the seed frees its entries for the next one.
 */
START_TEST(flood_ten_million)
{
	/* under an emulator or valgrind, a tenth of the nonces against a
	 * quarter of the cap: still several times what fits */
	const size_t cap = tu_slow_runner()
				   ? EQUIX_POW_REPLAY_DEFAULT_BYTES / 4
				   : EQUIX_POW_REPLAY_DEFAULT_BYTES;
	uint64_t total = tu_slow_runner() ? 1000000 : 10000000;
	const uint64_t dear = 100000;
	long rss_before = max_rss_kib();
	uint64_t accepted = 0, full = 0;
	replay_cache c;
	uint8_t nonce[EQUIX_POW_NONCE_LEN];

	randombytes_buf(key, sizeof key);
	replay_cache_init(&c, key, cap);
	peak_bytes = 0;
	/* the previous seed holds some too */
	for (uint64_t i = 0; i < 1000; i++) {
		counter_nonce(UINT64_MAX - i, nonce);
		ck_assert_int_eq(insert_watched(&c, 1, nonce, 0, 0),
				 REPLAY_INSERTED);
	}
	for (uint64_t i = 0; i < total; i++) {
		replay_insert_result r;

		counter_nonce(i, nonce);
		r = insert_watched(&c, 0, nonce, 0, 1);
		/* (Check's assertions make a system call each: the loop
		 * only calls it to fail) */
		if (r != REPLAY_INSERTED && r != REPLAY_FULL)
			ck_abort_msg("nonce %llu: result %d",
				     (unsigned long long)i, (int)r);
		if (r == REPLAY_FULL) {
			full++;
			continue;
		}
		/* fails closed: nothing cheap is taken after the first
		 * refusal */
		if (full != 0)
			ck_abort_msg("nonce %llu taken after a refusal",
				     (unsigned long long)i);
		accepted++;
	}
	printf("flood_ten_million: %llu nonces, %llu accepted, %llu refused "
	       "(cache full), %zu bytes of %zu, max RSS %ld -> %ld KiB\n",
	       (unsigned long long)total, (unsigned long long)accepted,
	       (unsigned long long)full, peak_bytes, cap, rss_before,
	       max_rss_kib());
	ck_assert_uint_le(peak_bytes, cap);
	ck_assert_uint_gt(full, 0);
	ck_assert_uint_eq(c.count, accepted + 1000);
	if (rss_meaningful())
		ck_assert_msg(max_rss_kib() - rss_before <=
				      (long)(cap / 1024) + 16 * 1024,
			      "peak RSS grew by %ld KiB",
			      max_rss_kib() - rss_before);
	else
		printf("flood_ten_million: RSS bound not checked under "
		       "a sanitizer or valgrind\n");
	/* no replay: every recorded nonce is reported present, even full */
	for (uint64_t i = 0; i < accepted; i += 997) {
		counter_nonce(i, nonce);
		ck_assert_int_eq(insert_watched(&c, 0, nonce, UINT32_MAX, 1),
				 REPLAY_PRESENT);
	}
	/* dearer proofs get in, each evicting one cheap entry */
	for (uint64_t i = 0; i < dear; i++) {
		counter_nonce(total + i, nonce);
		ck_assert_int_eq(insert_watched(&c, 0, nonce, 1, 1),
				 REPLAY_INSERTED);
	}
	ck_assert_uint_eq(c.count, accepted + 1000);
	/* cheap ones cannot push them out (at or below an evicted effort,
	 * they may be proofs the cache forgot), and the dear ones are all
	 * recorded */
	counter_nonce(total + dear, nonce);
	ck_assert_int_eq(insert_watched(&c, 0, nonce, 0, 1), REPLAY_FORGOTTEN);
	for (uint64_t i = 0; i < dear; i++) {
		counter_nonce(total + i, nonce);
		ck_assert_int_eq(insert_watched(&c, 0, nonce, 1, 1),
				 REPLAY_PRESENT);
	}
	/* retiring a seed frees its entries and its bound for the next
	 * seed, which takes the freed tag */
	replay_cache_drop_seed(&c, 0);
	ck_assert_uint_le(c.count, 1000);
	counter_nonce(total + dear + 1, nonce);
	ck_assert_int_eq(insert_watched(&c, 0, nonce, 0, 0), REPLAY_INSERTED);
	replay_cache_clear(&c);
	ck_assert_uint_eq(replay_cache_bytes(&c), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("replay_cache");
	TCase *t = tcase_create("set");

	tcase_add_test(t, insert_contains_remove);
	tcase_add_test(t, budget);
	tcase_add_test(t, eviction_takes_the_cheapest_recorded);
	tcase_add_test(t, eviction_bound_per_seed);
	tcase_add_test(t, flood_ten_million);
	tcase_set_timeout(t, 300);
	suite_add_tcase(s, t);
	return tu_run_suite(s);
}

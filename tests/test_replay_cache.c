/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_replay_cache.c - the replay cache on its own (src/pow/replay_cache.c,
 * compiled into this program): membership after many insertions and
 * removals under both seeds (removal shifts entries back, so every
 * remaining entry must stay reachable), the table and the heap pointing at
 * each other after every change, growth within the table's share of the
 * cap, the order of eviction (never a pending entry, the previous seed's
 * first, then the cheapest), evicted nonces refused at every effort, the
 * filters' false refusals against their formula (evicted_filter.h) from
 * 10 to 1000 times the smallest cache's capacity, and a flood against the
 * default cap.
 */
#include <config.h>

#include <math.h>
#include <stdio.h>
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

/* What replay_cache.h says goes first: not pending, the previous seed's,
 * the cheapest. */
static uint64_t rank_of(const replay_cache *c, const replay_entry *e)
{
	return (uint64_t)e->pending << 33 |
	       (uint64_t)(e->seed == c->current) << 32 | e->effort;
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
			ck_assert_uint_le(rank_of(c, &c->heap[(h - 1) / 2]),
					  rank_of(c, e));
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
	/* The split: three eighths of the cap for each seed's filter, in
	 * whole words, the rest for the table. */
	replay_cache_init(&c, key, EQUIX_POW_REPLAY_MIN_BYTES);
	ck_assert_uint_eq(c.cap_bytes, EQUIX_POW_REPLAY_MIN_BYTES);
	ck_assert_uint_eq(evicted_filter_size(&c.evicted[0]), 1536);
	ck_assert_uint_eq(evicted_filter_size(&c.evicted[1]), 1536);
	ck_assert_uint_eq(c.table_cap, 1024);
	replay_cache_init(&c, key, 1000);
	ck_assert_uint_eq(evicted_filter_size(&c.evicted[0]), 360);
	ck_assert_uint_eq(c.table_cap + 2 * 360, 1000);
	/* Below: the table's share alone (no filter). */
	/* Not even the smallest table fits. */
	replay_cache_init_split(&c, key, replay_cache_bytes_for(1) - 1, 0);
	ck_assert_int_eq(replay_cache_insert(&c, 0, nonces[0], 0, 0),
			 REPLAY_FULL);
	ck_assert_uint_eq(c.count, 0);
	/* 48 entries fit 64 slots; the 49th needs a bigger table, and the
	 * old and the new one together must fit. */
	replay_cache_init_split(&c, key, first, 0);
	fill(&c, 0, 48);
	ck_assert_int_eq(replay_cache_insert(&c, 0, nonces[48], 0, 0),
			 REPLAY_FULL);
	replay_cache_clear(&c);
	replay_cache_init_split(&c, key, first + replay_cache_bytes_for(128), 0);
	fill(&c, 0, 49);
	ck_assert_uint_eq(c.slots, 128);
	ck_assert_uint_eq(replay_cache_bytes(&c), replay_cache_bytes_for(128));
	/* Full: a known nonce is still reported as present, not full. */
	ck_assert_int_eq(replay_cache_insert(&c, 0, nonces[3], 0, 0),
			 REPLAY_PRESENT);
	replay_cache_clear(&c);
	/* Where a doubling does not fit, the table grows into what the cap
	 * has left, once. */
	replay_cache_init_split(&c, key, first + replay_cache_bytes_for(100), 0);
	fill(&c, 0, 49);
	ck_assert_uint_gt(c.slots, 64);
	ck_assert_uint_le(c.slots, 100);
	ck_assert_uint_le(first + replay_cache_bytes(&c), c.table_cap);
	for (size_t i = 49; i < replay_cache_capacity(c.slots); i++)
		ck_assert_int_eq(replay_cache_insert(&c, 0, nonces[i], 0, 0),
				 REPLAY_INSERTED);
	ck_assert_int_eq(replay_cache_insert(&c, 0, nonces[N - 1], 0, 0),
			 REPLAY_FULL);
	check_invariants(&c);
	replay_cache_clear(&c);
}
END_TEST

/* Reaching capacity without growing: the smallest table, and filters of
 * FILTER_BYTES. */
#define FILTER_BYTES 1024

static void fill_smallest(replay_cache *c, uint32_t effort, int pending)
{
	replay_cache_init_split(c, key, replay_cache_bytes_for(64),
				FILTER_BYTES);
	for (int i = 0; i < 48; i++)
		ck_assert_int_eq(replay_cache_insert(c, (unsigned)i & 1,
						     nonces[i],
						     effort + (uint32_t)i % 7,
						     pending),
				 REPLAY_INSERTED);
}

/* Whether an entry of (seed, nonce) is recorded, and what a lookup says. */
static replay_insert_result looked_up(const replay_cache *c, unsigned seed,
				      int i)
{
	return replay_cache_lookup(c, seed, nonces[i]);
}

START_TEST(eviction_order)
{
	replay_cache c;

	make_nonces();
	/* all pending: nothing may be evicted */
	fill_smallest(&c, 10, 1);
	ck_assert(!replay_cache_evictable(&c));
	ck_assert_int_eq(replay_cache_insert_evicting(&c, 0, nonces[100],
						      UINT32_MAX),
			 REPLAY_FULL);
	ck_assert_uint_eq(evicted_filter_bytes(&c.evicted[0]), 0);
	/* one confirmed: it is the only candidate, whatever the efforts */
	replay_cache_confirm(&c, 1, nonces[13]);
	check_invariants(&c);
	ck_assert(replay_cache_evictable(&c));
	ck_assert_int_eq(replay_cache_insert_evicting(&c, 0, nonces[100], 0),
			 REPLAY_INSERTED);
	ck_assert(!replay_cache_contains(&c, 1, nonces[13]));
	ck_assert_int_eq(looked_up(&c, 1, 13), REPLAY_FORGOTTEN);
	ck_assert_uint_eq(c.count, 48);
	check_invariants(&c);
	replay_cache_clear(&c);

	/* recorded entries of efforts 5..11, seeds alternating, seed 0
	 * current: seed 1's 24 entries go first, cheapest first, then seed
	 * 0's, cheapest first */
	fill_smallest(&c, 5, 0);
	for (int i = 0; i < 24; i++) {
		ck_assert_int_eq(replay_cache_insert_evicting(
					 &c, 0, nonces[200 + i], 1000),
				 REPLAY_INSERTED);
		check_invariants(&c);
	}
	for (int i = 0; i < 48; i++)
		ck_assert_int_eq(replay_cache_contains(&c, (unsigned)i & 1,
						       nonces[i]),
				 i % 2 == 0);
	/* seed 1 current (a swap): seed 0's entries go first now, the
	 * cheapest (effort 5: i % 7 == 0) before the others */
	replay_cache_set_current(&c, 1);
	check_invariants(&c);
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(replay_cache_insert_evicting(
					 &c, 1, nonces[300 + i], 0),
				 REPLAY_INSERTED);
	for (int i = 0; i < 48; i += 2)
		ck_assert_int_eq(replay_cache_contains(&c, 0, nonces[i]),
				 i % 7 != 0);
	/* a recorded entry is present whatever the effort */
	ck_assert_int_eq(replay_cache_insert_evicting(&c, 0, nonces[200],
						      UINT32_MAX),
			 REPLAY_PRESENT);
	replay_cache_clear(&c);
}
END_TEST

/*
 * What an eviction leaves behind: the evicted nonce is refused under its
 * seed (REPLAY_FORGOTTEN), at any effort, inserting as lookup does; other
 * nonces and the other seed are untouched; the filter survives the table's
 * growth and a change of current seed, and goes with its seed.
 */
START_TEST(evicted_nonces_stay_refused)
{
	replay_cache c;

	make_nonces();
	fill_smallest(&c, 5, 0); /* efforts 5..11, seeds alternate */
	ck_assert_int_eq(looked_up(&c, 0, 100), REPLAY_ABSENT);
	/* the first to go: nonces[7] (seed 1, the previous one, effort 5) */
	ck_assert_int_eq(replay_cache_insert_evicting(&c, 0, nonces[100], 9),
			 REPLAY_INSERTED);
	ck_assert(!replay_cache_contains(&c, 1, nonces[7]));
	ck_assert_int_eq(looked_up(&c, 1, 7), REPLAY_FORGOTTEN);
	/* under the other seed it is another nonce */
	ck_assert_int_eq(looked_up(&c, 0, 7), REPLAY_ABSENT);
	ck_assert_int_eq(looked_up(&c, 1, 101), REPLAY_ABSENT);
	ck_assert_int_eq(looked_up(&c, 0, 101), REPLAY_ABSENT);
	/* inserting refuses as lookup does, at any effort, evicting or not */
	ck_assert_int_eq(replay_cache_insert(&c, 1, nonces[7], 0, 1),
			 REPLAY_FORGOTTEN);
	ck_assert_int_eq(replay_cache_insert_evicting(&c, 1, nonces[7],
						      UINT32_MAX),
			 REPLAY_FORGOTTEN);
	ck_assert_int_eq(c.evicted[1].added, 1);
	ck_assert_int_eq(c.evicted[0].added, 0);
	check_invariants(&c);
	/* growth and a swap keep the filters */
	c.table_cap = replay_cache_bytes_for(256);
	for (int i = 0; i < 40; i++)
		ck_assert_int_eq(replay_cache_insert(&c, 1, nonces[1000 + i],
						     20, 0),
				 REPLAY_INSERTED);
	ck_assert_uint_gt(c.slots, 64);
	replay_cache_set_current(&c, 1);
	ck_assert_int_eq(looked_up(&c, 1, 7), REPLAY_FORGOTTEN);
	check_invariants(&c);
	/* retiring seed 1 takes its filter; seed 0 keeps its own */
	for (int i = 0; c.evicted[0].added == 0; i++) {
		ck_assert_int_lt(i, 1000);
		ck_assert_int_eq(replay_cache_insert_evicting(
					 &c, 1, nonces[2000 + i], 0),
				 REPLAY_INSERTED);
	}
	replay_cache_drop_seed(&c, 1);
	ck_assert_int_eq(looked_up(&c, 1, 7), REPLAY_ABSENT);
	ck_assert_uint_eq(evicted_filter_bytes(&c.evicted[1]), 0);
	ck_assert_uint_eq(evicted_filter_bytes(&c.evicted[0]), FILTER_BYTES);
	check_invariants(&c);
	replay_cache_clear(&c);
	ck_assert_uint_eq(replay_cache_bytes(&c), 0);
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

/* The share of `trials` fresh nonces (from `*next` on) that seed
 * `seed`'s filter refuses. */
static double refused_share(const replay_cache *c, unsigned seed,
			    uint64_t *next, unsigned trials)
{
	uint8_t nonce[EQUIX_POW_NONCE_LEN];
	unsigned refused = 0;

	for (unsigned i = 0; i < trials; i++) {
		counter_nonce((*next)++, nonce);
		refused += replay_cache_lookup(c, seed, nonce) ==
			   REPLAY_FORGOTTEN;
	}
	return (double)refused / trials;
}

/* evicted_filter.h's false-positive rate for `f` after `offered` nonces:
 * every nonce of a flood that the table does not hold, those refused
 * included (all their bits were set already, so the filter is the one
 * that adding them too would give). Counting only the nonces added would
 * undercount: each added one, having passed the filter, sets a bit more
 * than a random nonce does. */
static double formula(const evicted_filter *f, double offered)
{
	double bits = 8.0 * (double)evicted_filter_size(f);

	return pow(1 - exp(-(double)EVICTED_FILTER_HASHES * offered / bits),
		   EVICTED_FILTER_HASHES);
}

/* `n` distinct nonces from `*next` on into seed `seed`, evicting: each
 * gets in (nothing here is pending), or is a false refusal of the seed's
 * filter, which evicts nothing. Returns how many were refused. */
static uint64_t flood(replay_cache *c, unsigned seed, uint64_t *next,
		      uint64_t n)
{
	uint8_t nonce[EQUIX_POW_NONCE_LEN];
	uint64_t refused = 0;

	for (uint64_t i = 0; i < n; i++) {
		replay_insert_result r;

		counter_nonce((*next)++, nonce);
		r = replay_cache_insert_evicting(c, seed, nonce, 0);
		refused += r == REPLAY_FORGOTTEN;
		/* (Check's assertions make a system call each: the loop
		 * only calls it to fail) */
		if (r != REPLAY_INSERTED && r != REPLAY_FORGOTTEN)
			ck_abort_msg("flood nonce %llu: result %d",
				     (unsigned long long)i, (int)r);
	}
	return refused;
}

/* Entries the cache holds when full: filled until an insertion fails. */
static size_t capacity_of(size_t cap)
{
	replay_cache c;
	uint8_t nonce[EQUIX_POW_NONCE_LEN];
	uint64_t i = 0;

	replay_cache_init(&c, key, cap);
	do
		counter_nonce(UINT64_MAX - i++, nonce);
	while (replay_cache_insert(&c, 0, nonce, 0, 0) == REPLAY_INSERTED);
	replay_cache_clear(&c);
	return (size_t)i - 1;
}

/* A flood of `n` nonces under seed 0 of a cache capped at `cap`: the
 * share of fresh nonces refused under seed 0 (measured and by the
 * formula), and under the next seed once it has taken the retired one's
 * tag (as equix_pow_service_rotate() does), where as many new nonces as
 * the table holds all get in, each in the place of one of seed 0's. */
typedef struct flood_figures {
	double refused, predicted, next_seed;
	size_t in_filter;
} flood_figures;

static flood_figures flood_and_measure(size_t cap, uint64_t n)
{
	replay_cache c;
	flood_figures f;
	uint64_t next = 0;

	replay_cache_init(&c, key, cap);
	flood(&c, 0, &next, n);
	f.refused = refused_share(&c, 0, &next, 20000);
	f.predicted = formula(&c.evicted[0], (double)(n - c.count));
	f.in_filter = c.evicted[0].added;
	replay_cache_drop_seed(&c, 1);
	replay_cache_set_current(&c, 1);
	f.next_seed = refused_share(&c, 1, &next, 20000);
	ck_assert_uint_eq(flood(&c, 1, &next, c.count), 0);
	ck_assert_uint_eq(c.evicted[1].added, 0); /* seed 0's went first */
	replay_cache_clear(&c);
	return f;
}

/* The measured share within what 20,000 trials allow of the formula. */
static void check_near(double measured, double predicted, const char *what)
{
	ck_assert_msg(fabs(measured - predicted) <= 0.01 + 0.05 * predicted,
		      "%s: %.4f refused, the formula says %.4f", what, measured,
		      predicted);
}

/*
 * The false refusals a flood leaves, against evicted_filter.h's formula:
 * with the smallest cap, floods of 10, 100 and 1000 times its capacity
 * (the figures doc/pow-v1.md, section 7, quotes); with 64 KiB, the floods
 * of 0.285, 0.620 and 1.379 proofs per cap byte that the doc says bring
 * 1%, 10% and 50% refusals. The next seed starts with none.
 */
START_TEST(false_refusals_follow_the_formula)
{
	static const unsigned times[] = {10, 100, 1000};
	static const double per_byte[] = {0.285, 0.620, 1.379};
	static const double target[] = {0.01, 0.10, 0.50};
	const size_t small = EQUIX_POW_REPLAY_MIN_BYTES, mid = 64 << 10;
	size_t capacity = capacity_of(small);

	randombytes_buf(key, sizeof key);
	for (unsigned i = 0; i < 3; i++) {
		flood_figures f = flood_and_measure(small, times[i] * capacity);

		printf("false_refusals: %zu-byte cap (%zu entries), flood of "
		       "%ux (%zu nonces, %zu in the filter): %.2f%% of fresh "
		       "nonces refused (formula %.2f%%), %.2f%% under the "
		       "next seed\n",
		       small, capacity, times[i], times[i] * capacity,
		       f.in_filter, 100 * f.refused, 100 * f.predicted,
		       100 * f.next_seed);
		check_near(f.refused, f.predicted, "smallest cap");
		ck_assert(f.next_seed == 0);
		if (times[i] == 10)
			ck_assert_msg(f.refused <= 0.05, "%.4f", f.refused);
	}
	for (unsigned i = 0; i < 3; i++) {
		uint64_t n = (uint64_t)(per_byte[i] * (double)mid);
		flood_figures f = flood_and_measure(mid, n);

		printf("false_refusals: %zu-byte cap, flood of %.3f proofs a "
		       "byte (%llu): %.2f%% refused (formula %.2f%%, the "
		       "doc's %.0f%%)\n",
		       mid, per_byte[i], (unsigned long long)n, 100 * f.refused,
		       100 * f.predicted, 100 * target[i]);
		check_near(f.refused, f.predicted, "64 KiB");
		check_near(f.refused, target[i], "the doc's figure");
		ck_assert(f.next_seed == 0);
	}
}
END_TEST

/*
 * Ten million distinct nonces against the default cap (64 MiB), as an
 * attacker flooding the cheapest valid proofs would send: every one gets
 * in (a full cache makes room), memory never passes the cap (counted by
 * the cache and seen in the process's peak RSS), the previous seed's
 * entries go first, no nonce of the flood is ever accepted again, and
 * fresh nonces are refused as rarely as the formula says; retiring the
 * seed frees its entries and its filter for the next one.
 */
START_TEST(flood_ten_million)
{
	/* under an emulator, valgrind or a sanitizer, a tenth of the
	 * nonces against a quarter of the cap: still many times what the
	 * table holds */
	const int lighter = tu_slow_runner() || !rss_meaningful();
	const size_t cap = lighter ? EQUIX_POW_REPLAY_DEFAULT_BYTES / 4
				   : EQUIX_POW_REPLAY_DEFAULT_BYTES;
	uint64_t total = lighter ? 1000000 : 10000000, next = 0;
	long rss_before = max_rss_kib();
	replay_cache c;
	uint8_t nonce[EQUIX_POW_NONCE_LEN];
	size_t capacity;
	uint64_t false_refusals;
	double refused;

	randombytes_buf(key, sizeof key);
	replay_cache_init(&c, key, cap);
	/* the previous seed holds some too */
	for (uint64_t i = 0; i < 1000; i++) {
		counter_nonce(UINT64_MAX - i, nonce);
		ck_assert_int_eq(replay_cache_insert(&c, 1, nonce, 0, 0),
				 REPLAY_INSERTED);
	}
	false_refusals = flood(&c, 0, &next, total);
	capacity = c.count;
	refused = refused_share(&c, 0, &next, 100000);
	printf("flood_ten_million: %llu nonces (%llu falsely refused), %zu "
	       "entries, %zu evicted into the filter, %zu bytes of %zu, max "
	       "RSS %ld -> %ld KiB; %.3f%% of fresh nonces refused (formula "
	       "%.3f%%)\n",
	       (unsigned long long)total,
	       (unsigned long long)false_refusals, capacity,
	       c.evicted[0].added,
	       replay_cache_bytes(&c), cap, rss_before, max_rss_kib(),
	       100 * refused,
	       100 * formula(&c.evicted[0], (double)(total - capacity)));
	ck_assert_uint_le(replay_cache_bytes(&c), cap);
	ck_assert_uint_eq(c.evicted[1].added, 1000); /* previous first */
	ck_assert_uint_eq(c.evicted[0].added + capacity + false_refusals,
			  total);
	check_near(refused, formula(&c.evicted[0], (double)(total - capacity)),
		   "default cap");
	if (rss_meaningful())
		ck_assert_msg(max_rss_kib() - rss_before <=
				      (long)(cap / 1024) + 16 * 1024,
			      "peak RSS grew by %ld KiB",
			      max_rss_kib() - rss_before);
	else
		printf("flood_ten_million: RSS bound not checked under "
		       "a sanitizer or valgrind\n");
	/* no replay: every nonce of the flood is present or forgotten, and
	 * so is the previous seed's */
	for (uint64_t i = 0; i < total; i += 997) {
		counter_nonce(i, nonce);
		ck_assert_int_ne(replay_cache_lookup(&c, 0, nonce),
				 REPLAY_ABSENT);
	}
	counter_nonce(UINT64_MAX, nonce);
	ck_assert_int_eq(replay_cache_lookup(&c, 1, nonce), REPLAY_FORGOTTEN);
	/* retiring a seed frees its entries and its filter for the next
	 * seed, which takes the freed tag */
	replay_cache_drop_seed(&c, 0);
	ck_assert_uint_eq(c.count, 0);
	ck_assert_uint_eq(replay_cache_bytes(&c),
			  replay_cache_bytes_for(c.slots) +
				  evicted_filter_bytes(&c.evicted[1]));
	counter_nonce(0, nonce);
	ck_assert_int_eq(replay_cache_insert(&c, 0, nonce, 0, 0),
			 REPLAY_INSERTED);
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
	tcase_add_test(t, eviction_order);
	tcase_add_test(t, evicted_nonces_stay_refused);
	tcase_add_test(t, false_refusals_follow_the_formula);
	tcase_add_test(t, flood_ten_million);
	tcase_set_timeout(t, 300);
	suite_add_tcase(s, t);
	return tu_run_suite(s);
}

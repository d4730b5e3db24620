/*
 * test_replay_cache.c - the replay set on its own (src/pow/replay_cache.c,
 * compiled into this program): membership after many insertions and
 * removals (removal shifts entries back, so every remaining nonce must
 * stay reachable), growth within the byte budget, and failure beyond it.
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

static void fill_set(replay_set *set, int count)
{
	for (int i = 0; i < count; i++)
		ck_assert_int_eq(replay_set_insert(set, nonces[i], SIZE_MAX),
				 REPLAY_INSERTED);
}

START_TEST(insert_contains_remove)
{
	replay_set set;

	make_nonces();
	replay_set_init(&set, key);
	ck_assert_int_eq(replay_set_contains(&set, nonces[0]), 0);
	replay_set_remove(&set, nonces[0]); /* empty: nothing to do */
	fill_set(&set, N / 2);
	ck_assert_uint_eq(set.count, N / 2);
	for (int i = 0; i < N; i++)
		ck_assert_int_eq(replay_set_contains(&set, nonces[i]),
				 i < N / 2);
	ck_assert_int_eq(replay_set_insert(&set, nonces[7], SIZE_MAX),
			 REPLAY_PRESENT);
	/* Remove every third; the others must all still be found. */
	for (int i = 0; i < N / 2; i += 3)
		replay_set_remove(&set, nonces[i]);
	for (int i = 0; i < N / 2; i++)
		ck_assert_int_eq(replay_set_contains(&set, nonces[i]),
				 i % 3 != 0);
	ck_assert_uint_eq(set.count, N / 2 - (N / 2 + 2) / 3);
	replay_set_remove(&set, nonces[N - 1]); /* absent: no change */
	ck_assert_uint_eq(set.count, N / 2 - (N / 2 + 2) / 3);
	for (int i = 0; i < N / 2; i += 3)
		ck_assert_int_eq(replay_set_insert(&set, nonces[i], SIZE_MAX),
				 REPLAY_INSERTED);
	for (int i = 0; i < N / 2; i++)
		ck_assert(replay_set_contains(&set, nonces[i]));
	replay_set_clear(&set);
	ck_assert_uint_eq(replay_set_bytes(&set), 0);
	ck_assert_int_eq(replay_set_contains(&set, nonces[0]), 0);
}
END_TEST

START_TEST(budget)
{
	replay_set set;
	size_t first = replay_set_bytes_for(64);

	make_nonces();
	replay_set_init(&set, key);
	ck_assert_uint_eq(first, 64 * 16 + 8);
	/* Not even the first table fits. */
	ck_assert_int_eq(replay_set_insert(&set, nonces[0], first - 1),
			 REPLAY_FULL);
	ck_assert_uint_eq(set.count, 0);
	/* 48 entries fit 64 slots; the 49th needs the 128-slot table. */
	for (int i = 0; i < 48; i++)
		ck_assert_int_eq(replay_set_insert(&set, nonces[i], first),
				 REPLAY_INSERTED);
	ck_assert_int_eq(replay_set_insert(&set, nonces[48],
					   replay_set_bytes_for(128) - 1),
			 REPLAY_FULL);
	ck_assert_int_eq(replay_set_insert(&set, nonces[48],
					   replay_set_bytes_for(128)),
			 REPLAY_INSERTED);
	ck_assert_uint_eq(replay_set_bytes(&set), replay_set_bytes_for(128));
	for (int i = 0; i <= 48; i++)
		ck_assert(replay_set_contains(&set, nonces[i]));
	/* Full: a known nonce is still reported as present, not full. */
	ck_assert_int_eq(replay_set_insert(&set, nonces[3], 0),
			 REPLAY_PRESENT);
	replay_set_clear(&set);
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

/* The service's accounting: two sets (current and previous seed) share
 * one cap, and an insertion may use what the two do not hold. */
static replay_insert_result insert_capped(replay_set sets[2], int which,
					  const uint8_t *nonce, size_t cap,
					  size_t *peak)
{
	size_t held = replay_set_bytes(&sets[0]) + replay_set_bytes(&sets[1]);
	replay_insert_result r = replay_set_insert(
		&sets[which], nonce, held < cap ? cap - held : 0);

	held = replay_set_bytes(&sets[0]) + replay_set_bytes(&sets[1]);
	if (held > *peak)
		*peak = held;
	return r;
}

/* AddressSanitizer and valgrind hold freed blocks in quarantine and add
 * shadow memory, and ThreadSanitizer adds shadow memory, so the process's
 * RSS says nothing about the cache under them; the sets' own byte count is
 * still checked. */
static int rss_meaningful(void)
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	return 0;
#else
	return !tu_valgrind();
#endif
}

/*
 * Ten million distinct nonces against the default cap (64 MiB), as an
 * attacker flooding valid-looking proofs would send: memory never passes
 * the cap (counted by the sets and seen in the process's peak RSS), the
 * set fails closed once full, no accepted nonce is ever accepted again,
 * and retiring the seed frees everything for the next one.
 */
START_TEST(flood_ten_million)
{
	/* under an emulator or valgrind, a tenth of the nonces against a
	 * quarter of the cap: still several times what fits */
	const size_t cap = tu_slow_runner()
				   ? EQUIX_POW_REPLAY_DEFAULT_BYTES / 4
				   : EQUIX_POW_REPLAY_DEFAULT_BYTES;
	uint64_t total = tu_slow_runner() ? 1000000 : 10000000;
	long rss_before = max_rss_kib();
	size_t peak = 0;
	uint64_t accepted = 0, full = 0;
	replay_set sets[2];
	uint8_t nonce[EQUIX_POW_NONCE_LEN];

	randombytes_buf(key, sizeof key);
	replay_set_init(&sets[0], key);
	replay_set_init(&sets[1], key);
	/* the previous seed's set holds some too */
	for (uint64_t i = 0; i < 1000; i++) {
		counter_nonce(UINT64_MAX - i, nonce);
		ck_assert_int_eq(insert_capped(sets, 1, nonce, cap, &peak),
				 REPLAY_INSERTED);
	}
	for (uint64_t i = 0; i < total; i++) {
		replay_insert_result r;

		counter_nonce(i, nonce);
		r = insert_capped(sets, 0, nonce, cap, &peak);
		ck_assert_msg(r == REPLAY_INSERTED || r == REPLAY_FULL,
			      "nonce %llu: result %d", (unsigned long long)i,
			      (int)r);
		if (r == REPLAY_FULL) {
			full++;
			continue;
		}
		/* fails closed: nothing is accepted after the first
		 * refusal */
		ck_assert_uint_eq(full, 0);
		accepted++;
	}
	printf("flood_ten_million: %llu nonces, %llu accepted, %llu refused "
	       "(cache full), peak %zu bytes of %zu, max RSS %ld -> %ld "
	       "KiB\n",
	       (unsigned long long)total, (unsigned long long)accepted,
	       (unsigned long long)full, peak, cap, rss_before,
	       max_rss_kib());
	ck_assert_uint_le(peak, cap);
	ck_assert_uint_gt(full, 0);
	ck_assert_uint_eq(sets[0].count, accepted);
	if (rss_meaningful())
		ck_assert_msg(max_rss_kib() - rss_before <=
				      (long)(cap / 1024) + 16 * 1024,
			      "peak RSS grew by %ld KiB",
			      max_rss_kib() - rss_before);
	else
		printf("flood_ten_million: RSS bound not checked under "
		       "a sanitizer or valgrind\n");
	/* no replay: every accepted nonce is reported present, even full */
	for (uint64_t i = 0; i < accepted; i += 997) {
		counter_nonce(i, nonce);
		ck_assert_int_eq(insert_capped(sets, 0, nonce, cap, &peak),
				 REPLAY_PRESENT);
	}
	/* seed rotation retires the oldest set, and the next rotation the
	 * flooded one: their memory is freed and new nonces are taken */
	replay_set_clear(&sets[1]);
	ck_assert_uint_eq(replay_set_bytes(&sets[1]), 0);
	counter_nonce(total + 1, nonce);
	replay_set_clear(&sets[0]);
	ck_assert_uint_eq(replay_set_bytes(&sets[0]), 0);
	ck_assert_int_eq(insert_capped(sets, 1, nonce, cap, &peak),
			 REPLAY_INSERTED);
	replay_set_clear(&sets[1]);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("replay_cache");
	TCase *t = tcase_create("set");

	tcase_add_test(t, insert_contains_remove);
	tcase_add_test(t, budget);
	tcase_add_test(t, flood_ten_million);
	tcase_set_timeout(t, 300);
	suite_add_tcase(s, t);
	return tu_run_suite(s);
}

/*
 * test_replay_cache.c - the replay set on its own (src/pow/replay_cache.c,
 * compiled into this program): membership after many insertions and
 * removals (removal shifts entries back, so every remaining nonce must
 * stay reachable), growth within the byte budget, and failure beyond it.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

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

int main(void)
{
	Suite *s = suite_create("replay_cache");
	TCase *t = tcase_create("set");

	tcase_add_test(t, insert_contains_remove);
	tcase_add_test(t, budget);
	suite_add_tcase(s, t);
	return tu_run_suite(s);
}

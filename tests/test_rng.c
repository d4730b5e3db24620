/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_rng.c - the generator's random stream (src/hashx/rng.h) and the
 * public hook on it, hashx_rng_callback().
 *
 * The stream's words are hashx_siphash13_ctr(key, 0), (key, 1), ...; byte
 * draws hand out a word from its most significant byte down, 32-bit draws
 * its high half then its low half, each from its own buffer, both buffers
 * refilled from the one counter.
 */
#include <stdlib.h>
#include <string.h>

#include <hashx.h>

#include "generator.h"
#include "keys.h"
#include "rng.h"
#include "siphash.h"
#include "testutil.h"

static const hashx_sip_state test_key = {
	0x0706050403020100ULL, 0x0f0e0d0c0b0a0908ULL,
	0x1716151413121110ULL, 0x1f1e1d1c1b1a1918ULL,
};

static uint64_t word(uint64_t n)
{
	return hashx_siphash13_ctr(&test_key, n);
}

/* Byte b (0 = most significant) of word n. */
static uint8_t byte_of(uint64_t n, int b)
{
	return (uint8_t)(word(n) >> (56 - 8 * b));
}

static uint32_t high_of(uint64_t n)
{
	return (uint32_t)(word(n) >> 32);
}

static uint32_t low_of(uint64_t n)
{
	return (uint32_t)word(n);
}

/* ---- draws ------------------------------------------------------------ */

START_TEST(u8_most_significant_first)
{
	hashx_rng rng;

	hashx_rng_init(&rng, &test_key, NULL, NULL);
	for (int n = 0; n < 4; n++)
		for (int b = 0; b < 8; b++)
			ck_assert_msg(hashx_rng_u8(&rng) == byte_of((uint64_t)n, b),
				      "word %d byte %d", n, b);
	ck_assert_uint_eq(rng.counter, 4);
}
END_TEST

START_TEST(u32_high_half_first)
{
	hashx_rng rng;

	hashx_rng_init(&rng, &test_key, NULL, NULL);
	for (int n = 0; n < 5; n++) {
		ck_assert_uint_eq(hashx_rng_u32(&rng), high_of((uint64_t)n));
		ck_assert_uint_eq(hashx_rng_u32(&rng), low_of((uint64_t)n));
	}
	ck_assert_uint_eq(rng.counter, 5);
}
END_TEST

/* The words really are the siphash13 stream of the key given to init, and
 * init resets a used generator. */
START_TEST(init_resets_stream)
{
	hashx_rng rng;
	hashx_sip_state other = test_key;

	other.v2 ^= 1;
	hashx_rng_init(&rng, &other, NULL, NULL);
	(void)hashx_rng_u8(&rng);
	(void)hashx_rng_u32(&rng);
	ck_assert_uint_eq(rng.counter, 2);

	hashx_rng_init(&rng, &test_key, NULL, NULL);
	ck_assert_uint_eq(rng.counter, 0);
	ck_assert_uint_eq(hashx_rng_u32(&rng), high_of(0));
	ck_assert_uint_eq(hashx_rng_u8(&rng), byte_of(1, 0));
}
END_TEST

/* u8, u32, u8: words 0 and 1 consumed, the second u8 is byte 1 of word 0. */
START_TEST(buffers_independent_shared_counter)
{
	hashx_rng rng;

	hashx_rng_init(&rng, &test_key, NULL, NULL);
	ck_assert_uint_eq(hashx_rng_u8(&rng), byte_of(0, 0));
	ck_assert_uint_eq(rng.counter, 1);
	ck_assert_uint_eq(hashx_rng_u32(&rng), high_of(1));
	ck_assert_uint_eq(rng.counter, 2);
	ck_assert_uint_eq(hashx_rng_u8(&rng), byte_of(0, 1));
	ck_assert_uint_eq(rng.counter, 2);
	ck_assert_uint_eq(hashx_rng_u32(&rng), low_of(1));
	ck_assert_uint_eq(rng.counter, 2);
	/* The word buffer is empty: next 32-bit draw takes word 2. */
	ck_assert_uint_eq(hashx_rng_u32(&rng), high_of(2));
	ck_assert_uint_eq(rng.counter, 3);
	/* The rest of word 0 is still in the byte buffer. */
	for (int b = 2; b < 8; b++)
		ck_assert_uint_eq(hashx_rng_u8(&rng), byte_of(0, b));
	ck_assert_uint_eq(rng.counter, 3);
	/* Byte buffer empty: next byte draw takes word 3, not word 2. */
	ck_assert_uint_eq(hashx_rng_u8(&rng), byte_of(3, 0));
	ck_assert_uint_eq(rng.counter, 4);
	ck_assert_uint_eq(hashx_rng_u32(&rng), low_of(2));
	ck_assert_uint_eq(hashx_rng_u32(&rng), high_of(4));
	ck_assert_uint_eq(rng.counter, 5);
}
END_TEST

/* A long pseudo-random interleaving against a two-queue model: each buffer
 * takes the next unused word of the stream when it runs dry. */
START_TEST(random_interleaving)
{
	hashx_rng rng;
	uint64_t next = 0, bword = 0, wword = 0;
	int bleft = 0, wleft = 0;
	uint32_t choice = 0x12345678;

	hashx_rng_init(&rng, &test_key, NULL, NULL);
	for (int i = 0; i < 5000; i++) {
		choice = choice * 1103515245u + 12345u;
		if (choice & 0x10000) {
			if (bleft == 0) {
				bword = word(next++);
				bleft = 8;
			}
			bleft--;
			ck_assert_msg(hashx_rng_u8(&rng) ==
					      (uint8_t)(bword >> (8 * bleft)),
				      "draw %d (u8)", i);
		} else {
			if (wleft == 0) {
				wword = word(next++);
				wleft = 2;
			}
			wleft--;
			ck_assert_msg(hashx_rng_u32(&rng) ==
					      (uint32_t)(wword >> (32 * wleft)),
				      "draw %d (u32)", i);
		}
	}
	ck_assert_uint_eq(rng.counter, next);
	ck_assert_uint_gt(next, 1000);
}
END_TEST

/* ---- the observer ----------------------------------------------------- */

#define MAX_SEEN 8192

typedef struct observed {
	uint64_t words[MAX_SEEN];
	long count;
	int replace;       /* 0: observe only; 1: replace with pattern(n) */
	const void *check; /* expected user_data (set to the struct itself) */
	int bad_user_data;
} observed;

static uint64_t pattern(long n)
{
	return 0x0123456789abcdefULL * (uint64_t)(n + 1) ^ 0xf0f0f0f00f0f0f0fULL;
}

static void observer(uint64_t *w, void *user_data)
{
	observed *o = user_data;

	if (o->check != o)
		o->bad_user_data = 1;
	if (o->count < MAX_SEEN)
		o->words[o->count] = *w;
	if (o->replace)
		*w = pattern(o->count);
	o->count++;
}

START_TEST(observer_sees_each_word_once)
{
	static observed o;
	hashx_rng rng;
	uint32_t choice = 99;

	memset(&o, 0, sizeof o);
	o.check = &o;
	hashx_rng_init(&rng, &test_key, observer, &o);
	for (int i = 0; i < 1000; i++) {
		choice = choice * 1103515245u + 12345u;
		if (choice & 0x10000)
			(void)hashx_rng_u8(&rng);
		else
			(void)hashx_rng_u32(&rng);
	}
	ck_assert_int_eq(o.bad_user_data, 0);
	ck_assert_uint_eq((uint64_t)o.count, rng.counter);
	ck_assert_int_gt(o.count, 100);
	for (long n = 0; n < o.count; n++)
		ck_assert_msg(o.words[n] == word((uint64_t)n),
			      "observer's word %ld is not stream word %ld", n,
			      n);
}
END_TEST

START_TEST(observer_replacement_is_drawn)
{
	static observed o;
	hashx_rng rng;

	memset(&o, 0, sizeof o);
	o.check = &o;
	o.replace = 1;
	hashx_rng_init(&rng, &test_key, observer, &o);
	/* Same schedule as buffers_independent_shared_counter. */
	ck_assert_uint_eq(hashx_rng_u8(&rng), (uint8_t)(pattern(0) >> 56));
	ck_assert_uint_eq(hashx_rng_u32(&rng), (uint32_t)(pattern(1) >> 32));
	ck_assert_uint_eq(hashx_rng_u8(&rng), (uint8_t)(pattern(0) >> 48));
	ck_assert_uint_eq(hashx_rng_u32(&rng), (uint32_t)pattern(1));
	ck_assert_uint_eq(hashx_rng_u32(&rng), (uint32_t)(pattern(2) >> 32));
	for (int b = 2; b < 8; b++)
		ck_assert_uint_eq(hashx_rng_u8(&rng),
				  (uint8_t)(pattern(0) >> (56 - 8 * b)));
	ck_assert_uint_eq(hashx_rng_u8(&rng), (uint8_t)(pattern(3) >> 56));
	ck_assert_int_eq(o.count, 4);
	/* The observer was shown the original words. */
	for (long n = 0; n < 4; n++)
		ck_assert_uint_eq(o.words[n], word((uint64_t)n));
}
END_TEST

/* ---- the public hook -------------------------------------------------- */

static const uint8_t abc_seed[3] = { 'a', 'b', 'c' };

/* Asserts that ctx now holds the function of vector line `seed_hex`. */
static void assert_reference_outputs(hashx_ctx *ctx, const char *seed_hex)
{
	tu_hashx_vector v;
	uint8_t out[HASHX_SIZE];

	ck_assert_int_eq(tu_hashx_vector_find("hashx-named.txt", seed_hex, &v),
			 0);
	ck_assert_int_eq(v.ok, 1);
	ck_assert_int_eq(hashx_make(ctx, v.seed, v.seed_len), HASHX_OK);
	for (int i = 0; i < v.pairs; i++) {
		ck_assert_int_eq(hashx_exec(ctx, v.nonce[i], out), HASHX_OK);
		ck_assert_mem_eq(out, v.hash[i], HASHX_SIZE);
	}
}

/* Outcome of hashx_make plus a few outputs, to compare runs. */
typedef struct outcome {
	hashx_result res;
	uint8_t out[4][HASHX_SIZE];
} outcome;

static void get_outcome(hashx_ctx *ctx, const void *seed, size_t len,
			outcome *oc)
{
	static const uint64_t nonces[4] = { 0, 1, 0xdeadbeef, UINT64_MAX };

	memset(oc, 0, sizeof *oc);
	oc->res = hashx_make(ctx, seed, len);
	if (oc->res != HASHX_OK)
		return;
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(hashx_exec(ctx, nonces[i], oc->out[i]),
				 HASHX_OK);
}

static int same_outcome(const outcome *a, const outcome *b)
{
	return a->res == b->res && memcmp(a->out, b->out, sizeof a->out) == 0;
}

START_TEST(callback_sees_program_stream)
{
	static observed o, direct;
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_INTERPRETED);
	hashx_keys keys;
	hashx_program prog;

	ck_assert_ptr_nonnull(ctx);
	memset(&o, 0, sizeof o);
	o.check = &o;
	hashx_rng_callback(ctx, observer, &o);
	ck_assert_int_eq(hashx_make(ctx, abc_seed, sizeof abc_seed), HASHX_OK);
	ck_assert_int_eq(o.bad_user_data, 0);
	ck_assert_int_gt(o.count, 100);
	ck_assert_int_lt(o.count, MAX_SEEN);

	hashx_keys_from_seed(abc_seed, sizeof abc_seed, &keys);
	ck_assert_uint_eq(o.words[0], hashx_siphash13_ctr(&keys.program, 0));
	for (long n = 0; n < o.count; n++)
		ck_assert_msg(o.words[n] ==
				      hashx_siphash13_ctr(&keys.program,
							  (uint64_t)n),
			      "word %ld", n);

	/* The generator, run directly, draws the same number of words. */
	memset(&direct, 0, sizeof direct);
	direct.check = &direct;
	ck_assert(hashx_generate(&keys.program, observer, &direct, &prog,
				 NULL));
	ck_assert_int_eq(direct.count, o.count);

	/* An observing callback does not change the function. */
	o.count = 0;
	assert_reference_outputs(ctx, "616263");
	ck_assert_int_eq(o.count, direct.count);
	hashx_free(ctx);
}
END_TEST

/* The callback also runs for a seed that turns out to be rejected. */
START_TEST(callback_runs_for_rejected_seed)
{
	static observed o;
	static const uint8_t bad[4] = { 0xf9, 0x05, 0x00, 0x00 };
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_INTERPRETED);
	hashx_keys keys;

	ck_assert_ptr_nonnull(ctx);
	memset(&o, 0, sizeof o);
	o.check = &o;
	hashx_rng_callback(ctx, observer, &o);
	ck_assert_int_eq(hashx_make(ctx, bad, sizeof bad), HASHX_FAIL_SEED);
	ck_assert_int_gt(o.count, 100);
	hashx_keys_from_seed(bad, sizeof bad, &keys);
	for (long n = 0; n < o.count && n < MAX_SEEN; n++)
		ck_assert_uint_eq(o.words[n],
				  hashx_siphash13_ctr(&keys.program,
						      (uint64_t)n));
	hashx_free(ctx);
}
END_TEST

/* Replaces every word with the same non-zero constant. */
static void constant_words(uint64_t *w, void *user_data)
{
	(void)user_data;
	*w = 0x0123456789abcdefULL;
}

static void flip_words(uint64_t *w, void *user_data)
{
	*w ^= *(const uint64_t *)user_data;
}

START_TEST(replacing_callback_changes_function)
{
	static const uint64_t mask = 0xa5a5a5a5a5a5a5a5ULL;
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_INTERPRETED);
	outcome ref, got;
	static const char *seeds[] = { "abc", "zzz", "0123456789" };

	ck_assert_ptr_nonnull(ctx);
	for (size_t s = 0; s < sizeof seeds / sizeof seeds[0]; s++) {
		size_t len = strlen(seeds[s]);

		hashx_rng_callback(ctx, NULL, NULL);
		get_outcome(ctx, seeds[s], len, &ref);
		ck_assert_int_eq(ref.res, HASHX_OK);

		hashx_rng_callback(ctx, constant_words, NULL);
		get_outcome(ctx, seeds[s], len, &got);
		ck_assert_msg(got.res == HASHX_FAIL_SEED ||
				      (got.res == HASHX_OK &&
				       !same_outcome(&got, &ref)),
			      "constant stream left seed %s unchanged (%d)",
			      seeds[s], (int)got.res);

		hashx_rng_callback(ctx, flip_words, (void *)&mask);
		get_outcome(ctx, seeds[s], len, &got);
		ck_assert_msg(got.res == HASHX_FAIL_SEED ||
				      (got.res == HASHX_OK &&
				       !same_outcome(&got, &ref)),
			      "flipped stream left seed %s unchanged (%d)",
			      seeds[s], (int)got.res);
	}
	hashx_free(ctx);
}
END_TEST

/* A constant stream makes some redraw loop repeat forever (a zero rotation
 * count, a repeated branch bit, the same cheap operation again); the
 * generator gives up and rejects the seed instead of hanging. */
static void fixed_words(uint64_t *w, void *user_data)
{
	*w = *(const uint64_t *)user_data;
}

START_TEST(degenerate_stream_is_rejected)
{
	static const uint64_t words[] = { 0, UINT64_MAX, 0x0101010101010101ULL };
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_INTERPRETED);
	uint8_t out[HASHX_SIZE];

	ck_assert_ptr_nonnull(ctx);
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		hashx_rng_callback(ctx, fixed_words, (void *)&words[i]);
		ck_assert_int_eq(hashx_make(ctx, "abc", 3), HASHX_FAIL_SEED);
		ck_assert_int_eq(hashx_exec(ctx, 0, out),
				 HASHX_FAIL_UNPREPARED);
	}
	hashx_rng_callback(ctx, NULL, NULL);
	ck_assert_int_eq(hashx_make(ctx, "abc", 3), HASHX_OK);
	hashx_free(ctx);
}
END_TEST

/* The callback stays across makes; NULL detaches it and restores the
 * reference functions. */
START_TEST(detach_restores_reference)
{
	static observed o;
	hashx_ctx *ctx = hashx_alloc(HASHX_TYPE_INTERPRETED);
	long first;

	ck_assert_ptr_nonnull(ctx);
	memset(&o, 0, sizeof o);
	o.check = &o;
	o.replace = 1;
	hashx_rng_callback(ctx, observer, &o);
	(void)hashx_make(ctx, abc_seed, sizeof abc_seed);
	first = o.count;
	ck_assert_int_gt(first, 0);
	(void)hashx_make(ctx, "zzz", 3);
	ck_assert_int_gt(o.count, first);

	hashx_rng_callback(ctx, NULL, NULL);
	first = o.count;
	assert_reference_outputs(ctx, "616263");
	assert_reference_outputs(ctx, "7a7a7a");
	assert_reference_outputs(ctx, "-");
	ck_assert_int_eq(o.count, first);
	hashx_free(ctx);
}
END_TEST

/* A callback on one context does not affect another. */
START_TEST(callback_is_per_context)
{
	static observed o;
	hashx_ctx *a = hashx_alloc(HASHX_TYPE_INTERPRETED);
	hashx_ctx *b = hashx_alloc(HASHX_TYPE_INTERPRETED);

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	memset(&o, 0, sizeof o);
	o.check = &o;
	o.replace = 1;
	hashx_rng_callback(a, observer, &o);
	assert_reference_outputs(b, "616263");
	ck_assert_int_eq(o.count, 0);
	hashx_rng_callback(NULL, observer, &o); /* ignored */
	hashx_free(a);
	hashx_free(b);
}
END_TEST

int main(void)
{
	tu_skip_unless_reference_salt("test_rng");

	Suite *s = suite_create("rng");
	TCase *draws = tcase_create("draws");
	TCase *obs = tcase_create("observer");
	TCase *pub = tcase_create("hashx_rng_callback");

	tcase_add_test(draws, u8_most_significant_first);
	tcase_add_test(draws, u32_high_half_first);
	tcase_add_test(draws, init_resets_stream);
	tcase_add_test(draws, buffers_independent_shared_counter);
	tcase_add_test(draws, random_interleaving);
	suite_add_tcase(s, draws);

	tcase_add_test(obs, observer_sees_each_word_once);
	tcase_add_test(obs, observer_replacement_is_drawn);
	suite_add_tcase(s, obs);

	tcase_add_test(pub, callback_sees_program_stream);
	tcase_add_test(pub, callback_runs_for_rejected_seed);
	tcase_add_test(pub, replacing_callback_changes_function);
	tcase_add_test(pub, degenerate_stream_is_rejected);
	tcase_add_test(pub, detach_restores_reference);
	tcase_add_test(pub, callback_is_per_context);
	suite_add_tcase(s, pub);
	return tu_run_suite(s);
}

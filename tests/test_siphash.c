/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_siphash.c - the SipHash pieces of HashX (src/hashx/siphash.h).
 *
 * hashx_sipround() is checked by building the standard SipHash-2-4 on top
 * of it and comparing with the 64 published test vectors (key 00..0f,
 * message 00..(i-1)), stored in tests/vectors/siphash24.txt as "LEN HEX"
 * lines (the 8 output bytes in little-endian order). That file was made
 * with libsodium's crypto_shorthash_siphash24 and agrees with the SipHash
 * paper's appendix (vector 0 310e0edd47db6f72, vector 63 724506eb4c328a95);
 * libsodium is consulted again at run time.
 *
 * The two counter-mode variants are then recomputed from their definitions
 * in siphash.c and checked for the properties HashX relies on.
 */
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "siphash.h"
#include "testutil.h"

/* ---- helpers ---------------------------------------------------------- */

/* Deterministic test data (splitmix64). */
static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t load_le(const uint8_t *p)
{
	uint64_t w = 0;

	for (int i = 7; i >= 0; i--)
		w = w << 8 | p[i];
	return w;
}

static uint64_t load_be(const char *p)
{
	uint64_t w = 0;

	for (int i = 0; i < 8; i++)
		w = w << 8 | (uint8_t)p[i];
	return w;
}

static void store_le(uint8_t *p, uint64_t w)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(w >> (8 * i));
}

static void rounds(int n, uint64_t v[4])
{
	for (int i = 0; i < n; i++)
		hashx_sipround(&v[0], &v[1], &v[2], &v[3]);
}

/*
 * Standard SipHash-2-4 with hashx_sipround() as the only permutation:
 * the state is the key xored with "somepseudorandomlygeneratedbytes" read
 * as four big-endian words; each 8-byte little-endian block m is absorbed
 * as v3 ^= m, 2 rounds, v0 ^= m; the last block holds the remaining bytes
 * and length << 56; finalization is v2 ^= 0xff and 4 rounds.
 */
static uint64_t siphash24(const uint8_t key[16], const uint8_t *msg,
			  size_t len)
{
	static const char init[] = "somepseudorandomlygeneratedbytes";
	uint64_t k0 = load_le(key), k1 = load_le(key + 8);
	uint64_t v[4] = {
		k0 ^ load_be(init + 0), k1 ^ load_be(init + 8),
		k0 ^ load_be(init + 16), k1 ^ load_be(init + 24),
	};
	size_t i;
	uint64_t b;

	for (i = 0; i + 8 <= len; i += 8) {
		uint64_t m = load_le(msg + i);

		v[3] ^= m;
		rounds(2, v);
		v[0] ^= m;
	}
	b = (uint64_t)len << 56;
	for (size_t j = 0; i + j < len; j++)
		b |= (uint64_t)msg[i + j] << (8 * j);
	v[3] ^= b;
	rounds(2, v);
	v[0] ^= b;
	v[2] ^= 0xff;
	rounds(4, v);
	return v[0] ^ v[1] ^ v[2] ^ v[3];
}

static void random_key(uint64_t *rs, hashx_sip_state *k)
{
	k->v0 = splitmix64(rs);
	k->v1 = splitmix64(rs);
	k->v2 = splitmix64(rs);
	k->v3 = splitmix64(rs);
}

static void flip_key_bit(hashx_sip_state *k, int bit)
{
	uint64_t *w[4] = { &k->v0, &k->v1, &k->v2, &k->v3 };

	*w[bit / 64] ^= 1ULL << (bit % 64);
}

/* hashx_siphash13_ctr as siphash.c defines it: counter absorbed through
 * v3, one round, folded into v0; v2 ^= 0xff and three rounds. */
static uint64_t ref_siphash13_ctr(const hashx_sip_state *key, uint64_t c)
{
	uint64_t v[4] = { key->v0, key->v1, key->v2, key->v3 };

	v[3] ^= c;
	rounds(1, v);
	v[0] ^= c;
	v[2] ^= 0xff;
	rounds(3, v);
	return v[0] ^ v[1] ^ v[2] ^ v[3];
}

/* hashx_siphash24_ctr_state512 as siphash.c defines it: v1 ^= 0xee, input
 * absorbed through v3, two rounds, folded into v0; v2 ^= 0xee, four
 * rounds, squeeze the state; v1 ^= 0xdd, four rounds, squeeze again. */
static void ref_siphash24_ctr_state512(const hashx_sip_state *key,
				       uint64_t in, uint64_t out[8])
{
	uint64_t v[4] = { key->v0, key->v1, key->v2, key->v3 };

	v[1] ^= 0xee;
	v[3] ^= in;
	rounds(2, v);
	v[0] ^= in;
	v[2] ^= 0xee;
	rounds(4, v);
	memcpy(out, v, sizeof v);
	v[1] ^= 0xdd;
	rounds(4, v);
	memcpy(out + 4, v, sizeof v);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static int popcount64(uint64_t x)
{
	int n = 0;

	for (; x != 0; x &= x - 1)
		n++;
	return n;
}

/* ---- (a) SipHash-2-4 from hashx_sipround ------------------------------ */

START_TEST(siphash24_published_vectors)
{
	uint8_t key[16], msg[64], want[8], mine[8], sodium[8];
	char line[128], hex[17];
	FILE *f = tu_open_vector("siphash24.txt");
	int n = 0;

	ck_assert_msg(f != NULL, "cannot open siphash24.txt");
	for (int i = 0; i < 16; i++)
		key[i] = (uint8_t)i;
	for (int i = 0; i < 64; i++)
		msg[i] = (uint8_t)i;
	while (fgets(line, sizeof line, f) != NULL) {
		int len;

		ck_assert_int_eq(sscanf(line, "%d %16s", &len, hex), 2);
		ck_assert_int_eq(len, n);
		ck_assert_int_eq(tu_hex_decode(hex, want, sizeof want), 8);

		store_le(mine, siphash24(key, msg, (size_t)len));
		ck_assert_int_eq(crypto_shorthash_siphash24(
					 sodium, msg, (unsigned long long)len,
					 key),
				 0);
		ck_assert_msg(memcmp(sodium, want, 8) == 0,
			      "file and libsodium disagree on vector %d", len);
		if (memcmp(mine, want, 8) != 0) {
			char got[17];

			tu_hex_encode(mine, 8, got);
			ck_abort_msg("vector %d: got %s want %s", len, got,
				     hex);
		}
		n++;
	}
	fclose(f);
	ck_assert_int_eq(n, 64);
}
END_TEST

/* The paper's appendix, independently of the file. */
START_TEST(siphash24_paper_endpoints)
{
	static const uint8_t v0[8] = { 0x31, 0x0e, 0x0e, 0xdd,
				       0x47, 0xdb, 0x6f, 0x72 };
	static const uint8_t v63[8] = { 0x72, 0x45, 0x06, 0xeb,
					0x4c, 0x32, 0x8a, 0x95 };
	uint8_t key[16], msg[63], out[8];

	for (int i = 0; i < 16; i++)
		key[i] = (uint8_t)i;
	for (int i = 0; i < 63; i++)
		msg[i] = (uint8_t)i;
	store_le(out, siphash24(key, msg, 0));
	ck_assert_mem_eq(out, v0, 8);
	store_le(out, siphash24(key, msg, 63));
	ck_assert_mem_eq(out, v63, 8);
}
END_TEST

/* Random keys and lengths (crossing several block boundaries). */
START_TEST(siphash24_random_vs_libsodium)
{
	uint64_t rs = 0x5151;
	uint8_t key[16], msg[200], mine[8], sodium[8];

	for (int t = 0; t < 1000; t++) {
		size_t len = (size_t)(splitmix64(&rs) % sizeof msg);

		for (size_t i = 0; i < sizeof key; i++)
			key[i] = (uint8_t)splitmix64(&rs);
		for (size_t i = 0; i < len; i++)
			msg[i] = (uint8_t)splitmix64(&rs);
		store_le(mine, siphash24(key, msg, len));
		crypto_shorthash_siphash24(sodium, msg,
					   (unsigned long long)len, key);
		ck_assert_msg(memcmp(mine, sodium, 8) == 0,
			      "trial %d (length %zu) differs", t, len);
	}
}
END_TEST

/* ---- (b) the counter-mode variants ------------------------------------ */

START_TEST(ctr13_matches_definition)
{
	uint64_t rs = 13;

	for (int t = 0; t < 300; t++) {
		hashx_sip_state key;
		uint64_t ctrs[5] = { 0, 1, UINT64_MAX, (uint64_t)t,
				     splitmix64(&rs) };

		random_key(&rs, &key);
		for (int i = 0; i < 5; i++)
			ck_assert_uint_eq(hashx_siphash13_ctr(&key, ctrs[i]),
					  ref_siphash13_ctr(&key, ctrs[i]));
	}
}
END_TEST

START_TEST(state512_matches_definition)
{
	uint64_t rs = 24;

	for (int t = 0; t < 300; t++) {
		hashx_sip_state key;
		uint64_t ins[4] = { 0, UINT64_MAX, (uint64_t)t,
				    splitmix64(&rs) };

		random_key(&rs, &key);
		for (int i = 0; i < 4; i++) {
			uint64_t got[8], want[8];

			memset(got, 0xa5, sizeof got);
			hashx_siphash24_ctr_state512(&key, ins[i], got);
			ref_siphash24_ctr_state512(&key, ins[i], want);
			ck_assert_mem_eq(got, want, sizeof want);
		}
	}
}
END_TEST

/* The key must not be modified by either function. */
START_TEST(key_is_read_only)
{
	hashx_sip_state key = { 1, 2, 3, 4 }, copy = key;
	uint64_t out[8];

	(void)hashx_siphash13_ctr(&key, 99);
	hashx_siphash24_ctr_state512(&key, 99, out);
	ck_assert_mem_eq(&key, &copy, sizeof key);
}
END_TEST

#define NCTR 4096

START_TEST(ctr13_counters_differ)
{
	static uint64_t out[NCTR + 3];
	uint64_t rs = 7;
	hashx_sip_state key;
	int n = 0;

	random_key(&rs, &key);
	for (uint64_t c = 0; c < NCTR; c++)
		out[n++] = hashx_siphash13_ctr(&key, c);
	out[n++] = hashx_siphash13_ctr(&key, 1ULL << 63);
	out[n++] = hashx_siphash13_ctr(&key, UINT64_MAX);
	out[n++] = hashx_siphash13_ctr(&key, 0x100000000ULL);
	qsort(out, (size_t)n, sizeof out[0], cmp_u64);
	for (int i = 1; i < n; i++)
		ck_assert_msg(out[i] != out[i - 1],
			      "two counters give %016llx",
			      (unsigned long long)out[i]);
}
END_TEST

/* Flipping any one key bit changes the output, and about half its bits. */
START_TEST(ctr13_key_sensitivity)
{
	uint64_t rs = 8;
	long total = 0;

	for (int t = 0; t < 4; t++) {
		hashx_sip_state key;

		random_key(&rs, &key);
		for (int bit = 0; bit < 256; bit++) {
			hashx_sip_state k2 = key;
			uint64_t c = (uint64_t)t * 1000;
			uint64_t a = hashx_siphash13_ctr(&key, c), b;

			flip_key_bit(&k2, bit);
			b = hashx_siphash13_ctr(&k2, c);
			ck_assert_msg(a != b, "key bit %d ignored", bit);
			total += popcount64(a ^ b);
		}
	}
	/* 1024 flips, expected 32 bits each (sd of the mean 0.125). */
	ck_assert_msg(total > 1024 * 30 && total < 1024 * 34,
		      "mean changed bits %.2f", (double)total / 1024);
}
END_TEST

/* One counter bit flipped changes about half the output bits. */
START_TEST(ctr13_counter_avalanche)
{
	uint64_t rs = 9;
	hashx_sip_state key;
	long total = 0;

	random_key(&rs, &key);
	for (int t = 0; t < 16; t++) {
		uint64_t c = splitmix64(&rs);

		for (int bit = 0; bit < 64; bit++)
			total += popcount64(
				hashx_siphash13_ctr(&key, c) ^
				hashx_siphash13_ctr(&key, c ^ (1ULL << bit)));
	}
	ck_assert_msg(total > 1024 * 30 && total < 1024 * 34,
		      "mean changed bits %.2f", (double)total / 1024);
}
END_TEST

START_TEST(state512_halves_differ)
{
	uint64_t rs = 10;

	for (int t = 0; t < 1000; t++) {
		hashx_sip_state key;
		uint64_t out[8];

		random_key(&rs, &key);
		hashx_siphash24_ctr_state512(&key, (uint64_t)t, out);
		ck_assert_msg(memcmp(out, out + 4, 4 * sizeof out[0]) != 0,
			      "halves equal at trial %d", t);
		for (int i = 0; i < 4; i++)
			ck_assert_msg(out[i] != out[i + 4],
				      "word %d equals word %d (trial %d)", i,
				      i + 4, t);
	}
}
END_TEST

START_TEST(state512_counters_differ)
{
	static uint64_t words[8][1024];
	uint64_t rs = 11;
	hashx_sip_state key;

	random_key(&rs, &key);
	for (int c = 0; c < 1024; c++) {
		uint64_t out[8];

		hashx_siphash24_ctr_state512(&key, (uint64_t)c, out);
		for (int i = 0; i < 8; i++)
			words[i][c] = out[i];
	}
	/* Each of the eight words, taken alone, differs across inputs. */
	for (int i = 0; i < 8; i++) {
		qsort(words[i], 1024, sizeof words[i][0], cmp_u64);
		for (int c = 1; c < 1024; c++)
			ck_assert_msg(words[i][c] != words[i][c - 1],
				      "word %d repeats across inputs", i);
	}
}
END_TEST

START_TEST(state512_key_sensitivity)
{
	uint64_t rs = 12;
	hashx_sip_state key;
	uint64_t base[8];

	random_key(&rs, &key);
	hashx_siphash24_ctr_state512(&key, 12345, base);
	for (int bit = 0; bit < 256; bit++) {
		hashx_sip_state k2 = key;
		uint64_t out[8];

		flip_key_bit(&k2, bit);
		hashx_siphash24_ctr_state512(&k2, 12345, out);
		for (int i = 0; i < 8; i++)
			ck_assert_msg(out[i] != base[i],
				      "key bit %d leaves word %d unchanged",
				      bit, i);
	}
}
END_TEST

/* The domain constants separate the variants: the 512-bit expansion is
 * not the 64-bit stream under the same key and counter. */
START_TEST(variants_are_separated)
{
	uint64_t rs = 14;

	for (int t = 0; t < 100; t++) {
		hashx_sip_state key;
		uint64_t out[8], w;

		random_key(&rs, &key);
		w = hashx_siphash13_ctr(&key, (uint64_t)t);
		hashx_siphash24_ctr_state512(&key, (uint64_t)t, out);
		ck_assert_uint_ne(w, out[0] ^ out[1] ^ out[2] ^ out[3]);
		ck_assert_uint_ne(w, out[4] ^ out[5] ^ out[6] ^ out[7]);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("siphash");
	TCase *std = tcase_create("siphash24");
	TCase *ctr = tcase_create("counter-mode");

	if (sodium_init() < 0)
		return EXIT_FAILURE;
	tcase_add_test(std, siphash24_published_vectors);
	tcase_add_test(std, siphash24_paper_endpoints);
	tcase_add_test(std, siphash24_random_vs_libsodium);
	suite_add_tcase(s, std);

	tcase_add_test(ctr, ctr13_matches_definition);
	tcase_add_test(ctr, state512_matches_definition);
	tcase_add_test(ctr, key_is_read_only);
	tcase_add_test(ctr, ctr13_counters_differ);
	tcase_add_test(ctr, ctr13_key_sensitivity);
	tcase_add_test(ctr, ctr13_counter_avalanche);
	tcase_add_test(ctr, state512_halves_differ);
	tcase_add_test(ctr, state512_counters_differ);
	tcase_add_test(ctr, state512_key_sensitivity);
	tcase_add_test(ctr, variants_are_separated);
	suite_add_tcase(s, ctr);
	return tu_run_suite(s);
}

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_blake2b.c - the one BLAKE2b function written here (block mode's
 * reduced-round expansion) against libsodium's BLAKE2b: with the standard
 * 12 rounds it must give libsodium's digests for every length around the
 * block boundaries, so that the 4-round form differs from BLAKE2b in
 * nothing but its round count.
 */
#include <string.h>

#include <sodium.h>

#include "blake2b_rounds.h"
#include "bytes.h"
#include "testutil.h"

/* The parameter block of plain (unkeyed, sequential) BLAKE2b with an
 * n-byte digest: digest length, key length 0, fanout 1, depth 1. */
static void plain_params(unsigned digest, uint64_t p[8])
{
	memset(p, 0, 8 * sizeof p[0]);
	p[0] = digest | (uint64_t)1 << 16 | (uint64_t)1 << 24;
}

static void input_bytes(uint8_t *buf, size_t len)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = (uint8_t)(i * 131 + 7);
}

/* Our 12-round result as a digest of `digest` bytes. */
static void ours(unsigned digest, const uint8_t *in, size_t len, uint8_t *out)
{
	uint64_t p[8], h[8];
	uint8_t bytes[64];

	plain_params(digest, p);
	hashx_blake2b_rounds(p, in, len, HASHX_BLAKE2B_ROUNDS_STANDARD, h);
	for (int i = 0; i < 8; i++)
		hashx_store64_le(bytes + 8 * i, h[i]);
	memcpy(out, bytes, digest);
}

START_TEST(twelve_rounds_are_blake2b)
{
	static uint8_t in[1100];
	unsigned digests[] = { 64, 32, 20 };

	ck_assert_int_ge(sodium_init(), 0);
	input_bytes(in, sizeof in);
	for (size_t d = 0; d < sizeof digests / sizeof digests[0]; d++)
		for (size_t len = 0; len <= sizeof in; len++) {
			uint8_t want[64], got[64];

			crypto_generichash_blake2b(want, digests[d], in, len,
						   NULL, 0);
			ours(digests[d], in, len, got);
			if (memcmp(got, want, digests[d]) != 0)
				ck_abort_msg("digest %u, %zu bytes: differs",
					     digests[d], len);
		}
}
END_TEST

/* The round count is honoured: 4 rounds are not BLAKE2b, and each count
 * gives its own state. */
START_TEST(round_count_matters)
{
	static const uint8_t in[] = "round count";
	uint64_t p[8], h4[8], h12[8], h4b[8];

	plain_params(64, p);
	hashx_blake2b_rounds(p, in, sizeof in, 4, h4);
	hashx_blake2b_rounds(p, in, sizeof in, 12, h12);
	hashx_blake2b_rounds(p, in, sizeof in, 4, h4b);
	ck_assert_mem_ne(h4, h12, sizeof h4);
	ck_assert_mem_eq(h4, h4b, sizeof h4);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("blake2b-rounds");
	TCase *tc = tcase_create("rounds");

	tcase_add_test(tc, twelve_rounds_are_blake2b);
	tcase_add_test(tc, round_count_matters);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}

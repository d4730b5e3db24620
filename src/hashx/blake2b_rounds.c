/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * blake2b_rounds.c - BLAKE2b (RFC 7693) with a chosen number of rounds.
 * Why it is written here rather than taken from libsodium: see
 * blake2b_rounds.h.
 */
#include <config.h>

#include <string.h>

#include "blake2b_rounds.h"
#include "bytes.h"

/* The initial value: SHA-512's, as RFC 7693 section 2.6 specifies. */
static const uint64_t iv[8] = {
	0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL,
	0xa54ff53a5f1d36f1ULL, 0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL,
	0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
};

/* The message schedule: which words each round feeds to its eight G
 * calls (RFC 7693 section 2.7). Rounds 10 and 11 reuse rows 0 and 1. */
static const uint8_t sigma[10][16] = {
	{ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 },
	{ 14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3 },
	{ 11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4 },
	{ 7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8 },
	{ 9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13 },
	{ 2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9 },
	{ 12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11 },
	{ 13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10 },
	{ 6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5 },
	{ 10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0 },
};

static inline uint64_t rotr64(uint64_t x, unsigned n)
{
	return (x >> n) | (x << (64 - n));
}

/* The mixing function G on four words of the work vector, with message
 * words x and y (RFC 7693 section 3.1: rotations 32, 24, 16, 63). */
static inline void mix(uint64_t v[16], int a, int b, int c, int d, uint64_t x,
		       uint64_t y)
{
	v[a] = v[a] + v[b] + x;
	v[d] = rotr64(v[d] ^ v[a], 32);
	v[c] = v[c] + v[d];
	v[b] = rotr64(v[b] ^ v[c], 24);
	v[a] = v[a] + v[b] + y;
	v[d] = rotr64(v[d] ^ v[a], 16);
	v[c] = v[c] + v[d];
	v[b] = rotr64(v[b] ^ v[c], 63);
}

/* One round: G down the four columns, then along the four diagonals. */
static void round_of(uint64_t v[16], const uint64_t m[16], const uint8_t *s)
{
	mix(v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
	mix(v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
	mix(v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
	mix(v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
	mix(v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
	mix(v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
	mix(v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
	mix(v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
}

/* The compression function F: `block` into h, after `bytes` bytes of input
 * in all (this block's included), `last` for the final block. Inputs
 * shorter than 2^64 bytes leave the counter's high word zero. */
static void compress(uint64_t h[8], const uint8_t block[HASHX_BLAKE2B_BLOCK],
		     uint64_t bytes, int last, unsigned rounds)
{
	uint64_t m[16], v[16];

	for (int i = 0; i < 16; i++)
		m[i] = hashx_load64_le(block + 8 * i);
	for (int i = 0; i < 8; i++) {
		v[i] = h[i];
		v[i + 8] = iv[i];
	}
	v[12] ^= bytes;
	if (last)
		v[14] = ~v[14];
	for (unsigned r = 0; r < rounds; r++)
		round_of(v, m, sigma[r % 10]);
	for (int i = 0; i < 8; i++)
		h[i] ^= v[i] ^ v[i + 8];
}

void hashx_blake2b_rounds(const uint64_t param[8], const void *in, size_t len,
			  unsigned rounds, uint64_t out[8])
{
	const uint8_t *p = in;
	uint8_t last[HASHX_BLAKE2B_BLOCK] = { 0 };
	uint64_t done = 0;

	for (int i = 0; i < 8; i++)
		out[i] = iv[i] ^ param[i];
	/* Every block but the last is full; the last (possibly empty, for
	 * empty input) is zero-padded and flagged. */
	while (len > HASHX_BLAKE2B_BLOCK) {
		done += HASHX_BLAKE2B_BLOCK;
		compress(out, p, done, 0, rounds);
		p += HASHX_BLAKE2B_BLOCK;
		len -= HASHX_BLAKE2B_BLOCK;
	}
	if (len > 0)
		memcpy(last, p, len);
	compress(out, last, done + len, 1, rounds);
}

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * evicted_filter.c - see evicted_filter.h for the design.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "evicted_filter.h"

void evicted_filter_init(evicted_filter *f, const uint8_t *hash_key,
			 size_t bytes)
{
	memset(f, 0, sizeof *f);
	f->hash_key = hash_key;
	f->word_count = bytes / sizeof(uint64_t);
}

void evicted_filter_clear(evicted_filter *f)
{
	free(f->words);
	f->words = NULL;
	f->added = 0;
}

size_t evicted_filter_size(const evicted_filter *f)
{
	return f->word_count * sizeof(uint64_t);
}

size_t evicted_filter_bytes(const evicted_filter *f)
{
	return f->words != NULL ? evicted_filter_size(f) : 0;
}

static uint64_t load_le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* The K bit positions of `nonce`: h1 + i * h2 (mod m). m is a multiple of
 * 64 and h2 odd, so no (i - j) * h2 with 0 < i - j < K is a multiple of m:
 * the K positions always differ. */
static void positions(const evicted_filter *f, const uint8_t *nonce,
		      uint64_t pos[EVICTED_FILTER_HASHES])
{
	uint8_t h[crypto_shorthash_siphashx24_BYTES];
	uint64_t bits = (uint64_t)f->word_count * 64, h1, h2;

	crypto_shorthash_siphashx24(h, nonce, EQUIX_POW_NONCE_LEN, f->hash_key);
	h1 = load_le64(h);
	h2 = load_le64(h + 8) | 1;
	for (unsigned i = 0; i < EVICTED_FILTER_HASHES; i++)
		pos[i] = (h1 + i * h2) % bits;
}

bool evicted_filter_add(evicted_filter *f,
			const uint8_t nonce[EQUIX_POW_NONCE_LEN])
{
	uint64_t pos[EVICTED_FILTER_HASHES];

	if (f->word_count == 0)
		return false;
	if (f->words == NULL) {
		f->words = calloc(f->word_count, sizeof(uint64_t));
		if (f->words == NULL)
			return false;
	}
	positions(f, nonce, pos);
	for (unsigned i = 0; i < EVICTED_FILTER_HASHES; i++)
		f->words[pos[i] / 64] |= (uint64_t)1 << (pos[i] % 64);
	f->added++;
	return true;
}

bool evicted_filter_may_contain(const evicted_filter *f,
				const uint8_t nonce[EQUIX_POW_NONCE_LEN])
{
	uint64_t pos[EVICTED_FILTER_HASHES];

	if (f->words == NULL)
		return false;
	positions(f, nonce, pos);
	for (unsigned i = 0; i < EVICTED_FILTER_HASHES; i++)
		if (!(f->words[pos[i] / 64] >> (pos[i] % 64) & 1))
			return false;
	return true;
}

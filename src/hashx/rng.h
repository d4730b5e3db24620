/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rng.h - the random stream that drives the program generator.
 *
 * The stream is hashx_siphash13_ctr(key, 0), (key, 1), ... : one 64-bit word
 * per counter value. The generator draws bytes and 32-bit words from it
 * through two independent buffers, and the split matters for bit-exactness:
 *
 *  - a byte draw takes the next word only when the byte buffer is empty and
 *    then hands out its bytes from the most significant down;
 *  - a 32-bit draw does the same with its own buffer, high half first.
 *
 * Both buffers pull from the same counter, so interleaving byte and word
 * draws consumes the stream in a precise, order-dependent way.
 */
#ifndef HASHX_RNG_H
#define HASHX_RNG_H

#include <stddef.h>
#include <stdint.h>

#include "siphash.h"

/* Observer hook for the 64-bit words of the stream (see hashx_rng_callback
 * in hashx.h). */
typedef void hashx_rng_observer(uint64_t *word, void *user_data);

typedef struct hashx_rng {
	hashx_sip_state key;
	uint64_t counter;
	uint64_t byte_buf, word_buf;
	unsigned bytes_left, words_left;
	hashx_rng_observer *observer;
	void *observer_data;
} hashx_rng;

void hashx_rng_init(hashx_rng *rng, const hashx_sip_state *key,
		    hashx_rng_observer *observer, void *observer_data);

/* Next word of the stream, shown to the observer if there is one. */
static inline uint64_t hashx_rng_next_word(hashx_rng *rng)
{
	uint64_t w = hashx_siphash13_ctr(&rng->key, rng->counter++);

	if (rng->observer != NULL)
		rng->observer(&w, rng->observer_data);
	return w;
}

static inline uint8_t hashx_rng_u8(hashx_rng *rng)
{
	if (rng->bytes_left == 0) {
		rng->byte_buf = hashx_rng_next_word(rng);
		rng->bytes_left = 8;
	}
	rng->bytes_left--;
	return (uint8_t)(rng->byte_buf >> (8 * rng->bytes_left));
}

static inline uint32_t hashx_rng_u32(hashx_rng *rng)
{
	if (rng->words_left == 0) {
		rng->word_buf = hashx_rng_next_word(rng);
		rng->words_left = 2;
	}
	rng->words_left--;
	return (uint32_t)(rng->word_buf >> (32 * rng->words_left));
}

#endif

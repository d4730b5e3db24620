/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rng.c - setting up the generator's random stream.
 */
#include "rng.h"

void hashx_rng_init(hashx_rng *rng, const hashx_sip_state *key,
		    hashx_rng_observer *observer, void *observer_data)
{
	rng->key = *key;
	rng->counter = 0;
	rng->byte_buf = 0;
	rng->word_buf = 0;
	rng->bytes_left = 0;
	rng->words_left = 0;
	rng->observer = observer;
	rng->observer_data = observer_data;
}

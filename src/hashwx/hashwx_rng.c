/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/* hashwx_rng.c - the SipHash generator's stream (hashwx_rng.h). */
#include "hashwx_rng.h"

void hashwx_rng_words(const hashwx_sip_key *key, uint64_t salt,
		      uint64_t *out, unsigned blocks)
{
	hashx_sip_state s = hashwx_rng_start(key, salt);

	for (unsigned b = 0; b < blocks; b++) {
		if (b > 0)
			hashwx_rng_mix(&s, key);
		out[4 * b + 0] = s.v3;
		out[4 * b + 1] = s.v2;
		out[4 * b + 2] = s.v1;
		out[4 * b + 3] = s.v0;
	}
}

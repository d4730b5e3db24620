/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * keys.h - from a seed to the two keys of a HashX function.
 */
#ifndef HASHX_KEYS_H
#define HASHX_KEYS_H

#include <stddef.h>

#include "siphash.h"

/*
 * The seed, of any length, is hashed with BLAKE2b-512 (no key, the HashX
 * salt in the parameter block, zero personalization). The first 32 bytes of
 * the digest, as four little-endian words, key the program generator's
 * random stream; the last 32 key the input expansion and the finalization.
 */
typedef struct hashx_keys {
	hashx_sip_state program; /* drives the generator */
	hashx_sip_state input;   /* expands each input, finalizes each hash */
} hashx_keys;

void hashx_keys_from_seed(const void *seed, size_t size, hashx_keys *keys);

#endif

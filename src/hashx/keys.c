/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * keys.c - seed keying with libsodium's BLAKE2b.
 */
#include <config.h>

#include <sodium.h>

#include "bytes.h"
#include "keys.h"

/* The salt field of BLAKE2b's parameter block is 16 bytes; the salt string
 * is zero-padded to that length. It separates HashX function families:
 * another salt gives unrelated functions for the same seeds. */
static const unsigned char salt[crypto_generichash_blake2b_SALTBYTES] =
	HASHX_SALT;
static const unsigned char personal[crypto_generichash_blake2b_PERSONALBYTES];

static void load_state(const unsigned char *bytes, hashx_sip_state *s)
{
	s->v0 = hashx_load64_le(bytes + 0);
	s->v1 = hashx_load64_le(bytes + 8);
	s->v2 = hashx_load64_le(bytes + 16);
	s->v3 = hashx_load64_le(bytes + 24);
}

void hashx_keys_from_seed(const void *seed, size_t size, hashx_keys *keys)
{
	unsigned char digest[64];
	static const unsigned char empty[1];

	crypto_generichash_blake2b_salt_personal(
		digest, sizeof digest, seed != NULL ? seed : empty,
		(unsigned long long)size, NULL, 0, salt, personal);
	load_state(digest, &keys->program);
	load_state(digest + 32, &keys->input);
}

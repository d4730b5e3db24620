/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * keyed_slot.h - where the service's hash tables (the replay cache, the
 * retired seeds) put a key: SipHash-2-4 (libsodium's crypto_shorthash)
 * under a key drawn at random per service, so that clients, who choose
 * nonces, cannot aim collisions at one probe chain.
 */
#ifndef EQUIX_POW_KEYED_SLOT_H
#define EQUIX_POW_KEYED_SLOT_H

#include <stddef.h>
#include <stdint.h>

#include <sodium.h>

/* The top 32 bits of the keyed hash of `in`, scaled to [0, slots): a
 * table need not be a power of two, so it can grow into all of its cap. */
static inline size_t keyed_slot(const uint8_t *hash_key, const uint8_t *in,
				size_t length, size_t slots)
{
	uint8_t h[crypto_shorthash_BYTES];
	uint64_t top = 0;

	crypto_shorthash(h, in, length, hash_key);
	for (unsigned i = 0; i < 4; i++)
		top = top << 8 | h[i];
	return (size_t)((top * (uint64_t)slots) >> 32);
}

#endif

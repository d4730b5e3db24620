/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * block.h - block mode's rule (hashx_alloc_block): the input expansion
 * and the finalization around the program, as counter mode's are in
 * siphash.h and finalize.h.
 *
 * Block mode hashes a byte string instead of a counter: BLAKE2b cut down
 * to 4 rounds (blake2b_rounds.h) spreads it over the eight registers,
 * and a 64-byte parameter block both starts that BLAKE2b and, XORed into
 * the registers, removes the multiplications' bias afterwards, where
 * counter mode adds the key back. No code generator emits either (block
 * mode compiles the program alone, the register-file form), so the steps
 * below have C instantiations only; a generator that one day emits them
 * would make its table from the same lists, as finalize.h does.
 */
#ifndef HASHX_BLOCK_H
#define HASHX_BLOCK_H

#include <stddef.h>
#include <stdint.h>

#include "blake2b_rounds.h"
#include "finalize.h"
#include "siphash.h"

/* Word 0 of the parameter block: a 64-byte digest (byte 0), no key
 * (byte 1), fanout 1 (byte 2) and depth 1 (byte 3). */
#define HASHX_BLOCK_PARAM0                                               \
	(64 | (uint64_t)1 << 16 | (uint64_t)1 << 24)

/*
 * The parameter block, written once as data: its eight little-endian
 * words, each one of
 *   WORD(i, c)  word i is the constant c
 *   KEY(i, k)   word i is word k (v0..v3) of the input key
 * Words 0..3 are BLAKE2b's digest length, key length, fanout, depth and
 * the fields left zero; words 4..7, the salt and personalization, hold
 * the seed's input key (the second half of its BLAKE2b-512 keys), which
 * keys SipHash in counter mode.
 */
#define HASHX_BLOCK_PARAM_STEPS(WORD, KEY)                               \
	WORD(0, HASHX_BLOCK_PARAM0) WORD(1, 0) WORD(2, 0) WORD(3, 0)      \
	KEY(4, 0) KEY(5, 1) KEY(6, 2) KEY(7, 3)

/*
 * The finalization, as steps on the registers r0..r7 like finalize.h's:
 *   PARAMS    r[i] ^= word i of the parameter block, for all eight
 *   ROUND(h), FOLD  as in finalize.h
 */
#define HASHX_BLOCK_FINALIZE_STEPS(PARAMS, ROUND, FOLD)                  \
	PARAMS() HASHX_FINALIZE_MIX(ROUND, FOLD)

/* The parameter block's words into p[0..7]. */
#define HASHX_BLOCK_C_SET_WORD(i, c) p[i] = (c);
#define HASHX_BLOCK_C_SET_KEY(i, k) p[i] = hashx_sip_word(key, k);

/* The registers the program starts from for the `len` bytes at `in`
 * (NULL allowed when len is 0) under the input key `key`. */
static inline void hashx_block_expand(const hashx_sip_state *key,
				      const void *in, size_t len,
				      uint64_t r[8])
{
	uint64_t p[8];

	HASHX_BLOCK_PARAM_STEPS(HASHX_BLOCK_C_SET_WORD, HASHX_BLOCK_C_SET_KEY)
	hashx_blake2b_rounds(p, in, len, HASHX_BLAKE2B_ROUNDS_BLOCK_MODE, r);
}

/* The parameter block XORed into r[0..7]; a zero word costs nothing. */
#define HASHX_BLOCK_C_XOR_WORD(i, c) r[i] ^= (c);
#define HASHX_BLOCK_C_XOR_KEY(i, k) r[i] ^= hashx_sip_word(key, k);
#define HASHX_BLOCK_C_PARAMS()                                           \
	HASHX_BLOCK_PARAM_STEPS(HASHX_BLOCK_C_XOR_WORD,                   \
				HASHX_BLOCK_C_XOR_KEY)

/* From the program's final registers to the 32-byte hash. */
static inline void hashx_block_finalize(const hashx_sip_state *key,
					uint64_t r[8], uint8_t out[32])
{
	HASHX_BLOCK_FINALIZE_STEPS(HASHX_BLOCK_C_PARAMS, HASHX_FIN_C_ROUND,
				   HASHX_FIN_C_FOLD)
}

#undef HASHX_BLOCK_C_SET_WORD
#undef HASHX_BLOCK_C_SET_KEY
#undef HASHX_BLOCK_C_XOR_WORD
#undef HASHX_BLOCK_C_XOR_KEY
#undef HASHX_BLOCK_C_PARAMS

#endif

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * finalize.h - from the program's final registers to the 32-byte hash.
 */
#ifndef HASHX_FINALIZE_H
#define HASHX_FINALIZE_H

#include <stdint.h>

#include "bytes.h"
#include "siphash.h"

/*
 * The program's registers are biased toward zero by its multiplications;
 * adding the input key back and one SipRound per half of the register file
 * remove that bias before the halves are folded into the output.
 */
/*
 * The registers the key's words v0..v3 are added to: r0 and r1 (v0 and v1
 * of the first half's SipRound), r6 and r7 (v2 and v3 of the second's).
 * Every back-end that finalizes reads this table.
 */
static const int hashx_finalize_key_reg[4] = { 0, 1, 6, 7 };

/*
 * Output word j (bytes 8j .. 8j + 7) is r[j] ^ r[HASHX_FINALIZE_HALF + j]:
 * word j of each half's SipRound. A code generator that needs only some
 * words (bit j of `words`: word j; the solver's stage 0 reads word 0
 * alone) emits, in each half's round, only the steps those words depend
 * on.
 */
#define HASHX_FINALIZE_HALF 4
#define HASHX_FINALIZE_ALL_WORDS 0xfu

static inline unsigned hashx_finalize_steps(unsigned words)
{
	return hashx_sipround_needed(words);
}

static inline void hashx_finalize(const hashx_sip_state *key, uint64_t r[8],
				  uint8_t out[32])
{
	/* Written out, not looped over a copy of the key: the loop kept the
	 * copy on the stack, 26 more instructions per hash (cachegrind). */
	r[hashx_finalize_key_reg[0]] += key->v0;
	r[hashx_finalize_key_reg[1]] += key->v1;
	r[hashx_finalize_key_reg[2]] += key->v2;
	r[hashx_finalize_key_reg[3]] += key->v3;
	hashx_sipround(&r[0], &r[1], &r[2], &r[3]);
	hashx_sipround(&r[4], &r[5], &r[6], &r[7]);
	for (int i = 0; i < 4; i++)
		hashx_store64_le(out + 8 * i, r[i] ^ r[HASHX_FINALIZE_HALF + i]);
}

#endif

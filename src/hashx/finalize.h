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
static inline void hashx_finalize(const hashx_sip_state *key, uint64_t r[8],
				  uint8_t out[32])
{
	r[0] += key->v0;
	r[1] += key->v1;
	r[6] += key->v2;
	r[7] += key->v3;
	hashx_sipround(&r[0], &r[1], &r[2], &r[3]);
	hashx_sipround(&r[4], &r[5], &r[6], &r[7]);
	for (int i = 0; i < 4; i++)
		hashx_store64_le(out + 8 * i, r[i] ^ r[i + 4]);
}

#endif

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
 * remove that bias before the halves are folded into the output. Written
 * once as data, like siphash.h's SipRound and expansion: steps on the
 * registers r0..r7, half h being r[4h] .. r[4h + 3], each one of
 *   ADD_KEY(r, k)  r[r] += word k (v0..v3) of the key
 *   ROUND(h)       one SipRound on half h
 *   FOLD           output word j (bytes 8j .. 8j + 7) = r[j] ^ r[4 + j],
 *                  word j of each half's round
 * The key's v0, v1 go to r0, r1 (v0 and v1 of the first half's round), its
 * v2, v3 to r6, r7 (v2 and v3 of the second's). C code (hashx_finalize
 * below, the lanes interpreter) instantiates the list with its own step
 * macros, the code generators walk hashx_finalize_table.
 *
 * A code generator that needs only some output words (bit j of `words`:
 * word j; the solver's stage 0 reads word 0 alone) emits, in each ROUND,
 * only the steps those words depend on (hashx_finalize_steps), and folds
 * only those words.
 */
#define HASHX_FINALIZE_STEPS(ADD_KEY, ROUND, FOLD)                       \
	ADD_KEY(0, 0) ADD_KEY(1, 1) ADD_KEY(6, 2) ADD_KEY(7, 3)           \
	HASHX_FINALIZE_MIX(ROUND, FOLD)

/* How every finalization ends, block mode's too (block.h): one SipRound
 * per half, then the fold. */
#define HASHX_FINALIZE_MIX(ROUND, FOLD) ROUND(0) ROUND(1) FOLD()

typedef enum hashx_finalize_op {
	HASHX_FINALIZE_ADD_KEY,
	HASHX_FINALIZE_ROUND,
	HASHX_FINALIZE_FOLD,
} hashx_finalize_op;

typedef struct hashx_finalize_step {
	uint8_t op;  /* hashx_finalize_op */
	uint8_t reg; /* ADD_KEY: the register; ROUND: the half */
	uint8_t key; /* ADD_KEY: the key's word */
} hashx_finalize_step;

#define HASHX_FINALIZE_STEP_COUNT 7
#define HASHX_FIN_TABLE_ADD_KEY(r, k) { HASHX_FINALIZE_ADD_KEY, r, k },
#define HASHX_FIN_TABLE_ROUND(h) { HASHX_FINALIZE_ROUND, h, 0 },
#define HASHX_FIN_TABLE_FOLD() { HASHX_FINALIZE_FOLD, 0, 0 },
static const hashx_finalize_step
	hashx_finalize_table[HASHX_FINALIZE_STEP_COUNT] = {
		HASHX_FINALIZE_STEPS(HASHX_FIN_TABLE_ADD_KEY,
				     HASHX_FIN_TABLE_ROUND,
				     HASHX_FIN_TABLE_FOLD)
};
#undef HASHX_FIN_TABLE_ADD_KEY
#undef HASHX_FIN_TABLE_ROUND
#undef HASHX_FIN_TABLE_FOLD

/* The half whose word j is folded with word j of half 0. */
#define HASHX_FINALIZE_HALF 4
#define HASHX_FINALIZE_ALL_WORDS 0xfu

static inline unsigned hashx_finalize_steps(unsigned words)
{
	return hashx_sipround_needed(words);
}

/* Word k (v0..v3) of a key; k is a constant where the steps are
 * instantiated, so this folds to one field. */
static inline uint64_t hashx_sip_word(const hashx_sip_state *s, unsigned k)
{
	return k == 0 ? s->v0 : k == 1 ? s->v1 : k == 2 ? s->v2 : s->v3;
}

/* The steps as statements: on the key's fields, not a copy of them (a
 * loop over a copy kept it on the stack, 26 more instructions per hash,
 * cachegrind). ROUND and FOLD stay defined for block.h's finalization. */
#define HASHX_FIN_C_ADD_KEY(d, k) r[d] += hashx_sip_word(key, k);
#define HASHX_FIN_C_ROUND(h)                                             \
	hashx_sipround(&r[4 * (h)], &r[4 * (h) + 1], &r[4 * (h) + 2],     \
		       &r[4 * (h) + 3]);
#define HASHX_FIN_C_FOLD()                                               \
	for (int j = 0; j < 4; j++)                                      \
		hashx_store64_le(out + 8 * j,                            \
				 r[j] ^ r[HASHX_FINALIZE_HALF + j]);

static inline void hashx_finalize(const hashx_sip_state *key, uint64_t r[8],
				  uint8_t out[32])
{
	HASHX_FINALIZE_STEPS(HASHX_FIN_C_ADD_KEY, HASHX_FIN_C_ROUND,
			     HASHX_FIN_C_FOLD)
}

#undef HASHX_FIN_C_ADD_KEY

#endif

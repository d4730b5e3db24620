/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * aarch64_emit.h - what the A64 emitters share (HashX's aarch64.c and
 * HashWX's hashwx_aarch64.c): the byte cursor, the named encodings (Arm
 * ARM, "A64 Base Instruction Descriptions"), constant loads, branches and
 * their patching, and the SipRound walked from siphash.h's table. 64-bit
 * encodings have their operands or'ed in (Rd bits 0-4, Rn 5-9, Rm 16-20).
 */
#ifndef HASHX_AARCH64_EMIT_H
#define HASHX_AARCH64_EMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "siphash.h"

enum {
	X0 = 0, X1 = 1, X2 = 2, X3 = 3, X4 = 4, X5 = 5, X6 = 6, X7 = 7,
	X8 = 8, X9 = 9, X10 = 10, X11 = 11, X12 = 12, X13 = 13, X14 = 14,
	X15 = 15, X16 = 16, X17 = 17, XZR = 31,
	SP = 31 /* as the base of a load or store, or in add/sub #imm */
};

/* 64-bit encodings, operands or'ed in (Rd bits 0-4, Rn 5-9, Rm 16-20). */
enum {
	A64_ADD = 0x8b000000,   /* add xd, xn, xm, lsl #imm6 */
	A64_SUB = 0xcb000000,   /* sub xd, xn, xm */
	A64_EOR = 0xca000000,   /* eor xd, xn, xm */
	A64_ORR = 0xaa000000,   /* orr xd, xn, xm (mov xd, xm with xn = xzr) */
	A64_MUL = 0x9b007c00,   /* madd xd, xn, xm, xzr */
	A64_UMULH = 0x9bc07c00,
	A64_SMULH = 0x9b407c00,
	A64_EXTR = 0x93c00000,  /* extr xd, xn, xm, #lsb (ror with xn = xm) */
	A64_MOVZ = 0xd2800000,  /* movz xd, #imm16, lsl #(16 * hw) */
	A64_MOVN = 0x92800000,
	A64_MOVK = 0xf2800000,
	A64_ORR_W = 0x2a000000, /* orr wd, wn, wm */
	A64_TST_W = 0x6a00001f, /* ands wzr, wn, wm */
	A64_B_COND = 0x54000000,
	A64_CBNZ = 0xb5000000,  /* cbnz xt, #imm19 * 4 */
	A64_CBZ = 0xb4000000,   /* cbz xt, #imm19 * 4 */
	A64_B = 0x14000000,
	A64_LDP = 0xa9400000,   /* ldp xt, xt2, [xn, #imm7 * 8] */
	A64_STP = 0xa9000000,
	A64_RET = 0xd65f03c0,
	/* the scatter form's loop and table update */
	A64_ADD_IMM = 0x91000000,   /* add xd, xn, #imm12 */
	A64_SUBS_IMM = 0xf1000000,  /* subs xd, xn, #imm12 */
	A64_ADD_W_IMM = 0x11000000, /* add wd, wn, #imm12 */
	A64_CMP_W = 0x6b00001f,     /* subs wzr, wn, wm */
	A64_MADD_W = 0x1b000000,    /* madd wd, wn, wm, wa (Ra bits 10-14) */
	A64_UBFM_W = 0x53000000,    /* ubfm wd, wn, #immr, #imms (bits 16, 10) */
	A64_UBFM = 0xd3400000,      /* ubfm xd, xn, #immr, #imms */
	/* register offsets [xn, wm, uxtw #size]: the index zero-extended
	 * from 32 bits and scaled by the element size */
	A64_LDRH_UXTW = 0x78605800, /* ldrh wt, [xn, wm, uxtw #1] */
	A64_STRH_UXTW = 0x78205800, /* strh wt, [xn, wm, uxtw #1] */
	A64_STR_UXTW = 0xf8205800,  /* str xt, [xn, wm, uxtw #3] */
	/* HashWX's memory, stack frame and shifts */
	A64_SUB_IMM = 0xd1000000,   /* sub xd, xn, #imm12 */
	A64_LDR_REG = 0xf8606800,   /* ldr xt, [xn, xm] */
	A64_STR_IMM = 0xf9000000,   /* str xt, [xn, #imm12 * 8] */
	A64_SBFM = 0x93400000,      /* sbfm xd, xn, #immr, #imms (asr) */
	/* logical immediates, N = 1: ones(imms + 1) rotated right by immr
	 * (bits 16, 10) */
	A64_AND_IMM = 0x92400000,
	A64_ORR_IMM = 0xb2400000,
	A64_EOR_IMM = 0xd2400000,
};

enum { COND_NE = 1, COND_HS = 2 };

typedef struct emitter {
	uint8_t *pos;
	uint8_t *end;
} emitter;

static inline void put(emitter *e, uint32_t insn)
{
	for (int i = 0; i < 4; i++)
		*e->pos++ = (uint8_t)(insn >> (8 * i));
}

/* op xd, xn, xm (with an optional left shift of xm). */
static inline void rrr(emitter *e, uint32_t op, int d, int n, int m,
		       unsigned lsl)
{
	put(e, op | (uint32_t)m << 16 | lsl << 10 | (uint32_t)n << 5 |
		       (uint32_t)d);
}

static inline void mov_rr(emitter *e, int d, int m)
{
	rrr(e, A64_ORR, d, XZR, m, 0);
}

/* ror xd, xd, #n */
static inline void ror_imm(emitter *e, int d, unsigned n)
{
	rrr(e, A64_EXTR, d, d, d, n);
}

/* op xd, xn, #imm where imm is `count` ones from bit `lo` (1 <= count
 * <= 63): the logical immediates a 64-bit element encodes. */
static inline void logic_imm(emitter *e, uint32_t op, int d, int n,
			     unsigned lo, unsigned count)
{
	put(e, op | ((64u - lo) & 63u) << 16 | (count - 1u) << 10 |
		       (uint32_t)n << 5 | (uint32_t)d);
}

/* Loads a 64-bit constant in as few MOVZ/MOVN/MOVK as it allows: start
 * from all zeros or all ones, whichever more 16-bit halves already match. */
static inline void mov_imm64(emitter *e, int d, uint64_t v)
{
	int zeros = 0, ones = 0;

	for (int hw = 0; hw < 4; hw++) {
		uint16_t h = (uint16_t)(v >> (16 * hw));

		zeros += h == 0;
		ones += h == 0xffff;
	}
	uint16_t fill = ones > zeros ? 0xffff : 0;
	bool first = true;

	for (int hw = 0; hw < 4; hw++) {
		uint16_t h = (uint16_t)(v >> (16 * hw));

		if (h == fill && !(first && hw == 3))
			continue;
		if (first) {
			uint16_t imm = fill ? (uint16_t)~h : h;

			put(e, (fill ? A64_MOVN : A64_MOVZ) | (uint32_t)hw << 21 |
				       (uint32_t)imm << 5 | (uint32_t)d);
			first = false;
		} else {
			put(e, A64_MOVK | (uint32_t)hw << 21 | (uint32_t)h << 5 |
				       (uint32_t)d);
		}
	}
}

/* cbz/b.cond to `target`, or, with target NULL, to be patched by
 * patch_imm19 once it is known. */
static inline uint8_t *cond_branch(emitter *e, uint32_t op,
				   const uint8_t *target)
{
	uint8_t *at = e->pos;
	long words = target != NULL ? (long)(target - at) / 4 : 0;

	put(e, op | ((uint32_t)words & 0x7ffff) << 5);
	return at;
}

/* Points the cbz or b.cond at `at` to `target` (imm19, bits 5-23). */
static inline void patch_imm19(uint8_t *at, const uint8_t *target)
{
	uint32_t insn = (uint32_t)at[0] | (uint32_t)at[1] << 8 |
			(uint32_t)at[2] << 16 | (uint32_t)at[3] << 24;
	uint32_t words = (uint32_t)((target - at) / 4) & 0x7ffff;

	insn = (insn & ~(0x7ffffu << 5)) | words << 5;
	for (int i = 0; i < 4; i++)
		at[i] = (uint8_t)(insn >> (8 * i));
}

/* The steps of siphash.h's SipRound that `steps` selects (bit k: table
 * step k), on the registers v[0..3]: the one SipRound every A64 emitter
 * walks. */
static inline void a64_sipround_steps(emitter *e, const int v[4],
				      unsigned steps)
{
	for (int k = 0; k < HASHX_SIPROUND_STEP_COUNT; k++) {
		const hashx_sip_step *st = &hashx_sipround_table[k];
		int d = v[st->dst];

		if (!(steps >> k & 1))
			continue;
		if (st->op == HASHX_SIP_ADD)
			rrr(e, A64_ADD, d, d, v[st->arg], 0);
		else if (st->op == HASHX_SIP_XOR)
			rrr(e, A64_EOR, d, d, v[st->arg], 0);
		else
			ror_imm(e, d, 64 - st->arg);
	}
}

#endif

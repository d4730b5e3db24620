/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mulh.h - the high 64 bits of a 64 x 64-bit product, from 32-bit halves.
 *
 * UMULH_R and SMULH_R need the top half of a 128-bit product. Where no
 * 128-bit multiply exists (the portable interpreter without __int128, and
 * every vector unit, whose widest multiply is 32 x 32 -> 64 bits per lane)
 * it is built from four partial products. With a = ah:al and b = bh:bl:
 *
 *   ll = al*bl   hl = ah*bl   lh = al*bh   hh = ah*bh
 *   t  = hl + (ll >> 32)             never overflows 64 bits
 *   u  = lh + (t & 0xffffffff)       never overflows either
 *   hi = hh + (t >> 32) + (u >> 32)
 *
 * The signed high product is the unsigned one minus b where a is negative
 * and minus a where b is negative (two's complement: a negative factor x
 * stands for x - 2^64).
 *
 * This is the one description. C code instantiates the macros below with
 * its own four operations (scalar words, or AVX-512 intrinsics in the
 * lanes interpreter); the vector code generators (x86_64_avx2.c,
 * x86_64_avx512.c) emit the same steps under the same names.
 */
#ifndef HASHX_MULH_H
#define HASHX_MULH_H

#include <stdint.h>

/*
 * hi = high half of a * b (unsigned), of type T, where the caller's
 *   MUL32(x, y)  is the 64-bit product of the low 32 bits of x and y,
 *   SHR32(x)     is x >> 32, LOW32(x) is x & 0xffffffff, ADD(x, y) x + y.
 */
#define HASHX_UMULH_FROM_HALVES(T, hi, a, b, MUL32, SHR32, LOW32, ADD)     \
	do {                                                                \
		T ah_ = SHR32(a), bh_ = SHR32(b);                           \
		T t_ = ADD(MUL32(ah_, b), SHR32(MUL32(a, b)));              \
		T u_ = ADD(MUL32(a, bh_), LOW32(t_));                       \
		(hi) = ADD(ADD(MUL32(ah_, bh_), SHR32(t_)), SHR32(u_));     \
	} while (0)

/* hi -= (a < 0 ? b : 0) + (b < 0 ? a : 0), where SIGNS(x) is all ones
 * when x is negative and zero otherwise, AND and SUB as named. */
#define HASHX_SMULH_CORRECTION(hi, a, b, SIGNS, AND, SUB)                   \
	do {                                                                \
		(hi) = SUB(hi, AND(SIGNS(a), b));                           \
		(hi) = SUB(hi, AND(SIGNS(b), a));                           \
	} while (0)

/* The scalar instantiation, for compilers without a 128-bit type. */
#define HASHX_MULH_MUL32(x, y) ((uint64_t)(uint32_t)(x) * (uint32_t)(y))
#define HASHX_MULH_SHR32(x) ((x) >> 32)
#define HASHX_MULH_LOW32(x) ((x) & UINT64_C(0xffffffff))
#define HASHX_MULH_ADD(x, y) ((x) + (y))
#define HASHX_MULH_SIGNS(x) (UINT64_C(0) - ((x) >> 63))
#define HASHX_MULH_AND(x, y) ((x) & (y))
#define HASHX_MULH_SUB(x, y) ((x) - (y))

static inline uint64_t hashx_umulh_halves(uint64_t a, uint64_t b)
{
	uint64_t hi;

	HASHX_UMULH_FROM_HALVES(uint64_t, hi, a, b, HASHX_MULH_MUL32,
				HASHX_MULH_SHR32, HASHX_MULH_LOW32,
				HASHX_MULH_ADD);
	return hi;
}

static inline uint64_t hashx_smulh_halves(uint64_t a, uint64_t b)
{
	uint64_t hi = hashx_umulh_halves(a, b);

	HASHX_SMULH_CORRECTION(hi, a, b, HASHX_MULH_SIGNS, HASHX_MULH_AND,
			       HASHX_MULH_SUB);
	return hi;
}

#endif

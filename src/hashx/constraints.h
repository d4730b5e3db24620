/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * constraints.h - which registers an instruction may read and write.
 *
 * The generator tracks, per register, when its value becomes ready in the
 * CPU model and which operation wrote it last. The rules below pick operands
 * among the registers that are allowed; the random choice among the allowed
 * ones is uniform, and drawing nothing when a single register qualifies is
 * part of the algorithm.
 *
 * Register sets are bit masks (bit i = register ri), so each rule is one
 * mask operation. The functions are inline because they run for nearly
 * every generated instruction, and the generator's speed is most of the
 * cost of verifying a puzzle solution.
 */
#ifndef HASHX_CONSTRAINTS_H
#define HASHX_CONSTRAINTS_H

#include <stdbool.h>
#include <stdint.h>

#include "rng.h"
#include "templates.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define HASHX_REGISTERS 8

/* Constants for byte-parallel arithmetic on 64-bit words. */
#define HASHX_BYTES_01 UINT64_C(0x0101010101010101)
#define HASHX_BYTES_80 UINT64_C(0x8080808080808080)

/* r5 cannot be the destination of ADD_RS: on x86, LEA with r13 as its base
 * needs a displacement byte, which would make the compiled code irregular. */
#define HASHX_REG_NO_ADD_RS_DST 5

/*
 * The last operation on each register is kept as a group (templates.h) and
 * a parameter; `written_by[g]` is the set of registers whose last writer
 * belongs to group g, so the registers that may clash with an operation are
 * found without scanning all eight.
 */
typedef struct hashx_registers {
	/* Byte i: the cycle register i's value is available. Cycles stay
	 * below 256 (HASHX_SCHED_CYCLES plus a latency), and packing them
	 * into one word lets hashx_registers_ready() compare all eight at
	 * once; as a loop it was the generator's single most expensive line
	 * (an eighth of the instructions of hashx_make). */
	uint64_t ready;
	uint32_t last_op_par[HASHX_REGISTERS];
	uint8_t last_group[HASHX_REGISTERS];     /* HASHX_OP_COUNT: none yet */
	unsigned written_by[HASHX_OP_COUNT + 1]; /* register sets, by group */
} hashx_registers;

static inline void hashx_registers_init(hashx_registers *regs)
{
	regs->ready = 0;
	for (int i = 0; i < HASHX_REGISTERS; i++) {
		regs->last_op_par[i] = UINT32_MAX;
		regs->last_group[i] = HASHX_OP_COUNT;
	}
	for (int g = 0; g < HASHX_OP_COUNT; g++)
		regs->written_by[g] = 0;
	regs->written_by[HASHX_OP_COUNT] = (1u << HASHX_REGISTERS) - 1;
}

/* Records that `tpl` writes `dst`, ready at cycle `ready`. */
static inline void hashx_registers_write(hashx_registers *regs, int dst,
					 const hashx_template *tpl,
					 uint32_t op_par, int ready)
{
	unsigned bit = 1u << dst;

	regs->ready = (regs->ready & ~(UINT64_C(0xff) << (8 * dst))) |
		      (uint64_t)(uint8_t)ready << (8 * dst);
	regs->last_op_par[dst] = op_par;
	regs->written_by[regs->last_group[dst]] &= ~bit;
	regs->written_by[tpl->group] |= bit;
	regs->last_group[dst] = (uint8_t)tpl->group;
}

/*
 * The registers whose values are ready at `cycle` (below 256): byte-wise
 * "ready <= cycle" on the packed word, without branches. With the top bits
 * split off, (cycle_low | 0x80) - ready_low sets bit 7 of a byte exactly
 * when the low seven bits compare "<=" and never borrows from the next
 * byte; the top bits then decide where they differ.
 */
static inline unsigned hashx_registers_ready(const hashx_registers *regs,
					     int cycle)
{
#if defined(__SSE2__)
	/* The same with SSE2 (always there on x86-64): four instructions
	 * instead of a dozen, on the critical path. ready <= cycle exactly
	 * when min(ready, cycle) == ready, byte by byte. */
	__m128i r = _mm_loadl_epi64((const __m128i *)&regs->ready);
	__m128i c = _mm_set1_epi8((char)cycle);
	__m128i le = _mm_cmpeq_epi8(_mm_min_epu8(r, c), r);

	return (unsigned)_mm_movemask_epi8(le) & 0xff;
#else
	uint64_t c = (uint64_t)(uint8_t)cycle * HASHX_BYTES_01;
	uint64_t r = regs->ready;
	uint64_t low_le = (c | HASHX_BYTES_80) - (r & ~HASHX_BYTES_80);
	uint64_t le = ((c & ~r) | (~(c ^ r) & low_le)) & HASHX_BYTES_80;

	/* Gather bit 7 of each byte into bits 0..7 (no carries: each
	 * product term lands on its own bit of the top byte). */
	return (unsigned)(((le >> 7) * UINT64_C(0x0102040810204080)) >> 56);
#endif
}

/*
 * Register choice is on the generator's critical path: the register an
 * instruction writes decides which ones the next instruction finds ready,
 * and so its choice, step after step. Every part of a choice is therefore
 * a table lookup indexed by the candidate set (an 8-bit mask), which is
 * shorter than the equivalent arithmetic (counting bits by multiplication
 * took ~10 cycles, a division ~15):
 *   - how many candidates there are;
 *   - 2^64 / count rounded up, to compute x mod count with two
 *     multiplications (Lemire's "fastmod", exact for every 32-bit x;
 *     for count = 1, 2^64 wraps to 0, and x mod 1 is 0);
 *   - the n-th candidate in ascending order.
 * The preprocessor builds the tables: HASHX_REP256(F, i) is F(i), ...,
 * F(i + 255).
 */
#define HASHX_REP4(F, i) F(i), F((i) + 1), F((i) + 2), F((i) + 3)
#define HASHX_REP16(F, i)                                                      \
	HASHX_REP4(F, i), HASHX_REP4(F, (i) + 4), HASHX_REP4(F, (i) + 8),      \
		HASHX_REP4(F, (i) + 12)
#define HASHX_REP64(F, i)                                                      \
	HASHX_REP16(F, i), HASHX_REP16(F, (i) + 16), HASHX_REP16(F, (i) + 32), \
		HASHX_REP16(F, (i) + 48)
#define HASHX_REP256(F, i)                                                     \
	HASHX_REP64(F, i), HASHX_REP64(F, (i) + 64),                           \
		HASHX_REP64(F, (i) + 128), HASHX_REP64(F, (i) + 192)

#define HASHX_POPCOUNT8(m)                                                     \
	(((m)&1) + ((m) >> 1 & 1) + ((m) >> 2 & 1) + ((m) >> 3 & 1) +          \
	 ((m) >> 4 & 1) + ((m) >> 5 & 1) + ((m) >> 6 & 1) + ((m) >> 7 & 1))
#define HASHX_RECIP(m)                                                         \
	(HASHX_POPCOUNT8(m) == 0 ? 0 : UINT64_MAX / HASHX_POPCOUNT8(m) + 1)
/* The n-th set bit of m is at the number of positions i whose count of
 * set bits in 0..i is at most n. */
#define HASHX_NTH(m, n)                                                        \
	((HASHX_POPCOUNT8((m)&0x01) <= (n)) +                                  \
	 (HASHX_POPCOUNT8((m)&0x03) <= (n)) +                                  \
	 (HASHX_POPCOUNT8((m)&0x07) <= (n)) +                                  \
	 (HASHX_POPCOUNT8((m)&0x0f) <= (n)) +                                  \
	 (HASHX_POPCOUNT8((m)&0x1f) <= (n)) +                                  \
	 (HASHX_POPCOUNT8((m)&0x3f) <= (n)) +                                  \
	 (HASHX_POPCOUNT8((m)&0x7f) <= (n)) +                                  \
	 (HASHX_POPCOUNT8((m)&0xff) <= (n)))
#define HASHX_NTH_ROW(m)                                                       \
	{                                                                      \
		HASHX_NTH(m, 0), HASHX_NTH(m, 1), HASHX_NTH(m, 2),             \
			HASHX_NTH(m, 3), HASHX_NTH(m, 4), HASHX_NTH(m, 5),     \
			HASHX_NTH(m, 6), HASHX_NTH(m, 7)                       \
	}

static inline int hashx_popcount8(unsigned mask)
{
	static const uint8_t count[256] = {HASHX_REP256(HASHX_POPCOUNT8, 0)};

	return count[mask & 0xff];
}

/* Index of the n-th (from 0) register of `mask`; n below its size. */
static inline int hashx_nth_register(unsigned mask, unsigned n)
{
	static const uint8_t nth[256][8] = {HASHX_REP256(HASHX_NTH_ROW, 0)};

	return nth[mask & 0xff][n & 7];
}

static inline int hashx_lowest_register(unsigned mask)
{
	return hashx_nth_register(mask, 0);
}

/* x mod popcount(mask), mask not empty. */
static inline uint32_t hashx_mod_count(uint32_t x, unsigned mask)
{
#if defined(__SIZEOF_INT128__)
	static const uint64_t recip[256] = {HASHX_REP256(HASHX_RECIP, 0)};
	uint64_t low = recip[mask & 0xff] * x;

	return (uint32_t)(((unsigned __int128)low *
			   (unsigned)hashx_popcount8(mask)) >>
			  64);
#else
	return x % (uint32_t)hashx_popcount8(mask);
#endif
}

/* Uniform choice among the registers of `mask`, in ascending order; a lone
 * candidate costs no random draw. False if the mask is empty. */
static HASHX_ALWAYS_INLINE bool hashx_choose_register(unsigned mask,
						      hashx_rng *rng, int *out)
{
	int count = hashx_popcount8(mask);

	if (count == 0)
		return false;
	*out = hashx_nth_register(
		mask,
		count > 1 ? hashx_mod_count(hashx_rng_u32(rng), mask) : 0);
	return true;
}

/* Picks a source among the `ready` registers; false if there is none. */
static HASHX_ALWAYS_INLINE bool hashx_select_src(const hashx_template *tpl,
						 unsigned ready, hashx_rng *rng,
						 int *src)
{
	/* With two registers ready and one of them r5, ADD_RS must read r5:
	 * the other one is its only possible destination. */
	if (tpl->opcode == HASHX_OP_ADD_RS && hashx_popcount8(ready) == 2 &&
	    (ready & (1u << HASHX_REG_NO_ADD_RS_DST))) {
		*src = HASHX_REG_NO_ADD_RS_DST;
		return true;
	}
	return hashx_choose_register(ready, rng, src);
}

/*
 * A register may be the destination when all of these hold:
 *  - its value is ready when the instruction starts;
 *  - it is not the source, unless the instruction allows it (x-x and x^x
 *    are constants);
 *  - it was not just written by a MUL_R, if this is a MUL_R, unless
 *    chain_mul: repeated multiplication piles up trailing zero bits. The
 *    generator lifts the ban after a failed attempt so it cannot get stuck;
 *  - the same operation (group and parameter) was not its last write, since
 *    that pair could be merged or would cancel out;
 *  - it is not r5 for ADD_RS (see above).
 * `src` is -1 for instructions without a source.
 */
static HASHX_ALWAYS_INLINE bool
hashx_select_dst(const hashx_registers *regs, const hashx_template *tpl,
		 unsigned ready, int src, uint32_t op_par, bool chain_mul,
		 hashx_rng *rng, int *dst)
{
	unsigned mask = ready;

	if (!tpl->src_may_be_dst && src >= 0)
		mask &= ~(1u << src);
	/* (branch-free: this condition is unpredictable) */
	unsigned no_chain =
		0u - (unsigned)(!chain_mul && tpl->group == HASHX_OP_MUL_R);
	mask &= ~(regs->written_by[HASHX_OP_MUL_R] & no_chain);
	if (tpl->op_par_rule == HASHX_OP_PAR_NONE) {
		/* Every register of this group has the constant op-par (all
		 * templates of a group share the rule): no need to compare,
		 * nor to loop a random number of times. */
		mask &= ~regs->written_by[tpl->group];
	} else {
		for (unsigned same = regs->written_by[tpl->group] & mask;
		     same != 0; same &= same - 1) {
			int i = hashx_lowest_register(same);

			if (regs->last_op_par[i] == op_par)
				mask &= ~(1u << i);
		}
	}
	if (tpl->opcode == HASHX_OP_ADD_RS)
		mask &= ~(1u << HASHX_REG_NO_ADD_RS_DST);
	return hashx_choose_register(mask, rng, dst);
}

#endif

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * x86_64_avx512.c - the AVX-512 batch code generator (batch.h).
 *
 * Each lane of a 512-bit register holds one input's HashX register, so one
 * vector instruction advances 8 hashes. The program is emitted WAYS times
 * per instruction, for independent register sets: a 64-bit lane multiply
 * (vpmullq) takes 15 cycles, and a second set of lanes fills the time one
 * set waits for its products.
 *
 * Register use, for way w (0 or 1):
 *   zmm(8w + i)      HashX register ri
 *   zmm(16 + w)      the last UMULH/SMULH result (what BRANCH tests)
 *   zmm(18 + 7w + t) scratch t = 0..6
 *   k(1 + w)         lanes taking the current BRANCH
 *   k(3 + w)         lanes that have not taken a branch yet
 *
 * A BRANCH tests every lane; lanes that take it run the instructions since
 * the last TARGET once more, under the lane mask (merge-masking keeps the
 * other lanes' registers), then continue with everyone else. Programs
 * take a branch in few lanes, so the masked block is jumped over when no
 * lane takes it.
 *
 * Instructions used, by extension: F (add, sub, xor, and, shifts,
 * rotates, vptestnmq, masked moves, broadcasts), DQ (vpmullq).
 */
#include <config.h>

#include <stdlib.h>

#include "analysis.h"
#include "batch.h"
#include "batch_backend.h"
#include "code_size.h"
#include "compiler.h"
#include "finalize.h"
#include "x86_64_emit.h"

#define WAYS 2
#define LANES (8 * WAYS)

/* Largest encoding of one EVEX instruction here: 4 prefix bytes, opcode,
 * ModRM and a disp32 (the shifts, which take an imm8, have register
 * operands only). */
#define MAX_EVEX_BYTES 10
/* Most vector instructions one HashX instruction becomes (SMULH: 21 with
 * the copy of its result); a BRANCH's test, jump and mask update. */
#define MAX_OPS_PER_INSTR 22
#define MAX_INSTR_BYTES (MAX_OPS_PER_INSTR * MAX_EVEX_BYTES)
#define BRANCH_BYTES 48
/* The loop around the program: input vectors, SipHash-2-4 expansion
 * (6 + 4 SipRounds of 14 instructions), finalization, stores. */
#define LOOP_BYTES (WAYS * 220 * MAX_EVEX_BYTES + 128)

/* The constant pool: a jump over it at the entry, then 64-byte aligned
 * words. */
#define POOL_START 64
#define POOL_WORDS (LANES + POOL_SHARED + HASHX_PROGRAM_SIZE)

/*
 * A BRANCH is followed by a copy of its block for the lanes that take it,
 * so the code grows with branches times block length: to megabytes for
 * 512 instructions, more than any buffer should hold. The capacity holds
 * every program the generator makes (program.h: at most
 * HASHX_GEN_BRANCHES_MAX blocks of at most HASHX_GEN_BLOCK_MAX
 * instructions) with every instruction at its maximum: the pool, the loop
 * code before and after the program, WAYS copies of each instruction and
 * of each block, and the room emit_program keeps free past the
 * instruction at hand. A program whose copies do not fit fails to
 * compile, and the solver hashes with the scalar JIT instead
 * (tests/test_code_size.c builds both kinds).
 */
#define CODE_CAPACITY                                                          \
	(POOL_START + POOL_WORDS * 8 + 2 * LOOP_BYTES + BRANCH_BYTES +         \
	 WAYS * MAX_INSTR_BYTES *                                              \
		 (HASHX_PROGRAM_SIZE +                                         \
		  HASHX_GEN_BRANCHES_MAX * HASHX_GEN_BLOCK_MAX))

enum { MAP_0F = 1, MAP_0F38 = 2 };
enum { PP_NONE = 0, PP_66 = 1, PP_F3 = 2 };

/* Opcodes (Intel SDM), all EVEX.512 with W1 unless noted. */
typedef struct vop {
	unsigned map, pp, opcode, ext; /* ext: ModRM.reg for /digit forms */
} vop;

static const vop VPADDQ = {MAP_0F, PP_66, 0xd4, 0};
static const vop VPSUBQ = {MAP_0F, PP_66, 0xfb, 0};
static const vop VPXORQ = {MAP_0F, PP_66, 0xef, 0};
static const vop VPANDQ = {MAP_0F, PP_66, 0xdb, 0};
static const vop VPMULUDQ = {MAP_0F, PP_66, 0xf4, 0};
static const vop VPMULLQ = {MAP_0F38, PP_66, 0x40, 0};
static const vop VMOVDQA64 = {MAP_0F, PP_66, 0x6f, 0};    /* load form */
static const vop VMOVDQU64_ST = {MAP_0F, PP_F3, 0x7f, 0}; /* store */
static const vop VPBROADCASTQ_M = {MAP_0F38, PP_66, 0x59, 0};
static const vop VPBROADCASTQ_R = {MAP_0F38, PP_66, 0x7c, 0};
static const vop VPTESTNMQ = {MAP_0F38, PP_F3, 0x27, 0};
static const vop VPSRLQ_I = {MAP_0F, PP_66, 0x73, 2};
static const vop VPSLLQ_I = {MAP_0F, PP_66, 0x73, 6};
static const vop VPRORQ_I = {MAP_0F, PP_66, 0x72, 0};
static const vop VPROLQ_I = {MAP_0F, PP_66, 0x72, 1};
static const vop VPSRAQ_I = {MAP_0F, PP_66, 0x72, 4};

/* ---- EVEX encoding -------------------------------------------------- */

/*
 * The 4-byte EVEX prefix. `reg` is ModRM.reg's register (0-31), `vvvv` the
 * extra source (0-31), `rm` ModRM.rm's register (0-31) or, when
 * `rm_is_mem`, a base register (0-15); `k` the write mask (0 for none),
 * `bcst` the {1to8} broadcast of a memory operand.
 */
static void evex(x86_emitter *e, const vop *op, int reg, int vvvv, int rm,
		 bool rm_is_mem, unsigned k, bool bcst)
{
	unsigned x = rm_is_mem ? 1 : !(rm & 16);

	x86_byte(e, 0x62);
	x86_byte(e, (!(reg & 8)) << 7 | x << 6 | (!(rm & 8)) << 5 |
			    (!(reg & 16)) << 4 | op->map);
	x86_byte(e, 1u << 7 | (~vvvv & 15) << 3 | 1u << 2 | op->pp);
	x86_byte(e, 2u << 5 | (unsigned)bcst << 4 | (!(vvvv & 16)) << 3 | k);
	x86_byte(e, op->opcode);
}

/* op zdst{k}, za, zb */
static void vrrr(x86_emitter *e, const vop *op, int dst, int a, int b,
		 unsigned k)
{
	evex(e, op, dst, a, b, false, k, false);
	x86_byte(e, 0xc0 | (dst & 7) << 3 | (b & 7));
}

/* op zdst{k}, za, [pool word]{1to8} */
static void vrrm(x86_emitter *e, const vop *op, int dst, int a,
		 const uint8_t *word, unsigned k)
{
	evex(e, op, dst, a, 5, true, k, true);
	x86_rip_operand(e, dst, word, 0);
}

/* Shifts and rotates by an immediate: op zdst{k}, zsrc, imm8 (the
 * destination is in vvvv, the operation in ModRM.reg). */
static void vshift(x86_emitter *e, const vop *op, int dst, int src,
		   unsigned imm, unsigned k)
{
	evex(e, op, op->ext, dst, src, false, k, false);
	x86_byte(e, 0xc0 | op->ext << 3 | (src & 7));
	x86_byte(e, imm);
}

/* vmovdqa64 zdst{k}, zsrc */
static void vmov(x86_emitter *e, int dst, int src, unsigned k)
{
	evex(e, &VMOVDQA64, dst, 0, src, false, k, false);
	x86_byte(e, 0xc0 | (dst & 7) << 3 | (src & 7));
}

/* vpbroadcastq zdst, [pool word] */
static void vbroadcast_mem(x86_emitter *e, int dst, const uint8_t *word)
{
	evex(e, &VPBROADCASTQ_M, dst, 0, 5, true, 0, false);
	x86_rip_operand(e, dst, word, 0);
}

/* vpbroadcastq zdst, r64 */
static void vbroadcast_gpr(x86_emitter *e, int dst, int gpr)
{
	evex(e, &VPBROADCASTQ_R, dst, 0, gpr, true, 0, false);
	x86_byte(e, 0xc0 | (dst & 7) << 3 | (gpr & 7));
}

/* vpaddq zdst, za, [pool words] (a full 64-byte operand) */
static void vadd_vector_mem(x86_emitter *e, int dst, int a,
			    const uint8_t *words)
{
	evex(e, &VPADDQ, dst, a, 5, true, 0, false);
	x86_rip_operand(e, dst, words, 0);
}

/* vmovdqu64 [base + disp32], zsrc */
static void vstore(x86_emitter *e, int src, int base, int32_t disp)
{
	evex(e, &VMOVDQU64_ST, src, 0, base, true, 0, false);
	x86_byte(e, 0x80 | (src & 7) << 3 | (base & 7));
	x86_imm32(e, (uint32_t)disp);
}

/* vptestnmq kdst{kmask}, za, [pool word]{1to8}: lanes where a & word is
 * zero, among those in kmask. */
static void vtestnm(x86_emitter *e, unsigned kdst, unsigned kmask, int a,
		    const uint8_t *word)
{
	evex(e, &VPTESTNMQ, (int)kdst, a, 5, true, kmask, true);
	x86_rip_operand(e, (int)kdst, word, 0);
}

/* Mask-register instructions (VEX, 3-byte form; W0, 16-bit masks). */
static void kop(x86_emitter *e, unsigned l, unsigned opcode, unsigned dst,
		unsigned a, unsigned b)
{
	x86_byte(e, 0xc4);
	x86_byte(e, 0xe0 | MAP_0F);
	x86_byte(e, (~a & 15) << 3 | l << 2 | PP_NONE);
	x86_byte(e, opcode);
	x86_byte(e, 0xc0 | dst << 3 | b);
}

static void kxnorw(x86_emitter *e, unsigned k) /* k = all ones */
{
	kop(e, 1, 0x46, k, k, k);
}

static void kandnw(x86_emitter *e, unsigned dst, unsigned a, unsigned b)
{
	kop(e, 1, 0x42, dst, a, b); /* dst = ~a & b */
}

static void kortestw(x86_emitter *e, unsigned k) /* ZF: k is all zero */
{
	kop(e, 0, 0x98, k, 0, k);
}

/* ---- registers and the constant pool -------------------------------- */

static int zr(int hashx_reg, int way)
{
	return 8 * way + hashx_reg;
}

static int zmulres(int way)
{
	return 8 * WAYS + way;
}

/* Scratch registers are shared by the ways: renaming gives each
 * instruction's result a fresh physical register, so reuse creates no
 * dependency between ways. */
static int zt(int way, int t)
{
	(void)way;
	return 8 * WAYS + WAYS + t;
}

static unsigned k_taken(int way)
{
	return 1 + (unsigned)way;
}

static unsigned k_enabled(int way)
{
	return 1 + WAYS + (unsigned)way;
}

/* The pool (x86_pool, 8-byte words): the lane numbers, the loop's
 * constants (a handful, shared), then one word per program instruction
 * for its immediate (ADD_C, XOR_C) or branch mask, not searched for a
 * twin: for 512 words that search would cost more than the compile. */
#define POOL_SHARED 16

static const uint8_t *pool_word(x86_pool *p, uint64_t v)
{
	return x86_pool_broadcast(p, v, true);
}

/* ---- the program's instructions ------------------------------------ */

/*
 * Where each BRANCH finds the last high product. Usually that product is
 * still in its destination register when the BRANCH comes, and the
 * BRANCH tests that register; only when the register is overwritten
 * first (analysis.h: mulh_clobbered) does the multiplication also copy
 * its result to zmulres. (A lane that jumps back runs the same
 * instructions from the TARGET on, so the same answer holds for it.)
 */
typedef struct emit_state {
	x86_emitter e;
	x86_pool p;
	const hashx_program *prog;
	const uint8_t *low32;                   /* 0x00000000ffffffff */
	const uint8_t *imm[HASHX_PROGRAM_SIZE]; /* per instruction, or NULL */
	hashx_analysis facts;
	size_t nbranches; /* BRANCHes emitted so far */
} emit_state;

/* The pool words of the instructions that read one; after the shared
 * constants, so those stay at the pool's start. */
static void pool_immediates(emit_state *s)
{
	for (size_t i = 0; i < s->prog->size; i++) {
		const hashx_instr *in = &s->prog->code[i];
		uint64_t v = in->imm;

		s->imm[i] = NULL;
		if (in->opcode == HASHX_OP_ADD_C || in->opcode == HASHX_OP_XOR_C)
			v = (uint64_t)(int64_t)(int32_t)in->imm;
		else if (in->opcode != HASHX_OP_BRANCH)
			continue;
		s->imm[i] = x86_pool_broadcast(&s->p, v, false);
	}
}

/*
 * The high 64 bits of the unsigned 128-bit product of za and zb, from four
 * 32x32-bit products (vpmuludq), mulh.h's steps: with a = ah:al and
 * b = bh:bl,
 *   t = ah*bl + (al*bl >> 32)            (cannot overflow)
 *   u = al*bh + (t mod 2^32)             (cannot overflow)
 *   hi = ah*bh + (t >> 32) + (u >> 32)
 * Leaves hi - (u >> 32) in t0 and u >> 32 in t4, so the caller's last
 * add (possibly masked) writes the result.
 */
static void umulh_parts(emit_state *s, int way, int a, int b)
{
	x86_emitter *e = &s->e;
	int t0 = zt(way, 0), t1 = zt(way, 1), t2 = zt(way, 2);
	int t3 = zt(way, 3), t4 = zt(way, 4);

	vshift(e, &VPSRLQ_I, t0, a, 32, 0);
	vshift(e, &VPSRLQ_I, t1, b, 32, 0);
	vrrr(e, &VPMULUDQ, t2, a, b, 0);
	vrrr(e, &VPMULUDQ, t3, t0, b, 0);
	vrrr(e, &VPMULUDQ, t4, a, t1, 0);
	vrrr(e, &VPMULUDQ, t0, t0, t1, 0);
	vshift(e, &VPSRLQ_I, t2, t2, 32, 0);
	vrrr(e, &VPADDQ, t3, t3, t2, 0);
	vrrm(e, &VPANDQ, t2, t3, s->low32, 0);
	vrrr(e, &VPADDQ, t4, t4, t2, 0);
	vshift(e, &VPSRLQ_I, t3, t3, 32, 0);
	vshift(e, &VPSRLQ_I, t4, t4, 32, 0);
	vrrr(e, &VPADDQ, t0, t0, t3, 0);
}

/* mulh.h's signed correction (minus b where a < 0, minus a where b < 0),
 * subtracted from t0 before the final add. */
static void smulh_correction(emit_state *s, int way, int a, int b)
{
	x86_emitter *e = &s->e;
	/* t1 and t2 are free again after umulh_parts */
	int t0 = zt(way, 0), t5 = zt(way, 1), t6 = zt(way, 2);

	vshift(e, &VPSRAQ_I, t5, a, 63, 0);
	vrrr(e, &VPANDQ, t5, t5, b, 0);
	vshift(e, &VPSRAQ_I, t6, b, 63, 0);
	vrrr(e, &VPANDQ, t6, t6, a, 0);
	vrrr(e, &VPSUBQ, t0, t0, t5, 0);
	vrrr(e, &VPSUBQ, t0, t0, t6, 0);
}

static void emit_mulh(emit_state *s, int way, const hashx_instr *in, unsigned k)
{
	int d = zr(in->dst, way), m = zmulres(way);

	umulh_parts(s, way, d, zr(in->src, way));
	if (in->opcode == HASHX_OP_SMULH_R)
		smulh_correction(s, way, d, zr(in->src, way));
	if (!(s->facts.mulh_use[in - s->prog->code] & HASHX_MULH_CLOBBERED)) {
		vrrr(&s->e, &VPADDQ, d, zt(way, 0), zt(way, 4), k);
		return;
	}
	vrrr(&s->e, &VPADDQ, m, zt(way, 0), zt(way, 4), k);
	vmov(&s->e, d, m, k);
}

/* One HashX instruction (not TARGET/BRANCH) for one way, its writes
 * masked by k (0: all lanes). */
static void emit_op(emit_state *s, int way, const hashx_instr *in, unsigned k)
{
	x86_emitter *e = &s->e;
	int d = zr(in->dst, way), src = zr(in->src, way);

	switch ((hashx_opcode)in->opcode) {
	case HASHX_OP_UMULH_R:
	case HASHX_OP_SMULH_R:
		emit_mulh(s, way, in, k);
		break;
	case HASHX_OP_MUL_R:
		vrrr(e, &VPMULLQ, d, d, src, k);
		break;
	case HASHX_OP_SUB_R:
		vrrr(e, &VPSUBQ, d, d, src, k);
		break;
	case HASHX_OP_XOR_R:
		vrrr(e, &VPXORQ, d, d, src, k);
		break;
	case HASHX_OP_ADD_RS:
		if (in->imm != 0) {
			vshift(e, &VPSLLQ_I, zt(way, 0), src, in->imm, 0);
			src = zt(way, 0);
		}
		vrrr(e, &VPADDQ, d, d, src, k);
		break;
	case HASHX_OP_ROR_C:
		vshift(e, &VPRORQ_I, d, d, in->imm, k);
		break;
	case HASHX_OP_ADD_C:
	case HASHX_OP_XOR_C:
		vrrm(e, in->opcode == HASHX_OP_ADD_C ? &VPADDQ : &VPXORQ, d, d,
		     s->imm[in - s->prog->code], k);
		break;
	case HASHX_OP_TARGET:
	case HASHX_OP_BRANCH:
	case HASHX_OP_COUNT:
	default:
		break;
	}
}

/*
 * A BRANCH for one way: lanes still allowed to jump whose last high
 * product has none of the mask's bits set run instructions
 * [block, branch) again under their lane mask, then lose their jump.
 */
static bool emit_branch(emit_state *s, int way, const hashx_program *prog,
			const hashx_branch_info *b)
{
	x86_emitter *e = &s->e;
	unsigned taken = k_taken(way);
	int tested = b->mulh < 0 || b->mulh_clobbered
			     ? zmulres(way)
			     : zr(prog->code[b->mulh].dst, way);
	size_t block = b->resume, branch = b->at;
	uint8_t *skip;

	vtestnm(e, taken, k_enabled(way), tested, s->imm[branch]);
	kortestw(e, taken);
	skip = x86_jcc(e, true, NULL);
	for (size_t i = block; i < branch; i++) {
		if (!x86_room(e, MAX_INSTR_BYTES + BRANCH_BYTES + LOOP_BYTES))
			return false;
		emit_op(s, way, &prog->code[i], taken);
	}
	kandnw(e, k_enabled(way), taken, k_enabled(way));
	x86_patch_rel32(skip, e->pos);
	return true;
}

static bool emit_program(emit_state *s, const hashx_program *prog)
{
	for (size_t i = 0; i < prog->size; i++) {
		const hashx_instr *in = &prog->code[i];
		const hashx_branch_info *b = &s->facts.branch[s->nbranches];

		for (int w = 0; w < WAYS; w++) {
			if (!x86_room(&s->e, MAX_INSTR_BYTES + BRANCH_BYTES +
						     LOOP_BYTES))
				return false;
			if (in->opcode == HASHX_OP_BRANCH) {
				if (!emit_branch(s, w, prog, b))
					return false;
			} else {
				emit_op(s, w, in, 0);
			}
		}
		s->nbranches += in->opcode == HASHX_OP_BRANCH;
	}
	return true;
}

/* ---- SipHash: input expansion and finalization ---------------------- */

/* siphash.h's SipRound on four zmm registers v[0..3]. */
static void sipround(emit_state *s, const int v[4])
{
	for (int k = 0; k < HASHX_SIPROUND_STEP_COUNT; k++) {
		const hashx_sip_step *st = &hashx_sipround_table[k];
		int d = v[st->dst];

		if (st->op == HASHX_SIP_ADD)
			vrrr(&s->e, &VPADDQ, d, d, v[st->arg], 0);
		else if (st->op == HASHX_SIP_XOR)
			vrrr(&s->e, &VPXORQ, d, d, v[st->arg], 0);
		else
			vshift(&s->e, &VPROLQ_I, d, d, st->arg, 0);
	}
}

/* One expansion step (siphash.h) for way w, its inputs in `in`. */
static void emit_expand_step(emit_state *s, const hashx_expand_step *st,
			     const uint64_t init[4], int in, int w)
{
	x86_emitter *e = &s->e;
	const int half[4] = {zr(4 * st->half, w), zr(4 * st->half + 1, w),
			     zr(4 * st->half + 2, w), zr(4 * st->half + 3, w)};
	int d = half[st->word];

	switch ((hashx_expand_op)st->op) {
	case HASHX_EXPAND_START:
		for (int i = 0; i < 4; i++)
			if (i == st->word)
				vrrm(e, &VPXORQ, d, in,
				     pool_word(&s->p, init[i]), 0);
			else
				vbroadcast_mem(e, half[i],
					       pool_word(&s->p, init[i]));
		break;
	case HASHX_EXPAND_XOR_INPUT:
		vrrr(e, &VPXORQ, d, d, in, 0);
		break;
	case HASHX_EXPAND_XOR_MARK:
		vrrm(e, &VPXORQ, d, d, pool_word(&s->p, st->arg), 0);
		break;
	case HASHX_EXPAND_ROUNDS:
		for (int i = 0; i < st->arg; i++)
			sipround(s, half);
		break;
	case HASHX_EXPAND_FORK:
		for (int i = 0; i < 4; i++)
			if (i == st->word)
				vrrm(e, &VPXORQ, half[i], zr(i, w),
				     pool_word(&s->p, st->arg), 0);
			else
				vmov(e, half[i], zr(i, w), 0);
		break;
	}
}

/*
 * siphash.h's expansion steps for each lane's input (rdi plus the lane
 * number): half 0 in r0..r3, half 1 in r4..r7. A START's load and a
 * FORK's copy take the XOR that follows them as their source operand.
 */
static void emit_expansion(emit_state *s, const hashx_sip_state *key,
			   const uint8_t *lane_numbers)
{
	x86_emitter *e = &s->e;
	const hashx_sip_state start = hashx_expansion_start(key);
	uint64_t init[4];

	hashx_sip_words(&start, init);
	for (int w = 0; w < WAYS; w++) {
		int in = zt(w, 0);

		vbroadcast_gpr(e, in, X86_RDI);
		vadd_vector_mem(e, in, in, lane_numbers + 64 * w);
		for (int k = 0; k < HASHX_EXPANSION_STEP_COUNT; k++)
			emit_expand_step(s, &hashx_expansion_table[k], init,
					 in, w);
		/* hashx_interpret's starting branch state */
		vrrr(e, &VPXORQ, zmulres(w), zmulres(w), zmulres(w), 0);
		kxnorw(e, k_enabled(w));
	}
}

/* finalize.h's steps, then the four output words of each lane to rdx. */
static void emit_finalization(emit_state *s, const hashx_sip_state *key)
{
	x86_emitter *e = &s->e;

	for (int w = 0; w < WAYS; w++) {
		for (int k = 0; k < HASHX_FINALIZE_STEP_COUNT; k++) {
			const hashx_finalize_step *st = &hashx_finalize_table[k];
			const int v[4] = {zr(4 * st->reg, w),
					  zr(4 * st->reg + 1, w),
					  zr(4 * st->reg + 2, w),
					  zr(4 * st->reg + 3, w)};
			int r = zr(st->reg, w);

			switch ((hashx_finalize_op)st->op) {
			case HASHX_FINALIZE_ADD_KEY:
				vrrm(e, &VPADDQ, r, r,
				     pool_word(&s->p,
					       hashx_sip_word(key, st->key)),
				     0);
				break;
			case HASHX_FINALIZE_ROUND:
				sipround(s, v);
				break;
			case HASHX_FINALIZE_FOLD:
				for (int j = 0; j < 4; j++)
					vrrr(e, &VPXORQ, zr(j, w), zr(j, w),
					     zr(HASHX_FINALIZE_HALF + j, w), 0);
				break;
			}
		}
		for (int j = 0; j < 4; j++)
			vstore(e, zr(j, w), X86_RDX, (j * LANES + 8 * w) * 8);
	}
}

/* ---- the function --------------------------------------------------- */

/*
 * void fn(uint64_t first, size_t groups, uint64_t *out): rdi counts the
 * inputs, rsi the groups left, rdx walks the output.
 */
static uint8_t *emit_function(uint8_t *start, uint8_t *end,
			      hashx_compile_job *j)
{
	const hashx_program *prog = j->prog;
	emit_state *s;
	const uint8_t *lane_numbers;
	uint8_t *entry_jump, *top, *exit_jump, *stop = NULL;
	uint64_t lanes[8];

	if (prog->size > HASHX_PROGRAM_SIZE ||
	    end - start < POOL_START + POOL_WORDS * 8 + LOOP_BYTES)
		return NULL;
	s = calloc(1, sizeof *s); /* 7 KB of facts and pool addresses */
	if (s == NULL)
		return NULL;
	s->e = (x86_emitter){start, end};
	s->prog = prog;
	hashx_analyse(prog, &s->facts);
	x86_byte(&s->e, 0xe9); /* jmp rel32 over the pool */
	entry_jump = s->e.pos;
	x86_imm32(&s->e, 0);
	/* The lane numbers first, 64-byte aligned: one vector per way. */
	s->p = x86_pool_at(start + POOL_START, 8, POOL_WORDS);
	for (int w = 0; w < WAYS; w++) {
		for (int l = 0; l < 8; l++)
			lanes[l] = (uint64_t)(8 * w + l);
		for (int l = 0; l < 8; l++)
			x86_pool_append(&s->p, (const uint8_t *)&lanes[l]);
	}
	lane_numbers = s->p.start;
	s->low32 = pool_word(&s->p, 0xffffffff);
	/* The pool is filled as instructions need words; code starts after
	 * its largest size. */
	s->e.pos = s->p.start + 8 * POOL_WORDS;
	x86_patch_rel32(entry_jump, s->e.pos);

	x86_test(&s->e, X86_RSI);
	exit_jump = x86_jcc(&s->e, true, NULL);
	top = s->e.pos;
	emit_expansion(s, j->key, lane_numbers);
	pool_immediates(s);
	if (!emit_program(s, prog))
		goto out;
	emit_finalization(s, j->key);
	x86_add_imm32(&s->e, X86_RDI, LANES);
	x86_add_imm32(&s->e, X86_RDX, 4 * LANES * 8);
	x86_dec(&s->e, X86_RSI);
	x86_jcc(&s->e, false, top);
	x86_patch_rel32(exit_jump, s->e.pos);
	x86_vzeroupper_ret(&s->e);
	if (!s->p.overflow)
		stop = s->e.pos;
out:
	free(s);
	return stop;
}

/* CODE_CAPACITY's terms, for the test that checks them. */
static const hashx_code_bounds bounds = {
	.capacity = CODE_CAPACITY,
	.fixed = POOL_START + POOL_WORDS * 8 + 2 * LOOP_BYTES + BRANCH_BYTES,
	.per_instr = WAYS * MAX_INSTR_BYTES,
};

const hashx_batch_backend hashx_x86_64_avx512_backend = {
	.emit = emit_function, .bounds = &bounds, .lanes = LANES};

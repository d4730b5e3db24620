/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * x86_64_avx2.c - the AVX2 batch code generator (batch.h): one HashX
 * function on 4 consecutive inputs at once, one per 64-bit lane of the
 * 256-bit ymm registers.
 *
 * The generated function is void fn(uint64_t first, size_t groups,
 * uint64_t *out) (System V: rdi, rsi, rdx). Per group it expands the 4
 * inputs with SipHash-2-4 (the key built in), runs the program, finalizes
 * and stores the 4 output words of each lane (batch.h's layout).
 *
 * Registers: HashX r0..r7 live in ymm0..ymm7; ymm8..ymm11 are scratch;
 * ymm12 and ymm13 keep the high halves of recent multiplication factors
 * (hi_cache); ymm14 holds the last high multiplication's result (what BRANCH
 * tests), ymm15 is zero. eax is 0 except while a branch's taken lanes re-run
 * its block, when it holds that branch's number (1, 2, ...); r8d has one bit
 * per lane that may still take a branch, ecx is scratch.
 *
 * Constants (key words, lane offsets, the immediates broadcast to 4
 * lanes, shuffle masks) sit in a pool at the start of the buffer, before
 * the code, and are read RIP-relative as memory operands.
 *
 * AVX2 has no 64-bit lane multiply: products are built from vpmuludq's
 * 32 x 32 -> 64-bit partial products (emit_mul, emit_mulh).
 *
 * Branches with per-lane state: each group starts with all lanes
 * "enabled" (bits in r8d, and a mask in the stack frame for the stubs). A
 * BRANCH computes the lanes that take it (enabled, and the last high product's
 * low half has none of the mask bits). When none does, nothing else happens.
 * Otherwise an out-of-line stub disables those lanes, saves the registers the
 * block since the last TARGET writes, and jumps back to run the block again on
 * all lanes; at the BRANCH the second time, a second stub keeps the new
 * values in the taken lanes and restores the saved ones in the others.
 * Any BRANCH met during such a re-run is not evaluated (the re-running
 * lanes have used their one jump; the others' results are discarded).
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
#include "x86_64_scatter.h"

/* ---- register use -------------------------------------------------- */

enum {
	LANES = 4,
	YMM_T0 = 8, /* scratch ymm8..ymm11 */
	YMM_T1 = 9,
	YMM_T2 = 10,
	YMM_T3 = 11,
	YMM_MULRES = 14,
	YMM_ZERO = 15,
};

/* The general-purpose registers of the branches: the number of the
 * branch whose block re-runs (0: none), the enabled lanes' bits, and the
 * scratch that receives a BRANCH's passing lanes. */
enum {
	GP_RERUN = X86_RAX,
	GP_ENABLED = X86_R8,
	GP_LANES = X86_RCX,
};

/* The stack frame (32-byte aligned, below the saved rbp). FRAME_WORDS0
 * sits 32 bytes above the end of FRAME_SAVED_MULRES's slot: closing that
 * gap would change every fused function's frame offsets, and the emitted
 * code is kept byte for byte as it was. */
enum {
	FRAME_ENABLED = 0, /* lanes that may still take a branch */
	FRAME_NOT_TAKEN =
		32,       /* during a re-run: lanes that keep saved values */
	FRAME_SAVED = 64, /* r0..r7 at the BRANCH, then the mul result */
	FRAME_SAVED_MULRES = FRAME_SAVED + 8 * 32,
	/* the fused stage 0: word 0 of the 4 lanes, read back one by one */
	FRAME_WORDS0 = FRAME_SAVED_MULRES + 64,
	FRAME_SIZE = FRAME_WORDS0 + 32,
};

/* ---- size bounds --------------------------------------------------- */

/* Pool entries: the fixed constants, and at most one per instruction. */
#define FIXED_CONSTS 32
#define POOL_BYTES ((FIXED_CONSTS + HASHX_PROGRAM_SIZE) * 32)
/* Bounds on the main-path code of one HashX instruction (at most 103
 * bytes measured over 2,000 generated programs: an SMULH_R) and on the two
 * stubs of one BRANCH (231 measured); on the entry code (expansion) and
 * the exit code (finalization, stores, loop). All are checked while
 * emitting: a program that would not fit fails to compile. A generated
 * program's code is about 13 KB, 16.5 KB with the stubs. The capacity is
 * the sum of the maxima, so that never happens: 512 BRANCHes with stubs
 * that save and blend all eight registers fit (tests/test_code_size.c
 * measures each part and compiles the largest program). */
#define MAX_INSTR_BYTES 192
#define STUB_BYTES 384
#define PROLOGUE_BYTES 2048
#define EPILOGUE_BYTES 1024

#define CODE_CAPACITY                                                          \
	(POOL_BYTES + 64 + PROLOGUE_BYTES +                                    \
	 HASHX_PROGRAM_SIZE * (MAX_INSTR_BYTES + STUB_BYTES) + EPILOGUE_BYTES)

/* The same sum, with each instruction's pool entry counted with it. */
static const hashx_code_bounds bounds = {
	.capacity = CODE_CAPACITY,
	.fixed = FIXED_CONSTS * 32 + 64 + PROLOGUE_BYTES + EPILOGUE_BYTES,
	.per_instr = 32 + MAX_INSTR_BYTES + STUB_BYTES,
};

/* ---- the emission state -------------------------------------------- */

/* Everything the code reads from the constant pool (fill_pool). */
typedef struct consts consts;

/* The high-half cache of the multiplications (emit_mul). */
enum { YMM_HI0 = 12, HI_SLOTS = 2 };

typedef struct hi_cache {
	int reg[HI_SLOTS]; /* HashX register whose high half is there, or -1 */
	unsigned used[HI_SLOTS];
	unsigned clock;
} hi_cache;

/* What the stubs of one BRANCH need, recorded on the main path. */
typedef struct branch_site {
	uint8_t *to_second;    /* jcc rel32 field: the re-run is over */
	uint8_t *to_taken;     /* jnz rel32 field: some lane takes it */
	const uint8_t *cont;   /* the code after the BRANCH */
	const uint8_t *resume; /* where the re-run starts */
	unsigned written;      /* registers the block writes (bit i: ri) */
	bool forward;          /* nothing to re-run: the "jump" goes on */
} branch_site;

/* Emission state: the program's facts (analysis.h), the code address of
 * each instruction (where re-runs resume) and the branch sites. */
typedef struct emit_state {
	const hashx_program *prog;
	const hashx_analysis *facts;
	const consts *c;
	const hashx_scatter *t; /* the fused form's table, else NULL */
	const uint8_t *code_at[HASHX_PROGRAM_SIZE + 1];
	branch_site *sites;
	size_t nsites;
	hi_cache hi;
} emit_state;

/* ---- VEX encoding -------------------------------------------------- */

/* VEX.pp (implied prefix) and VEX.mmmmm (opcode map). */
enum { PP_NONE = 0, PP_66 = 1, PP_F3 = 2, PP_F2 = 3 };
enum { MAP_0F = 1, MAP_0F38 = 2, MAP_0F3A = 3 };

/* An opcode: implied prefix, map, VEX.W and the opcode byte. */
typedef struct vop {
	uint8_t pp, map, w, code;
} vop;

/* Intel SDM names; all VEX.256 (L = 1) unless used otherwise. */
static const vop VPADDQ = {PP_66, MAP_0F, 0, 0xd4};
static const vop VPSUBQ = {PP_66, MAP_0F, 0, 0xfb};
static const vop VPXOR = {PP_66, MAP_0F, 0, 0xef};
static const vop VPOR = {PP_66, MAP_0F, 0, 0xeb};
static const vop VPAND = {PP_66, MAP_0F, 0, 0xdb};
static const vop VPANDN = {PP_66, MAP_0F, 0, 0xdf};
static const vop VPMULUDQ = {PP_66, MAP_0F, 0, 0xf4};
static const vop VMOVMSKPD = {PP_66, MAP_0F, 0, 0x50};
static const vop VPCMPEQD = {PP_66, MAP_0F, 0, 0x76};
static const vop VPSHIFTQ_IMM = {PP_66, MAP_0F, 0, 0x73}; /* /2 /6 */
static const vop VPSHUFD = {PP_66, MAP_0F, 0, 0x70};
static const vop VMOVDQA_LOAD = {PP_66, MAP_0F, 0, 0x6f};
static const vop VMOVDQA_STORE = {PP_66, MAP_0F, 0, 0x7f};
static const vop VMOVDQU_STORE = {PP_F3, MAP_0F, 0, 0x7f};
static const vop VMOVQ_FROM_GPR = {PP_66, MAP_0F, 1, 0x6e}; /* L = 0 */
static const vop VPSHUFB = {PP_66, MAP_0F38, 0, 0x00};
static const vop VPCMPEQQ = {PP_66, MAP_0F38, 0, 0x29};
static const vop VPCMPGTQ = {PP_66, MAP_0F38, 0, 0x37};
static const vop VPBROADCASTQ = {PP_66, MAP_0F38, 0, 0x59};
static const vop VPBLENDD = {PP_66, MAP_0F3A, 0, 0x02};
static const vop VPBLENDVB = {PP_66, MAP_0F3A, 0, 0x4c};

/* ModRM.reg extensions of VPSHIFTQ_IMM. */
enum { EXT_SRLQ = 2, EXT_SLLQ = 6 };

/* An r/m operand: a register, a pool constant, or [base + disp]. */
typedef enum rm_kind { RM_REG, RM_POOL, RM_MEM } rm_kind;

typedef struct rm {
	rm_kind kind;
	int reg; /* RM_REG: the register; RM_MEM: the base register */
	int32_t disp;
	const uint8_t *at; /* RM_POOL */
} rm;

static rm reg_rm(int reg)
{
	return (rm){RM_REG, reg, 0, NULL};
}

static rm pool_rm(const uint8_t *at)
{
	return (rm){RM_POOL, 0, 0, at};
}

static rm mem_rm(int base, int32_t disp)
{
	return (rm){RM_MEM, base, disp, NULL};
}

static rm frame_rm(int32_t disp)
{
	return mem_rm(X86_RSP, disp);
}

/* The VEX prefix (2-byte C5 form when it can express the operands) and
 * the opcode byte. R, X, B and vvvv are stored inverted. */
static void vex(x86_emitter *e, vop op, int l, int reg, int vvvv, int base)
{
	unsigned r = !(reg & 8), b = !(base & 8);
	unsigned tail = (~(unsigned)vvvv & 15) << 3 | (unsigned)l << 2 | op.pp;

	if (op.map == MAP_0F && op.w == 0 && b) {
		x86_byte(e, 0xc5);
		x86_byte(e, r << 7 | tail);
	} else {
		x86_byte(e, 0xc4);
		x86_byte(e, r << 7 | 1 << 6 | b << 5 | op.map);
		x86_byte(e, (unsigned)op.w << 7 | tail);
	}
	x86_byte(e, op.code);
}

/* ModRM (and SIB, displacement) for [base + disp]. */
static void mem_operand(x86_emitter *e, int reg, int base, int32_t disp)
{
	unsigned mod = disp == 0 && (base & 7) != X86_RBP ? 0
		       : disp >= -128 && disp < 128       ? 1
							  : 2;

	x86_byte(e, mod << 6 | (unsigned)(reg & 7) << 3 | (base & 7));
	if ((base & 7) == X86_RSP)
		x86_byte(e, 0x24); /* SIB: no index, base rsp */
	if (mod == 1)
		x86_byte(e, (unsigned)disp & 0xff);
	else if (mod == 2)
		x86_imm32(e, (uint32_t)disp);
}

/* One VEX instruction: reg, vvvv and r/m; `tail` immediate bytes follow
 * (the caller writes them). */
static void vex_op(x86_emitter *e, vop op, int l, int reg, int vvvv, rm m,
		   int tail)
{
	vex(e, op, l, reg, vvvv, m.kind == RM_POOL ? 0 : m.reg);
	if (m.kind == RM_REG)
		x86_byte(e, 0xc0 | (unsigned)(reg & 7) << 3 | (m.reg & 7));
	else if (m.kind == RM_POOL)
		x86_rip_operand(e, reg, m.at, tail);
	else
		mem_operand(e, reg, m.reg, m.disp);
}

/* op ymm_dst, ymm_src1, src2 (the usual non-destructive form) */
static void v3(x86_emitter *e, vop op, int dst, int src1, rm src2)
{
	vex_op(e, op, 1, dst, src1, src2, 0);
}

static void v3r(x86_emitter *e, vop op, int dst, int src1, int src2)
{
	v3(e, op, dst, src1, reg_rm(src2));
}

/* vpsrlq / vpsllq ymm_dst, ymm_src, imm8 (VEX.vvvv is the destination) */
static void vshift(x86_emitter *e, int ext, int dst, int src, unsigned n)
{
	vex_op(e, VPSHIFTQ_IMM, 1, ext, dst, reg_rm(src), 1);
	x86_byte(e, n);
}

/* vpshufd ymm_dst, ymm_src, imm8 */
static void vpshufd(x86_emitter *e, int dst, int src, unsigned imm)
{
	vex_op(e, VPSHUFD, 1, dst, 0, reg_rm(src), 1);
	x86_byte(e, imm);
}

/* vpblendd ymm_dst, ymm_src1, ymm_src2, imm8: dword i from src2 where bit
 * i of imm8 is set */
static void vpblendd(x86_emitter *e, int dst, int src1, int src2, unsigned imm)
{
	vex_op(e, VPBLENDD, 1, dst, src1, reg_rm(src2), 1);
	x86_byte(e, imm);
}

/* vpblendvb ymm_dst, ymm_src1, src2, ymm_mask: bytes of src2 where the
 * mask byte's top bit is set, else of src1 */
static void vpblendvb(x86_emitter *e, int dst, int src1, rm src2, int mask)
{
	vex_op(e, VPBLENDVB, 1, dst, src1, src2, 1);
	x86_byte(e, (unsigned)mask << 4);
}

/* vmovdqa ymm, m256 / vmovdqa m256, ymm */
static void vload(x86_emitter *e, int dst, rm src)
{
	vex_op(e, VMOVDQA_LOAD, 1, dst, 0, src, 0);
}

static void vstore(x86_emitter *e, rm dst, int src)
{
	vex_op(e, VMOVDQA_STORE, 1, src, 0, dst, 0);
}

/* vpxor xmm, xmm, xmm: zeroes the whole ymm register */
static void vzero(x86_emitter *e, int reg)
{
	vex_op(e, VPXOR, 0, reg, reg, reg_rm(reg), 0);
}

/* ---- general-purpose instructions ---------------------------------- */

/* push rbp / pop rbp (Intel SDM: 50+r, 58+r) */
enum { OP_PUSH_RBP = 0x55, OP_POP_RBP = 0x5d };

/* push rbp; mov rbp, rsp; and rsp, -32; add rsp, -FRAME_SIZE */
static void gp_enter(x86_emitter *e)
{
	x86_byte(e, OP_PUSH_RBP);
	x86_mov64_rr(e, X86_RBP, X86_RSP);
	x86_and64_imm8(e, X86_RSP, -32);
	x86_add_imm32(e, X86_RSP, -FRAME_SIZE);
}

/* mov rsp, rbp; pop rbp */
static void gp_leave(x86_emitter *e)
{
	x86_mov64_rr(e, X86_RSP, X86_RBP);
	x86_byte(e, OP_POP_RBP);
}

/* ---- the constant pool --------------------------------------------- */

/* 32-byte entries (x86_pool), identical ones shared. */
#define POOL_ENTRY 32

static const uint8_t *pool_vector(x86_pool *p, const uint64_t q[4])
{
	uint8_t bytes[POOL_ENTRY];

	x86_pool_bytes(p, q, bytes);
	return x86_pool_add(p, bytes);
}

/* `v` in all four lanes. */
static const uint8_t *pool_broadcast(x86_pool *p, uint64_t v)
{
	return x86_pool_broadcast(p, v, true);
}

/* The vpshufb mask that rotates each 64-bit lane right by 8 * k bits:
 * byte i takes byte (i + k) mod 8 of its lane. */
static const uint8_t *pool_ror_bytes(x86_pool *p, unsigned k)
{
	uint64_t q[4] = {0, 0, 0, 0};

	for (unsigned lane = 0; lane < 4; lane++)
		for (unsigned i = 0; i < 8; i++)
			q[lane] |= (uint64_t)(8 * (lane & 1) + (i + k) % 8)
				   << (8 * i);
	return pool_vector(p, q);
}

static uint64_t sign_extend32(uint32_t imm)
{
	return (uint64_t)(int64_t)(int32_t)imm;
}

/* Everything the code reads from the pool. */
struct consts {
	const uint8_t *lane_offsets;            /* 0, 1, 2, 3 */
	const uint8_t *init[4];   /* hashx_expansion_start's words */
	const uint8_t *key[4];    /* the key, for finalization */
	/* siphash.h's markers, per expansion step that takes one */
	const uint8_t *mark[HASHX_EXPANSION_STEP_COUNT];
	const uint8_t *ror_bytes[8];            /* vpshufb masks, 8 * k bits */
	const uint8_t *imm[HASHX_PROGRAM_SIZE]; /* per instruction */
};

static void fill_pool(x86_pool *p, const hashx_program *prog,
		      const hashx_sip_state *key, consts *c)
{
	const uint64_t offsets[4] = {0, 1, 2, 3};
	const hashx_sip_state start = hashx_expansion_start(key);
	uint64_t k[4], init[4];

	hashx_sip_words(key, k);
	hashx_sip_words(&start, init);
	c->lane_offsets = pool_vector(p, offsets);
	for (int i = 0; i < 4; i++) {
		c->init[i] = pool_broadcast(p, init[i]);
		c->key[i] = pool_broadcast(p, k[i]);
	}
	for (int x = 0; x < HASHX_EXPANSION_STEP_COUNT; x++) {
		const hashx_expand_step *st = &hashx_expansion_table[x];

		c->mark[x] = NULL;
		if (st->op == HASHX_EXPAND_XOR_MARK ||
		    st->op == HASHX_EXPAND_FORK)
			c->mark[x] = pool_broadcast(p, st->arg);
	}
	for (unsigned b = 1; b < 8; b++)
		c->ror_bytes[b] = pool_ror_bytes(p, b);
	for (size_t i = 0; i < prog->size; i++) {
		const hashx_instr *in = &prog->code[i];

		c->imm[i] = NULL;
		if (in->opcode == HASHX_OP_ADD_C ||
		    in->opcode == HASHX_OP_XOR_C)
			c->imm[i] = pool_broadcast(p, sign_extend32(in->imm));
		else if (in->opcode == HASHX_OP_BRANCH)
			c->imm[i] = pool_broadcast(p, in->imm);
	}
}

/* ---- arithmetic building blocks ------------------------------------ */

/* reg = rotate right reg by n (1..63): a byte shuffle for multiples of 8
 * (a dword swap for 32), else two shifts and an or through `tmp`. */
static void emit_ror(x86_emitter *e, const consts *c, int reg, unsigned n,
		     int tmp)
{
	if (n == 32) {
		vpshufd(e, reg, reg, 0xb1);
	} else if (n % 8 == 0) {
		v3(e, VPSHUFB, reg, reg, pool_rm(c->ror_bytes[n / 8]));
	} else {
		vshift(e, EXT_SLLQ, tmp, reg, 64 - n);
		vshift(e, EXT_SRLQ, reg, reg, n);
		v3r(e, VPOR, reg, reg, tmp);
	}
}

/* The steps of siphash.h's SipRound that `steps` selects (bit k: table
 * step k), on four registers, tmp as scratch. */
static void sipround_steps(x86_emitter *e, const consts *c, const int v[4],
			   unsigned steps, int tmp)
{
	for (int k = 0; k < HASHX_SIPROUND_STEP_COUNT; k++) {
		const hashx_sip_step *st = &hashx_sipround_table[k];
		int d = v[st->dst];

		if (!(steps >> k & 1))
			continue;
		if (st->op == HASHX_SIP_ADD)
			v3r(e, VPADDQ, d, d, v[st->arg]);
		else if (st->op == HASHX_SIP_XOR)
			v3r(e, VPXOR, d, d, v[st->arg]);
		else
			emit_ror(e, c, d, 64 - st->arg, tmp);
	}
}

static void sipround(x86_emitter *e, const consts *c, int v0, int v1, int v2,
		     int v3, int tmp)
{
	const int v[4] = {v0, v1, v2, v3};

	sipround_steps(e, c, v, HASHX_SIP_ALL_STEPS, tmp);
}

static void siprounds(x86_emitter *e, const consts *c, int n, int first)
{
	for (int i = 0; i < n; i++)
		sipround(e, c, first, first + 1, first + 2, first + 3, YMM_T1);
}

/*
 * The group's inputs, rdi + 0..3, in YMM_T0, then the registers expanded
 * from them by siphash.h's expansion steps: half 0 in ymm0..3, half 1 in
 * ymm4..7. A START's load and a FORK's copy take the XOR that follows
 * them as their source operand.
 *     vmovq xmm8, rdi; vpbroadcastq ymm8, xmm8; vpaddq ymm8, [offsets]
 */
static void emit_expansion(x86_emitter *e, const consts *c)
{
	vex_op(e, VMOVQ_FROM_GPR, 0, YMM_T0, 0, reg_rm(X86_RDI), 0);
	vex_op(e, VPBROADCASTQ, 1, YMM_T0, 0, reg_rm(YMM_T0), 0);
	v3(e, VPADDQ, YMM_T0, YMM_T0, pool_rm(c->lane_offsets));
	for (int k = 0; k < HASHX_EXPANSION_STEP_COUNT; k++) {
		const hashx_expand_step *st = &hashx_expansion_table[k];
		int half = 4 * st->half, d = half + st->word;

		switch ((hashx_expand_op)st->op) {
		case HASHX_EXPAND_START:
			for (int i = 0; i < 4; i++)
				if (i == st->word)
					v3(e, VPXOR, i, YMM_T0,
					   pool_rm(c->init[i]));
				else
					vload(e, i, pool_rm(c->init[i]));
			break;
		case HASHX_EXPAND_XOR_INPUT:
			v3r(e, VPXOR, d, d, YMM_T0);
			break;
		case HASHX_EXPAND_XOR_MARK:
			v3(e, VPXOR, d, d, pool_rm(c->mark[k]));
			break;
		case HASHX_EXPAND_ROUNDS:
			siprounds(e, c, st->arg, half);
			break;
		case HASHX_EXPAND_FORK:
			for (int i = 0; i < 4; i++)
				if (i == st->word)
					v3(e, VPXOR, 4 + i, i,
					   pool_rm(c->mark[k]));
				else
					vload(e, 4 + i, reg_rm(i));
			break;
		}
	}
}

/* finalize.h's steps, leaving output word j in ymm(j) for each word j in
 * `words` (bit j); only the SipRound steps those words depend on are
 * emitted. */
static void emit_finalize(x86_emitter *e, const consts *c, unsigned words)
{
	unsigned steps = hashx_finalize_steps(words);

	for (int k = 0; k < HASHX_FINALIZE_STEP_COUNT; k++) {
		const hashx_finalize_step *st = &hashx_finalize_table[k];
		const int v[4] = {4 * st->reg, 4 * st->reg + 1, 4 * st->reg + 2,
				  4 * st->reg + 3};

		switch ((hashx_finalize_op)st->op) {
		case HASHX_FINALIZE_ADD_KEY:
			v3(e, VPADDQ, st->reg, st->reg,
			   pool_rm(c->key[st->key]));
			break;
		case HASHX_FINALIZE_ROUND:
			sipround_steps(e, c, v, steps, YMM_T1);
			break;
		case HASHX_FINALIZE_FOLD:
			for (int j = 0; j < 4; j++)
				if (words >> j & 1)
					v3r(e, VPXOR, j, j,
					    HASHX_FINALIZE_HALF + j);
			break;
		}
	}
}

/* Finalization, then the four output words of the lanes to [rdx],
 * [rdx + stride], ... (stride: 8 bytes per lane of the group, batch.h's
 * layout). */
static void emit_finalization(x86_emitter *e, const consts *c, int32_t stride)
{
	emit_finalize(e, c, HASHX_FINALIZE_ALL_WORDS);
	for (int j = 0; j < 4; j++)
		vex_op(e, VMOVDQU_STORE, 1, j, 0, mem_rm(X86_RDX, stride * j),
		       0);
}

/* ---- HashX instructions -------------------------------------------- */

/*
 * The high halves of registers, moved to the low dword of each lane where
 * vpmuludq reads its factors (vpsrlq 32: measured 1.3% faster than
 * vpshufd 0xf5, the shuffle port being the busier one here), are kept in
 * ymm12 and ymm13 for the next multiplications by the same register until
 * it changes: about 50 uops fewer per group. Control flow merges at
 * TARGET and BRANCH (a re-run, a blend): see emit_instr.
 */

static void hi_flush(hi_cache *h)
{
	for (int k = 0; k < HI_SLOTS; k++)
		h->reg[k] = -1;
}

static void hi_forget(hi_cache *h, int r)
{
	for (int k = 0; k < HI_SLOTS; k++)
		if (h->reg[k] == r)
			h->reg[k] = -1;
}

/* The ymm register holding hi(r), marked as just used, or -1. */
static int hi_find(hi_cache *h, int r)
{
	for (int k = 0; k < HI_SLOTS; k++) {
		if (h->reg[k] == r) {
			h->used[k] = ++h->clock;
			return YMM_HI0 + k;
		}
	}
	return -1;
}

/* hi(r) for a source operand: cached, else shuffled into the least
 * recently used slot. */
static int hi_of_src(x86_emitter *e, hi_cache *h, int r)
{
	int y = hi_find(h, r), k = 0;

	if (y >= 0)
		return y;
	for (int j = 1; j < HI_SLOTS; j++)
		if (h->reg[k] >= 0 &&
		    (h->reg[j] < 0 || h->used[j] < h->used[k]))
			k = j;
	vshift(e, EXT_SRLQ, YMM_HI0 + k, r, 32);
	h->reg[k] = r;
	h->used[k] = ++h->clock;
	return YMM_HI0 + k;
}

/* The high halves of a multiplication's factors: *hb of src (cached),
 * *ha of dst (cached, else in YMM_T0: dst changes right after). */
static void hi_operands(x86_emitter *e, hi_cache *h, int dst, int src, int *ha,
			int *hb)
{
	int a = hi_find(h, dst); /* first: keeps it from eviction */

	*hb = hi_of_src(e, h, src);
	if (dst == src) {
		*ha = *hb;
	} else if (a >= 0) {
		*ha = a;
	} else {
		vshift(e, EXT_SRLQ, YMM_T0, dst, 32);
		*ha = YMM_T0;
	}
}

/*
 * dst = low 64 bits of dst * src from 32-bit halves:
 *     aL*bL + ((aH*bL + aL*bH) << 32)
 * ha and hb hold the high halves (hi_operands).
 */
static void emit_mul(x86_emitter *e, hi_cache *h, int dst, int src)
{
	int ha, hb;

	hi_operands(e, h, dst, src, &ha, &hb);
	v3r(e, VPMULUDQ, YMM_T0, ha, src); /* aH * bL */
	v3r(e, VPMULUDQ, YMM_T1, hb, dst); /* aL * bH */
	v3r(e, VPADDQ, YMM_T0, YMM_T0, YMM_T1);
	vshift(e, EXT_SLLQ, YMM_T0, YMM_T0, 32);
	v3r(e, VPMULUDQ, YMM_T1, dst, src); /* aL * bL */
	v3r(e, VPADDQ, dst, YMM_T0, YMM_T1);
}

/* mulh.h's two's-complement correction of the high product (hi in
 * YMM_T2): hi -= (a < 0 ? b : 0) + (b < 0 ? a : 0). */
static void emit_signed_fixup(x86_emitter *e, int a, int b)
{
	v3r(e, VPCMPGTQ, YMM_T0, YMM_ZERO, a);
	v3r(e, VPAND, YMM_T0, YMM_T0, b);
	v3r(e, VPCMPGTQ, YMM_T3, YMM_ZERO, b);
	v3r(e, VPAND, YMM_T3, YMM_T3, a);
	v3r(e, VPSUBQ, YMM_T2, YMM_T2, YMM_T0);
	v3r(e, VPSUBQ, YMM_T2, YMM_T2, YMM_T3);
}

/*
 * dst = high 64 bits of dst * src (signed or unsigned), from the four
 * partial products with their carries, mulh.h's steps and names:
 *     t = hl + (ll >> 32); u = lh + (t & 0xffffffff)
 *     hi = hh + (t >> 32) + (u >> 32)
 * Both factors are read before dst is written, so src == dst works.
 * With `keep`, the result is also the one a later BRANCH tests.
 */
static void emit_mulh(x86_emitter *e, hi_cache *h, bool is_signed, int dst,
		      int src, bool keep)
{
	int ha, hb;

	hi_operands(e, h, dst, src, &ha, &hb);
	v3r(e, VPMULUDQ, YMM_T2, ha, hb);   /* hh */
	v3r(e, VPMULUDQ, YMM_T0, ha, src);  /* hl */
	v3r(e, VPMULUDQ, YMM_T1, hb, dst);  /* lh */
	v3r(e, VPMULUDQ, YMM_T3, dst, src); /* ll */
	vshift(e, EXT_SRLQ, YMM_T3, YMM_T3, 32);
	v3r(e, VPADDQ, YMM_T0, YMM_T0, YMM_T3); /* t */
	vshift(e, EXT_SRLQ, YMM_T3, YMM_T0, 32);
	v3r(e, VPADDQ, YMM_T2, YMM_T2, YMM_T3);
	vpblendd(e, YMM_T0, YMM_T0, YMM_ZERO, 0xaa); /* t & 0xffffffff */
	v3r(e, VPADDQ, YMM_T1, YMM_T1, YMM_T0);      /* u */
	vshift(e, EXT_SRLQ, YMM_T1, YMM_T1, 32);
	if (is_signed)
		emit_signed_fixup(e, dst, src);
	v3r(e, VPADDQ, dst, YMM_T2, YMM_T1);
	if (keep)
		vload(e, YMM_MULRES, reg_rm(dst));
}

/* dst += src << shift (shift 0..3); src + src for a shift by one keeps
 * the shift port free. */
static void emit_add_rs(x86_emitter *e, int dst, int src, unsigned shift)
{
	if (shift == 0) {
		v3r(e, VPADDQ, dst, dst, src);
		return;
	}
	if (shift == 1)
		v3r(e, VPADDQ, YMM_T0, src, src);
	else
		vshift(e, EXT_SLLQ, YMM_T0, src, shift);
	v3r(e, VPADDQ, dst, dst, YMM_T0);
}

/* ---- branches ------------------------------------------------------ */


/*
 * A BRANCH:
 *     test eax, eax           ; a re-run in progress: second stub
 *     jnz  second
 *     vpand     ymm8, ymm14, [mask]
 *     vpcmpeqq  ymm8, ymm8, ymm15    ; (mul result & mask) == 0
 *     vmovmskpd ecx, ymm8            ; one bit per lane
 *     and  ecx, r8d                  ; r8d: the enabled lanes' bits
 *     jnz  taken                     ; rare: some lane jumps
 *   cont:
 * (The enabled lanes as bits in r8d cost two vector uops less per
 * BRANCH than a vector mask and vptest.)
 */
static void emit_branch(x86_emitter *e, const uint8_t *mask,
			branch_site *site)
{
	x86_rr32(e, X86_OP_TEST_RM_R, GP_RERUN, GP_RERUN);
	site->to_second = x86_jcc(e, false, NULL);
	v3(e, VPAND, YMM_T0, YMM_MULRES, pool_rm(mask));
	v3r(e, VPCMPEQQ, YMM_T0, YMM_T0, YMM_ZERO);
	vex_op(e, VMOVMSKPD, 1, GP_LANES, 0, reg_rm(YMM_T0), 0);
	x86_rr32(e, X86_OP_AND_RM_R, GP_LANES, GP_ENABLED);
	site->to_taken = x86_jcc(e, false, NULL);
	site->cont = e->pos;
}

/*
 * Some lanes (their bits in ecx; ymm8: the lanes whose mul result passes,
 * enabled or not) take branch number `id`: they are disabled (in r8d and
 * in the enabled mask); the registers the block writes and the mul result
 * are saved with the lanes that did not take it, and the block runs again
 * from `resume`, with eax = id.
 */
static void emit_taken_stub(x86_emitter *e, const branch_site *site,
			    uint32_t id)
{
	x86_patch_rel32(site->to_taken, e->pos);
	x86_rr32(e, X86_OP_XOR_RM_R, GP_ENABLED, GP_LANES);
	v3(e, VPAND, YMM_T1, YMM_T0, frame_rm(FRAME_ENABLED)); /* taken */
	v3(e, VPANDN, YMM_T2, YMM_T0, frame_rm(FRAME_ENABLED));
	vstore(e, frame_rm(FRAME_ENABLED), YMM_T2);
	if (site->forward) {
		x86_jmp(e, site->cont);
		return;
	}
	v3r(e, VPCMPEQQ, YMM_T1, YMM_T1, YMM_ZERO);
	vstore(e, frame_rm(FRAME_NOT_TAKEN), YMM_T1);
	for (int i = 0; i < 8; i++)
		if (site->written >> i & 1)
			vstore(e, frame_rm(FRAME_SAVED + 32 * i), i);
	vstore(e, frame_rm(FRAME_SAVED_MULRES), YMM_MULRES);
	x86_mov32_imm(e, GP_RERUN, id);
	x86_jmp(e, site->resume);
}

/*
 * A BRANCH met during a re-run. If the re-run is its own (the number in
 * eax), the re-run is over: the lanes that did not jump get their saved
 * values back. Another branch's re-run passes through without evaluating
 * it.
 */
static void emit_second_stub(x86_emitter *e, const branch_site *site,
			     uint32_t id)
{
	x86_patch_rel32(site->to_second, e->pos);
	x86_cmp32_imm(e, GP_RERUN, id);
	x86_jcc(e, false, site->cont);
	x86_rr32(e, X86_OP_XOR_RM_R, GP_RERUN, GP_RERUN);
	vload(e, YMM_T0, frame_rm(FRAME_NOT_TAKEN));
	for (int i = 0; i < 8; i++)
		if (site->written >> i & 1)
			vpblendvb(e, i, i, frame_rm(FRAME_SAVED + 32 * i),
				  YMM_T0);
	vpblendvb(e, YMM_MULRES, YMM_MULRES, frame_rm(FRAME_SAVED_MULRES),
		  YMM_T0);
	x86_jmp(e, site->cont);
}

/* ---- the function -------------------------------------------------- */


/* What the high-half cache keeps after an instruction. A re-run enters
 * after a TARGET with the state at its BRANCH; after a BRANCH, the
 * registers its block writes may be blends. */
static void hi_update(emit_state *s, const hashx_instr *in, int dst,
		      const branch_site *site)
{
	if (in->opcode == HASHX_OP_TARGET) {
		hi_flush(&s->hi);
	} else if (in->opcode == HASHX_OP_BRANCH) {
		for (int r = 0; r < 8; r++)
			if (site->written >> r & 1)
				hi_forget(&s->hi, r);
	} else {
		hi_forget(&s->hi, dst);
	}
}

/* A BRANCH: its test, and what its stubs will need. */
static const branch_site *emit_branch_instr(x86_emitter *e, emit_state *s,
					    size_t i)
{
	const hashx_branch_info *b = &s->facts->branch[s->nsites];
	branch_site *site = &s->sites[s->nsites++];

	site->forward = !hashx_branch_reruns(b);
	site->resume = site->forward ? NULL : s->code_at[b->resume];
	site->written = b->written;
	emit_branch(e, s->c->imm[i], site);
	return site;
}

static void emit_instr(x86_emitter *e, emit_state *s, size_t i)
{
	const hashx_instr *in = &s->prog->code[i];
	int dst = in->dst & 7, src = in->src & 7;
	const branch_site *site = NULL;

	switch ((hashx_opcode)in->opcode) {
	case HASHX_OP_UMULH_R:
	case HASHX_OP_SMULH_R:
		emit_mulh(e, &s->hi, in->opcode == HASHX_OP_SMULH_R, dst, src,
			  s->facts->mulh_use[i] & HASHX_MULH_TESTED);
		break;
	case HASHX_OP_MUL_R:
		emit_mul(e, &s->hi, dst, src);
		break;
	case HASHX_OP_SUB_R:
		v3r(e, VPSUBQ, dst, dst, src);
		break;
	case HASHX_OP_XOR_R:
		v3r(e, VPXOR, dst, dst, src);
		break;
	case HASHX_OP_ADD_RS:
		emit_add_rs(e, dst, src, in->imm & 3);
		break;
	case HASHX_OP_ROR_C:
		emit_ror(e, s->c, dst, in->imm & 63, YMM_T0);
		break;
	case HASHX_OP_ADD_C:
		v3(e, VPADDQ, dst, dst, pool_rm(s->c->imm[i]));
		break;
	case HASHX_OP_XOR_C:
		v3(e, VPXOR, dst, dst, pool_rm(s->c->imm[i]));
		break;
	case HASHX_OP_TARGET:
		break;
	case HASHX_OP_BRANCH:
		site = emit_branch_instr(e, s, i);
		break;
	case HASHX_OP_COUNT:
	default:
		break;
	}
	hi_update(s, in, dst, site);
}

/* ROR_C by 0 (never generated) would be no rotation at all. */
static bool is_noop(const hashx_instr *in)
{
	return in->opcode == HASHX_OP_ROR_C && (in->imm & 63) == 0;
}


/* The program's instructions, each one's address in s->code_at; false
 * if they would not fit. Each keeps room for the exit code and the stubs
 * so far. */
static bool emit_program(x86_emitter *e, emit_state *s)
{
	size_t size = s->prog->size;

	for (size_t i = 0; i < size; i++) {
		uint8_t *before = e->pos;
		size_t need = MAX_INSTR_BYTES + EPILOGUE_BYTES +
			      STUB_BYTES * (s->nsites + 1);

		if (!x86_room(e, need))
			return false;
		s->code_at[i] = e->pos;
		if (i == HASHX_RESUME_WITHOUT_TARGET) {
			/* Where a BRANCH with no TARGET before it resumes: an
			 * entry like the code after a TARGET. */
			hi_flush(&s->hi);
		}
		if (!is_noop(&s->prog->code[i]))
			emit_instr(e, s, i);
		if (e->pos - before > MAX_INSTR_BYTES)
			return false;
	}
	s->code_at[size] = e->pos;
	return true;
}

/*
 * The fused stage 0 at the end of a group (HASHX_FORM_BATCH_SCATTER):
 * only word 0 is finalized (6 of each round's 14 steps), v = r0 ^ r4 of
 * each lane goes through the frame to the x86 register `value`, and
 * the x86-64 table update (x86_64_scatter.h) puts it in its bucket, lane by lane in input
 * order, with the input in rdi (stepped by one per item, so that rdi has
 * moved on by the group's inputs at the end). The HashX registers are dead
 * here, so the update's scratch (rax, rcx, rdx, r9..r11) is free, and the
 * table's addresses are loaded once per group.
 */
static void emit_lane_items(x86_emitter *e, const emit_state *s, int value)
{
	emit_finalize(e, s->c, HASHX_SCATTER_WORDS);
	vstore(e, frame_rm(FRAME_WORDS0), 0);
	hashx_x86_64_scatter_table(e, s->t);
	for (int l = 0; l < LANES; l++) {
		x86_frame_op(e, X86_OP_MOV_R_RM, value, FRAME_WORDS0 + 8 * l);
		hashx_x86_64_scatter_item(e, s->t, value, X86_RDI, false);
		x86_inc(e, X86_RDI);
	}
}

/* The start of each group: all lanes enabled (the frame's mask and the
 * bits in r8d), no high product yet. */
static void emit_group_start(x86_emitter *e)
{
	v3r(e, VPCMPEQD, YMM_T0, YMM_T0, YMM_T0);
	vstore(e, frame_rm(FRAME_ENABLED), YMM_T0);
	x86_mov32_imm(e, GP_ENABLED, (1u << LANES) - 1);
	vzero(e, YMM_MULRES);
}

/*
 *     push rbp; mov rbp, rsp; and rsp, -32; sub rsp, FRAME_SIZE
 *     test rsi, rsi; jz done
 *     xor eax, eax; vpxor ymm15
 *   top:
 *     expansion; enabled = all ones; mul result = 0
 *     program
 *     finalization; stores
 *     add rdx, 128; add rdi, 4; dec rsi; jnz top
 *   done:
 *     mov rsp, rbp; pop rbp; vzeroupper; ret
 *     branch stubs
 */
static bool emit_function(x86_emitter *e, emit_state *s)
{
	uint8_t *start = e->pos, *exit_jz, *epilogue;
	const uint8_t *top;

	gp_enter(e);
	x86_test(e, X86_RSI);
	exit_jz = x86_jcc(e, true, NULL);
	x86_rr32(e, X86_OP_XOR_RM_R, GP_RERUN, GP_RERUN);
	vzero(e, YMM_ZERO);
	top = e->pos;
	emit_expansion(e, s->c);
	emit_group_start(e);
	if (e->pos - start > PROLOGUE_BYTES ||
	    !emit_program(e, s))
		return false;
	epilogue = e->pos;
	if (s->t != NULL) {
		/* The items clobber eax, which the next group's branches
		 * need at 0; r8d (the enabled lanes) is set at its start. */
		emit_lane_items(e, s, X86_R8);
		x86_rr32(e, X86_OP_XOR_RM_R, GP_RERUN, GP_RERUN);
	} else {
		emit_finalization(e, s->c, LANES * 8);
		x86_add_imm32(e, X86_RDX, 4 * LANES * 8);
		x86_add_imm32(e, X86_RDI, LANES);
	}
	x86_dec(e, X86_RSI);
	x86_jcc(e, false, top);
	x86_patch_rel32(exit_jz, e->pos);
	gp_leave(e);
	x86_vzeroupper_ret(e);
	if (e->pos - epilogue > EPILOGUE_BYTES)
		return false;
	for (size_t k = 0; k < s->nsites; k++) {
		const branch_site *site = &s->sites[k];
		uint8_t *before = e->pos;

		/* Reserved with each BRANCH; checked like an instruction. */
		if (!x86_room(e, STUB_BYTES))
			return false;
		emit_taken_stub(e, site, (uint32_t)k + 1);
		emit_second_stub(e, site, (uint32_t)k + 1);
		if (e->pos - before > STUB_BYTES)
			return false;
	}
	return true;
}

/* ---- the back-end -------------------------------------------------- */

/* The emitter of a batch job (hashx_emit_fn): the constant pool, the
 * state, then the function. */
static uint8_t *emit_job(uint8_t *start, uint8_t *end, hashx_compile_job *j)
{
	x86_pool p = x86_pool_at(start, POOL_ENTRY, POOL_BYTES / POOL_ENTRY);
	hashx_analysis facts;
	consts c;
	emit_state *s;
	x86_emitter e;
	bool ok;

	if (j->prog->size > HASHX_PROGRAM_SIZE ||
	    (j->form == HASHX_FORM_BATCH_SCATTER &&
	     !hashx_x86_64_scatter_fits(j->scatter)))
		return NULL;
	hashx_analyse(j->prog, &facts);
	/* On the heap: the state has an address per instruction and one
	 * site per BRANCH (a generated program has about 16; a program of
	 * 512 BRANCHes is still valid input). */
	s = calloc(1, sizeof *s);
	if (s == NULL)
		return NULL;
	s->sites = calloc(facts.nbranches + 1, sizeof *s->sites);
	if (s->sites == NULL) {
		free(s);
		return NULL;
	}
	fill_pool(&p, j->prog, j->key, &c);
	e.pos = x86_pool_end(&p);
	e.end = end;
	while ((e.pos - start) % 64 != 0)
		x86_byte(&e, 0xcc); /* int3 */
	j->entry = (size_t)(e.pos - start);
	s->prog = j->prog;
	s->facts = &facts;
	s->c = &c;
	s->t = j->form == HASHX_FORM_BATCH_SCATTER ? j->scatter : NULL;
	hi_flush(&s->hi);
	ok = !p.overflow && emit_function(&e, s);
	free(s->sites);
	free(s);
	return ok ? e.pos : NULL;
}

const hashx_batch_backend hashx_x86_64_avx2_backend = {
	.emit = emit_job,
	.bounds = &bounds,
	.lanes = LANES,
	.scatters = true};

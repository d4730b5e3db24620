/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * x86_64.c - the HashX compiler for x86-64 (System V calling convention).
 *
 * Register mapping: HashX r0..r7 live in r8..r15 for the whole program, so
 * every instruction needs a REX prefix but none needs a spill. rax and rdx
 * are the scratch pair of the 128-bit multiplications; edx also keeps the
 * low half of the last high multiplication, which is what BRANCH tests. ecx
 * is 0 while the program's one jump is still available and all ones after;
 * esi is all ones. rdi holds the register file's address (register-file
 * form) or the output's (whole-hash form) throughout the program.
 *
 * Every emit_* function writes one instruction form; the bytes are built
 * from named opcodes and ModRM/SIB/REX helpers, so each line can be read
 * against the Intel SDM. The scatter form's table update is the part this
 * emitter shares with the fused AVX2 form (x86_64_scatter.c).
 */
#include <config.h>

#include "code_size.h"
#include "compiler.h"
#include "finalize.h"
#include "x86_64_emit.h"
#include "x86_64_scatter.h"

/* Largest encoding of one HashX instruction (BRANCH: or, test imm32, jz
 * rel32, 14 bytes; SMULH 9), in bytes, and of the out-of-line stub a BRANCH
 * with no TARGET before it adds after the epilogue (dec, jmp rel32: 7). */
#define MAX_INSTR_BYTES 16
#define STUB_BYTES 8
/* Bounds on the entry and exit code of each form (the whole-hash form
 * holds 10 SipRounds on entry, 2 on exit, the scatter form also a table
 * update); enforced when emitting. */
#define PROLOGUE_BYTES 640
#define EPILOGUE_BYTES 320
/* The emitted code always fits here, 512 BRANCHes with stubs included;
 * checked before every instruction. tests/test_code_size.c measures each
 * part and compiles the largest program. */
#define CODE_CAPACITY                                                  \
	(PROLOGUE_BYTES + HASHX_PROGRAM_SIZE * (MAX_INSTR_BYTES + STUB_BYTES) + \
	 EPILOGUE_BYTES)

const hashx_code_bounds hashx_x86_64_code_bounds = {
	.capacity = CODE_CAPACITY,
	.fixed = PROLOGUE_BYTES + EPILOGUE_BYTES,
	.per_instr = MAX_INSTR_BYTES + STUB_BYTES,
};

/* x86 register numbers. */
enum { RAX = 0, RCX = 1, RDX = 2, RBX = 3, RBP = 5, RSI = 6, RDI = 7, R8 = 8 };

/* Opcode bytes (Intel SDM names). */
enum {
	OP_ADD_SUB_XOR_IMM32 = 0x81, /* 81 /0 add, /6 xor r/m64, imm32 */
	OP_OR_IMM8 = 0x83,           /* 83 /1 or r/m32, imm8 (sign-extended) */
	OP_ADD_RM_R = 0x01,          /* add r/m64, r64 */
	OP_SUB_RM_R = 0x29,          /* sub r/m64, r64 */
	OP_XOR_RM_R = 0x31,          /* xor r/m64, r64 (xor r/m32, r32) */
	OP_OR_RM_R = 0x09,           /* or r/m32, r32 */
	OP_MOV_RM_R = 0x89,          /* mov r/m64, r64 */
	OP_MOV_R_RM = 0x8b,          /* mov r64, r/m64 */
	OP_LEA = 0x8d,               /* lea r64, m */
	OP_SHIFT_IMM8 = 0xc1,        /* c1 /1 ror r/m64, imm8 */
	OP_GROUP3 = 0xf7,            /* f7 /0 test imm32, /4 mul, /5 imul */
	OP_GROUP5 = 0xff,            /* ff /1 dec r/m32 */
	OP_TWO_BYTE = 0x0f,          /* 0f af: imul r64, r/m64 */
	OP_IMUL_R_RM = 0xaf,
	OP_JZ_REL32 = 0x84,          /* 0f 84: jz rel32 */
	OP_JNZ_REL32 = 0x85,         /* 0f 85: jnz rel32 */
	OP_JZ_REL8 = 0x74,
	OP_CMOVZ = 0x44,             /* 0f 44: cmovz r32, r/m32 */
	OP_TEST_RM_R = 0x85,         /* test r/m32, r32 */
	OP_JMP_REL32 = 0xe9,
	OP_PUSH_R = 0x50,            /* 50+r, with REX.B for r8..r15 */
	OP_POP_R = 0x58,
	OP_RET = 0xc3,
};

/* ModRM "reg" field values that select an operation in opcode groups. */
enum {
	EXT_ADD = 0, EXT_ROR = 1, EXT_DEC = 1, EXT_MUL = 4, EXT_IMUL = 5,
	EXT_XOR = 6, EXT_TEST = 0, EXT_OR = 1, EXT_SUB = 5,
};

/* The cursor, little-endian immediates, REX and ModRM bytes and the
 * 64-bit immediate load are the x86 emitters' shared ones
 * (x86_64_emit.h). */
#define byte x86_byte
#define imm32 x86_imm32
#define rex x86_rex
#define modrm x86_modrm
#define mov_imm64 x86_mov_imm64

/* An instruction "op reg, rm" on two 64-bit registers. */
static void reg_reg(x86_emitter *e, unsigned op, int reg, int rm)
{
	rex(e, 1, reg, 0, rm);
	byte(e, op);
	modrm(e, 3, reg, rm);
}

/* A 64-bit access [base + 8*i] to or from x86 register `reg` (base is
 * rdi or rsi, which need no SIB byte). */
static void mem_word(x86_emitter *e, unsigned op, int reg, int base, int i)
{
	rex(e, 1, reg, 0, base);
	byte(e, op);
	modrm(e, 1, reg, base); /* mod 01: [base + disp8] */
	byte(e, (unsigned)(8 * i));
}

static int x86_reg(int hashx_reg)
{
	return R8 + hashx_reg;
}

/* dst = high 64 bits of dst * src: mov rax, dst; mul/imul src (rdx:rax =
 * rax * src); mov dst, rdx. edx keeps the low half for BRANCH. */
static void emit_mulh(x86_emitter *e, int ext, int dst, int src)
{
	reg_reg(e, OP_MOV_RM_R, x86_reg(dst), RAX);
	rex(e, 1, 0, 0, x86_reg(src));
	byte(e, OP_GROUP3);
	modrm(e, 3, ext, x86_reg(src));
	reg_reg(e, OP_MOV_RM_R, RDX, x86_reg(dst));
}

/* imul dst, src (forced inline: when GCC made it a call, +0.4% of
 * hashx_make's instructions) */
static inline __attribute__((always_inline)) void
emit_mul(x86_emitter *e, int dst, int src)
{
	rex(e, 1, x86_reg(dst), 0, x86_reg(src));
	byte(e, OP_TWO_BYTE);
	byte(e, OP_IMUL_R_RM);
	modrm(e, 3, x86_reg(dst), x86_reg(src));
}

/* sub dst, src / xor dst, src */
static void emit_alu_reg(x86_emitter *e, unsigned op, int dst, int src)
{
	reg_reg(e, op, x86_reg(src), x86_reg(dst));
}

/* lea dst, [dst + src * 2^shift]. With base r13, mod 00 would mean "no
 * base, disp32", so r13 takes mod 01 and a zero displacement byte. The
 * generator never makes r5 (r13) the destination, for this reason; the
 * emitter still handles it, to be correct for any program. */
static void emit_add_rs(x86_emitter *e, int dst, int src, unsigned shift)
{
	int base = x86_reg(dst);
	int needs_disp = (base & 7) == 5;

	rex(e, 1, base, x86_reg(src), base);
	byte(e, OP_LEA);
	modrm(e, needs_disp ? 1 : 0, base, 4); /* rm 100: SIB follows */
	byte(e, (unsigned)(shift << 6 | (x86_reg(src) & 7) << 3 | (base & 7)));
	if (needs_disp)
		byte(e, 0);
}

/* ror reg, count (x86 register) */
static void ror_imm(x86_emitter *e, int reg, unsigned count)
{
	rex(e, 1, 0, 0, reg);
	byte(e, OP_SHIFT_IMM8);
	modrm(e, 3, EXT_ROR, reg);
	byte(e, count);
}

static void emit_ror(x86_emitter *e, int dst, unsigned count)
{
	ror_imm(e, x86_reg(dst), count);
}

/* add reg, imm32 / xor reg, imm32 (x86 register): the CPU sign-extends the
 * immediate to 64 bits, exactly HashX's semantics. */
static void alu_imm(x86_emitter *e, int ext, int reg, uint32_t imm)
{
	rex(e, 1, 0, 0, reg);
	byte(e, OP_ADD_SUB_XOR_IMM32);
	modrm(e, 3, ext, reg);
	imm32(e, imm);
}

static void emit_alu_imm(x86_emitter *e, int ext, int dst, uint32_t imm)
{
	alu_imm(e, ext, x86_reg(dst), imm);
}

/*
 * TARGET and BRANCH. esi holds ~0 for the whole run, ecx is 0 while the
 * one jump is available and ~0 after. A TARGET is a landing pad:
 *     test esi, esi       ; ZF = 0 on the straight path...
 *   pad:
 *     cmovz ecx, esi      ; ...so ecx changes only when a jump lands here
 * and a BRANCH tests and jumps straight to the pad, arriving with ZF = 1
 * from its own test, so that landing uses the jump up:
 *     or   edx, ecx       ; ecx = ~0 once used: the test then fails
 *     test edx, mask
 *     jz   pad
 * One taken jump, and none on the usual path. A BRANCH with no TARGET
 * before it (never generated, but legal) jumps to instruction 1 through a
 * stub after the epilogue instead:  stub: dec ecx; jmp instruction_1.
 * A mask of 0 (never generated either) passes that test even with ecx =
 * ~0, which would jump forever; such a BRANCH tests ecx alone:
 *     test ecx, ecx
 *     jz   pad
 */
typedef struct branch_stub {
	uint8_t *jz_rel32; /* displacement to patch */
} branch_stub;

static void rel32_at(uint8_t *at, const uint8_t *from_end, const uint8_t *to)
{
	uint32_t rel = (uint32_t)(to - from_end);

	for (int i = 0; i < 4; i++)
		at[i] = (uint8_t)(rel >> (8 * i));
}

/* Emits the TARGET's pad; returns where a jump should land. */
static const uint8_t *emit_target(x86_emitter *e)
{
	const uint8_t *pad;

	byte(e, OP_TEST_RM_R);
	modrm(e, 3, RSI, RSI);
	pad = e->pos;
	byte(e, OP_TWO_BYTE);
	byte(e, OP_CMOVZ);
	modrm(e, 3, RCX, RSI);
	return pad;
}

/* `pad` is the last TARGET's landing pad, or NULL: then `stub` records
 * the jump, for a stub to instruction 1 emitted later. Returns whether a
 * stub is needed. */
static void branch_test(x86_emitter *e, uint32_t mask)
{
	if (mask != 0) {
		byte(e, OP_OR_RM_R);
		modrm(e, 3, RCX, RDX);
		byte(e, OP_GROUP3);
		modrm(e, 3, EXT_TEST, RDX);
		imm32(e, mask);
	} else {
		byte(e, OP_TEST_RM_R);
		modrm(e, 3, RCX, RCX);
	}
}

static bool emit_branch(x86_emitter *e, uint32_t mask, const uint8_t *pad,
			branch_stub *stub)
{
	branch_test(e, mask);
	if (pad != NULL && pad - (e->pos + 2) >= -128) {
		/* short form: 4 bytes less code per branch */
		byte(e, OP_JZ_REL8);
		byte(e, (unsigned)((pad - (e->pos + 1)) & 0xff));
		return false;
	}
	byte(e, OP_TWO_BYTE);
	byte(e, OP_JZ_REL32);
	e->pos += 4;
	if (pad != NULL) {
		rel32_at(e->pos - 4, e->pos, pad);
		return false;
	}
	stub->jz_rel32 = e->pos - 4;
	return true;
}

static void emit_stub(x86_emitter *e, const branch_stub *stub,
		      const uint8_t *target)
{
	rel32_at(stub->jz_rel32, stub->jz_rel32 + 4, e->pos);
	byte(e, OP_GROUP5);
	modrm(e, 3, EXT_DEC, RCX);
	byte(e, OP_JMP_REL32);
	rel32_at(e->pos, e->pos + 4, target);
	e->pos += 4;
}

/* ---- entry and exit ------------------------------------------------ */

/* The callee-saved registers a form uses: r12-r15 always, rbx and rbp
 * for the scatter form's loop. */
static const int saved_regs[] = { 12, 13, 14, 15, RBX, RBP };

static int saved_count(bool scatter)
{
	return scatter ? 6 : 4;
}

static void save_callee_saved(x86_emitter *e, bool scatter)
{
	for (int k = 0; k < saved_count(scatter); k++) {
		rex(e, 0, 0, 0, saved_regs[k]);
		byte(e, OP_PUSH_R + (saved_regs[k] & 7));
	}
}

static void restore_callee_saved(x86_emitter *e, bool scatter)
{
	for (int k = saved_count(scatter) - 1; k >= 0; k--) {
		rex(e, 0, 0, 0, saved_regs[k]);
		byte(e, OP_POP_R + (saved_regs[k] & 7));
	}
}

static void restore_and_return(x86_emitter *e, bool scatter)
{
	restore_callee_saved(e, scatter);
	byte(e, OP_RET);
}

/* edx = 0 (no multiplication yet), ecx = 0 (the jump is available),
 * esi = ~0 (what ecx becomes when the jump is used). */
static void clear_branch_state(x86_emitter *e)
{
	byte(e, OP_XOR_RM_R);
	modrm(e, 3, RDX, RDX);
	byte(e, OP_XOR_RM_R);
	modrm(e, 3, RCX, RCX);
	byte(e, OP_OR_IMM8);
	modrm(e, 3, EXT_OR, RSI);
	byte(e, 0xff);
}

/* Register-file form, void f(uint64_t r[8]): r8-r15 from and back to
 * [rdi]. Used to test the program body on chosen register values. */
static void emit_regfile_prologue(x86_emitter *e)
{
	save_callee_saved(e, false);
	for (int i = 0; i < 8; i++)
		mem_word(e, OP_MOV_R_RM, x86_reg(i), RDI, i);
	clear_branch_state(e);
}

static void emit_regfile_epilogue(x86_emitter *e)
{
	for (int i = 0; i < 8; i++)
		mem_word(e, OP_MOV_RM_R, x86_reg(i), RDI, i);
	restore_and_return(e, false);
}

/* ---- the whole hash: SipHash input expansion and finalization ------- */

static void add_rr(x86_emitter *e, int dst, int src)
{
	reg_reg(e, OP_ADD_RM_R, src, dst);
}

static void xor_rr(x86_emitter *e, int dst, int src)
{
	reg_reg(e, OP_XOR_RM_R, src, dst);
}

static void mov_rr(x86_emitter *e, int dst, int src)
{
	reg_reg(e, OP_MOV_RM_R, src, dst);
}

static void rol_imm(x86_emitter *e, int reg, unsigned n)
{
	ror_imm(e, reg, 64 - n);
}

/* The steps of siphash.h's SipRound that `steps` selects, on four x86
 * registers v[0..3]. Forced inline, so that whole rounds (the expansion's)
 * test no step bits: called from the step lists' walks, GCC kept one copy,
 * 0.1% more of a compiling hashx_make (make bench-instructions). */
static inline __attribute__((always_inline)) void
sipround_steps(x86_emitter *e, const int v[4], unsigned steps)
{
	for (int k = 0; k < HASHX_SIPROUND_STEP_COUNT; k++) {
		const hashx_sip_step *st = &hashx_sipround_table[k];

		if (!(steps >> k & 1))
			continue;
		if (st->op == HASHX_SIP_ADD)
			add_rr(e, v[st->dst], v[st->arg]);
		else if (st->op == HASHX_SIP_XOR)
			xor_rr(e, v[st->dst], v[st->arg]);
		else
			rol_imm(e, v[st->dst], st->arg);
	}
}

static void sipround(x86_emitter *e, int v0, int v1, int v2, int v3)
{
	const int v[4] = { v0, v1, v2, v3 };

	sipround_steps(e, v, HASHX_SIP_ALL_STEPS);
}

static void siprounds(x86_emitter *e, int n, int first)
{
	for (int i = 0; i < n; i++)
		sipround(e, first, first + 1, first + 2, first + 3);
}

/*
 * The registers expanded from the input (in `input`) by siphash.h's
 * expansion steps, the key folded in as immediates, so they never go
 * through memory: half 0 in r8-r11, half 1 in r12-r15.
 */
static void emit_expansion(x86_emitter *e, const hashx_sip_state *key,
			   int input)
{
	uint64_t start[4];
	hashx_sip_state s = hashx_expansion_start(key);

	hashx_sip_words(&s, start);
	for (int k = 0; k < HASHX_EXPANSION_STEP_COUNT; k++) {
		const hashx_expand_step *st = &hashx_expansion_table[k];
		int half = R8 + 4 * st->half, d = half + st->word;

		switch ((hashx_expand_op)st->op) {
		case HASHX_EXPAND_START:
			for (int i = 0; i < 4; i++)
				mov_imm64(e, R8 + i, start[i]);
			xor_rr(e, d, input);
			break;
		case HASHX_EXPAND_XOR_INPUT: xor_rr(e, d, input); break;
		case HASHX_EXPAND_XOR_MARK: alu_imm(e, EXT_XOR, d, st->arg); break;
		case HASHX_EXPAND_ROUNDS: siprounds(e, st->arg, half); break;
		case HASHX_EXPAND_FORK:
			for (int i = 0; i < 4; i++)
				mov_rr(e, R8 + 4 + i, R8 + i);
			alu_imm(e, EXT_XOR, d, st->arg);
			break;
		}
	}
}

/* finalize.h's steps on the registers, leaving output word j in r(8 + j)
 * for each word j in `words` (bit j); only the SipRound steps those words
 * depend on are emitted. */
static void emit_finalization(x86_emitter *e, const hashx_sip_state *key,
			      unsigned words)
{
	unsigned steps = hashx_finalize_steps(words);
	uint64_t kw[4];

	hashx_sip_words(key, kw);
	for (int k = 0; k < HASHX_FINALIZE_STEP_COUNT; k++) {
		const hashx_finalize_step *st = &hashx_finalize_table[k];
		int half = R8 + 4 * st->reg;

		switch ((hashx_finalize_op)st->op) {
		case HASHX_FINALIZE_ADD_KEY:
			mov_imm64(e, RAX, kw[st->key]);
			add_rr(e, R8 + st->reg, RAX);
			break;
		case HASHX_FINALIZE_ROUND: {
			const int v[4] = { half, half + 1, half + 2, half + 3 };

			sipround_steps(e, v, steps);
			break;
		}
		case HASHX_FINALIZE_FOLD:
			for (int w = 0; w < 4; w++)
				if (words >> w & 1)
					xor_rr(e, R8 + w,
					       R8 + HASHX_FINALIZE_HALF + w);
			break;
		}
	}
}

/* Whole-hash form, uint64_t f(uint64_t input, uint8_t out[32]). */
static void emit_hash_prologue(x86_emitter *e, const hashx_sip_state *key)
{
	save_callee_saved(e, false);
	emit_expansion(e, key, RDI);
	mov_rr(e, RDI, RSI); /* rdi = out; esi is free for the branches */
	clear_branch_state(e);
}

/* The 32 bytes to [rdi], the first 8 (what Equi-X sums) also in rax. */
static void emit_hash_epilogue(x86_emitter *e, const hashx_sip_state *key)
{
	emit_finalization(e, key, HASHX_FINALIZE_ALL_WORDS);
	for (int i = 0; i < 4; i++)
		mem_word(e, OP_MOV_RM_R, R8 + i, RDI, i);
	mov_rr(e, RAX, R8);
	restore_and_return(e, false);
}

/*
 * Scatter form, void f(uint64_t first, size_t n): the hashes of first ..
 * first + n - 1, each sorted straight into the table `t` by the low 8 bits
 * of its first word (hashx_scatter, scatter.h). This is the first
 * stage of the Equi-X solver; doing it in the hashing loop lets the table
 * updates run in the shadow of the next hash's long dependency chain, and
 * saves a call and the output words per hash. rbx counts the inputs, rbp
 * the hashes left.
 */
static uint8_t *emit_scatter_prologue(x86_emitter *e, const hashx_sip_state *key,
				      uint8_t **exit_jz)
{
	uint8_t *top;

	save_callee_saved(e, true);
	mov_rr(e, RBX, RDI);
	mov_rr(e, RBP, RSI);
	reg_reg(e, OP_TEST_RM_R, RBP, RBP); /* n = 0: nothing to do */
	byte(e, OP_TWO_BYTE);
	byte(e, OP_JZ_REL32);
	*exit_jz = e->pos;
	e->pos += 4;
	top = e->pos;
	emit_expansion(e, key, RBX);
	clear_branch_state(e);
	return top;
}

static void emit_scatter_epilogue(x86_emitter *e, const hashx_sip_state *key,
				  const hashx_scatter *t, const uint8_t *top,
				  uint8_t *exit_jz)
{
	emit_finalization(e, key, HASHX_SCATTER_WORDS); /* word 0 in r8: v */
	hashx_x86_64_scatter_item(e, t, R8, RBX, true);
	alu_imm(e, EXT_ADD, RBX, 1);
	alu_imm(e, EXT_SUB, RBP, 1);
	byte(e, OP_TWO_BYTE);
	byte(e, OP_JNZ_REL32);
	rel32_at(e->pos, e->pos + 4, top);
	e->pos += 4;
	rel32_at(exit_jz, exit_jz + 4, e->pos);
	restore_and_return(e, true);
}

/* Jump state while emitting: the last TARGET's landing pad, and the
 * branches that jump to instruction 1 through stubs. */
typedef struct jumps {
	const uint8_t *pad;   /* NULL before the first TARGET */
	branch_stub stubs[HASHX_PROGRAM_SIZE];
	size_t nstubs;
} jumps;

/* Forced inline, so that emit_instr keeps one switch: as a call per
 * instruction it cost 2.5% more of hashx_make's instructions with the
 * compile (make bench-instructions). */
static inline __attribute__((always_inline)) bool
scalar_op(x86_emitter *e, const hashx_instr *in)
{
	switch ((hashx_opcode)in->opcode) {
	case HASHX_OP_UMULH_R: emit_mulh(e, EXT_MUL, in->dst, in->src); break;
	case HASHX_OP_SMULH_R: emit_mulh(e, EXT_IMUL, in->dst, in->src); break;
	case HASHX_OP_MUL_R: emit_mul(e, in->dst, in->src); break;
	case HASHX_OP_SUB_R: emit_alu_reg(e, OP_SUB_RM_R, in->dst, in->src); break;
	case HASHX_OP_XOR_R: emit_alu_reg(e, OP_XOR_RM_R, in->dst, in->src); break;
	case HASHX_OP_ADD_RS: emit_add_rs(e, in->dst, in->src, in->imm); break;
	case HASHX_OP_ROR_C: emit_ror(e, in->dst, in->imm); break;
	case HASHX_OP_ADD_C: emit_alu_imm(e, EXT_ADD, in->dst, in->imm); break;
	case HASHX_OP_XOR_C: emit_alu_imm(e, EXT_XOR, in->dst, in->imm); break;
	case HASHX_OP_TARGET:
	case HASHX_OP_BRANCH:
	case HASHX_OP_COUNT:
	default: return false;
	}
	return true;
}

static void emit_instr(x86_emitter *e, const hashx_instr *in, jumps *j)
{
	switch ((hashx_opcode)in->opcode) {
	case HASHX_OP_TARGET: j->pad = emit_target(e); break;
	case HASHX_OP_BRANCH:
		j->nstubs += emit_branch(e, in->imm, j->pad,
					 &j->stubs[j->nstubs]);
		break;
	default: scalar_op(e, in); break;
	}
}

/* Emits prologue, body and epilogue; false if they would not fit (they
 * always do: CODE_CAPACITY covers the largest program, and the checks
 * keep room for each instruction, the pending stubs and the epilogue). */
static bool emit_function(x86_emitter *e, const hashx_program *prog, hashx_form f,
			  const hashx_sip_state *key, const hashx_scatter *t)
{
	static const jumps no_jumps;
	jumps j = no_jumps;
	uint8_t *start = e->pos, *epilogue, *instr1 = NULL;
	uint8_t *top = NULL, *exit_jz = NULL;

	if (prog->size > HASHX_PROGRAM_SIZE)
		return false; /* not a program: CODE_CAPACITY counts on it */
	if (f == HASHX_FORM_HASH)
		emit_hash_prologue(e, key);
	else if (f == HASHX_FORM_SCATTER)
		top = emit_scatter_prologue(e, key, &exit_jz);
	else
		emit_regfile_prologue(e);
	if (e->pos - start > PROLOGUE_BYTES)
		return false;
	for (size_t i = 0; i < prog->size; i++) {
		size_t reserve = MAX_INSTR_BYTES + EPILOGUE_BYTES +
				 STUB_BYTES * (j.nstubs + 1);

		if ((size_t)(e->end - e->pos) < reserve)
			return false;
		if (i == HASHX_RESUME_WITHOUT_TARGET)
			instr1 = e->pos;
		emit_instr(e, &prog->code[i], &j);
	}
	epilogue = e->pos;
	if (instr1 == NULL)
		instr1 = epilogue;
	if (f == HASHX_FORM_HASH)
		emit_hash_epilogue(e, key);
	else if (f == HASHX_FORM_SCATTER)
		emit_scatter_epilogue(e, key, t, top, exit_jz);
	else
		emit_regfile_epilogue(e);
	if (e->pos - epilogue > EPILOGUE_BYTES)
		return false;
	/* Without a TARGET, a jump resumes at instruction 1
	 * (HASHX_RESUME_WITHOUT_TARGET). */
	for (size_t k = 0; k < j.nstubs; k++)
		emit_stub(e, &j.stubs[k], instr1);
	return true;
}

static uint8_t *emit_job(uint8_t *start, uint8_t *end, hashx_compile_job *j)
{
	x86_emitter e = { start, end };

	if (j->form == HASHX_FORM_SCATTER && !hashx_x86_64_scatter_fits(j->scatter))
		return NULL;
	return emit_function(&e, j->prog, j->form, j->key, j->scatter) ? e.pos
								  : NULL;
}

void *hashx_arch_compile(const hashx_program *prog, hashx_form f,
			 const hashx_sip_state *key, const hashx_scatter *t,
			 hashx_code_buffer *buf)
{
	hashx_compile_job j = { .prog = prog, .form = f, .key = key,
				.scatter = t };

	if (f == HASHX_FORM_BATCH || f == HASHX_FORM_BATCH_SCATTER)
		return NULL; /* the vector back-ends' forms */
	return hashx_compiler_build(buf, CODE_CAPACITY, emit_job, &j);
}

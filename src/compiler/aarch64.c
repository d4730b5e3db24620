/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * aarch64.c - the HashX compiler for 64-bit ARM (A64, AAPCS64).
 *
 * Register mapping: HashX r0..r7 live in x8..x15, caller-saved like every
 * other register used here, so the functions are leaves that save nothing.
 * x2 keeps the last high multiplication's result (BRANCH tests its low 32
 * bits), x3 is 0 while the program's one jump is available and all ones
 * after; x16 and x17 are scratch. x0 holds the register file's address
 * (register-file form) or the input (whole-hash form, where x1 holds the
 * output's address; scatter form, where x1 counts the inputs left and
 * x4-x7 hold the table). The program body touches none of x0, x1, x4-x7.
 *
 * Every emit_* function writes one instruction form, built from the named
 * encodings of aarch64_emit.h, which HashWX's emitter shares.
 */
#include <config.h>

#include "aarch64_emit.h"
#include "analysis.h"
#include "code_size.h"
#include "compiler.h"
#include "finalize.h"

/* Largest code for one HashX instruction (BRANCH: a mask load of up to
 * two instructions and five more, 28 bytes; ADD_C and XOR_C take at most
 * 12), and bounds on entry and exit code, enforced when emitting (the
 * whole-hash form's entry holds 10 SipRounds, about 700 bytes, the scatter
 * form's also the table's addresses; its exit, under 200 bytes, holds the
 * part of 2 SipRounds the first word needs and the table update). Any
 * program fits the capacity; tests/test_code_size.c measures each part
 * and compiles the largest program. */
#define MAX_INSTR_BYTES 32
#define PROLOGUE_BYTES 1024
#define EPILOGUE_BYTES 320
#define CODE_CAPACITY \
	(PROLOGUE_BYTES + HASHX_PROGRAM_SIZE * MAX_INSTR_BYTES + EPILOGUE_BYTES)

const hashx_code_bounds hashx_aarch64_code_bounds = {
	.capacity = CODE_CAPACITY,
	.fixed = PROLOGUE_BYTES + EPILOGUE_BYTES,
	.per_instr = MAX_INSTR_BYTES,
};

static int x_reg(int hashx_reg)
{
	return X8 + hashx_reg;
}

/* ---- the instruction forms ----------------------------------------- */

/* dst = high half of dst * src; x2 keeps it for BRANCH. */
static void emit_mulh(emitter *e, uint32_t op, int dst, int src)
{
	rrr(e, op, x_reg(dst), x_reg(dst), x_reg(src), 0);
	mov_rr(e, X2, x_reg(dst));
}

/* mul/sub/eor dst, dst, src */
static void emit_reg_reg(emitter *e, uint32_t op, int dst, int src)
{
	rrr(e, op, x_reg(dst), x_reg(dst), x_reg(src), 0);
}

/* add dst, dst, src, lsl #shift */
static void emit_add_rs(emitter *e, int dst, int src, unsigned shift)
{
	rrr(e, A64_ADD, x_reg(dst), x_reg(dst), x_reg(src), shift);
}

/* add/eor dst, dst, #sign_extend(imm32), through x16 */
static void emit_reg_imm(emitter *e, uint32_t op, int dst, uint32_t imm)
{
	mov_imm64(e, X16, (uint64_t)(int64_t)(int32_t)imm);
	rrr(e, op, x_reg(dst), x_reg(dst), X16, 0);
}

/* b to `target` (already emitted, or the next instruction when NULL). */
static void emit_b(emitter *e, const uint8_t *target)
{
	long words = target != NULL ? (long)(target - e->pos) / 4 : 1;

	put(e, A64_B | ((uint32_t)words & 0x3ffffff));
}

/*
 * BRANCH: if the jump is available and (w2 & mask) == 0, use it up and
 * jump back to `resume`:
 *     mov  w16, #mask
 *     orr  w17, w2, w3      ; all ones once used: the test then fails
 *     tst  w17, w16
 *     b.ne next
 *     movn x3, #0           ; x3 = ~0
 *     b    resume
 *   next:
 * A mask of 0 (never generated) passes the test even with x3 = ~0, which
 * would jump forever; such a BRANCH tests x3 alone: cbnz x3, next.
 */
static void emit_branch(emitter *e, uint32_t mask, const uint8_t *resume)
{
	if (mask != 0) {
		mov_imm64(e, X16, mask);
		rrr(e, A64_ORR_W, X17, X2, X3, 0);
		rrr(e, A64_TST_W, 0, X17, X16, 0);
		put(e, A64_B_COND | 3u << 5 | COND_NE); /* skip the next two */
	} else {
		put(e, A64_CBNZ | 3u << 5 | X3);
	}
	put(e, A64_MOVN | X3);
	emit_b(e, resume);
}

static void emit_instr(emitter *e, const hashx_instr *in,
		       const uint8_t *resume)
{
	switch ((hashx_opcode)in->opcode) {
	case HASHX_OP_UMULH_R: emit_mulh(e, A64_UMULH, in->dst, in->src); break;
	case HASHX_OP_SMULH_R: emit_mulh(e, A64_SMULH, in->dst, in->src); break;
	case HASHX_OP_MUL_R: emit_reg_reg(e, A64_MUL, in->dst, in->src); break;
	case HASHX_OP_SUB_R: emit_reg_reg(e, A64_SUB, in->dst, in->src); break;
	case HASHX_OP_XOR_R: emit_reg_reg(e, A64_EOR, in->dst, in->src); break;
	case HASHX_OP_ADD_RS: emit_add_rs(e, in->dst, in->src, in->imm); break;
	case HASHX_OP_ROR_C: ror_imm(e, x_reg(in->dst), in->imm); break;
	case HASHX_OP_ADD_C: emit_reg_imm(e, A64_ADD, in->dst, in->imm); break;
	case HASHX_OP_XOR_C: emit_reg_imm(e, A64_EOR, in->dst, in->imm); break;
	case HASHX_OP_TARGET: break; /* only a jump destination */
	case HASHX_OP_BRANCH: emit_branch(e, in->imm, resume); break;
	case HASHX_OP_COUNT:
	default: break;
	}
}

/* ---- entry and exit ------------------------------------------------ */

/* x2 = 0 (no multiplication yet), x3 = 0 (the jump is available). */
static void clear_branch_state(emitter *e)
{
	put(e, A64_MOVZ | X2);
	put(e, A64_MOVZ | X3);
}

/* ldp/stp x(8+2k), x(9+2k), [base, #16k] for k = 0..3 */
static void pairs(emitter *e, uint32_t op, int base, int count)
{
	for (int k = 0; k < count; k++)
		put(e, op | (uint32_t)(2 * k) << 15 | (uint32_t)(X8 + 2 * k + 1) << 10 |
			       (uint32_t)base << 5 | (uint32_t)(X8 + 2 * k));
}

/* Register-file form, void f(uint64_t r[8]). */
static void emit_regfile_prologue(emitter *e)
{
	pairs(e, A64_LDP, X0, 4);
	clear_branch_state(e);
}

static void emit_regfile_epilogue(emitter *e)
{
	pairs(e, A64_STP, X0, 4);
	put(e, A64_RET);
}

/* The steps of siphash.h's SipRound that `steps` selects, on four
 * consecutive registers. */
static void sipround_steps(emitter *e, int first, unsigned steps)
{
	const int v[4] = { first, first + 1, first + 2, first + 3 };

	a64_sipround_steps(e, v, steps);
}

static void siprounds(emitter *e, int n, int first)
{
	for (int i = 0; i < n; i++)
		sipround_steps(e, first, HASHX_SIP_ALL_STEPS);
}

static void eor_imm(emitter *e, int d, uint64_t v)
{
	mov_imm64(e, X16, v);
	rrr(e, A64_EOR, d, d, X16, 0);
}

/* siphash.h's expansion steps on the input in register `input`, in
 * registers, the key as immediates: half 0 in x8-x11, half 1 in x12-x15. */
static void emit_expansion(emitter *e, const hashx_sip_state *key, int input)
{
	const hashx_sip_state s = hashx_expansion_start(key);
	uint64_t start[4];

	hashx_sip_words(&s, start);
	for (int k = 0; k < HASHX_EXPANSION_STEP_COUNT; k++) {
		const hashx_expand_step *st = &hashx_expansion_table[k];
		int half = X8 + 4 * st->half, d = half + st->word;

		switch ((hashx_expand_op)st->op) {
		case HASHX_EXPAND_START:
			for (int i = 0; i < 4; i++)
				mov_imm64(e, X8 + i, start[i]);
			rrr(e, A64_EOR, d, d, input, 0);
			break;
		case HASHX_EXPAND_XOR_INPUT:
			rrr(e, A64_EOR, d, d, input, 0);
			break;
		case HASHX_EXPAND_XOR_MARK: eor_imm(e, d, st->arg); break;
		case HASHX_EXPAND_ROUNDS: siprounds(e, st->arg, half); break;
		case HASHX_EXPAND_FORK:
			for (int i = 0; i < 4; i++)
				mov_rr(e, X8 + 4 + i, X8 + i);
			eor_imm(e, d, st->arg);
			break;
		}
	}
}

/* finalize.h's steps for the output words in `words` (bit j: word j),
 * each left in x(8 + j); only the SipRound steps they depend on are
 * emitted. */
static void emit_finalization(emitter *e, const hashx_sip_state *key,
			      unsigned words)
{
	unsigned steps = hashx_finalize_steps(words);

	for (int k = 0; k < HASHX_FINALIZE_STEP_COUNT; k++) {
		const hashx_finalize_step *st = &hashx_finalize_table[k];
		int r = X8 + st->reg;

		switch ((hashx_finalize_op)st->op) {
		case HASHX_FINALIZE_ADD_KEY:
			mov_imm64(e, X16, hashx_sip_word(key, st->key));
			rrr(e, A64_ADD, r, r, X16, 0);
			break;
		case HASHX_FINALIZE_ROUND:
			sipround_steps(e, X8 + 4 * st->reg, steps);
			break;
		case HASHX_FINALIZE_FOLD:
			for (int j = 0; j < 4; j++)
				if (words >> j & 1)
					rrr(e, A64_EOR, X8 + j, X8 + j,
					    X8 + HASHX_FINALIZE_HALF + j, 0);
			break;
		}
	}
}

/* Whole-hash form, uint64_t f(uint64_t input, uint8_t out[32]). */
static void emit_hash_prologue(emitter *e, const hashx_sip_state *key)
{
	emit_expansion(e, key, X0);
	clear_branch_state(e);
}

/* The 32 bytes to [x1], the first 8 also returned in x0. */
static void emit_hash_epilogue(emitter *e, const hashx_sip_state *key)
{
	emit_finalization(e, key, HASHX_FINALIZE_ALL_WORDS);
	pairs(e, A64_STP, X1, 2);
	mov_rr(e, X0, X8);
	put(e, A64_RET);
}

/*
 * Scatter form, void f(uint64_t first, size_t n): the hashes of first ..
 * first + n - 1, each sorted straight into the table `t` (hashx_scatter,
 * scatter.h) by the low bits of its first word. This is the first
 * stage of the Equi-X solver; in the hashing loop it saves a call, the
 * other three output words and their stores per hash, and the table
 * update overlaps the next hash's dependency chain. x0 is the input, x1
 * the count left; the table's addresses and capacity stay in x4-x7:
 *     mov  x4, counts ; x5, idx ; x6, data ; x7, capacity
 *     cbz  x1, exit               ; n = 0: nothing to do
 *   top: (expansion, program, finalization of word 0 into x8), the item,
 *     add  x0, x0, #1
 *     subs x1, x1, #1
 *     b.ne top
 *   exit:
 *     ret
 */
enum { T_COUNTS = X4, T_IDX = X5, T_DATA = X6, T_CAPACITY = X7 };

static uint8_t *emit_scatter_prologue(emitter *e, const hashx_sip_state *key,
				      const hashx_scatter *t,
				      uint8_t **exit_cbz)
{
	uint8_t *top;

	mov_imm64(e, T_COUNTS, (uint64_t)(uintptr_t)t->counts);
	mov_imm64(e, T_IDX, (uint64_t)(uintptr_t)t->idx);
	mov_imm64(e, T_DATA, (uint64_t)(uintptr_t)t->data);
	mov_imm64(e, T_CAPACITY, t->capacity);
	*exit_cbz = cond_branch(e, A64_CBZ | X1, NULL);
	top = e->pos;
	emit_expansion(e, key, X0);
	clear_branch_state(e);
	return top;
}

/* The element sizes the scaled register offsets below assume. */
_Static_assert(sizeof *((hashx_scatter *)0)->counts == 2 &&
		       sizeof *((hashx_scatter *)0)->idx == 2 &&
		       sizeof *((hashx_scatter *)0)->data == 8,
	       "ldrh/strh scale by 2, str by 8");

/* The bucket is a bit field of a W register: a table of another width is
 * refused (emit_job), and the facade falls back. */
static bool scatter_fits(const hashx_scatter *t)
{
	return t != NULL && t->bucket_bits >= 1 && t->bucket_bits <= 31;
}

/*
 * With the hash's first word v in x8 (x9-x17 free here),
 * hashx_scatter_put() of scatter.h, in its 32-bit arithmetic, with the
 * table's bucket bits:
 *     ubfm w16, w8, #0, #(bits - 1)     ; bucket b = v & (buckets - 1)
 *     ldrh w17, [x4, w16, uxtw #1]      ; its item count
 *     cmp  w17, w7
 *     b.hs skip                         ; full: the item is dropped
 *     add  w9, w17, #1
 *     strh w9, [x4, w16, uxtw #1]
 *     madd w10, w16, w7, w17            ; slot b * capacity + item
 *     strh w0, [x5, w10, uxtw #1]       ; the input, as a 16-bit index
 *     ubfm x8, x8, #bits, #63           ; lsr: the rest of the value
 *     str  x8, [x6, w10, uxtw #3]
 *   skip:
 */
static void emit_scatter_item(emitter *e, const hashx_scatter *t)
{
	const int b = X16, item = X17, next = X8 + 1, slot = X8 + 2;
	const uint32_t bits = t->bucket_bits;
	uint8_t *skip;

	put(e, A64_UBFM_W | (bits - 1u) << 10 |
		       (uint32_t)X8 << 5 | (uint32_t)b);
	rrr(e, A64_LDRH_UXTW, item, T_COUNTS, b, 0);
	rrr(e, A64_CMP_W, 0, item, T_CAPACITY, 0);
	skip = cond_branch(e, A64_B_COND | COND_HS, NULL);
	put(e, A64_ADD_W_IMM | 1u << 10 | (uint32_t)item << 5 | (uint32_t)next);
	rrr(e, A64_STRH_UXTW, next, T_COUNTS, b, 0);
	put(e, A64_MADD_W | (uint32_t)T_CAPACITY << 16 | (uint32_t)item << 10 |
		       (uint32_t)b << 5 | (uint32_t)slot);
	rrr(e, A64_STRH_UXTW, X0, T_IDX, slot, 0);
	put(e, A64_UBFM | bits << 16 | 63u << 10 |
		       (uint32_t)X8 << 5 | (uint32_t)X8);
	rrr(e, A64_STR_UXTW, X8, T_DATA, slot, 0);
	patch_imm19(skip, e->pos);
}

static void emit_scatter_epilogue(emitter *e, const hashx_sip_state *key,
				  const hashx_scatter *t, const uint8_t *top,
				  uint8_t *exit_cbz)
{
	emit_finalization(e, key, HASHX_SCATTER_WORDS);
	emit_scatter_item(e, t);
	put(e, A64_ADD_IMM | 1u << 10 | (uint32_t)X0 << 5 | (uint32_t)X0);
	put(e, A64_SUBS_IMM | 1u << 10 | (uint32_t)X1 << 5 | (uint32_t)X1);
	cond_branch(e, A64_B_COND | COND_NE, top);
	patch_imm19(exit_cbz, e->pos);
	put(e, A64_RET);
}

/* ---- whole functions ------------------------------------------------ */

/* The program body; false if it does not fit. A taken BRANCH jumps to
 * its block's first instruction (analysis.h), or, with no block to run
 * again (a BRANCH at index 0 before any TARGET), to the next one. */
static bool emit_body(emitter *e, const hashx_program *prog)
{
	hashx_analysis facts;
	const uint8_t *code_at[HASHX_PROGRAM_SIZE];
	size_t nbranches = 0;

	hashx_analyse(prog, &facts);
	for (size_t i = 0; i < prog->size; i++) {
		const hashx_instr *in = &prog->code[i];
		const uint8_t *resume = NULL;

		if (e->end - e->pos < MAX_INSTR_BYTES + EPILOGUE_BYTES)
			return false;
		code_at[i] = e->pos;
		if (in->opcode == HASHX_OP_BRANCH) {
			const hashx_branch_info *b =
				&facts.branch[nbranches++];

			if (hashx_branch_reruns(b))
				resume = code_at[b->resume];
		}
		emit_instr(e, in, resume);
	}
	return true;
}

static uint8_t *emit_job(uint8_t *start, uint8_t *end, hashx_compile_job *j)
{
	emitter e = { start, end };
	uint8_t *epilogue, *top = NULL, *exit_cbz = NULL;

	if (j->prog->size > HASHX_PROGRAM_SIZE)
		return NULL; /* not a program: CODE_CAPACITY counts on it */
	if (j->form == HASHX_FORM_SCATTER && !scatter_fits(j->scatter))
		return NULL;
	if (j->form == HASHX_FORM_HASH)
		emit_hash_prologue(&e, j->key);
	else if (j->form == HASHX_FORM_SCATTER)
		top = emit_scatter_prologue(&e, j->key, j->scatter, &exit_cbz);
	else
		emit_regfile_prologue(&e);
	if (e.pos - start > PROLOGUE_BYTES || !emit_body(&e, j->prog))
		return NULL;
	epilogue = e.pos;
	if (j->form == HASHX_FORM_HASH)
		emit_hash_epilogue(&e, j->key);
	else if (j->form == HASHX_FORM_SCATTER)
		emit_scatter_epilogue(&e, j->key, j->scatter, top, exit_cbz);
	else
		emit_regfile_epilogue(&e);
	return e.pos - epilogue <= EPILOGUE_BYTES ? e.pos : NULL;
}

/* No batch form here: the vector back-ends are x86-64's. */
void *hashx_arch_compile(const hashx_program *prog, hashx_form form,
			 const hashx_sip_state *key, const hashx_scatter *t,
			 hashx_code_buffer *buf)
{
	hashx_compile_job j = { .prog = prog, .form = form, .key = key,
				.scatter = t };

	if (form == HASHX_FORM_BATCH || form == HASHX_FORM_BATCH_SCATTER)
		return NULL;
	return hashx_compiler_build(buf, CODE_CAPACITY, emit_job, &j);
}

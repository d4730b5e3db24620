/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wasm.c - the HashX compiler for WebAssembly: each program becomes a small
 * module of its own, which the host (the JavaScript package, js/src/jit.js)
 * compiles, instantiates against the core's memory and puts in the core's
 * function table, so that a compiled form is called like any other C
 * function pointer (the pointer is the table slot).
 *
 * Register mapping: HashX r0..r7 are i64 locals for the whole function;
 * six more i64 locals are the partial products of the high
 * multiplications, and two i32 locals hold the low half of the last high
 * multiplication (what BRANCH tests) and whether the one jump was taken.
 *
 * Control flow: WebAssembly has no goto, but a BRANCH only ever jumps back
 * to just after the last TARGET before it, which is fixed by the program's
 * text (execution never passes a TARGET backwards except by that jump). So
 * the program is a row of `loop` blocks, one starting after each TARGET
 * (the first at instruction HASHX_RESUME_WITHOUT_TARGET), and a taken
 * BRANCH is `br` to the start of the loop it sits in.
 *
 * Each emit_* function writes one construct; the encoders, the opcodes
 * and the module's common sections are wasm_emit.h's, shared with the
 * HashWX emitter (hashwx_wasm.c).
 */
#include <config.h>

#include <stdint.h>
#include <string.h>

#include "code_size.h"
#include "compiler.h"
#include "finalize.h"
#include "mulh.h"
#include "wasm_emit.h"
#include "wasm_host.h"

/* The function types every module declares, by index. */
enum {
	TYPE_HASH,     /* (i64 input, i32 out) -> i64: hashx_hash_fn */
	TYPE_SCATTER,  /* (i64 first, i32 n) -> (): hashx_scatter_fn */
	TYPE_REGFILE,  /* (i32 r) -> (): hashx_compiled_fn */
	TYPE_WORD0,    /* (i64 input) -> i64: the scatter form's hash */
	TYPE_COUNT
};

/*
 * The locals of a function that runs the program. Its parameters come
 * first (index 0 and, in the forms that have one, 1; the others declare
 * an unused i64 there, so that every form numbers the rest alike), then
 * the registers, the multiplication's temporaries and the two branch
 * words.
 */
enum {
	LOC_PARAM0 = 0,
	LOC_PARAM1 = 1,
	LOC_R0 = 2,
	LOC_AH = LOC_R0 + 8,
	LOC_BH,
	LOC_AL,
	LOC_BL,
	LOC_T,
	LOC_U,
	LOC_MUL_RESULT, /* i32: low half of the last UMULH/SMULH */
	LOC_TAKEN,      /* i32: 0 while the one jump is available, ~0 after */
	LOC_I64_COUNT = LOC_MUL_RESULT - LOC_R0,
	LOC_I32_COUNT = 2,
};

/* The scatter loop's locals, after its two parameters (first, n): the
 * hash's word 0, and its bucket, the bucket's item count and the item's
 * place in the table. */
enum {
	SCAT_FIRST = 0,
	SCAT_N = 1,
	SCAT_V = 2,
	SCAT_BUCKET,
	SCAT_ITEM,
	SCAT_SLOT,
	SCAT_I32_COUNT = 3,
};

/* The most bytes one HashX instruction takes (SMULH from halves: 104),
 * and the rest of a module: header, sections, input expansion (10
 * SipRounds of 14 steps, 7 bytes at most each), finalization and the
 * scatter loop. */
#define MAX_INSTR_BYTES 128
#define FIXED_BYTES 2048
#define CODE_CAPACITY (FIXED_BYTES + HASHX_PROGRAM_SIZE * MAX_INSTR_BYTES)

const hashx_code_bounds hashx_wasm_code_bounds = {
	.capacity = CODE_CAPACITY,
	.fixed = FIXED_BYTES,
	.per_instr = MAX_INSTR_BYTES,
};

static unsigned reg(unsigned r)
{
	return LOC_R0 + r;
}

/* ---- SipHash ----------------------------------------------------------- */

/* The locals of half h of the registers (siphash.h): r(4h) .. r(4h + 3). */
static void half_regs(unsigned h, unsigned v[4])
{
	for (unsigned i = 0; i < 4; i++)
		v[i] = reg(4 * h + i);
}

/* siphash.h's expansion steps on the input in local `input`, into r0..r7
 * (half h in r(4h)..r(4h + 3)). */
static void emit_expand(writer *w, const hashx_sip_state *key,
			unsigned input)
{
	hashx_sip_state s = hashx_expansion_start(key);
	uint64_t v[4];

	hashx_sip_words(&s, v);
	for (int k = 0; k < HASHX_EXPANSION_STEP_COUNT; k++) {
		const hashx_expand_step *st = &hashx_expansion_table[k];
		unsigned half[4], d;

		half_regs(st->half, half);
		d = half[st->word];

		switch ((hashx_expand_op)st->op) {
		case HASHX_EXPAND_START:
			for (unsigned i = 0; i < 4; i++) {
				emit_i64_const(w, v[i]);
				emit_set(w, reg(i));
			}
			emit_rr(w, OP_I64_XOR, d, input);
			break;
		case HASHX_EXPAND_XOR_INPUT:
			emit_rr(w, OP_I64_XOR, d, input);
			break;
		case HASHX_EXPAND_XOR_MARK:
			emit_rc(w, OP_I64_XOR, d, st->arg);
			break;
		case HASHX_EXPAND_ROUNDS:
			emit_siprounds(w, half, st->arg);
			break;
		case HASHX_EXPAND_FORK:
			for (unsigned i = 0; i < 4; i++) {
				emit_get(w, reg(i));
				emit_set(w, reg(4 + i));
			}
			emit_rc(w, OP_I64_XOR, d, st->arg);
			break;
		}
	}
}

/* finalize.h's steps for the output words in `words`; the FOLD is left
 * to the stores, which push each word on the operand stack
 * (emit_output_word) rather than keep it in a local. */
static void emit_finalize(writer *w, const hashx_sip_state *key,
			  unsigned words)
{
	for (int k = 0; k < HASHX_FINALIZE_STEP_COUNT; k++) {
		const hashx_finalize_step *st = &hashx_finalize_table[k];
		unsigned half[4];

		half_regs(st->reg, half);

		switch ((hashx_finalize_op)st->op) {
		case HASHX_FINALIZE_ADD_KEY:
			emit_rc(w, OP_I64_ADD, reg(st->reg),
				hashx_sip_word(key, st->key));
			break;
		case HASHX_FINALIZE_ROUND:
			emit_sipround(w, half, hashx_finalize_steps(words));
			break;
		case HASHX_FINALIZE_FOLD:
			break;
		}
	}
}

/* Pushes output word j, finalize.h's FOLD. */
static void emit_output_word(writer *w, unsigned j)
{
	emit_get(w, reg(j));
	emit_get(w, reg(HASHX_FINALIZE_HALF + j));
	emit_op(w, OP_I64_XOR);
}

/* ---- The program ------------------------------------------------------- */

/* Pushes the unsigned high product of locals a and b from 32-bit halves,
 * mulh.h's steps: t = ah*bl + (al*bl >> 32), u = al*bh + low(t),
 * hi = ah*bh + (t >> 32) + (u >> 32). */
static void emit_umulh_halves(writer *w, unsigned a, unsigned b)
{
	const uint64_t low32 = UINT64_C(0xffffffff);
	const unsigned half[4][3] = {
		/* into, from, (shift right by 32 | mask the low 32) */
		{ LOC_AH, a, OP_I64_SHR_U }, { LOC_BH, b, OP_I64_SHR_U },
		{ LOC_AL, a, OP_I64_AND },   { LOC_BL, b, OP_I64_AND },
	};

	for (int i = 0; i < 4; i++) {
		emit_get(w, half[i][1]);
		emit_i64_const(w, half[i][2] == OP_I64_SHR_U ? 32 : low32);
		emit_op(w, (uint8_t)half[i][2]);
		emit_set(w, half[i][0]);
	}
	/* t */
	emit_get(w, LOC_AH);
	emit_get(w, LOC_BL);
	emit_op(w, OP_I64_MUL);
	emit_get(w, LOC_AL);
	emit_get(w, LOC_BL);
	emit_op(w, OP_I64_MUL);
	emit_i64_const(w, 32);
	emit_op(w, OP_I64_SHR_U);
	emit_op(w, OP_I64_ADD);
	emit_set(w, LOC_T);
	/* u */
	emit_get(w, LOC_AL);
	emit_get(w, LOC_BH);
	emit_op(w, OP_I64_MUL);
	emit_get(w, LOC_T);
	emit_i64_const(w, low32);
	emit_op(w, OP_I64_AND);
	emit_op(w, OP_I64_ADD);
	emit_set(w, LOC_U);
	/* hi */
	emit_get(w, LOC_AH);
	emit_get(w, LOC_BH);
	emit_op(w, OP_I64_MUL);
	emit_get(w, LOC_T);
	emit_i64_const(w, 32);
	emit_op(w, OP_I64_SHR_U);
	emit_op(w, OP_I64_ADD);
	emit_get(w, LOC_U);
	emit_i64_const(w, 32);
	emit_op(w, OP_I64_SHR_U);
	emit_op(w, OP_I64_ADD);
}

/* mulh.h's correction from the unsigned to the signed high product (on
 * the stack): minus b where a is negative, minus a where b is. */
static void emit_smulh_correction(writer *w, unsigned a, unsigned b)
{
	const unsigned pair[2][2] = { { a, b }, { b, a } };

	for (int i = 0; i < 2; i++) {
		emit_get(w, pair[i][0]);
		emit_i64_const(w, 63);
		emit_op(w, OP_I64_SHR_S);
		emit_get(w, pair[i][1]);
		emit_op(w, OP_I64_AND);
		emit_op(w, OP_I64_SUB);
	}
}

/* UMULH_R or SMULH_R: dst = high product, and its low half kept for the
 * BRANCHes. With the engine's wide multiply (it pushes the low half, then
 * the high) one instruction; else from halves. */
static void emit_mulh(writer *w, const hashx_instr *in, bool wide)
{
	unsigned d = reg(in->dst), s = reg(in->src);
	bool is_signed = in->opcode == HASHX_OP_SMULH_R;

	if (wide) {
		emit_get(w, d);
		emit_get(w, s);
		put(w, OP_PREFIX_FC);
		put_uleb(w, is_signed ? OP_FC_I64_MUL_WIDE_S
				      : OP_FC_I64_MUL_WIDE_U);
		emit_set(w, d); /* the high half */
		emit_op(w, OP_DROP);
		emit_get(w, d);
	} else {
		emit_umulh_halves(w, d, s);
		if (is_signed)
			emit_smulh_correction(w, d, s);
		emit_local(w, OP_LOCAL_TEE, d);
	}
	emit_op(w, OP_I32_WRAP_I64);
	emit_set(w, LOC_MUL_RESULT);
}

static uint64_t sign_extend32(uint32_t imm)
{
	return (uint64_t)(int64_t)(int32_t)imm;
}

/*
 * A BRANCH: when the jump is still available and the last high product's
 * low half has none of the mask's bits, take it (to the start of the
 * enclosing loop, if any: before the first loop the resume point is the
 * next instruction anyway). TAKEN is 0 while the jump is available and
 * all ones after, so one test covers both conditions, as in x86_64.c:
 * (mul_result | taken) & mask == 0. A mask of 0 (never generated, but
 * legal) would pass that test forever; such a BRANCH tests TAKEN alone.
 */
static void emit_branch(writer *w, uint32_t mask, bool in_loop)
{
	emit_get(w, LOC_TAKEN);
	if (mask != 0) {
		emit_get(w, LOC_MUL_RESULT);
		emit_op(w, OP_I32_OR);
		emit_i32_const(w, mask);
		emit_op(w, OP_I32_AND);
	}
	emit_op(w, OP_I32_EQZ);
	put(w, OP_IF);
	put(w, BLOCK_VOID);
	emit_i32_const(w, UINT32_MAX);
	emit_set(w, LOC_TAKEN);
	if (in_loop) {
		put(w, OP_BR);
		put_uleb(w, 1); /* 0 is the if, 1 the loop */
	}
	put(w, OP_END);
}

static void emit_instr(writer *w, const hashx_instr *in, bool wide,
		       bool in_loop)
{
	unsigned d = reg(in->dst), s = reg(in->src);

	switch ((hashx_opcode)in->opcode) {
	case HASHX_OP_UMULH_R:
	case HASHX_OP_SMULH_R:
		emit_mulh(w, in, wide);
		break;
	case HASHX_OP_MUL_R:
		emit_rr(w, OP_I64_MUL, d, s);
		break;
	case HASHX_OP_SUB_R:
		emit_rr(w, OP_I64_SUB, d, s);
		break;
	case HASHX_OP_XOR_R:
		emit_rr(w, OP_I64_XOR, d, s);
		break;
	case HASHX_OP_ADD_RS:
		emit_get(w, d);
		emit_get(w, s);
		emit_i64_const(w, in->imm & 63);
		emit_op(w, OP_I64_SHL);
		emit_op(w, OP_I64_ADD);
		emit_set(w, d);
		break;
	case HASHX_OP_ROR_C:
		emit_rc(w, OP_I64_ROTR, d, in->imm & 63);
		break;
	case HASHX_OP_ADD_C:
		emit_rc(w, OP_I64_ADD, d, sign_extend32(in->imm));
		break;
	case HASHX_OP_XOR_C:
		emit_rc(w, OP_I64_XOR, d, sign_extend32(in->imm));
		break;
	case HASHX_OP_BRANCH:
		emit_branch(w, in->imm, in_loop);
		break;
	case HASHX_OP_TARGET:
	case HASHX_OP_COUNT:
		break;
	}
}

/* The program on r0..r7, as a row of loops (the file's comment). */
static void emit_program(writer *w, const hashx_program *prog, bool wide)
{
	bool in_loop = false;
	size_t size = prog->size < HASHX_PROGRAM_SIZE ? prog->size
						      : HASHX_PROGRAM_SIZE;

	for (size_t i = 0; i < size; i++) {
		const hashx_instr *in = &prog->code[i];

		if (i == HASHX_RESUME_WITHOUT_TARGET) {
			put(w, OP_LOOP);
			put(w, BLOCK_VOID);
			in_loop = true;
		}
		if (in->opcode == HASHX_OP_TARGET && in_loop) {
			/* a jump from here on resumes after this TARGET */
			put(w, OP_END);
			put(w, OP_LOOP);
			put(w, BLOCK_VOID);
		}
		emit_instr(w, in, wide, in_loop);
	}
	if (in_loop)
		put(w, OP_END);
}

/* ---- Functions --------------------------------------------------------- */

/* The locals of a function that runs the program, with `params`
 * parameters. */
static uint8_t *begin_program_body(writer *w, unsigned params)
{
	return begin_body(w, (LOC_R0 - params) + LOC_I64_COUNT, LOC_I32_COUNT);
}

/* hashx_hash_fn: (input, out) -> word 0, the whole hash into out. */
static void emit_hash_body(writer *w, const hashx_compile_job *job, bool wide)
{
	uint8_t *size = begin_program_body(w, 2);

	emit_expand(w, job->key, LOC_PARAM0);
	emit_program(w, job->prog, wide);
	emit_finalize(w, job->key, HASHX_FINALIZE_ALL_WORDS);
	for (unsigned j = 0; j < 4; j++) {
		emit_get(w, LOC_PARAM1);
		emit_output_word(w, j);
		emit_mem(w, OP_I64_STORE, 0, 8 * j); /* out may be unaligned */
	}
	emit_output_word(w, 0);
	end_body(w, size);
}

/* hashx_compiled_fn: the program on the register file at r. */
static void emit_regfile_body(writer *w, const hashx_compile_job *job,
			      bool wide)
{
	uint8_t *size = begin_program_body(w, 1);

	for (unsigned j = 0; j < 8; j++) {
		emit_get(w, LOC_PARAM0);
		emit_mem(w, OP_I64_LOAD, 3, 8 * j);
		emit_set(w, reg(j));
	}
	emit_program(w, job->prog, wide);
	for (unsigned j = 0; j < 8; j++) {
		emit_get(w, LOC_PARAM0);
		emit_get(w, reg(j));
		emit_mem(w, OP_I64_STORE, 3, 8 * j);
	}
	end_body(w, size);
}

/* The scatter form's hash: input -> word 0, finalizing only what word 0
 * needs. */
static void emit_word0_body(writer *w, const hashx_compile_job *job,
			    bool wide)
{
	uint8_t *size = begin_program_body(w, 1);

	emit_expand(w, job->key, LOC_PARAM0);
	emit_program(w, job->prog, wide);
	emit_finalize(w, job->key, HASHX_SCATTER_WORDS);
	emit_output_word(w, 0);
	end_body(w, size);
}

/* Pushes the address of element `index` (an i32 local) of the array at
 * `base`, of elements 1 << log2 bytes. */
static void emit_element(writer *w, const void *base, unsigned index,
			 unsigned log2)
{
	emit_i32_const(w, (uint32_t)(uintptr_t)base);
	emit_get(w, index);
	emit_i32_const(w, log2);
	emit_op(w, OP_I32_SHL);
	emit_op(w, OP_I32_ADD);
}

/*
 * hashx_scatter_fn: inputs first .. first + n - 1 through the hash
 * (function `word0`), each into its bucket as scatter.h's
 * hashx_scatter_put does, with the table's widths: the bucket is v's low
 * bucket_bits, a full bucket drops the item, the item is the input's low
 * 16 bits and v without the bucket bits. The hash is a function of its own, called per input, so that the
 * engine can move it to its optimizing tier while this loop runs (V8
 * switches a function's code between calls, never inside one).
 */
static void emit_scatter_body(writer *w, const hashx_scatter *t,
			      unsigned word0)
{
	uint8_t *size = begin_body(w, 1, SCAT_I32_COUNT);

	put(w, OP_BLOCK);
	put(w, BLOCK_VOID);
	put(w, OP_LOOP);
	put(w, BLOCK_VOID);
	emit_get(w, SCAT_N);
	emit_op(w, OP_I32_EQZ);
	put(w, OP_BR_IF);
	put_uleb(w, 1);
	emit_get(w, SCAT_FIRST);
	put(w, OP_CALL);
	put_uleb(w, word0);
	emit_local(w, OP_LOCAL_TEE, SCAT_V);
	emit_op(w, OP_I32_WRAP_I64);
	emit_i32_const(w, (uint32_t)hashx_scatter_mask(t));
	emit_op(w, OP_I32_AND);
	emit_set(w, SCAT_BUCKET);
	emit_element(w, t->counts, SCAT_BUCKET, 1);
	emit_mem(w, OP_I32_LOAD16_U, 1, 0);
	emit_local(w, OP_LOCAL_TEE, SCAT_ITEM);
	emit_i32_const(w, t->capacity);
	emit_op(w, OP_I32_LT_U);
	put(w, OP_IF);
	put(w, BLOCK_VOID);
	{
		emit_element(w, t->counts, SCAT_BUCKET, 1);
		emit_get(w, SCAT_ITEM);
		emit_i32_const(w, 1);
		emit_op(w, OP_I32_ADD);
		emit_mem(w, OP_I32_STORE16, 1, 0);
		emit_get(w, SCAT_BUCKET);
		emit_i32_const(w, t->capacity);
		emit_op(w, OP_I32_MUL);
		emit_get(w, SCAT_ITEM);
		emit_op(w, OP_I32_ADD);
		emit_set(w, SCAT_SLOT);
		emit_element(w, t->idx, SCAT_SLOT, 1);
		emit_get(w, SCAT_FIRST);
		emit_op(w, OP_I32_WRAP_I64);
		emit_mem(w, OP_I32_STORE16, 1, 0);
		emit_element(w, t->data, SCAT_SLOT, 3);
		emit_get(w, SCAT_V);
		emit_i64_const(w, t->bucket_bits);
		emit_op(w, OP_I64_SHR_U);
		emit_mem(w, OP_I64_STORE, 3, 0);
	}
	put(w, OP_END);
	emit_rc(w, OP_I64_ADD, SCAT_FIRST, 1);
	emit_get(w, SCAT_N);
	emit_i32_const(w, 1);
	emit_op(w, OP_I32_SUB);
	emit_set(w, SCAT_N);
	put(w, OP_BR);
	put_uleb(w, 0);
	put(w, OP_END); /* loop */
	put(w, OP_END); /* block */
	end_body(w, size);
}

/* ---- The module -------------------------------------------------------- */

static void emit_types(writer *w)
{
	static const char i64[] = { (char)TYPE_I64, 0 };
	static const char i64_i32[] = { (char)TYPE_I64, (char)TYPE_I32, 0 };
	static const char i32[] = { (char)TYPE_I32, 0 };
	uint8_t *size;

	put(w, SEC_TYPE);
	size = begin_size(w);
	put_uleb(w, TYPE_COUNT);
	put_functype(w, i64_i32, i64); /* TYPE_HASH */
	put_functype(w, i64_i32, "");  /* TYPE_SCATTER */
	put_functype(w, i32, "");      /* TYPE_REGFILE */
	put_functype(w, i64, i64);     /* TYPE_WORD0 */
	end_size(w, size);
}

static void emit_module(writer *w, const hashx_compile_job *job, bool wide)
{
	static const uint8_t header[8] = { 0, 'a', 's', 'm', 1, 0, 0, 0 };
	uint8_t types[2];
	unsigned n = 0;
	uint8_t *size;

	switch (job->form) {
	case HASHX_FORM_HASH:
		types[n++] = TYPE_HASH;
		break;
	case HASHX_FORM_REGFILE:
		types[n++] = TYPE_REGFILE;
		break;
	default: /* HASHX_FORM_SCATTER: the hash (0), then the loop */
		types[n++] = TYPE_WORD0;
		types[n++] = TYPE_SCATTER;
		break;
	}
	put_bytes(w, header, sizeof header);
	emit_types(w);
	emit_memory_import(w);
	emit_signatures(w, types, n);
	put(w, SEC_CODE);
	size = begin_size(w);
	put_uleb(w, n);
	switch (job->form) {
	case HASHX_FORM_HASH:
		emit_hash_body(w, job, wide);
		break;
	case HASHX_FORM_REGFILE:
		emit_regfile_body(w, job, wide);
		break;
	default:
		emit_word0_body(w, job, wide);
		emit_scatter_body(w, job->scatter, 0);
		break;
	}
	end_size(w, size);
}

/* The emitter hashx_compiler_build() runs: the module within [start,
 * end), or NULL where it does not fit. */
static uint8_t *emit_job(uint8_t *start, uint8_t *end, hashx_compile_job *job)
{
	writer w = {start, end};

	emit_module(&w, job,
		    (hashx_wasm_features() & HASHX_WASM_WIDE_MUL) != 0);
	return w.p;
}

/*
 * The module for `form`, built by the sequence every code generator
 * shares (compiler.c) and installed by the host into a slot of the core's
 * function table, which is the function pointer. NULL for the batch forms
 * (there is one WebAssembly back-end, the scalar one) and wherever the
 * host refuses to compile (hashx_wasm_install's 0).
 */
void *hashx_arch_compile(const hashx_program *prog, hashx_form form,
			 const hashx_sip_state *key, const hashx_scatter *t,
			 hashx_code_buffer *buf)
{
	hashx_compile_job job = {
		.prog = prog, .form = form, .key = key, .scatter = t
	};

	if (form != HASHX_FORM_HASH && form != HASHX_FORM_REGFILE &&
	    form != HASHX_FORM_SCATTER)
		return NULL;
	return hashx_compiler_build(buf, CODE_CAPACITY, emit_job, &job);
}

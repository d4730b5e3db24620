/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hashwx_wasm.c - the HashWX compiler for WebAssembly (hashwx_compiler.h
 * in the JavaScript package's core): an instance becomes one module whose
 * function is the whole hash of a nonce, bit for bit hashwx_interpret().
 * The host (js/src/jit.js) compiles it, instantiates it against the
 * core's memory and puts it in the core's function table, as for HashX
 * programs (wasm.c); the table slot is the function pointer. Where the
 * host refuses, hashwx_compile() returns NULL and the context runs
 * interpreted.
 *
 * Only WebAssembly 1.0 instructions: HashWX has no high multiplication,
 * so nothing here needs an engine's optional features.
 *
 * Locals: the nonce (the parameter), R0..R9 as i64 locals, and two i32
 * locals, the phase's branch budget and the program's branch flag (bit 5
 * of the last RMCG result, kept in place: zero or not is all a BRANCH
 * asks).
 *
 * Control flow: a BRANCH restarts its program from slot 0, so each
 * program is one `loop` whose taken BRANCH is a `br` to its start; HALT
 * ends the loop's body (what follows it never runs).
 *
 * The 2 KiB memory of the write phase lives in the core's linear memory,
 * in one static array: the core is single-threaded (each worker has an
 * instance of its own, with its own memory) and a compiled hash calls
 * nothing, so no two hashes ever use the array at once.
 */
#include <string.h>

#include "compiler.h"
#include "hashwx_compiler.h"
#include "wasm_emit.h"

enum {
	LOC_NONCE = 0,
	LOC_R0 = 1, /* R0..R9 */
	LOC_BUDGET = LOC_R0 + HASHWX_REGISTERS + 2,
	LOC_FLAG,
	LOC_I64_COUNT = HASHWX_REGISTERS + 2,
	LOC_I32_COUNT = 2,
};

/* The bound on one module: an instruction's bytes at most (a MUL of the
 * read phase: its immediate, its memory operand's mask and load, about
 * 25), a store of the write phase's (up to 11), a program's frame (the
 * flag's reset and its loop, 8), and the rest: header, sections, the
 * register start (eight SipRounds of 14 steps of 7 bytes and the
 * constants) and the finalization. The writer stops at the bound. */
#define MAX_INSTR_BYTES 32
#define MAX_STORE_BYTES 16
#define PROGRAM_FRAME_BYTES 16
#define FIXED_BYTES 2048
#define PROGRAM_BYTES                                                     \
	(PROGRAM_FRAME_BYTES + HASHWX_PROGRAM_SIZE * MAX_INSTR_BYTES)
#define STORE_BYTES (HASHWX_PROGRAMS * HASHWX_REGISTERS * MAX_STORE_BYTES)
#define CODE_CAPACITY                                                     \
	(FIXED_BYTES + 2 * HASHWX_PROGRAMS * PROGRAM_BYTES + STORE_BYTES)

/* The write phase's memory: the compiled functions address it directly. */
static uint64_t phase_memory[HASHWX_MEMORY_WORDS];

static uint32_t memory_base(void)
{
	return (uint32_t)(uintptr_t)phase_memory;
}

static unsigned reg(unsigned r)
{
	return LOC_R0 + r;
}

/* ---- The register start (hashwx_initial_registers) ------------------- */

/*
 * The generator's stream (hashwx_rng.h) under the hash key and the nonce
 * as salt: its first block, v3 first, is R0..R3, its second R4..R7. So
 * the state's v[i] is kept in R(3 - i) for the first block, and in
 * R(7 - i) for the second, which continues from a copy of the first.
 */
static void block_regs(unsigned block, unsigned v[4])
{
	for (unsigned i = 0; i < 4; i++)
		v[i] = reg(4 * block + 3 - i);
}

/* hashwx_rng_start() with the salt in local LOC_NONCE. */
static void emit_rng_start(writer *w, const hashwx_sip_key *key,
			   const unsigned v[4])
{
	const uint64_t init[4] = {
		HASHWX_SIP_C0 ^ key->k0, HASHWX_SIP_C1 ^ key->k1,
		HASHWX_SIP_C2 ^ key->k0, HASHWX_SIP_C3 ^ key->k1,
	};

	for (unsigned i = 0; i < 4; i++) {
		emit_i64_const(w, init[i]);
		emit_set(w, v[i]);
	}
	emit_rr(w, OP_I64_XOR, v[3], LOC_NONCE);
	emit_siprounds(w, v, 1);
	emit_rr(w, OP_I64_XOR, v[0], LOC_NONCE);
	emit_rc(w, OP_I64_XOR, v[2], HASHWX_SIP_INIT_MARK);
	emit_siprounds(w, v, HASHWX_SIP_INIT_ROUNDS);
}

/* hashwx_rng_mix() on the state in v[], copied there from `from`. */
static void emit_rng_mix(writer *w, const hashwx_sip_key *key,
			 const unsigned from[4], const unsigned v[4])
{
	const uint64_t k[4] = { key->k0, key->k1, key->k0, key->k1 };

	for (unsigned i = 0; i < 4; i++) {
		emit_get(w, from[i]);
		emit_i64_const(w, k[i]);
		emit_op(w, OP_I64_XOR);
		emit_set(w, v[i]);
	}
	emit_siprounds(w, v, HASHWX_SIP_MIX_ROUNDS);
}

/*
 * R8 or R9 from `src` by `derive` (hashwx_r8, hashwx_r9), which keeps
 * some bits of its argument and sets others: (x & keep) | set, where
 * set = derive(0) and keep = derive(~0) ^ derive(0). Read off the
 * functions, so that the rule stays in hashwx_interpreter.h alone.
 */
static void emit_multiplier(writer *w, unsigned dst, unsigned src,
			    uint64_t (*derive)(uint64_t))
{
	uint64_t set = derive(0), keep = derive(UINT64_MAX) ^ set;

	emit_get(w, src);
	emit_i64_const(w, keep);
	emit_op(w, OP_I64_AND);
	emit_i64_const(w, set);
	emit_op(w, OP_I64_OR);
	emit_set(w, dst);
}

static void emit_initial_registers(writer *w, const hashwx_sip_key *key)
{
	unsigned first[4], second[4];

	block_regs(0, first);
	block_regs(1, second);
	emit_rng_start(w, key, first);
	emit_rng_mix(w, key, first, second);
	emit_multiplier(w, reg(HASHWX_RMCG_R8), reg(4), hashwx_r8);
	emit_multiplier(w, reg(HASHWX_RMCG_R9), reg(7), hashwx_r9);
}

/* ---- The programs ---------------------------------------------------- */

/* Pushes an instruction's source: register `src`, or in the read phase
 * (but for RMCG) the memory word it addresses. */
static void emit_source(writer *w, const hashwx_instr *in, bool read_phase)
{
	emit_get(w, reg(in->src));
	if (!read_phase || in->opcode == HASHWX_RMCG)
		return;
	emit_op(w, OP_I32_WRAP_I64);
	emit_i32_const(w, HASHWX_MEMORY_MASK);
	emit_op(w, OP_I32_AND);
	emit_mem(w, OP_I64_LOAD, 3, memory_base());
}

/* RMCG: dst = (dst * src) >>> imm, and the branch flag from the result. */
static void emit_rmcg(writer *w, const hashwx_instr *in)
{
	emit_get(w, reg(in->dst));
	emit_source(w, in, false);
	emit_op(w, OP_I64_MUL);
	emit_i64_const(w, in->imm);
	emit_op(w, OP_I64_ROTR);
	emit_local(w, OP_LOCAL_TEE, reg(in->dst));
	emit_op(w, OP_I32_WRAP_I64);
	emit_i32_const(w, UINT32_C(1) << HASHWX_BRANCH_FLAG_BIT);
	emit_op(w, OP_I32_AND);
	emit_set(w, LOC_FLAG);
}

/* MULOR, MULXOR, MULADD: dst = (dst op imm) * [src]. */
static void emit_mul(writer *w, const hashwx_instr *in, bool read_phase)
{
	static const uint8_t prepare[] = {
		[HASHWX_MULOR] = OP_I64_OR,
		[HASHWX_MULXOR] = OP_I64_XOR,
		[HASHWX_MULADD] = OP_I64_ADD,
	};

	emit_get(w, reg(in->dst));
	emit_i64_const(w, in->imm);
	emit_op(w, prepare[in->opcode]);
	emit_source(w, in, read_phase);
	emit_op(w, OP_I64_MUL);
	emit_set(w, reg(in->dst));
}

/* The nine XAS opcodes: dst = (dst shifted by imm) op [src]. */
static void emit_xas(writer *w, const hashwx_instr *in, bool read_phase)
{
	static const uint8_t shift[] = {
		[HASHWX_ROR] = OP_I64_ROTR,
		[HASHWX_ASR] = OP_I64_SHR_S,
		[HASHWX_LSR] = OP_I64_SHR_U,
	};
	static const uint8_t combine[] = {
		[HASHWX_XOR] = OP_I64_XOR,
		[HASHWX_ADD] = OP_I64_ADD,
		[HASHWX_SUB] = OP_I64_SUB,
	};

	emit_get(w, reg(in->dst));
	emit_i64_const(w, in->imm);
	emit_op(w, shift[hashwx_xas_shift(in->opcode)]);
	emit_source(w, in, read_phase);
	emit_op(w, combine[hashwx_xas_combine(in->opcode)]);
	emit_set(w, reg(in->dst));
}

/* BRANCH: while the phase has budget and the flag is clear, spend one
 * and restart the program (the enclosing loop: 0 is the `if`, 1 the
 * loop). */
static void emit_branch(writer *w)
{
	emit_get(w, LOC_FLAG);
	emit_get(w, LOC_BUDGET);
	emit_op(w, OP_I32_EQZ);
	emit_op(w, OP_I32_OR);
	emit_op(w, OP_I32_EQZ);
	put(w, OP_IF);
	put(w, BLOCK_VOID);
	emit_get(w, LOC_BUDGET);
	emit_i32_const(w, 1);
	emit_op(w, OP_I32_SUB);
	emit_set(w, LOC_BUDGET);
	put(w, OP_BR);
	put_uleb(w, 1);
	put(w, OP_END);
}

static void emit_instr(writer *w, const hashwx_instr *in, bool read_phase)
{
	if (in->opcode == HASHWX_RMCG)
		emit_rmcg(w, in);
	else if (hashwx_is_mul(in->opcode))
		emit_mul(w, in, read_phase);
	else if (hashwx_is_xas(in->opcode))
		emit_xas(w, in, read_phase);
	else if (in->opcode == HASHWX_BRANCH)
		emit_branch(w);
}

/* One program as a loop, up to its HALT. The flag starts clear in each
 * program (not at each restart). */
static void emit_program(writer *w, const hashwx_program *prog,
			 bool read_phase)
{
	emit_i32_const(w, 0);
	emit_set(w, LOC_FLAG);
	put(w, OP_LOOP);
	put(w, BLOCK_VOID);
	for (unsigned k = 0; k < HASHWX_PROGRAM_SIZE; k++) {
		if (prog->code[k].opcode == HASHWX_HALT)
			break;
		emit_instr(w, &prog->code[k], read_phase);
	}
	put(w, OP_END);
}

/* The write phase's stores after program p (hashwx_memory_word). */
static void emit_stores(writer *w, unsigned p)
{
	for (unsigned j = 0; j < HASHWX_REGISTERS; j++) {
		emit_i32_const(w, 0);
		emit_get(w, reg(j));
		emit_mem(w, OP_I64_STORE, 3,
			 memory_base() + 8 * hashwx_memory_word(p, j));
	}
}

/* Both phases, each with the full branch budget. */
static void emit_phases(writer *w, const hashwx_instance *inst)
{
	for (int read_phase = 0; read_phase < 2; read_phase++) {
		emit_i32_const(w, HASHWX_BRANCH_BUDGET);
		emit_set(w, LOC_BUDGET);
		for (unsigned p = 0; p < HASHWX_PROGRAMS; p++) {
			emit_program(w, &inst->programs[p], read_phase);
			if (!read_phase)
				emit_stores(w, p);
		}
	}
}

/* hashwx_finalize(): a SipRound on each half, of which only the steps
 * that v3 needs (the result reads R3 and R7), then R3 ^ R7 ^ R9. */
static void emit_finalize(writer *w)
{
	const unsigned steps = hashx_sipround_needed(1u << 3);

	for (unsigned h = 0; h < 2; h++) {
		const unsigned v[4] = { reg(4 * h), reg(4 * h + 1),
					reg(4 * h + 2), reg(4 * h + 3) };

		emit_sipround(w, v, steps);
	}
	emit_get(w, reg(3));
	emit_get(w, reg(7));
	emit_op(w, OP_I64_XOR);
	emit_get(w, reg(HASHWX_RMCG_R9));
	emit_op(w, OP_I64_XOR);
}

/* ---- The module ------------------------------------------------------ */

/* The one function type, hashwx_hash_fn: (i64 nonce) -> i64. */
static void emit_types(writer *w)
{
	static const char i64[] = { (char)TYPE_I64, 0 };
	uint8_t *size;

	put(w, SEC_TYPE);
	size = begin_size(w);
	put_uleb(w, 1);
	put_functype(w, i64, i64);
	end_size(w, size);
}

static void emit_module(writer *w, const hashwx_instance *inst)
{
	static const uint8_t header[8] = { 0, 'a', 's', 'm', 1, 0, 0, 0 };
	static const uint8_t types[1] = { 0 };
	uint8_t *size, *body;

	put_bytes(w, header, sizeof header);
	emit_types(w);
	emit_memory_import(w);
	emit_signatures(w, types, 1);
	put(w, SEC_CODE);
	size = begin_size(w);
	put_uleb(w, 1);
	body = begin_body(w, LOC_I64_COUNT, LOC_I32_COUNT);
	emit_initial_registers(w, &inst->hash_key);
	emit_phases(w, inst);
	emit_finalize(w);
	end_body(w, body);
	end_size(w, size);
}

/* What hashx_compiler_build() hands the emitter: its job, and the
 * instance beside it (the job comes first, so that the emitter finds the
 * instance from the job's address). */
typedef struct hashwx_wasm_job {
	hashx_compile_job job;
	const hashwx_instance *inst;
} hashwx_wasm_job;

static uint8_t *emit_job(uint8_t *start, uint8_t *end, hashx_compile_job *job)
{
	const hashwx_wasm_job *wasm_job = (const hashwx_wasm_job *)job;
	writer w = { start, end };

	emit_module(&w, wasm_job->inst);
	return w.p;
}

/* Every engine can run the module (WebAssembly 1.0); whether the host
 * installs it is only known when it is asked. */
bool hashwx_compiler_available(void)
{
	return true;
}

hashwx_hash_fn *hashwx_compile(const hashwx_instance *inst,
			       hashx_code_buffer *code)
{
	hashwx_wasm_job job = { .job = { .form = HASHX_FORM_HASH },
				.inst = inst };
	hashwx_hash_fn *fn;
	void *slot = hashx_compiler_build(code, CODE_CAPACITY, emit_job,
					  &job.job);

	/* Object to function pointer, as compiler.c does. */
	memcpy(&fn, &slot, sizeof fn);
	return fn;
}

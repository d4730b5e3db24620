/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * x86_64_hybrid2.c - the hybrid batch code generator (hybrid2, batch.h):
 * per group the AVX2 back-end's 4 lanes (its parts: x86_64_avx2.h) and a
 * fifth input in general-purpose registers (the scalar emitter's pieces:
 * x86_64_scalar.h), the two streams interleaved. Experimental: no CPU
 * class picks it (src/facade/dispatch.c); HASHX_IMPL=hybrid2 runs it.
 */
#include <config.h>

#include "batch.h"
#include "batch_backend.h"
#include "code_size.h"
#include "compiler.h"
#include "finalize.h"
#include "x86_64_avx2.h"
#include "x86_64_emit.h"
#include "x86_64_scalar.h"

/* ---- size bounds --------------------------------------------------- */

/* Bounds of the hybrid's parts (on top of the AVX2 ones): a main-path
 * instruction is its vector code and its scalar code; the scalar copy's
 * BRANCH is cmp, jne, mov, jmp (18 bytes), its stub mov, jmp (10). */
#define SCALAR_BYTES HASHX_X86_64_SCALAR_INSTR_BYTES
#define HYBRID_MAIN_BYTES (MAX_INSTR_BYTES + SCALAR_BYTES)
#define SCALAR_COPY_BYTES 24
#define SCALAR_STUB_BYTES 16
/* The scalar expansion and finalization with the loop's frame accesses
 * (x86_64.c bounds its entry by 640 bytes and its exit by 320). */
#define HYBRID_PROLOGUE_BYTES (PROLOGUE_BYTES + 640)
#define HYBRID_EPILOGUE_BYTES (EPILOGUE_BYTES + 384)
/* The hybrid's capacity (emit_hybrid): the same pool, its entry and exit
 * code, and per instruction the main path, the vector copy, the vector
 * stubs, the scalar copy and the scalar stub; two int3 bytes end the
 * copies. */
#define HYBRID_PER_INSTR                                                       \
	(HYBRID_MAIN_BYTES + MAX_INSTR_BYTES + STUB_BYTES +                    \
	 SCALAR_COPY_BYTES + SCALAR_STUB_BYTES)
#define HYBRID_FIXED (64 + HYBRID_PROLOGUE_BYTES + HYBRID_EPILOGUE_BYTES + 2)
#define HYBRID_CAPACITY                                                        \
	(POOL_BYTES + HYBRID_FIXED + HASHX_PROGRAM_SIZE * HYBRID_PER_INSTR)

const hashx_code_bounds hashx_x86_64_hybrid2_code_bounds = {
	.capacity = HYBRID_CAPACITY,
	.fixed = FIXED_CONSTS * 32 + HYBRID_FIXED,
	.per_instr = 32 + HYBRID_PER_INSTR,
};

/* The vector stream's branch registers (gp_roles): the scalar stream has
 * eax, ecx, r8d and the rest. */
static const gp_roles hybrid_roles = {X86_RBX, X86_RBP, X86_RSI};

/* The hybrid's scalar stream for instruction i, after its vector code: the
 * operation, or a BRANCH's test (its jump goes to a stub, emit_hybrid). */
static void emit_scalar_instr(x86_emitter *e, emit_state *s, size_t i)
{
	const hashx_instr *in = &s->prog->code[i];
	branch_site *site;

	if (in->opcode != HASHX_OP_BRANCH) {
		hashx_x86_64_scalar_op(e, in);
		return;
	}
	site = &s->sites[s->nsites - 1];
	site->scalar_jz = hashx_x86_64_scalar_branch(e, in->imm);
	site->scalar_cont = e->pos;
}

/*
 * The hybrid back-end hashes LANES + 1 inputs per group: lanes 0..3 as
 * above, input 4 by x86_64.c's scalar code (x86_64_scalar.h), the two
 * streams' code interleaved instruction by instruction, so that the
 * scalar multiplier and ALUs work on the scalar hash's dependency chain
 * while the vector ports are busy with the lanes. The scalar stream has
 * r8..r15, rax, rcx, rdx; the vector stream's branch registers move to
 * ebx, ebp, esi (hybrid_roles); rdi counts the inputs; the output
 * pointer, the groups left and the caller's rsp live in the frame.
 *
 * A taken BRANCH must re-run its block in one stream only, so each stream
 * re-runs in its own copy of the program: the vector stream's taken stub
 * jumps into a vector-only copy (the same code as the main path's,
 * hi_cache included, so the cached high halves agree where it returns),
 * whose BRANCHes only check whether the re-run is theirs; the scalar
 * stream's jumps through a stub (ecx = the branch's number) into a
 * scalar-only copy, whose BRANCHes likewise end the re-run with ecx = ~0
 * (the jump used) and return to the main path after that BRANCH's scalar
 * test. The copies span the instructions from the first re-run's start
 * to the last re-running BRANCH.
 */
static void emit_hybrid_enter(x86_emitter *e)
{
	hashx_x86_64_push_callee_saved(e);
	x86_mov64_rr(e, X86_RAX, X86_RSP);
	x86_and64_imm8(e, X86_RSP, -32);
	x86_add_imm32(e, X86_RSP, -FRAME_SIZE);
	x86_frame_op(e, X86_OP_MOV_RM_R, X86_RAX, FRAME_OLD_RSP);
}

/* The scalar copy of instructions [from, to). */
static bool emit_scalar_copy(x86_emitter *e, emit_state *s, size_t from,
			     size_t to, const uint8_t **at)
{
	size_t k = hashx_branches_before(s->facts, from);

	for (size_t i = from; i < to; i++) {
		const hashx_instr *in = &s->prog->code[i];
		uint8_t *before = e->pos;

		if (!x86_room(e, SCALAR_COPY_BYTES))
			return false;
		at[i] = e->pos;
		if (in->opcode == HASHX_OP_BRANCH) {
			/* cmp ecx, id; jne over; mov ecx, ~0; jmp back */
			const branch_site *site = &s->sites[k++];

			x86_cmp32_imm(e, X86_RCX, (uint32_t)k);
			x86_jnz8(e, 10);
			x86_mov32_imm(e, X86_RCX, ~0u);
			x86_jmp(e, site->scalar_cont);
		} else {
			hashx_x86_64_scalar_op(e, in);
		}
		if (e->pos - before > SCALAR_COPY_BYTES)
			return false;
	}
	return true;
}

static bool emit_hybrid(x86_emitter *e, emit_state *s)
{
	uint8_t *start = e->pos, *exit_jz, *epilogue;
	const uint8_t *top;
	size_t from = s->prog->size, to = 0;
	const int32_t stride = (LANES + 1) * 8;

	emit_hybrid_enter(e);
	x86_test(e, X86_RSI);
	exit_jz = x86_jcc(e, true, NULL);
	x86_frame_op(e, X86_OP_MOV_RM_R, X86_RSI, FRAME_GROUPS);
	if (s->t == NULL)
		x86_frame_op(e, X86_OP_MOV_RM_R, X86_RDX, FRAME_OUT);
	x86_rr32(e, X86_OP_XOR_RM_R, s->g->rerun, s->g->rerun);
	hashx_avx2_zero(e, YMM_ZERO);
	top = e->pos;
	hashx_avx2_expansion(e, s);
	/* the scalar input: rax = rdi + LANES */
	x86_mov64_rr(e, X86_RAX, X86_RDI);
	x86_add_imm32(e, X86_RAX, LANES);
	hashx_x86_64_scalar_expansion(e, s->key, X86_RAX);
	hashx_avx2_group_start(e, s);
	if (e->pos - start > HYBRID_PROLOGUE_BYTES ||
	    !hashx_avx2_program(e, s, 0, s->prog->size, s->code_at))
		return false;
	epilogue = e->pos;
	if (s->t != NULL) {
		/* Fused: the scalar input's v in r8, the lanes' items
		 * through r12 (the scalar registers are dead past its
		 * finalization), then the scalar input's item, the last
		 * of the group. */
		hashx_x86_64_scalar_finalization(e, s->key,
						 HASHX_SCATTER_WORDS);
		hashx_avx2_lane_items(e, s, X86_R8 + 4);
		hashx_x86_64_scatter_item(e, s->t, X86_R8, X86_RDI);
		x86_inc(e, X86_RDI);
	} else {
		hashx_x86_64_scalar_finalization(e, s->key,
						 HASHX_FINALIZE_ALL_WORDS);
		x86_frame_op(e, X86_OP_MOV_R_RM, X86_RDX, FRAME_OUT);
		hashx_avx2_finalization(e, s, stride);
		hashx_x86_64_scalar_store(e, X86_RDX, LANES * 8, stride);
		x86_add_imm32(e, X86_RDX, 4 * stride);
		x86_frame_op(e, X86_OP_MOV_RM_R, X86_RDX, FRAME_OUT);
		x86_add_imm32(e, X86_RDI, LANES + 1);
	}
	x86_frame_op(e, X86_OP_GROUP5, X86_EXT_DEC, FRAME_GROUPS);
	x86_jcc(e, false, top);
	x86_patch_rel32(exit_jz, e->pos);
	x86_frame_op(e, X86_OP_MOV_R_RM, X86_RSP, FRAME_OLD_RSP);
	hashx_x86_64_pop_callee_saved(e);
	x86_vzeroupper_ret(e);
	if (e->pos - epilogue > HYBRID_EPILOGUE_BYTES)
		return false;

	/* The span both copies need. */
	for (size_t k = 0; k < s->nsites; k++) {
		const branch_site *site = &s->sites[k];

		if (site->forward)
			continue;
		if (site->resume_at < from)
			from = site->resume_at;
		if (s->facts->branch[k].at + 1u > to)
			to = s->facts->branch[k].at + 1u;
	}
	if (from < to) {
		/* the vector stream alone, within the AVX2 bound */
		s->pass = PASS_VECTOR_COPY;
		s->instr_bytes = MAX_INSTR_BYTES;
		s->scalar_stream = NULL;
		s->branch_no = hashx_branches_before(s->facts, from);
		hashx_avx2_hi_flush(s);
		if (!hashx_avx2_program(e, s, from, to, s->vector_at))
			return false;
		x86_byte(e, 0xcc); /* int3: a re-run always ends above */
	}
	for (size_t k = 0; k < s->nsites; k++) {
		branch_site *site = &s->sites[k];
		uint8_t *before = e->pos;

		if (!x86_room(e, STUB_BYTES))
			return false;
		hashx_avx2_taken_stub(e, s->g, site, (uint32_t)k + 1,
				site->forward ? NULL
					      : s->vector_at[site->resume_at]);
		if (!site->forward)
			hashx_avx2_second_stub(e, s->g, site, (uint32_t)k + 1, false);
		if (e->pos - before > STUB_BYTES)
			return false;
	}
	if (from < to) {
		if (!emit_scalar_copy(e, s, from, to, s->scalar_at))
			return false;
		x86_byte(e, 0xcc);
	}
	for (size_t k = 0; k < s->nsites; k++) {
		const branch_site *site = &s->sites[k];

		/* ecx = the branch's number, into the copy; a forward jump
		 * only uses the input's one jump */
		if (!x86_room(e, SCALAR_STUB_BYTES))
			return false;
		x86_patch_rel32(site->scalar_jz, e->pos);
		if (site->forward) {
			x86_mov32_imm(e, X86_RCX, ~0u);
			x86_jmp(e, site->scalar_cont);
		} else {
			x86_mov32_imm(e, X86_RCX, (uint32_t)k + 1);
			x86_jmp(e, s->scalar_at[site->resume_at]);
		}
	}
	return true;
}

static const avx2_variant hybrid = {
	.g = &hybrid_roles,
	.pass = PASS_HYBRID_MAIN,
	.instr_bytes = HYBRID_MAIN_BYTES,
	.exit_bytes = HYBRID_EPILOGUE_BYTES,
	.scalar_stream = emit_scalar_instr,
	.function = emit_hybrid,
};

static uint8_t *emit_hybrid_job(uint8_t *start, uint8_t *end,
				hashx_compile_job *j)
{
	return hashx_avx2_emit_job(start, end, j, &hybrid);
}

const hashx_batch_backend hashx_x86_64_hybrid2_backend = {
	.emit = emit_hybrid_job,
	.capacity = HYBRID_CAPACITY,
	.lanes = LANES + 1,
	.scatters = true};

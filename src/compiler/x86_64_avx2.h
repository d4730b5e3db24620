/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * x86_64_avx2.h - the AVX2 batch emitter's parts (x86_64_avx2.c) that the
 * hybrid back-end (x86_64_hybrid2.c) runs with its scalar stream beside
 * them: the register and frame plan, the size bounds, the emission state,
 * and the pieces of the function it assembles differently. Only those
 * two files include it.
 */
#ifndef HASHX_X86_64_AVX2_H
#define HASHX_X86_64_AVX2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis.h"
#include "compiler.h"
#include "x86_64_emit.h"

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

/* The stack frame (32-byte aligned, below the saved rbp). */
enum {
	FRAME_ENABLED = 0, /* lanes that may still take a branch */
	FRAME_NOT_TAKEN =
		32,       /* during a re-run: lanes that keep saved values */
	FRAME_SAVED = 64, /* r0..r7 at the BRANCH, then the mul result */
	FRAME_SAVED_MULRES = FRAME_SAVED + 8 * 32,
	/* the hybrid's loop state (its GPRs are all taken) */
	FRAME_OUT = FRAME_SAVED_MULRES + 32,
	FRAME_GROUPS = FRAME_OUT + 8,
	FRAME_OLD_RSP = FRAME_GROUPS + 8,
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

/*
 * The general-purpose registers of the vector stream's branches: the
 * number of the branch whose block re-runs (0: none), the enabled lanes'
 * bits, and the scratch that receives a BRANCH's passing lanes. The AVX2
 * back-end uses eax, r8d, ecx; the hybrid leaves those (and r8..r15,
 * rdx) to its scalar stream (x86_64_scalar.h) and uses ebx, ebp, esi.
 */
typedef struct gp_roles {
	int rerun, enabled, lanes;
} gp_roles;


/* Everything the code reads from the constant pool (x86_64_avx2.c). */
typedef struct consts consts;

/* The high-half cache of the multiplications (x86_64_avx2.c's emit_mul). */
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
	uint16_t resume_at;    /* the instruction the re-run starts at */
	/* hybrid: the scalar stream's jz rel32 field and the code after
	 * its test */
	uint8_t *scalar_jz;
	const uint8_t *scalar_cont;
} branch_site;

/* What is being emitted: the AVX2 back-end's one pass, or one of the
 * hybrid's (its interleaved main path, then the vector-only copy of the
 * program that its vector re-runs run in). */
typedef enum pass { PASS_AVX2, PASS_HYBRID_MAIN, PASS_VECTOR_COPY } pass;

/* Emission state: the program's facts (analysis.h), the code address of
 * each instruction (where re-runs resume) and the branch sites. */
typedef struct emit_state {
	const hashx_program *prog;
	const hashx_analysis *facts;
	const consts *c;
	const gp_roles *g;
	const hashx_sip_state *key; /* hybrid: the scalar stream's */
	const hashx_scatter *t;     /* the fused form's table, else NULL */
	pass pass;
	/* the pass's bounds: on one instruction's code, and the exit code
	 * a main path keeps room for */
	size_t instr_bytes, exit_bytes;
	/* the hybrid's main path: its scalar stream's code for instruction
	 * i, after the vector code; NULL elsewhere */
	void (*scalar_stream)(x86_emitter *e, struct emit_state *s, size_t i);
	const uint8_t *code_at[HASHX_PROGRAM_SIZE + 1];
	/* the hybrid's copies: where each instruction's code is */
	const uint8_t *vector_at[HASHX_PROGRAM_SIZE + 1];
	const uint8_t *scalar_at[HASHX_PROGRAM_SIZE + 1];
	branch_site *sites;
	size_t nsites;
	size_t branch_no; /* the copy's: BRANCHes met so far */
	hi_cache hi;
} emit_state;

/*
 * The pieces, on the state `s` of hashx_avx2_emit_job: the 4 lanes'
 * input expansion from rdi; finalization and stores of the 4 output
 * words at stride `stride` from rdx; a group's start; instructions
 * [from, to) of the pass s->pass, their addresses in at[] (false when
 * they do not fit); the fused stage 0's items of the lanes, through x86
 * register `value`; the high-half cache emptied; a ymm register zeroed;
 * a BRANCH's two stubs (x86_64_avx2.c describes each).
 */
void hashx_avx2_expansion(x86_emitter *e, const emit_state *s);
void hashx_avx2_finalization(x86_emitter *e, const emit_state *s,
			     int32_t stride);
void hashx_avx2_group_start(x86_emitter *e, const emit_state *s);
bool hashx_avx2_program(x86_emitter *e, emit_state *s, size_t from,
			size_t to, const uint8_t **at);
void hashx_avx2_lane_items(x86_emitter *e, const emit_state *s, int value);
void hashx_avx2_hi_flush(emit_state *s);
void hashx_avx2_zero(x86_emitter *e, int reg);
void hashx_avx2_taken_stub(x86_emitter *e, const gp_roles *g,
			   const branch_site *site, uint32_t id,
			   const uint8_t *resume);
void hashx_avx2_second_stub(x86_emitter *e, const gp_roles *g,
			    const branch_site *site, uint32_t id,
			    bool check_id);

/* How a back-end built on these parts emits: its registers, its main
 * pass and that pass's bounds, its scalar stream (or NULL), and the
 * function's assembly from the parts. */
typedef struct avx2_variant {
	const gp_roles *g;
	pass pass;
	size_t instr_bytes, exit_bytes;
	void (*scalar_stream)(x86_emitter *e, emit_state *s, size_t i);
	bool (*function)(x86_emitter *e, emit_state *s);
} avx2_variant;

/* The emitter of a batch job (hashx_emit_fn) for `v`: the constant pool,
 * the state, then v->function. */
uint8_t *hashx_avx2_emit_job(uint8_t *start, uint8_t *end,
			     hashx_compile_job *j, const avx2_variant *v);

#endif

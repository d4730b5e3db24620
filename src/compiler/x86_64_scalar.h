/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * x86_64_scalar.h - the scalar emitter's pieces (x86_64.c) that a batch
 * emitter runs beside its vector lanes: the hybrid back-end
 * (x86_64_hybrid2.c) hashes one more input per group with these, in
 * general-purpose registers, so that the scalar multiplier works while
 * the vector units do.
 *
 * Registers, as in x86_64.c: HashX r0..r7 in r8..r15; rax and rdx are
 * the multiplications' scratch pair, edx also the low half of the last
 * high product (what BRANCH tests); ecx is 0 while the input's one jump
 * is available and ~0 after. The caller keeps everything else (rbx, rbp,
 * rsi, rdi, the vector registers) and decides where a taken branch goes:
 * these pieces emit no TARGET landing pads and no stubs.
 */
#ifndef HASHX_X86_64_SCALAR_H
#define HASHX_X86_64_SCALAR_H

#include <stdbool.h>
#include <stdint.h>

#include "program.h"
#include "scatter.h"
#include "siphash.h"
#include "x86_64_emit.h"

/* The most bytes one HashX instruction (a BRANCH's test and jz rel32
 * included) takes. */
#define HASHX_X86_64_SCALAR_INSTR_BYTES 16

/* The instruction's operation on r8..r15; false (nothing emitted) for
 * TARGET and BRANCH, whose control flow is the caller's. */
bool hashx_x86_64_scalar_op(x86_emitter *e, const hashx_instr *in);

/* A BRANCH's test of edx against `mask` (or of ecx alone for mask 0),
 * then jz rel32: returns the rel32 field, for the caller to patch. */
uint8_t *hashx_x86_64_scalar_branch(x86_emitter *e, uint32_t mask);

/* r8..r15 expanded from the input in x86 register `input` (not one of
 * r8..r15), the key built in; then edx = 0 and ecx = 0 (the jump is
 * available; esi is also set to ~0). */
void hashx_x86_64_scalar_expansion(x86_emitter *e, const hashx_sip_state *key,
				   int input);

/* Finalization: the output words in `words` (bit j: word j, as in
 * finalize.h) in r8 + j; only the SipRound steps they need are emitted
 * (rax is scratch). */
void hashx_x86_64_scalar_finalization(x86_emitter *e,
				      const hashx_sip_state *key,
				      unsigned words);

/* mov [base + disp + stride * j], r8 + j for j = 0..3 (disp32). */
void hashx_x86_64_scalar_store(x86_emitter *e, int base, int32_t disp,
			       int32_t stride);

/*
 * Equi-X's stage 0 (scatter.h) as the scalar form updates it, for
 * a batch form that fuses it into its loop: scatter_table puts the
 * table's three addresses in r9, r10, r11; each scatter_item then puts
 * one item, v in x86 register `value` (destroyed) and the input in
 * `index` (its low 16 bits stored), into its bucket, or drops it when the
 * bucket is full. The capacity is built into the code. rax, rcx and rdx
 * are scratch; `value` and `index` are none of them nor r9..r11. The
 * table load is 30 bytes, an item 46 (the callers' exit-code bounds
 * hold them).
 *
 * The emitted code picks the bucket with a byte register and shifts v by
 * 8: it takes tables of 8 bucket bits only. Every emitter of a scatter
 * form asks scatter_fits first and emits nothing (its build fails, and
 * the facade falls back to the next form) for any other table.
 */
bool hashx_x86_64_scatter_fits(const hashx_scatter *t);
void hashx_x86_64_scatter_table(x86_emitter *e, const hashx_scatter *t);
void hashx_x86_64_scatter_item(x86_emitter *e, const hashx_scatter *t,
			       int value, int index);

/* push / pop the callee-saved registers the scalar form's loop and this
 * stream use (rbx, rbp, r12..r15); the pop does not return. */
void hashx_x86_64_push_callee_saved(x86_emitter *e);
void hashx_x86_64_pop_callee_saved(x86_emitter *e);

#endif

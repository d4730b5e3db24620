/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * interpreter_lanes_walk.h - the 8-lane interpreter, written once over a
 * small vocabulary of 8-lane operations.
 *
 * Equi-X verification hashes 8 inputs with a function it has just made;
 * compiling costs more than those hashes, and interpreting them one by
 * one walks the program 8 times, each time with the same unpredictable
 * dispatch. Here the program is walked once and every instruction does
 * all 8 inputs' work. A BRANCH that some lanes take sends the walk back to
 * the TARGET with only those lanes active (their writes merged into the
 * others' values) until it returns to that BRANCH; a lane's branches are
 * disabled once it has taken one, as in the scalar interpreter.
 *
 * The walk, the input expansion and the finalization are the same for
 * every instruction set; only how 8 lanes are held and combined differs.
 * So each instruction set's file (interpreter_lanes_avx512.c,
 * interpreter_lanes_avx2.c) defines the vocabulary below and then includes
 * this file, once, to instantiate it. A rule of the walk lives here and
 * nowhere else.
 *
 * The vocabulary, all of it static inline and under LANES_TARGET:
 *   LANES_TARGET      the function attribute that enables the instructions
 *   LANES_HASH        the name of the function this file defines
 *   lanes_v           eight 64-bit lanes
 *   lanes_m           a set of lanes
 *   v_set1(u)         u in every lane
 *   v_load(p), v_store(p, x)        eight words from/to memory
 *   v_add, v_sub, v_xor, v_and      lane-wise, 64-bit
 *   v_mul32(x, y)     the 64-bit products of the low 32 bits (mulh.h)
 *   v_shr32(x), v_low32(x)          x >> 32, x & 0xffffffff
 *   v_signs(x)        all ones where x is negative, else zero
 *   v_mullo(x, y)     the low 64 bits of x * y
 *   v_shl(x, n), v_rotr(x, n)       by a count known only at run time
 *   V_ROTL(x, n)      rotation left by a constant (a macro: some
 *                     instruction sets need an immediate)
 *   m_all()           every lane
 *   m_taken(m, x, imm) the lanes of m where (x & imm) == 0
 *   m_andnot(a, b)    a without b
 *   m_any(m), m_is_all(m)           as named
 *   v_merge(old, x, m) x in the lanes of m, old in the others
 */
#ifndef LANES_HASH
#error "define the lanes vocabulary before including interpreter_lanes_walk.h"
#endif

#include "analysis.h"
#include "finalize.h"
#include "mulh.h"
#include "program.h"
#include "siphash.h"

/* mulh.h's construction from 32-bit halves, in each 64-bit lane. */
LANES_TARGET static lanes_v umulh8(lanes_v a, lanes_v b)
{
	lanes_v hi;

	HASHX_UMULH_FROM_HALVES(lanes_v, hi, a, b, v_mul32, v_shr32, v_low32,
				v_add);
	return hi;
}

LANES_TARGET static lanes_v smulh8(lanes_v a, lanes_v b)
{
	lanes_v hi = umulh8(a, b);

	HASHX_SMULH_CORRECTION(hi, a, b, v_signs, v_and, v_sub);
	return hi;
}

/* siphash.h's SipRound on the words of 8 states at once. */
#define LANES_SIP_ADD(d, s) v[d] = v_add(v[d], v[s]);
#define LANES_SIP_ROTL(d, n) v[d] = V_ROTL(v[d], n);
#define LANES_SIP_XOR(d, s) v[d] = v_xor(v[d], v[s]);

LANES_TARGET static void sipround8(lanes_v v[4])
{
	HASHX_SIPROUND_STEPS(LANES_SIP_ADD, LANES_SIP_ROTL, LANES_SIP_XOR)
}

/* siphash.h's expansion steps (hashx_siphash24_ctr_state512) in each
 * lane. */
#define LANES_EXP_START(w)                                               \
	{                                                                \
		hashx_sip_state start = hashx_expansion_start(key);      \
		uint64_t sw[4];                                          \
									 \
		hashx_sip_words(&start, sw);                             \
		for (int i = 0; i < 4; i++)                              \
			r[i] = v_set1(sw[i]);                            \
		r[w] = v_xor(r[w], in);                                  \
	}
#define LANES_EXP_XOR_INPUT(h, w)                                        \
	r[4 * (h) + (w)] = v_xor(r[4 * (h) + (w)], in);
#define LANES_EXP_XOR_MARK(h, w, m)                                      \
	r[4 * (h) + (w)] = v_xor(r[4 * (h) + (w)], v_set1(m));
#define LANES_EXP_ROUNDS(h, n)                                           \
	for (int i = 0; i < (n); i++)                                    \
		sipround8(r + 4 * (h));
#define LANES_EXP_FORK(w, m)                                             \
	for (int i = 0; i < 4; i++)                                      \
		r[4 + i] = r[i];                                         \
	r[4 + (w)] = v_xor(r[4 + (w)], v_set1(m));

LANES_TARGET static void expand8(const hashx_sip_state *key, lanes_v in,
				 lanes_v r[8])
{
	HASHX_EXPANSION_STEPS(LANES_EXP_START, LANES_EXP_XOR_INPUT,
			      LANES_EXP_XOR_MARK, LANES_EXP_ROUNDS,
			      LANES_EXP_FORK)
}

#undef LANES_EXP_START
#undef LANES_EXP_XOR_INPUT
#undef LANES_EXP_XOR_MARK
#undef LANES_EXP_ROUNDS
#undef LANES_EXP_FORK

/* The value of one instruction (not TARGET/BRANCH) in every lane. */
LANES_TARGET static lanes_v compute8(const hashx_instr *in,
					    const lanes_v r[8])
{
	lanes_v d = r[in->dst], s = r[in->src];
	/* before the dispatch, as the operands: GCC then computes it ahead
	 * of the mispredicted jump rather than after (8% on the AVX-512
	 * lanes, doc/performance.md section 4.2) */
	lanes_v imm = v_set1((uint64_t)(int64_t)(int32_t)in->imm);

	switch ((hashx_opcode)in->opcode) {
	case HASHX_OP_UMULH_R:
		return umulh8(d, s);
	case HASHX_OP_SMULH_R:
		return smulh8(d, s);
	case HASHX_OP_MUL_R:
		return v_mullo(d, s);
	case HASHX_OP_SUB_R:
		return v_sub(d, s);
	case HASHX_OP_XOR_R:
		return v_xor(d, s);
	case HASHX_OP_ADD_RS:
		return v_add(d, v_shl(s, in->imm));
	case HASHX_OP_ROR_C:
		return v_rotr(d, in->imm);
	case HASHX_OP_ADD_C:
		return v_add(d, imm);
	case HASHX_OP_XOR_C:
		return v_xor(d, imm);
	case HASHX_OP_TARGET:
	case HASHX_OP_BRANCH:
	case HASHX_OP_COUNT:
	default:
		return d;
	}
}

LANES_TARGET static void run8(const hashx_program *prog, lanes_v r[8])
{
	size_t after_target = HASHX_RESUME_WITHOUT_TARGET, rerun_branch = 0;
	lanes_m enabled = m_all(), active = m_all();
	lanes_v mul_result = v_set1(0);

	for (size_t i = 0; i < prog->size;) {
		const hashx_instr *in = &prog->code[i++];
		lanes_m taken;

		switch ((hashx_opcode)in->opcode) {
		case HASHX_OP_TARGET:
			after_target = hashx_resume_after_target(i - 1);
			continue;
		case HASHX_OP_BRANCH:
			if (!m_is_all(active)) {
				/* lanes re-running a block: back at their
				 * BRANCH, everyone goes on */
				if (i - 1 == rerun_branch)
					active = m_all();
				continue;
			}
			taken = m_taken(enabled, mul_result, in->imm);
			enabled = m_andnot(enabled, taken);
			/* a BRANCH at index 0 without a TARGET has nothing to
			 * re-run (analysis.h); one right after its TARGET
			 * re-runs itself alone, which ends the re-run */
			if (m_any(taken) &&
			    hashx_resume_reruns(after_target, i - 1)) {
				active = taken;
				rerun_branch = i - 1;
				i = after_target;
			}
			continue;
		default:
			break;
		}
		lanes_v v = compute8(in, r);

		r[in->dst] = v_merge(r[in->dst], v, active);
		if (in->opcode <= HASHX_OP_SMULH_R)
			mul_result = v_merge(mul_result, v, active);
	}
}

/* finalize.h's steps (hashx_finalize) in each lane. */
#define LANES_FIN_ADD_KEY(d, k)                                          \
	r[d] = v_add(r[d], v_set1(hashx_sip_word(key, k)));
#define LANES_FIN_ROUND(h) sipround8(r + 4 * (h));
#define LANES_FIN_FOLD()                                                 \
	for (int j = 0; j < 4; j++)                                      \
		v_store(out[j], v_xor(r[j], r[HASHX_FINALIZE_HALF + j]));

LANES_TARGET void LANES_HASH(const hashx_program *prog,
			     const hashx_sip_state *key,
			     const uint64_t input[8], uint64_t out[4][8])
{
	lanes_v r[8];

	expand8(key, v_load(input), r);
	run8(prog, r);
	HASHX_FINALIZE_STEPS(LANES_FIN_ADD_KEY, LANES_FIN_ROUND, LANES_FIN_FOLD)
}

#undef LANES_FIN_ADD_KEY
#undef LANES_FIN_ROUND
#undef LANES_FIN_FOLD
#undef LANES_SIP_ADD
#undef LANES_SIP_ROTL
#undef LANES_SIP_XOR

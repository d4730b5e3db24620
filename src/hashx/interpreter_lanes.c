/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * interpreter_lanes.c - the interpreter on 8 inputs at once, one per lane
 * of AVX-512 registers.
 *
 * Equi-X verification hashes 8 inputs with a function it has just made;
 * compiling costs more than those hashes, and interpreting them one by
 * one walks the program 8 times, each time with the same unpredictable
 * dispatch. Here the program is walked once and every instruction does
 * all 8 inputs' work. A BRANCH that some lanes take sends the walk back to
 * the TARGET with only those lanes active (writes are merge-masked) until
 * it returns to that BRANCH.
 *
 * Built with a function-level target attribute, so the library needs no
 * special compiler flags and runs anywhere; hashx_lanes_available() says
 * whether this CPU and OS can call it.
 */
#include <config.h>

#include "interpreter_lanes.h"

#if HASHX_HAVE_LANES
#include <immintrin.h>

#include "cpu.h"
#include "finalize.h"
#include "mulh.h"

#define AVX512 __attribute__((target("avx512f,avx512dq")))

bool hashx_lanes_available(void)
{
	return hashx_cpu_has_avx512();
}

/* mulh.h's construction from 32-bit halves, in each 64-bit lane. */
#define MUL32(x, y) _mm512_mul_epu32(x, y)
#define SHR32(x) _mm512_srli_epi64(x, 32)
#define LOW32(x) _mm512_and_si512(x, _mm512_set1_epi64(0xffffffff))
#define ADD(x, y) _mm512_add_epi64(x, y)
#define SIGNS(x) _mm512_srai_epi64(x, 63)
#define AND(x, y) _mm512_and_si512(x, y)
#define SUB(x, y) _mm512_sub_epi64(x, y)

AVX512 static __m512i umulh8(__m512i a, __m512i b)
{
	__m512i hi;

	HASHX_UMULH_FROM_HALVES(__m512i, hi, a, b, MUL32, SHR32, LOW32, ADD);
	return hi;
}

AVX512 static __m512i smulh8(__m512i a, __m512i b)
{
	__m512i hi = umulh8(a, b);

	HASHX_SMULH_CORRECTION(hi, a, b, SIGNS, AND, SUB);
	return hi;
}

/* siphash.h's SipRound on the words of 8 states at once. */
#define SIP_ADD(d, s) v[d] = _mm512_add_epi64(v[d], v[s]);
#define SIP_ROTL(d, n) v[d] = _mm512_rol_epi64(v[d], n);
#define SIP_XOR(d, s) v[d] = _mm512_xor_si512(v[d], v[s]);

AVX512 static void sipround8(__m512i v[4])
{
	HASHX_SIPROUND_STEPS(SIP_ADD, SIP_ROTL, SIP_XOR)
}

AVX512 static __m512i broadcast(uint64_t v)
{
	return _mm512_set1_epi64((long long)v);
}

/* hashx_siphash24_ctr_state512 in each lane. */
AVX512 static void expand8(const hashx_sip_state *key, __m512i in, __m512i r[8])
{
	hashx_sip_state start = hashx_expansion_start(key);
	__m512i v[4] = {
		broadcast(start.v0),
		broadcast(start.v1),
		broadcast(start.v2),
		_mm512_xor_si512(broadcast(start.v3), in),
	};

	for (int i = 0; i < HASHX_EXPAND_ABSORB_ROUNDS; i++)
		sipround8(v);
	v[0] = _mm512_xor_si512(v[0], in);
	v[2] = _mm512_xor_si512(v[2], broadcast(HASHX_SIP_WIDE_MARK));
	for (int i = 0; i < HASHX_EXPAND_SQUEEZE_ROUNDS; i++)
		sipround8(v);
	for (int i = 0; i < 4; i++)
		r[i] = v[i];
	v[1] = _mm512_xor_si512(v[1], broadcast(HASHX_SIP_SECOND_SQUEEZE));
	for (int i = 0; i < HASHX_EXPAND_SQUEEZE_ROUNDS; i++)
		sipround8(v);
	for (int i = 0; i < 4; i++)
		r[4 + i] = v[i];
}

/* The value of one instruction (not TARGET/BRANCH) in every lane. */
AVX512 static __m512i compute8(const hashx_instr *in, const __m512i r[8])
{
	__m512i d = r[in->dst], s = r[in->src];
	__m512i imm = _mm512_set1_epi64((long long)(int32_t)in->imm);

	switch ((hashx_opcode)in->opcode) {
	case HASHX_OP_UMULH_R:
		return umulh8(d, s);
	case HASHX_OP_SMULH_R:
		return smulh8(d, s);
	case HASHX_OP_MUL_R:
		return _mm512_mullo_epi64(d, s);
	case HASHX_OP_SUB_R:
		return _mm512_sub_epi64(d, s);
	case HASHX_OP_XOR_R:
		return _mm512_xor_si512(d, s);
	case HASHX_OP_ADD_RS:
		return _mm512_add_epi64(
			d, _mm512_sllv_epi64(s, _mm512_set1_epi64(in->imm)));
	case HASHX_OP_ROR_C:
		return _mm512_rorv_epi64(d, _mm512_set1_epi64(in->imm));
	case HASHX_OP_ADD_C:
		return _mm512_add_epi64(d, imm);
	case HASHX_OP_XOR_C:
		return _mm512_xor_si512(d, imm);
	case HASHX_OP_TARGET:
	case HASHX_OP_BRANCH:
	case HASHX_OP_COUNT:
	default:
		return d;
	}
}

AVX512 static void run8(const hashx_program *prog, __m512i r[8])
{
	size_t after_target = HASHX_RESUME_WITHOUT_TARGET, rerun_branch = 0;
	__mmask8 enabled = 0xff, active = 0xff;
	__m512i mul_result = _mm512_setzero_si512();

	for (size_t i = 0; i < prog->size;) {
		const hashx_instr *in = &prog->code[i++];
		__mmask8 taken;

		switch ((hashx_opcode)in->opcode) {
		case HASHX_OP_TARGET:
			after_target = i;
			continue;
		case HASHX_OP_BRANCH:
			if (active != 0xff) {
				/* lanes re-running a block: back at their
				 * BRANCH, everyone goes on */
				if (i - 1 == rerun_branch)
					active = 0xff;
				continue;
			}
			taken = _mm512_mask_testn_epi64_mask(
				enabled, mul_result,
				_mm512_set1_epi64((long long)in->imm));
			enabled &= (__mmask8)~taken;
			/* an empty block (a BRANCH right after its TARGET, or
			 * at index 0) has nothing to re-run */
			if (taken != 0 && after_target < i - 1) {
				active = taken;
				rerun_branch = i - 1;
				i = after_target;
			}
			continue;
		default:
			break;
		}
		__m512i v = compute8(in, r);

		r[in->dst] = _mm512_mask_mov_epi64(r[in->dst], active, v);
		if (in->opcode <= HASHX_OP_SMULH_R)
			mul_result =
				_mm512_mask_mov_epi64(mul_result, active, v);
	}
}

AVX512 void hashx_lanes8_hash(const hashx_program *prog,
			      const hashx_sip_state *key,
			      const uint64_t input[8], uint64_t out[4][8])
{
	__m512i r[8];
	__m512i lo[4], hi[4];
	uint64_t w[4];

	expand8(key, _mm512_loadu_si512(input), r);
	run8(prog, r);
	/* hashx_finalize in each lane */
	hashx_sip_words(key, w);
	for (int i = 0; i < 4; i++)
		r[hashx_finalize_key_reg[i]] = _mm512_add_epi64(
			r[hashx_finalize_key_reg[i]], broadcast(w[i]));
	for (int i = 0; i < 4; i++) {
		lo[i] = r[i];
		hi[i] = r[4 + i];
	}
	sipround8(lo);
	sipround8(hi);
	for (int j = 0; j < 4; j++)
		_mm512_storeu_si512(out[j], _mm512_xor_si512(lo[j], hi[j]));
}

#endif

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

#define AVX512 __attribute__((target("avx512f,avx512dq")))

bool hashx_lanes_available(void)
{
	return hashx_cpu_has_avx512();
}

/* High 64 bits of the unsigned products, from 32x32-bit products (the
 * carries as in the AVX-512 JIT, x86_64_avx512.c). */
AVX512 static __m512i umulh8(__m512i a, __m512i b)
{
	const __m512i low32 = _mm512_set1_epi64(0xffffffff);
	__m512i ah = _mm512_srli_epi64(a, 32), bh = _mm512_srli_epi64(b, 32);
	__m512i ll = _mm512_mul_epu32(a, b), hl = _mm512_mul_epu32(ah, b);
	__m512i lh = _mm512_mul_epu32(a, bh), hh = _mm512_mul_epu32(ah, bh);
	__m512i t = _mm512_add_epi64(hl, _mm512_srli_epi64(ll, 32));
	__m512i u = _mm512_add_epi64(lh, _mm512_and_si512(t, low32));

	return _mm512_add_epi64(_mm512_add_epi64(hh, _mm512_srli_epi64(t, 32)),
				_mm512_srli_epi64(u, 32));
}

/* Signed: minus b where a < 0, minus a where b < 0. */
AVX512 static __m512i smulh8(__m512i a, __m512i b)
{
	__m512i hi = umulh8(a, b);

	hi = _mm512_sub_epi64(hi,
			      _mm512_and_si512(_mm512_srai_epi64(a, 63), b));
	return _mm512_sub_epi64(hi,
				_mm512_and_si512(_mm512_srai_epi64(b, 63), a));
}

AVX512 static void sipround8(__m512i v[4])
{
	v[0] = _mm512_add_epi64(v[0], v[1]);
	v[2] = _mm512_add_epi64(v[2], v[3]);
	v[1] = _mm512_rol_epi64(v[1], 13);
	v[3] = _mm512_rol_epi64(v[3], 16);
	v[1] = _mm512_xor_si512(v[1], v[0]);
	v[3] = _mm512_xor_si512(v[3], v[2]);
	v[0] = _mm512_rol_epi64(v[0], 32);
	v[2] = _mm512_add_epi64(v[2], v[1]);
	v[0] = _mm512_add_epi64(v[0], v[3]);
	v[1] = _mm512_rol_epi64(v[1], 17);
	v[3] = _mm512_rol_epi64(v[3], 21);
	v[1] = _mm512_xor_si512(v[1], v[2]);
	v[3] = _mm512_xor_si512(v[3], v[0]);
	v[2] = _mm512_rol_epi64(v[2], 32);
}

/* hashx_siphash24_ctr_state512 in each lane. */
AVX512 static void expand8(const hashx_sip_state *key, __m512i in, __m512i r[8])
{
	__m512i v[4] = {
		_mm512_set1_epi64((long long)key->v0),
		_mm512_set1_epi64((long long)(key->v1 ^ 0xee)),
		_mm512_set1_epi64((long long)key->v2),
		_mm512_xor_si512(_mm512_set1_epi64((long long)key->v3), in),
	};

	sipround8(v);
	sipround8(v);
	v[0] = _mm512_xor_si512(v[0], in);
	v[2] = _mm512_xor_si512(v[2], _mm512_set1_epi64(0xee));
	for (int i = 0; i < 4; i++)
		sipround8(v);
	for (int i = 0; i < 4; i++)
		r[i] = v[i];
	v[1] = _mm512_xor_si512(v[1], _mm512_set1_epi64(0xdd));
	for (int i = 0; i < 4; i++)
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
	size_t after_target = 1, rerun_branch = 0;
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

	expand8(key, _mm512_loadu_si512(input), r);
	run8(prog, r);
	/* hashx_finalize in each lane */
	r[0] = _mm512_add_epi64(r[0], _mm512_set1_epi64((long long)key->v0));
	r[1] = _mm512_add_epi64(r[1], _mm512_set1_epi64((long long)key->v1));
	r[6] = _mm512_add_epi64(r[6], _mm512_set1_epi64((long long)key->v2));
	r[7] = _mm512_add_epi64(r[7], _mm512_set1_epi64((long long)key->v3));
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

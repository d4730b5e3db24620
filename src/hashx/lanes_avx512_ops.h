/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lanes_avx512_ops.h - the 8-lane operations both AVX-512 lane forms
 * share (HashX's interpreter_lanes_avx512.c, HashWX's
 * hashwx_lanes_avx512.c): one lane per 64-bit word of a zmm register,
 * each function compiled for AVX-512 F and DQ by a target attribute (the
 * includer calls them only where the CPU probe found both). Each file
 * adds the operations only its walk needs.
 */
#ifndef HASHX_LANES_AVX512_OPS_H
#define HASHX_LANES_AVX512_OPS_H

#include <stdint.h>

#include <immintrin.h>

#define LANES_TARGET __attribute__((target("avx512f,avx512dq")))

typedef __m512i lanes_v;
typedef __mmask8 lanes_m;

LANES_TARGET static inline lanes_v v_set1(uint64_t u)
{
	return _mm512_set1_epi64((long long)u);
}

LANES_TARGET static inline lanes_v v_load(const uint64_t *p)
{
	return _mm512_loadu_si512(p);
}

LANES_TARGET static inline void v_store(uint64_t *p, lanes_v x)
{
	_mm512_storeu_si512(p, x);
}

LANES_TARGET static inline lanes_v v_add(lanes_v x, lanes_v y)
{
	return _mm512_add_epi64(x, y);
}

LANES_TARGET static inline lanes_v v_sub(lanes_v x, lanes_v y)
{
	return _mm512_sub_epi64(x, y);
}

LANES_TARGET static inline lanes_v v_xor(lanes_v x, lanes_v y)
{
	return _mm512_xor_si512(x, y);
}

LANES_TARGET static inline lanes_v v_and(lanes_v x, lanes_v y)
{
	return _mm512_and_si512(x, y);
}

#endif

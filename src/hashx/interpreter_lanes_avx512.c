/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * interpreter_lanes_avx512.c - the 8-lane interpreter
 * (interpreter_lanes_walk.h) with one lane per 64-bit word of a zmm
 * register and the lane sets in mask registers.
 *
 * Built with a function-level target attribute, so the library needs no
 * special compiler flags and runs anywhere; a context's plan
 * (src/facade/dispatch.c) names it only where the CPU probe there found
 * AVX-512 F and DQ (DQ for vpmullq).
 */
#include <config.h>

#include "interpreter_lanes.h"

#if HASHX_HAVE_LANES
#include "lanes_avx512_ops.h"

#define LANES_HASH hashx_lanes8_avx512

LANES_TARGET static inline lanes_v v_mul32(lanes_v x, lanes_v y)
{
	return _mm512_mul_epu32(x, y);
}

LANES_TARGET static inline lanes_v v_shr32(lanes_v x)
{
	return _mm512_srli_epi64(x, 32);
}

LANES_TARGET static inline lanes_v v_low32(lanes_v x)
{
	return _mm512_and_si512(x, _mm512_set1_epi64(0xffffffff));
}

LANES_TARGET static inline lanes_v v_signs(lanes_v x)
{
	return _mm512_srai_epi64(x, 63);
}

/* vpmullq: the reason this file needs DQ. */
LANES_TARGET static inline lanes_v v_mullo(lanes_v x, lanes_v y)
{
	return _mm512_mullo_epi64(x, y);
}

LANES_TARGET static inline lanes_v v_shl(lanes_v x, unsigned n)
{
	return _mm512_sllv_epi64(x, v_set1(n));
}

LANES_TARGET static inline lanes_v v_rotr(lanes_v x, unsigned n)
{
	return _mm512_rorv_epi64(x, v_set1(n));
}

#define V_ROTL(x, n) _mm512_rol_epi64(x, n)

LANES_TARGET static inline lanes_m m_all(void)
{
	return 0xff;
}

LANES_TARGET static inline lanes_m m_taken(lanes_m m, lanes_v x, uint32_t imm)
{
	return _mm512_mask_testn_epi64_mask(m, x, v_set1(imm));
}

LANES_TARGET static inline lanes_m m_andnot(lanes_m a, lanes_m b)
{
	return (lanes_m)(a & ~b);
}

LANES_TARGET static inline bool m_any(lanes_m m)
{
	return m != 0;
}

LANES_TARGET static inline bool m_is_all(lanes_m m)
{
	return m == 0xff;
}

LANES_TARGET static inline lanes_v v_merge(lanes_v old, lanes_v x, lanes_m m)
{
	return _mm512_mask_mov_epi64(old, m, x);
}

#include "interpreter_lanes_walk.h"

#endif

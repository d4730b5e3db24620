/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hashwx_lanes_avx512.c - the 8-lane HashWX interpreter
 * (hashwx_lanes_walk.h) with one lane per 64-bit word of a zmm register,
 * the lane sets in mask registers, each lane's memory word read by
 * vpgatherqq.
 *
 * Built with a function-level target attribute, so the library needs no
 * special compiler flags and runs anywhere; the facade
 * (src/facade/hashwx.c) calls it only where HashX's CPU probe
 * (src/facade/dispatch.c) found AVX-512 F and DQ (DQ for vpmullq).
 */
#include <config.h>

#include <stdbool.h>

#include "hashwx_lanes.h"

#if HASHWX_HAVE_LANES
#include "lanes_avx512_ops.h"

#define LANES_HASH hashwx_lanes8_avx512

LANES_TARGET static inline lanes_v v_or(lanes_v x, lanes_v y)
{
	return _mm512_or_si512(x, y);
}

/* vpmullq: the reason this file needs DQ. */
LANES_TARGET static inline lanes_v v_mullo(lanes_v x, lanes_v y)
{
	return _mm512_mullo_epi64(x, y);
}

LANES_TARGET static inline lanes_v v_rotr(lanes_v x, unsigned n)
{
	return _mm512_rorv_epi64(x, v_set1(n));
}

LANES_TARGET static inline lanes_v v_shr(lanes_v x, unsigned n)
{
	return _mm512_srlv_epi64(x, v_set1(n));
}

LANES_TARGET static inline lanes_v v_sar(lanes_v x, unsigned n)
{
	return _mm512_srav_epi64(x, v_set1(n));
}

#define V_ROTL(x, n) _mm512_rol_epi64(x, n)

LANES_TARGET static inline lanes_v v_lane_ids(void)
{
	return _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
}

LANES_TARGET static inline lanes_v v_gather(const lanes_v *mem, lanes_v i)
{
	return _mm512_i64gather_epi64(i, (const void *)mem, 8);
}

LANES_TARGET static inline lanes_m m_all(void)
{
	return 0xff;
}

LANES_TARGET static inline lanes_m m_branch(lanes_m m, lanes_v bc,
					     lanes_v flag)
{
	lanes_m counting = _mm512_mask_test_epi64_mask(m, bc, bc);

	return _mm512_mask_testn_epi64_mask(counting, flag, v_set1(32));
}

LANES_TARGET static inline lanes_v v_dec(lanes_v bc, lanes_m m)
{
	return _mm512_mask_sub_epi64(bc, m, bc, v_set1(1));
}

LANES_TARGET static inline bool m_any(lanes_m m)
{
	return m != 0;
}

LANES_TARGET static inline lanes_v v_merge(lanes_v old, lanes_v x, lanes_m m)
{
	return _mm512_mask_mov_epi64(old, m, x);
}

#include "hashwx_lanes_walk.h"

#endif

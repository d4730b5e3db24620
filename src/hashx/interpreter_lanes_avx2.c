/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * interpreter_lanes_avx2.c - the 8-lane interpreter
 * (interpreter_lanes_walk.h) on CPUs with AVX2 but not AVX-512 (most
 * desktops and laptops): each value is a pair of ymm registers, lanes 0-3
 * and 4-7, and a lane set is a pair of all-ones/zero lane masks.
 *
 * AVX2 has no 64-bit low multiply, no 64-bit rotate or arithmetic shift
 * and no mask registers; the vocabulary below builds each from what it
 * has. A lane set is kept as vectors rather than bits because it is
 * applied to every instruction's result (a blend) and only tested at a
 * BRANCH.
 *
 * Built with a function-level target attribute, so the library needs no
 * special compiler flags and runs anywhere; a context's plan
 * (src/facade/dispatch.c) names it only where the CPU probe there found
 * AVX2.
 */
#include <config.h>

#include "interpreter_lanes.h"

#if HASHX_HAVE_LANES
#include <immintrin.h>

#define LANES_TARGET __attribute__((target("avx2")))
#define LANES_HASH hashx_lanes8_avx2

typedef struct lanes_v {
	__m256i a, b; /* lanes 0-3, 4-7 */
} lanes_v;

typedef lanes_v lanes_m;

/* Each operation is the same on both halves. */
#define PAIR(op, x, y) ((lanes_v){op((x).a, (y).a), op((x).b, (y).b)})
#define EACH(op, x) ((lanes_v){op((x).a), op((x).b)})

LANES_TARGET static inline lanes_v v_set1(uint64_t u)
{
	__m256i x = _mm256_set1_epi64x((long long)u);

	return (lanes_v){x, x};
}

LANES_TARGET static inline lanes_v v_load(const uint64_t *p)
{
	return (lanes_v){_mm256_loadu_si256((const __m256i *)p),
			 _mm256_loadu_si256((const __m256i *)(p + 4))};
}

LANES_TARGET static inline void v_store(uint64_t *p, lanes_v x)
{
	_mm256_storeu_si256((__m256i *)p, x.a);
	_mm256_storeu_si256((__m256i *)(p + 4), x.b);
}

LANES_TARGET static inline lanes_v v_add(lanes_v x, lanes_v y)
{
	return PAIR(_mm256_add_epi64, x, y);
}

LANES_TARGET static inline lanes_v v_sub(lanes_v x, lanes_v y)
{
	return PAIR(_mm256_sub_epi64, x, y);
}

LANES_TARGET static inline lanes_v v_xor(lanes_v x, lanes_v y)
{
	return PAIR(_mm256_xor_si256, x, y);
}

LANES_TARGET static inline lanes_v v_and(lanes_v x, lanes_v y)
{
	return PAIR(_mm256_and_si256, x, y);
}

LANES_TARGET static inline lanes_v v_or(lanes_v x, lanes_v y)
{
	return PAIR(_mm256_or_si256, x, y);
}

LANES_TARGET static inline lanes_v v_mul32(lanes_v x, lanes_v y)
{
	return PAIR(_mm256_mul_epu32, x, y);
}

LANES_TARGET static inline __m256i shr32(__m256i x)
{
	return _mm256_srli_epi64(x, 32);
}

LANES_TARGET static inline lanes_v v_shr32(lanes_v x)
{
	return EACH(shr32, x);
}

LANES_TARGET static inline lanes_v v_low32(lanes_v x)
{
	return v_and(x, v_set1(0xffffffff));
}

/* No vpsraq before AVX-512: a negative lane is one below zero. */
LANES_TARGET static inline lanes_v v_signs(lanes_v x)
{
	return PAIR(_mm256_cmpgt_epi64, v_set1(0), x);
}

LANES_TARGET static inline __m256i shl32(__m256i x)
{
	return _mm256_slli_epi64(x, 32);
}

/*
 * No vpmullq before AVX-512 DQ: with x = xh:xl and y = yh:yl, the low 64
 * bits of x * y are xl*yl + ((xh*yl + xl*yh) << 32), three vpmuludq (the
 * batch JIT x86_64_avx2.c builds MUL_R the same way).
 */
LANES_TARGET static inline lanes_v v_mullo(lanes_v x, lanes_v y)
{
	lanes_v cross = v_add(v_mul32(v_shr32(x), y), v_mul32(x, v_shr32(y)));

	return v_add(v_mul32(x, y), EACH(shl32, cross));
}

/* Shifts by a register count, which (unlike the per-lane vpsllvq) also
 * take a count of 64 to zero, as v_rotr needs for n = 0. */
LANES_TARGET static inline lanes_v v_shl(lanes_v x, unsigned n)
{
	__m128i c = _mm_cvtsi32_si128((int)n);

	return (lanes_v){_mm256_sll_epi64(x.a, c), _mm256_sll_epi64(x.b, c)};
}

LANES_TARGET static inline lanes_v v_shr(lanes_v x, unsigned n)
{
	__m128i c = _mm_cvtsi32_si128((int)n);

	return (lanes_v){_mm256_srl_epi64(x.a, c), _mm256_srl_epi64(x.b, c)};
}

/* No 64-bit rotate before AVX-512: two shifts and an OR. */
LANES_TARGET static inline lanes_v v_rotr(lanes_v x, unsigned n)
{
	return v_or(v_shr(x, n), v_shl(x, 64 - n));
}

/* SipHash's rotations are constants; one by 32 is a single dword
 * shuffle. */
LANES_TARGET static inline __m256i rotl_c(__m256i x, int n)
{
	if (n == 32)
		return _mm256_shuffle_epi32(x, 0xb1);
	return _mm256_or_si256(_mm256_slli_epi64(x, n),
			       _mm256_srli_epi64(x, 64 - n));
}

#define V_ROTL(x, n) ((lanes_v){rotl_c((x).a, n), rotl_c((x).b, n)})

LANES_TARGET static inline lanes_m m_all(void)
{
	return v_set1(UINT64_MAX);
}

LANES_TARGET static inline lanes_m m_taken(lanes_m m, lanes_v x, uint32_t imm)
{
	lanes_v zero = PAIR(_mm256_cmpeq_epi64, v_and(x, v_set1(imm)),
			    v_set1(0));

	return v_and(m, zero);
}

LANES_TARGET static inline lanes_m m_andnot(lanes_m a, lanes_m b)
{
	/* _mm256_andnot_si256(p, q) is ~p & q */
	return PAIR(_mm256_andnot_si256, b, a);
}

LANES_TARGET static inline bool m_any(lanes_m m)
{
	__m256i both = _mm256_or_si256(m.a, m.b);

	return !_mm256_testz_si256(both, both);
}

LANES_TARGET static inline bool m_is_all(lanes_m m)
{
	return _mm256_testc_si256(_mm256_and_si256(m.a, m.b),
				  _mm256_set1_epi64x(-1));
}

LANES_TARGET static inline __m256i blend(__m256i old, __m256i x, __m256i m)
{
	return _mm256_castpd_si256(_mm256_blendv_pd(_mm256_castsi256_pd(old),
						    _mm256_castsi256_pd(x),
						    _mm256_castsi256_pd(m)));
}

LANES_TARGET static inline lanes_v v_merge(lanes_v old, lanes_v x, lanes_m m)
{
	return (lanes_v){blend(old.a, x.a, m.a), blend(old.b, x.b, m.b)};
}

#include "interpreter_lanes_walk.h"

#endif

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * interpreter_lanes.c - which 8-lane interpreter verification uses.
 */
#include <config.h>

#include "interpreter_lanes.h"

#if HASHX_HAVE_LANES
#include "cpu.h"

const hashx_lanes_impl hashx_lanes_impls[HASHX_LANES_IMPL_COUNT] = {
	{"avx512", hashx_cpu_has_avx512, hashx_lanes8_avx512},
	{"avx2", hashx_cpu_has_avx2, hashx_lanes8_avx2},
};

/*
 * The context's implementation (impl.c's choice, or HASHX_IMPL) says how
 * wide a vector unit it may use, and the lanes follow it:
 *  - portable: none. It is the reference path (the interpreter alone),
 *    which HASHX_IMPL=portable must keep meaning.
 *  - avx512: the AVX-512 lanes.
 *  - scalar or avx2 (or avx512 where the lanes' DQ is missing): the AVX2
 *    lanes where the CPU has AVX2. Forcing avx2 on an AVX-512 machine
 *    thereby runs what an AVX2-only CPU runs, so tests/impls.sh and the
 *    benchmark reach this path everywhere; and the scalar JIT's own
 *    choice is not about the interpreter, whose 8 hashes one at a time
 *    pay the dispatch mispredicts 8 times over.
 * cpu.c caches the CPU probe, so this costs two loads per verification.
 */
hashx_lanes8_fn *hashx_lanes_for(hashx_impl impl)
{
	if (impl == HASHX_IMPL_PORTABLE)
		return NULL;
	if (impl == HASHX_IMPL_AVX512 && hashx_cpu_has_avx512())
		return hashx_lanes8_avx512;
	if (hashx_cpu_has_avx2())
		return hashx_lanes8_avx2;
	return NULL;
}
#endif

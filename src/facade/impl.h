/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * impl.h - the ways this library can evaluate a HashX function. What each
 * is, needs and compiles with is the table in dispatch.c; their order
 * here means nothing.
 */
#ifndef HASHX_IMPL_H
#define HASHX_IMPL_H

typedef enum hashx_impl {
	HASHX_IMPL_PORTABLE, /* the interpreter, one input at a time */
	HASHX_IMPL_SCALAR,   /* the scalar JIT (compiler.h), one at a time */
	HASHX_IMPL_AVX2,     /* batch JIT, 256-bit vectors */
	HASHX_IMPL_AVX512,   /* batch JIT, 512-bit vectors (F + DQ) */
	HASHX_IMPL_HYBRID2,  /* batch JIT, 4 AVX2 lanes + 1 scalar input
			      * (experimental: no CPU class picks it) */
	HASHX_IMPL_COUNT
} hashx_impl;

#endif

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * impl.h - the ways this library can evaluate a HashX function, declared
 * once: one row each in HASHX_IMPLS, X(ID, name, available, jit, batch):
 *  - ID: the enum's HASHX_IMPL_<ID> below;
 *  - name: what HASHX_IMPL, the reports and `equix-bench --list-impls`
 *    call it;
 *  - available: bool (*)(void), whether this build, CPU and OS run it;
 *    NULL where this build has no code for it (the row stays, so that
 *    HASHX_IMPL=avx2 is understood there and unavailable);
 *  - jit: whether it hashes with compiled code;
 *  - batch: its batch code generator's description (batch_backend.h,
 *    which gives the lanes), or NULL for one input at a time.
 * dispatch.c builds its table of implementations from these rows, and
 * everything else asks that table (dispatch.h); the order here means
 * nothing (the order measured fastest per class of CPU is dispatch.c's).
 * The names in the rows are expanded in dispatch.c only.
 *
 * The list is HashX's. A second hash family gets a list of its own beside
 * this one, with its own enum and table, rather than rows here.
 */
#ifndef HASHX_IMPL_H
#define HASHX_IMPL_H

/* `x` in a build with the x86-64 code generators, NULL in any other. */
#if defined(HASHX_JIT_X86_64)
#define HASHX_IF_X86_64(x) x
#else
#define HASHX_IF_X86_64(x) NULL
#endif

#define HASHX_IMPLS(X)                                                        \
	/* the interpreter, one input at a time */                            \
	X(PORTABLE, "portable", always, false, NULL)                          \
	/* the scalar JIT (compiler.h), one input at a time */                \
	X(SCALAR, "scalar", have_compiler, true, NULL)                        \
	/* batch JIT, 256-bit vectors */                                      \
	X(AVX2, "avx2", HASHX_IF_X86_64(hashx_cpu_has_avx2), true,            \
	  HASHX_IF_X86_64(&hashx_x86_64_avx2_backend))                        \
	/* batch JIT, 512-bit vectors (F + DQ) */                             \
	X(AVX512, "avx512", HASHX_IF_X86_64(hashx_cpu_has_avx512), true,      \
	  HASHX_IF_X86_64(&hashx_x86_64_avx512_backend))

#define HASHX_IMPL_ENUM_ROW(id, name, available, jit, batch) HASHX_IMPL_##id,

typedef enum hashx_impl {
	HASHX_IMPLS(HASHX_IMPL_ENUM_ROW)
	HASHX_IMPL_COUNT
} hashx_impl;

#undef HASHX_IMPL_ENUM_ROW

#endif

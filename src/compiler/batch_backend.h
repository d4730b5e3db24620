/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * batch_backend.h - what each batch code generator (batch.h) gives the
 * list of implementations (src/facade/impl.h, the floor above): its
 * description, declared here, named by its row there.
 */
#ifndef HASHX_BATCH_BACKEND_H
#define HASHX_BATCH_BACKEND_H

#include <stdbool.h>
#include <stddef.h>

#include "code_size.h"
#include "compiler.h"

/* A batch code generator: its emitter (run by hashx_compiler_build() on a
 * job of form HASHX_FORM_BATCH), the bounds on its code (code_size.h; the
 * buffer it needs is bounds->capacity), the inputs its code hashes per
 * group, and whether the same emitter also takes HASHX_FORM_BATCH_SCATTER
 * jobs (the fused stage 0, within the same capacity). dispatch.c builds
 * every back-end the same way from these facts, and
 * tests/test_code_size.c checks the bounds, so a back-end exports
 * nothing else. */
typedef struct hashx_batch_backend {
	hashx_emit_fn *emit;
	const hashx_code_bounds *bounds;
	unsigned lanes;
	bool scatters;
} hashx_batch_backend;

#if defined(HASHX_JIT_X86_64)
extern const hashx_batch_backend hashx_x86_64_avx2_backend;   /* x86_64_avx2.c */
extern const hashx_batch_backend hashx_x86_64_avx512_backend; /* x86_64_avx512.c */
#endif

#endif

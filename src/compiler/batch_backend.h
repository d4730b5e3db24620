/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * batch_backend.h - what each batch code generator (batch.h) gives the
 * list of implementations (src/facade/impl.h, the floor above), and the
 * two compilations every back-end is built with from it (compiler.c). A
 * new back-end declares its description here and is named by its row
 * there.
 */
#ifndef HASHX_BATCH_BACKEND_H
#define HASHX_BATCH_BACKEND_H

#include <stdbool.h>
#include <stddef.h>

#include "batch.h"
#include "code_size.h"
#include "compiler.h"

/* A batch code generator: its emitter (run by hashx_compiler_build() on a
 * job of form HASHX_FORM_BATCH), the bounds on its code (code_size.h; the
 * buffer it needs is bounds->capacity), the inputs its code hashes per
 * group, and whether the same emitter also takes HASHX_FORM_BATCH_SCATTER
 * jobs (the fused stage 0, within the same capacity). The two functions
 * below build every back-end the same way from these facts, and
 * tests/test_code_size.c checks the bounds, so a back-end exports
 * nothing else. */
typedef struct hashx_batch_backend {
	hashx_emit_fn *emit;
	const hashx_code_bounds *bounds;
	unsigned lanes;
	bool scatters;
} hashx_batch_backend;

/*
 * Compiles the batch form of `prog` for input key `key` with back-end `b`
 * into `buf`. False when `b` is NULL (the facade's hashx_impl_backend()
 * names none) or the system refuses executable memory.
 */
bool hashx_compile_batch(const hashx_program *prog, const hashx_sip_state *key,
			 const hashx_batch_backend *b, hashx_code_buffer *buf,
			 hashx_batch *out);

/* The fused form of `b` into table `t`; false, and nothing compiled,
 * also when the back-end has none (`scatters`) or refuses the table
 * (x86-64's emitters take 8 bucket bits only). */
bool hashx_compile_batch_scatter(const hashx_program *prog,
				 const hashx_sip_state *key,
				 const hashx_batch_backend *b,
				 const hashx_scatter *t,
				 hashx_code_buffer *buf,
				 hashx_batch_scatter *out);

#if defined(HASHX_JIT_X86_64)
extern const hashx_batch_backend hashx_x86_64_avx2_backend;   /* x86_64_avx2.c */
extern const hashx_batch_backend hashx_x86_64_avx512_backend; /* x86_64_avx512.c */
#endif

#endif

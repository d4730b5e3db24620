/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * batch_backend.h - the entry points of the batch code generators
 * (batch.h), each one row of the table in dispatch.c. A new back-end
 * declares its entry point here and adds its row there.
 */
#ifndef HASHX_BATCH_BACKEND_H
#define HASHX_BATCH_BACKEND_H

#include "code_buffer.h"
#include "program.h"
#include "siphash.h"

/* Compiles the batch form of `prog` for input key `key` into `buf`;
 * returns the code's start and sets *lanes, or NULL. */
typedef void *hashx_batch_compile_fn(const hashx_program *prog,
				     const hashx_sip_state *key,
				     hashx_code_buffer *buf, unsigned *lanes);

#if defined(HASHX_JIT_X86_64)
hashx_batch_compile_fn hashx_x86_64_avx2_compile;   /* x86_64_avx2.c */
hashx_batch_compile_fn hashx_x86_64_avx512_compile; /* x86_64_avx512.c */
#endif

#endif

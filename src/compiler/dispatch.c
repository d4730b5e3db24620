/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dispatch.c - hashx_compile_batch(): the batch code generator for the
 * chosen implementation (impl.c), where this build has one.
 */
#include <config.h>

#include <string.h>

#include "batch.h"
#include "compiler.h"

#if defined(HASHX_JIT_X86_64)
void *hashx_x86_64_avx2_compile(const hashx_program *prog,
				const hashx_sip_state *key,
				hashx_code_buffer *buf, unsigned *lanes);
void *hashx_x86_64_avx512_compile(const hashx_program *prog,
				  const hashx_sip_state *key,
				  hashx_code_buffer *buf, unsigned *lanes);
#endif

bool hashx_compile_batch(const hashx_program *prog, const hashx_sip_state *key,
			 hashx_impl impl, hashx_code_buffer *buf,
			 hashx_batch *out)
{
	void *code = NULL;
	unsigned lanes = 0;

	out->fn = NULL;
	out->lanes = 0;
	if (!hashx_impl_available(impl))
		return false;
#if defined(HASHX_JIT_X86_64)
	if (impl == HASHX_IMPL_AVX2)
		code = hashx_x86_64_avx2_compile(prog, key, buf, &lanes);
	else if (impl == HASHX_IMPL_AVX512)
		code = hashx_x86_64_avx512_compile(prog, key, buf, &lanes);
#else
	(void)prog;
	(void)key;
	(void)buf;
#endif
	if (code == NULL)
		return false;
	/* Object to function pointer: allowed by POSIX (as for dlsym). */
	memcpy(&out->fn, &code, sizeof out->fn);
	out->lanes = lanes;
	return true;
}

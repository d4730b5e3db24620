/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * compiler.c - what every code generator shares: the W^X sequence around
 * emitting (writable, emit within the buffer's bounds, instruction cache
 * maintenance, executable).
 */
#include <config.h>

#include <string.h>

#include "compiler.h"

void *hashx_compiler_build(hashx_code_buffer *buf, size_t capacity,
			   hashx_emit_fn *emit, hashx_compile_job *job)
{
	uint8_t *stop;

	buf->used = 0;
	job->entry = 0;
	if (!hashx_code_buffer_writable(buf, capacity))
		return NULL;
	/* The code is written at buf->write and runs at buf->mem (the same
	 * address unless the buffer is aliased), so what an emitter writes
	 * must not depend on where it sits: jumps and constants are
	 * addressed relative to the instruction. */
	stop = emit(buf->write, buf->write + buf->size, job);
	if (stop == NULL)
		return NULL;
	/* CPUs with separate instruction and data caches (aarch64) must not
	 * run stale instructions from the previous program. The WebAssembly
	 * core (js/build.sh) compiles this file but never calls this
	 * function: wasm.c writes its modules without it, and the batch
	 * back-ends dispatch.c builds through it are x86-64 only. It has
	 * no cache to maintain, and clang-14 refuses the builtin for that
	 * target ("llvm.clear_cache is not supported on wasm"). */
#if !defined(__wasm__)
	__builtin___clear_cache((char *)buf->mem, (char *)buf->mem + buf->size);
#endif
	if (!hashx_code_buffer_executable(buf))
		return NULL;
	buf->used = (size_t)(stop - buf->write);
	return buf->mem + job->entry;
}

/* Object to function pointers: allowed by POSIX (as for dlsym). */
hashx_compiled_fn *hashx_compile(const hashx_program *prog,
				 hashx_code_buffer *buf)
{
	hashx_compiled_fn *fn;
	void *code = hashx_arch_compile(prog, HASHX_FORM_REGFILE, NULL, NULL,
					buf);

	memcpy(&fn, &code, sizeof fn);
	return fn;
}

hashx_hash_fn *hashx_compile_hash(const hashx_program *prog,
				  const hashx_sip_state *key,
				  hashx_code_buffer *buf)
{
	hashx_hash_fn *fn;
	void *code = hashx_arch_compile(prog, HASHX_FORM_HASH, key, NULL, buf);

	memcpy(&fn, &code, sizeof fn);
	return fn;
}

hashx_scatter_fn *hashx_compile_scatter(const hashx_program *prog,
					const hashx_sip_state *key,
					const hashx_scatter *t,
					hashx_code_buffer *buf)
{
	hashx_scatter_fn *fn;
	void *code = hashx_arch_compile(prog, HASHX_FORM_SCATTER, key, t, buf);

	memcpy(&fn, &code, sizeof fn);
	return fn;
}

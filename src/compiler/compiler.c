/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * compiler.c - what every code generator shares, the WebAssembly one
 * included: the W^X sequence around emitting (writable, emit within the
 * buffer's bounds, instruction cache maintenance, executable), and every
 * compilation entry point: the scalar forms through the architecture's
 * emitter, the batch forms through a back-end's description.
 */
#include <config.h>

#include <string.h>

#include "batch_backend.h"
#include "compiler.h"

/* Where the built function starts: in WebAssembly, the function table
 * slot the host installed the module in (code_buffer.h; the module's
 * bytes are freed by then, and its entry is its start); elsewhere the
 * emitter's entry in the buffer's code. */
static void *entry_of(const hashx_code_buffer *buf, size_t entry)
{
#if defined(HASHX_JIT_WASM)
	(void)entry;
	return (void *)(uintptr_t)buf->slot;
#else
	return buf->mem + entry;
#endif
}

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
	 * run stale instructions from the previous program. WebAssembly has
	 * no such cache (the host compiles the module); clang refuses the
	 * builtin for that target. */
#if !defined(__wasm__)
	__builtin___clear_cache((char *)buf->mem, (char *)buf->mem + buf->size);
#endif
	/* Set before the buffer turns executable: the WebAssembly host
	 * installs this many bytes. */
	buf->used = (size_t)(stop - buf->write);
	if (!hashx_code_buffer_executable(buf)) {
		buf->used = 0;
		return NULL;
	}
	return entry_of(buf, job->entry);
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

/* Either batch form with back-end `b`: its code, and the back-end's lanes
 * in `*lanes`; NULL where it does not compile. */
static void *build_batch(hashx_compile_job *job, const hashx_batch_backend *b,
			 hashx_code_buffer *buf, unsigned *lanes)
{
	void *code;

	*lanes = 0;
	if (b == NULL ||
	    (job->form == HASHX_FORM_BATCH_SCATTER && !b->scatters))
		return NULL;
	code = hashx_compiler_build(buf, b->bounds->capacity, b->emit, job);
	if (code != NULL)
		*lanes = b->lanes;
	return code;
}

bool hashx_compile_batch(const hashx_program *prog, const hashx_sip_state *key,
			 const hashx_batch_backend *b, hashx_code_buffer *buf,
			 hashx_batch *out)
{
	hashx_compile_job job = {.prog = prog, .form = HASHX_FORM_BATCH,
				 .key = key};
	void *code = build_batch(&job, b, buf, &out->lanes);

	memcpy(&out->fn, &code, sizeof out->fn);
	return code != NULL;
}

bool hashx_compile_batch_scatter(const hashx_program *prog,
				 const hashx_sip_state *key,
				 const hashx_batch_backend *b,
				 const hashx_scatter *t,
				 hashx_code_buffer *buf,
				 hashx_batch_scatter *out)
{
	hashx_compile_job job = {.prog = prog,
				 .form = HASHX_FORM_BATCH_SCATTER,
				 .key = key,
				 .scatter = t};
	void *code = build_batch(&job, b, buf, &out->lanes);

	memcpy(&out->fn, &code, sizeof out->fn);
	return code != NULL;
}

/*
 * compiler.c - what every code generator shares: the W^X sequence around
 * emitting (writable, emit within the buffer's bounds, instruction cache
 * maintenance, executable).
 */
#include <config.h>

#include "compiler.h"

void *hashx_compiler_build(hashx_code_buffer *buf, size_t capacity,
			   hashx_emit_fn *emit, const void *arg)
{
	if (!hashx_code_buffer_writable(buf, capacity))
		return NULL;
	if (!emit(buf->mem, buf->mem + buf->size, arg))
		return NULL;
	/* CPUs with separate instruction and data caches (aarch64) must not
	 * run stale instructions from the previous program. */
	__builtin___clear_cache((char *)buf->mem, (char *)buf->mem + buf->size);
	if (!hashx_code_buffer_executable(buf))
		return NULL;
	return buf->mem;
}

/*
 * none.c - the compiler on CPUs without a HashX code generator: it always
 * declines, and contexts fall back to (or fail without) the interpreter.
 */
#include <config.h>

#include "compiler.h"

hashx_compiled_fn *hashx_compile(const hashx_program *prog,
				 hashx_code_buffer *buf)
{
	(void)prog;
	(void)buf;
	return NULL;
}

hashx_hash_fn *hashx_compile_hash(const hashx_program *prog,
				  const hashx_sip_state *key,
				  hashx_code_buffer *buf)
{
	(void)prog;
	(void)key;
	(void)buf;
	return NULL;
}

hashx_scatter_fn *hashx_compile_scatter(const hashx_program *prog,
					const hashx_sip_state *key,
					const hashx_scatter *t,
					hashx_code_buffer *buf)
{
	(void)prog;
	(void)key;
	(void)t;
	(void)buf;
	return NULL;
}

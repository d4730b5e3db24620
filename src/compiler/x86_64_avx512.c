/* x86_64_avx512.c - the avx512 batch code generator (batch.h): not written yet. */
#include <config.h>

#include "batch.h"

void *hashx_x86_64_avx512_compile(const hashx_program *prog,
				const hashx_sip_state *key,
				hashx_code_buffer *buf, unsigned *lanes);

void *hashx_x86_64_avx512_compile(const hashx_program *prog,
				const hashx_sip_state *key,
				hashx_code_buffer *buf, unsigned *lanes)
{
	(void)prog;
	(void)key;
	(void)buf;
	*lanes = 0;
	return NULL;
}

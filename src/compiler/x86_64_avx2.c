/* x86_64_avx2.c - the avx2 batch code generator (batch.h): not written yet. */
#include <config.h>

#include "batch.h"

void *hashx_x86_64_avx2_compile(const hashx_program *prog,
				const hashx_sip_state *key,
				hashx_code_buffer *buf, unsigned *lanes);

void *hashx_x86_64_avx2_compile(const hashx_program *prog,
				const hashx_sip_state *key,
				hashx_code_buffer *buf, unsigned *lanes)
{
	(void)prog;
	(void)key;
	(void)buf;
	*lanes = 0;
	return NULL;
}

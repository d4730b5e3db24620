/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dispatch.c - the table of implementations (batch.h): each one's name,
 * what it needs of the build and CPU, and its batch code generator. The
 * rest of the library asks this table, never the enum's order; a new
 * back-end is one row here and its description in batch_backend.h.
 */
#include <config.h>

#include <string.h>

#include "batch.h"
#include "batch_backend.h"
#include "compiler.h"
#include "cpu.h"

typedef struct impl_row {
	const char *name;        /* in HASHX_IMPL and reports */
	bool (*available)(void); /* this build, CPU and OS run it */
	bool jit;                /* hashes with compiled code */
	const hashx_batch_backend *batch; /* NULL: one input at a time */
} impl_row;

static bool always(void)
{
	return true;
}

static bool have_compiler(void)
{
	return HASHX_HAVE_COMPILER;
}

static const impl_row impls[HASHX_IMPL_COUNT] = {
	[HASHX_IMPL_PORTABLE] = {"portable", always, false, NULL},
	[HASHX_IMPL_SCALAR] = {"scalar", have_compiler, true, NULL},
#if defined(HASHX_JIT_X86_64)
	[HASHX_IMPL_AVX2] = {"avx2", hashx_cpu_has_avx2, true,
			     &hashx_x86_64_avx2_backend},
	[HASHX_IMPL_AVX512] = {"avx512", hashx_cpu_has_avx512, true,
			       &hashx_x86_64_avx512_backend},
	[HASHX_IMPL_HYBRID2] = {"hybrid2", hashx_cpu_has_avx2, true,
				&hashx_x86_64_hybrid2_backend},
#else
	/* Named, so that HASHX_IMPL=avx2 is understood and unavailable. */
	[HASHX_IMPL_AVX2] = {"avx2", NULL, true, NULL},
	[HASHX_IMPL_AVX512] = {"avx512", NULL, true, NULL},
	[HASHX_IMPL_HYBRID2] = {"hybrid2", NULL, true, NULL},
#endif
};

static const impl_row *row(hashx_impl impl)
{
	return impl < HASHX_IMPL_COUNT ? &impls[impl] : NULL;
}

const char *hashx_impl_name(hashx_impl impl)
{
	return row(impl) != NULL ? row(impl)->name : "unknown";
}

hashx_impl hashx_impl_from_name(const char *name)
{
	for (int i = 0; i < HASHX_IMPL_COUNT; i++)
		if (name != NULL && strcmp(name, impls[i].name) == 0)
			return (hashx_impl)i;
	return HASHX_IMPL_COUNT;
}

bool hashx_impl_available(hashx_impl impl)
{
	const impl_row *r = row(impl);

	return r != NULL && r->available != NULL && r->available();
}

bool hashx_impl_uses_jit(hashx_impl impl)
{
	return row(impl) != NULL && row(impl)->jit;
}

bool hashx_impl_batches(hashx_impl impl)
{
	return row(impl) != NULL && row(impl)->batch != NULL;
}

bool hashx_impl_scatters(hashx_impl impl)
{
	return hashx_impl_batches(impl) && impls[impl].batch->scatters;
}

/* Either batch form of `impl`: its code, and the back-end's lanes in
 * `*lanes`; NULL where it does not compile. */
static void *build(hashx_compile_job *job, hashx_impl impl,
		   hashx_code_buffer *buf, unsigned *lanes)
{
	const hashx_batch_backend *b;
	void *code;

	*lanes = 0;
	if (!hashx_impl_available(impl) || !hashx_impl_batches(impl))
		return NULL;
	b = impls[impl].batch;
	if (job->form == HASHX_FORM_BATCH_SCATTER && !b->scatters)
		return NULL;
	code = hashx_compiler_build(buf, b->capacity, b->emit, job);
	if (code != NULL)
		*lanes = b->lanes;
	return code;
}

bool hashx_compile_batch(const hashx_program *prog, const hashx_sip_state *key,
			 hashx_impl impl, hashx_code_buffer *buf,
			 hashx_batch *out)
{
	hashx_compile_job job = {.prog = prog, .form = HASHX_FORM_BATCH,
				 .key = key};
	void *code = build(&job, impl, buf, &out->lanes);

	/* Object to function pointer: allowed by POSIX (as for dlsym). */
	memcpy(&out->fn, &code, sizeof out->fn);
	return code != NULL;
}

bool hashx_compile_batch_scatter(const hashx_program *prog,
				 const hashx_sip_state *key, hashx_impl impl,
				 const hashx_scatter *t,
				 hashx_code_buffer *buf,
				 hashx_batch_scatter *out)
{
	hashx_compile_job job = {.prog = prog,
				 .form = HASHX_FORM_BATCH_SCATTER,
				 .key = key,
				 .scatter = t};
	void *code = build(&job, impl, buf, &out->lanes);

	memcpy(&out->fn, &code, sizeof out->fn);
	return code != NULL;
}

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * impl.c - choosing, once per process, how compiled HashX contexts
 * evaluate many inputs (batch.h): the widest vector unit this CPU and OS
 * can run, unless HASHX_IMPL names another. (Also built into equix-bench,
 * which reports the choice.)
 */
#include <config.h>

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "compiler.h"

static const char *const impl_names[HASHX_IMPL_COUNT] = {
	[HASHX_IMPL_PORTABLE] = "portable",
	[HASHX_IMPL_SCALAR] = "scalar",
	[HASHX_IMPL_AVX2] = "avx2",
	[HASHX_IMPL_AVX512] = "avx512",
};

const char *hashx_impl_name(hashx_impl impl)
{
	return impl < HASHX_IMPL_COUNT ? impl_names[impl] : "unknown";
}

hashx_impl hashx_impl_from_name(const char *name)
{
	for (int i = 0; i < HASHX_IMPL_COUNT; i++)
		if (name != NULL && strcmp(name, impl_names[i]) == 0)
			return (hashx_impl)i;
	return HASHX_IMPL_COUNT;
}

/*
 * The vector paths need the instructions and the OS's saving of the wider
 * registers; GCC's and Clang's __builtin_cpu_supports checks both (CPUID
 * and XGETBV). AVX-512 needs DQ for the 64-bit lane multiply (vpmullq).
 */
bool hashx_impl_available(hashx_impl impl)
{
	switch (impl) {
	case HASHX_IMPL_PORTABLE:
		return true;
	case HASHX_IMPL_SCALAR:
		return HASHX_HAVE_COMPILER;
#if defined(HASHX_JIT_X86_64)
	case HASHX_IMPL_AVX2:
		__builtin_cpu_init();
		return __builtin_cpu_supports("avx2");
	case HASHX_IMPL_AVX512:
		__builtin_cpu_init();
		return __builtin_cpu_supports("avx512f") &&
		       __builtin_cpu_supports("avx512dq");
#endif
	default:
		return false;
	}
}

/*
 * Fastest first, as measured (doc/performance.md): AVX-512 solves in about
 * half the scalar JIT's time; AVX2 hashes 6% faster than the scalar JIT
 * but its solve was 7% slower (4 lanes do not pay for the separate bucket
 * pass), so it runs only when HASHX_IMPL asks for it.
 */
static const hashx_impl preference[] = {
	HASHX_IMPL_AVX512,
	HASHX_IMPL_SCALAR,
	HASHX_IMPL_PORTABLE,
};

static hashx_impl pick_best_implementation(void)
{
	hashx_impl forced = hashx_impl_from_name(getenv("HASHX_IMPL"));

	if (forced != HASHX_IMPL_COUNT && hashx_impl_available(forced))
		return forced;
	for (size_t i = 0; i < sizeof preference / sizeof preference[0]; i++)
		if (hashx_impl_available(preference[i]))
			return preference[i];
	return HASHX_IMPL_PORTABLE;
}

/* The choice is a pure function of the process's CPU and environment, so
 * two threads racing here compute and store the same value. */
hashx_impl hashx_impl_default(void)
{
	static atomic_int chosen = -1;
	int impl = atomic_load_explicit(&chosen, memory_order_acquire);

	if (impl < 0) {
		impl = (int)pick_best_implementation();
		atomic_store_explicit(&chosen, impl, memory_order_release);
	}
	return (hashx_impl)impl;
}

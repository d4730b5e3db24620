/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * impl.c - choosing, once per process, how compiled HashX contexts
 * evaluate many inputs (batch.h): the widest vector unit this CPU and OS
 * can run, unless HASHX_IMPL names another. What each implementation is
 * and needs is in the table of dispatch.c.
 */
#include <config.h>

#include <stdatomic.h>
#include <stdlib.h>

#include "batch.h"

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

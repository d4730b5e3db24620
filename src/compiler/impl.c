/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * impl.c - choosing, once per process, how compiled HashX contexts
 * evaluate many inputs (batch.h): the order measured fastest on this
 * class of CPU, first available, unless HASHX_IMPL names another. What
 * each implementation is and needs is in the table of dispatch.c.
 */
#include <config.h>

#include <stdatomic.h>
#include <stdlib.h>

#include "batch.h"
#include "cpu.h"

#define END HASHX_IMPL_COUNT

/*
 * Which implementation solves fastest differs between CPUs: the vector
 * units' width, the multipliers and the cost of the batch forms' branch
 * handling are not the same, so one order measured on one machine is a
 * guess for the others. Each row is a class of CPUs, the order measured on
 * it (solve/compiled, doc/performance.md section 3, which gives the
 * figures), and why; the first row that matches wins, and the last matches
 * every CPU. A class nobody has measured gets the last row's order, and
 * its reason says so.
 */
typedef struct cpu_class {
	hashx_cpu_vendor vendor; /* HASHX_CPU_OTHER: any vendor */
	unsigned family_min, family_max;
	int avx512; /* 1: has AVX-512 F+DQ, 0: lacks it, -1: either */
	hashx_impl order[HASHX_IMPL_COUNT + 1]; /* ends with END */
	const char *why;
} cpu_class;

static const cpu_class classes[] = {
	{HASHX_CPU_AMD, 0x19, 0x19, 0,
	 {HASHX_IMPL_AVX2, HASHX_IMPL_SCALAR, HASHX_IMPL_PORTABLE, END},
	 "AMD family 19h without AVX-512 (Zen 3): AVX2 solved faster than "
	 "the scalar JIT (measured on an EPYC Zen 3)"},
	{HASHX_CPU_AMD, 0x1a, 0xff, 1,
	 {HASHX_IMPL_AVX512, HASHX_IMPL_SCALAR, HASHX_IMPL_AVX2,
	  HASHX_IMPL_PORTABLE, END},
	 "AMD family 1Ah with AVX-512 (Zen 5): AVX-512 solved fastest, then "
	 "the scalar JIT, then AVX2 (measured on an EPYC Zen 5)"},
	{HASHX_CPU_INTEL, 6, 6, 1,
	 {HASHX_IMPL_AVX512, HASHX_IMPL_SCALAR, HASHX_IMPL_AVX2,
	  HASHX_IMPL_PORTABLE, END},
	 "Intel with AVX-512: AVX-512 solved fastest, then the scalar JIT, "
	 "then AVX2 (measured on a Xeon, Sapphire Rapids)"},
	{HASHX_CPU_OTHER, 0, ~0u, -1,
	 {HASHX_IMPL_AVX512, HASHX_IMPL_SCALAR, HASHX_IMPL_PORTABLE, END},
	 "no measurement for this CPU class: AVX-512 where present, else "
	 "the scalar JIT (the order measured on Intel and AMD Zen 5)"},
};

static bool matches(const cpu_class *c, hashx_cpu_id id, bool avx512)
{
	return (c->vendor == HASHX_CPU_OTHER || c->vendor == id.vendor) &&
	       id.family >= c->family_min && id.family <= c->family_max &&
	       (c->avx512 < 0 || c->avx512 == (int)avx512);
}

static const cpu_class *class_of(hashx_cpu_id id, bool avx512)
{
	size_t i = 0;

	while (!matches(&classes[i], id, avx512))
		i++; /* the last row matches every CPU */
	return &classes[i];
}

hashx_impl hashx_impl_order_for(hashx_cpu_id id, bool avx512, size_t k,
				const char **why)
{
	const cpu_class *c = class_of(id, avx512);
	size_t n = 0;

	while (c->order[n] != END)
		n++;
	if (why != NULL)
		*why = c->why;
	return k < n ? c->order[k] : END;
}

hashx_impl hashx_impl_choose(const char **why)
{
	hashx_impl forced = hashx_impl_from_name(getenv("HASHX_IMPL"));
	hashx_cpu_id id = hashx_cpu_identify();
	bool avx512 = hashx_cpu_has_avx512();
	const char *row_why;
	hashx_impl impl;

	if (forced != HASHX_IMPL_COUNT && hashx_impl_available(forced)) {
		if (why != NULL)
			*why = "forced by HASHX_IMPL";
		return forced;
	}
	for (size_t k = 0;
	     (impl = hashx_impl_order_for(id, avx512, k, &row_why)) != END;
	     k++)
		if (hashx_impl_available(impl)) {
			if (why != NULL)
				*why = row_why;
			return impl;
		}
	if (why != NULL)
		*why = "nothing else is available";
	return HASHX_IMPL_PORTABLE;
}

/* The choice is a pure function of the process's CPU and environment, so
 * two threads racing here compute and store the same value. */
hashx_impl hashx_impl_default(void)
{
	static atomic_int chosen = -1;
	int impl = atomic_load_explicit(&chosen, memory_order_acquire);

	if (impl < 0) {
		impl = (int)hashx_impl_choose(NULL);
		atomic_store_explicit(&chosen, impl, memory_order_release);
	}
	return (hashx_impl)impl;
}

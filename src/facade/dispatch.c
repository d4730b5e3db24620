/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dispatch.c - the one place that decides which code runs (dispatch.h):
 * the CPU probe, the table of implementations with each one's needs and
 * batch code generator, the order measured fastest per class of CPU, the
 * 8-lane interpreter's choice, and a context's plan. The implementations
 * themselves are listed once, in impl.h; CONTRIBUTING.md says what a new
 * back-end takes.
 */
#include <config.h>

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "batch_backend.h"
#include "compiler.h"
#include "dispatch.h"

/* ---- the CPU probe ---------------------------------------------------- */

/* GCC's and Clang's __builtin_cpu_supports checks both the instructions
 * (CPUID) and the OS's saving of the wider registers (XGETBV); its answer
 * is cached here so that no hot path asks again. */
enum {
	CPU_PROBED = 1,
	CPU_AVX2 = 2,
	CPU_AVX512 = 4,
};

static int probe(void)
{
	int found = CPU_PROBED;

#if defined(__x86_64__) || defined(__i386__)
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx2"))
		found |= CPU_AVX2;
	if (__builtin_cpu_supports("avx512f") &&
	    __builtin_cpu_supports("avx512dq"))
		found |= CPU_AVX512;
#endif
	return found;
}

/* The answer depends on the machine only, so threads racing here store
 * the same value. */
static int features(void)
{
	static atomic_int cached;
	int f = atomic_load_explicit(&cached, memory_order_acquire);

	if (f == 0) {
		f = probe();
		atomic_store_explicit(&cached, f, memory_order_release);
	}
	return f;
}

bool hashx_cpu_has_avx2(void)
{
	return (features() & CPU_AVX2) != 0;
}

bool hashx_cpu_has_avx512(void)
{
	return (features() & CPU_AVX512) != 0;
}

hashx_cpu_id hashx_cpu_identify(void)
{
	hashx_cpu_id id = {HASHX_CPU_OTHER, 0};
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;
	char vendor[13];

	if (!__get_cpuid(0, &a, &b, &c, &d))
		return id;
	/* the vendor string is EBX, EDX, ECX in that order */
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = '\0';
	if (strcmp(vendor, "GenuineIntel") == 0)
		id.vendor = HASHX_CPU_INTEL;
	else if (strcmp(vendor, "AuthenticAMD") == 0)
		id.vendor = HASHX_CPU_AMD;
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return id;
	id.family = (a >> 8) & 0xf;
	if (id.family == 0xf)
		id.family += (a >> 20) & 0xff;
#endif
	return id;
}

/* ---- the table of implementations ------------------------------------- */

/* Each implementation's name, what it needs of the build and CPU, and its
 * batch code generator: impl.h's rows. The rest of the library asks this
 * table, never the enum's order. */
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

#define ROW(id, name, available, jit, batch)                                  \
	[HASHX_IMPL_##id] = {name, available, jit, batch},

static const impl_row impls[HASHX_IMPL_COUNT] = {HASHX_IMPLS(ROW)};

#undef ROW

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

unsigned hashx_impl_lanes(hashx_impl impl)
{
	return hashx_impl_batches(impl) ? impls[impl].batch->lanes : 1;
}

const hashx_batch_backend *hashx_impl_backend(hashx_impl impl)
{
	return hashx_impl_available(impl) ? impls[impl].batch : NULL;
}

/* ---- the order measured per class of CPU ------------------------------ */

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

/* ---- the 8-lane interpreter ------------------------------------------- */

#if HASHX_HAVE_LANES
const hashx_lanes_impl hashx_lanes_impls[HASHX_LANES_IMPL_COUNT] = {
	{"avx512", hashx_cpu_has_avx512, hashx_lanes8_avx512,
	 HASHX_IMPL_AVX512},
	{"avx2", hashx_cpu_has_avx2, hashx_lanes8_avx2, HASHX_IMPL_COUNT},
};
#endif

/*
 * The lanes an interpreted context whose implementation is `impl` hashes
 * a verification's 8 inputs in, or NULL for one input at a time. The
 * implementation says how wide a vector unit it may use, and the lanes
 * follow it, through the rows of hashx_lanes_impls above (the first one
 * whose only_for admits `impl` and that this CPU runs):
 *  - portable: none. It is the reference path (the interpreter alone),
 *    which HASHX_IMPL=portable must keep meaning.
 *  - avx512: the AVX-512 lanes.
 *  - scalar or avx2 (or avx512 where the lanes' DQ is missing): the AVX2
 *    lanes where the CPU has AVX2. Forcing avx2 on an AVX-512 machine
 *    thereby runs what an AVX2-only CPU runs, so tests/impls.sh and the
 *    benchmark reach this path everywhere; and the scalar JIT's own
 *    choice is not about the interpreter, whose 8 hashes one at a time
 *    pay the dispatch mispredicts 8 times over.
 */
static hashx_lanes8_fn *lanes_for(hashx_impl impl)
{
#if HASHX_HAVE_LANES
	if (impl == HASHX_IMPL_PORTABLE)
		return NULL;
	for (size_t k = 0; k < HASHX_LANES_IMPL_COUNT; k++) {
		const hashx_lanes_impl *l = &hashx_lanes_impls[k];

		if ((l->only_for == HASHX_IMPL_COUNT || l->only_for == impl) &&
		    l->available())
			return l->hash;
	}
#else
	(void)impl;
#endif
	return NULL;
}

/* ---- a context's plan ------------------------------------------------- */

/* The best stage-0 form `impl` has for a compiled function: the fused
 * batch form, the batch form, the scalar JIT's scatter form; an
 * interpreted function hashes one input at a time. */
static hashx_stage0 stage0_for(hashx_impl impl, bool compiled)
{
	if (!compiled)
		return HASHX_STAGE0_ONE_BY_ONE;
	if (hashx_impl_scatters(impl))
		return HASHX_STAGE0_FUSED;
	if (hashx_impl_batches(impl))
		return HASHX_STAGE0_BATCH;
	if (hashx_impl_uses_jit(impl))
		return HASHX_STAGE0_SCATTER;
	return HASHX_STAGE0_ONE_BY_ONE;
}

hashx_plan hashx_plan_for(hashx_impl impl, bool compiled)
{
	/* A compiled function hashes faster alone than in the lanes. */
	hashx_plan p = {stage0_for(impl, compiled),
			compiled ? NULL : lanes_for(impl)};

	return p;
}

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cpu.c - the CPU probe of cpu.h. GCC's and Clang's
 * __builtin_cpu_supports checks both the instructions (CPUID) and the
 * OS's saving of the wider registers (XGETBV); its answer is cached here
 * so that no hot path asks again.
 */
#include <config.h>

#include <stdatomic.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "cpu.h"

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

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cpu.h - what vector units this CPU and OS can run, probed once per
 * process, and which CPU it is (vendor and family, for impl.c's table of
 * measured choices). Shared by the interpreter's lanes and the compiler's
 * table of implementations (dispatch.c), so that neither asks the other.
 */
#ifndef HASHX_CPU_H
#define HASHX_CPU_H

#include <stdbool.h>

/* AVX2, with the OS saving the 256-bit registers. */
bool hashx_cpu_has_avx2(void);

/* AVX-512 F and DQ (DQ for the 64-bit lane multiply, vpmullq), with the
 * OS saving the 512-bit registers. */
bool hashx_cpu_has_avx512(void);

/* The CPU's maker, from CPUID's vendor string. */
typedef enum hashx_cpu_vendor {
	HASHX_CPU_OTHER, /* not x86, or a vendor the table does not name */
	HASHX_CPU_INTEL,
	HASHX_CPU_AMD,
} hashx_cpu_vendor;

/* Which CPU this is: its vendor and its display family (CPUID leaf 1:
 * the base family plus the extended family when the base is 0xf, so that
 * AMD Zen 3 and 4 are 0x19, Zen 5 0x1a, Intel's cores 6). 0 where there
 * is no CPUID. */
typedef struct hashx_cpu_id {
	hashx_cpu_vendor vendor;
	unsigned family;
} hashx_cpu_id;

hashx_cpu_id hashx_cpu_identify(void);

#endif

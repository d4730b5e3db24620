/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dispatch.h - which code runs a HashX function, decided in one place
 * (dispatch.c): what this CPU and OS can run, the implementations
 * (impl.h) and what each needs, the order measured fastest per class of
 * CPU, the 8-lane interpreter a verification uses, and the plan a context
 * fixes at hashx_make() from all of these. The back-ends below only
 * describe themselves (batch_backend.h, compiler.h); nothing under this
 * floor decides.
 */
#ifndef HASHX_DISPATCH_H
#define HASHX_DISPATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "batch.h"
#include "batch_backend.h"
#include "code_buffer.h"
#include "impl.h"
#include "interpreter_lanes.h"
#include "program.h"
#include "scatter.h"
#include "siphash.h"

/* ---- the CPU, probed once per process --------------------------------- */

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

/* ---- the implementations ---------------------------------------------- */

/* The name used in HASHX_IMPL and in reports (impl.h's rows), and back;
 * HASHX_IMPL_COUNT for an unknown name. */
const char *hashx_impl_name(hashx_impl impl);
hashx_impl hashx_impl_from_name(const char *name);

/* Whether this build and this CPU (and OS) can run `impl`. */
bool hashx_impl_available(hashx_impl impl);

/* Whether `impl` hashes with compiled code (the scalar JIT's forms or a
 * batch form), and whether it has a batch form (hashx_impl_backend). */
bool hashx_impl_uses_jit(hashx_impl impl);
bool hashx_impl_batches(hashx_impl impl);
/* Whether `impl`'s batch back-end has the fused stage 0 form. */
bool hashx_impl_scatters(hashx_impl impl);
/* The inputs `impl`'s batch form hashes per group (its back-end's
 * lanes); 1 for one input at a time. */
unsigned hashx_impl_lanes(hashx_impl impl);

/*
 * The implementation compiled contexts use: the one named by the
 * environment variable HASHX_IMPL if available here, else the first
 * available in the order measured fastest on this class of CPU.
 * Decided once per process; thread-safe.
 */
hashx_impl hashx_impl_default(void);

/* The same choice made afresh, and in `*why` (unless NULL) the reason, as
 * a sentence for reports such as equix-bench's first line. */
hashx_impl hashx_impl_choose(const char **why);

/* The k-th implementation (from 0) in the order measured for CPU `id`,
 * with or without AVX-512, whether available or not; HASHX_IMPL_COUNT past
 * its end. `*why` (unless NULL): the measurement behind that order. */
hashx_impl hashx_impl_order_for(hashx_cpu_id id, bool avx512, size_t k,
				const char **why);

/* The batch back-end `impl` compiles with (batch_backend.h's
 * hashx_compile_batch and hashx_compile_batch_scatter take it), or NULL
 * when `impl` has none or this build or CPU cannot run it. */
const hashx_batch_backend *hashx_impl_backend(hashx_impl impl);

/* ---- the 8-lane interpreter ------------------------------------------- */

/* One way of running them: the plan takes the first row its
 * implementation may use and this CPU runs; the tests try every row. */
typedef struct hashx_lanes_impl {
	const char *name;
	bool (*available)(void); /* this CPU and OS run `hash` */
	hashx_lanes8_fn *hash;
	/* The one implementation that may use the row, or HASHX_IMPL_COUNT
	 * for every one but portable. */
	hashx_impl only_for;
} hashx_lanes_impl;

#define HASHX_LANES_IMPL_COUNT 2

#if HASHX_HAVE_LANES
/* AVX-512 F and DQ (for avx512 only), then AVX2. */
extern const hashx_lanes_impl hashx_lanes_impls[HASHX_LANES_IMPL_COUNT];
#endif

/* ---- a context's plan ------------------------------------------------- */

/*
 * How a context runs Equi-X's stage 0 (hashx_exec_scatter), best first.
 * Each form that does not compile for a table falls back to the next,
 * down to one hash at a time, which always runs.
 */
typedef enum hashx_stage0 {
	HASHX_STAGE0_FUSED,      /* batch form with the table in its loop */
	HASHX_STAGE0_BATCH,      /* batch form, then the table in C */
	HASHX_STAGE0_SCATTER,    /* the scalar JIT's scatter form */
	HASHX_STAGE0_ONE_BY_ONE, /* hashx_exec_u64 per input */
} hashx_stage0;

typedef struct hashx_plan {
	hashx_stage0 stage0;
	/* the 8-lane interpreter for a verification's hashes, or NULL for
	 * one hash at a time */
	hashx_lanes8_fn *lanes8;
} hashx_plan;

/* The plan for a function run with `impl`, compiled or interpreted. */
hashx_plan hashx_plan_for(hashx_impl impl, bool compiled);

#endif

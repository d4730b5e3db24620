/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_verify.c - libFuzzer harness: equix_verify on attacker bytes. The
 * input is a 16-byte solution (wire form) followed by the challenge. The
 * result must be a defined code, and an interpreted context (the AVX-512
 * lanes interpreter where the CPU has it) and a must-compile one (the JIT)
 * must agree on it (unless this machine cannot compile).
 */
#include <stdint.h>
#include <stdlib.h>

#include <equix.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static equix_ctx *interpreted, *compiled;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	equix_solution s;
	equix_result a, b;

	if (interpreted == NULL) {
		interpreted = equix_alloc(EQUIX_CTX_VERIFY);
		compiled = equix_alloc(EQUIX_CTX_VERIFY |
				       EQUIX_CTX_MUST_COMPILE);
		if (interpreted == NULL || compiled == NULL)
			abort();
	}
	if (size < EQUIX_SOLUTION_BYTES)
		return 0;
	equix_solution_unpack(data, &s);
	a = equix_verify(interpreted, data + EQUIX_SOLUTION_BYTES,
			 size - EQUIX_SOLUTION_BYTES, &s);
	b = equix_verify(compiled, data + EQUIX_SOLUTION_BYTES,
			 size - EQUIX_SOLUTION_BYTES, &s);
	if (a < EQUIX_OK || a > EQUIX_FAIL_INTERNAL)
		abort();
	if (a != b && b != EQUIX_FAIL_COMPILE)
		abort();
	return 0;
}

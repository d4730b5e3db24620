/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/* A CMake client (tests/clients/cmake): one hash and one solve. */
#include <stdio.h>
#include <string.h>

#include <equix.h>
#include <hashx.h>

int main(void)
{
	static const char seed[] = "This is a test";
	static const unsigned char want[4] = { 0x2b, 0x2f, 0x54, 0x56 };
	unsigned char hash[32];
	hashx_ctx *h = hashx_alloc(HASHX_TRY_COMPILE);
	equix_ctx *e = equix_alloc(EQUIX_CTX_SOLVE | EQUIX_CTX_TRY_COMPILE);
	equix_solutions_buffer sols;

	if (h == NULL || e == NULL ||
	    hashx_make(h, seed, sizeof seed) != HASHX_OK ||
	    hashx_exec_sized(h, 0, hash, 32) != HASHX_OK ||
	    memcmp(hash, want, 4) != 0 ||
	    equix_solve(e, seed, sizeof seed, &sols) != EQUIX_OK ||
	    sols.count != 1 || sols.sols[0].idx[0] != 0x09da) {
		puts("FAIL: CMake client");
		return 1;
	}
	printf("CMake client: libequix %s, hash %02x%02x..., solution "
	       "%04x...\n",
	       equix_version_string(), hash[0], hash[1], sols.sols[0].idx[0]);
	hashx_free(h);
	equix_free(e);
	return 0;
}

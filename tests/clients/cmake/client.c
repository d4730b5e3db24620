/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/* A CMake client (tests/clients/cmake): one HashX hash, one HashWX hash
 * (equix::hashwx) and one solve. */
#include <stdio.h>
#include <string.h>

#include <equix.h>
#include <hashwx.h>
#include <hashx.h>

int main(void)
{
	static const char seed[] = "This is a test";
	static const unsigned char want[4] = { 0x2b, 0x2f, 0x54, 0x56 };
	unsigned char hash[32];
	hashx_ctx *h = hashx_alloc(HASHX_TRY_COMPILE);
	equix_ctx *e = equix_alloc(EQUIX_CTX_SOLVE | EQUIX_CTX_TRY_COMPILE);
	equix_solutions_buffer sols;
	/* tevador's libhashwx's hash (tests/clients/hashwx_client.c). */
	static const uint8_t wx_seed[HASHWX_SEED_SIZE] =
		"a seed makes one hash function";
	hashwx_ctx *wx = hashwx_alloc(HASHWX_INTERPRETED);

	if (wx == NULL)
		return 1;
	hashwx_make(wx, wx_seed);
	if (hashwx_exec(wx, 123456789) != UINT64_C(0x2dae5f1b18bdd6db)) {
		puts("FAIL: CMake client: hashwx");
		return 1;
	}
	hashwx_free(wx);

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

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_link_clash.c - the static archives that make install installs
 * (src/hashx/libhashx-public.a, src/hashwx/libhashwx-public.a, which
 * carries its own copy of the HashX core, src/equix/libequix-public.a;
 * doc/abi.md)
 * linked together into one program with an object that
 * defines their old internal names (link_clash_internals.c): the link
 * must succeed, HashX, HashWX and Equi-X must still give the test vectors'
 * results (tests/vectors/hashx-named.txt, hashwx-v2.txt, equix-named.txt),
 * and the
 * program's own definitions must be the ones it calls. Without Check, so
 * that it links nothing but the archives, libsodium and libpthread.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include <equix.h>
#include <equix_pow.h>
#include <hashwx.h>
#include <hashx.h>

#include "link_clash_internals.h"

static int failures;

static void expect(int ok, const char *what)
{
	printf("%s: %s\n", ok ? "ok" : "FAIL", what);
	if (!ok)
		failures++;
}

static void from_hex(const char *hex, uint8_t *out, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned b;
		sscanf(hex + 2 * i, "%2x", &b);
		out[i] = (uint8_t)b;
	}
}

/* The vectors were made with the default salt: another salt gives other
 * functions, and only the self-consistency checks apply. */
static int default_family(void)
{
	return strcmp(HASHX_SALT, "HashX v1") == 0;
}

/* hashx-named.txt, first line: seed "This is a test\0", input 0. */
static void check_hashx(void)
{
	static const char seed[] = "This is a test";
	uint8_t want[32], got[HASHX_SIZE];
	hashx_ctx *ctx = hashx_alloc(HASHX_TRY_COMPILE);

	from_hex("2b2f54567dcbea98fdb5d5e5ce9a6598"
		 "3c4a4e35ab1464b1efb61e83b7074bb2", want, sizeof want);
	expect(ctx != NULL, "hashx_alloc");
	if (ctx == NULL)
		return;
	expect(hashx_make(ctx, seed, sizeof seed) == HASHX_OK, "hashx_make");
	expect(hashx_exec(ctx, 0, got) == HASHX_OK, "hashx_exec");
	if (default_family())
		expect(memcmp(got, want, sizeof got) == 0,
		       "hashx vector: seed \"This is a test\\0\", input 0");
	hashx_free(ctx);
}

/* hashwx-v2.txt, first line: seed 0^32, nonce 0. */
static void check_hashwx(void)
{
	static const uint8_t seed[HASHWX_SEED_SIZE];
	hashwx_ctx *ctx = hashwx_alloc(HASHWX_INTERPRETED);

	expect(ctx != NULL && ctx != HASHWX_NOTSUPP, "hashwx_alloc");
	if (ctx == NULL || ctx == HASHWX_NOTSUPP)
		return;
	hashwx_make(ctx, seed);
	expect(hashwx_exec(ctx, 0) == UINT64_C(0x91abdf0422944e5d),
	       "hashwx vector: seed 0^32, nonce 0");
	hashwx_free(ctx);
}

/* equix-named.txt, first line: one solution of "This is a test\0". */
static void check_equix(void)
{
	static const char challenge[] = "This is a test";
	static const equix_idx want[EQUIX_NUM_IDX] = {
		0x09da, 0x8f71, 0xb2a0, 0xd15a, 0x4a70, 0xab11, 0x4bd9, 0xe23c
	};
	equix_solutions_buffer found;
	equix_ctx *ctx = equix_alloc(EQUIX_CTX_SOLVE | EQUIX_CTX_TRY_COMPILE);

	expect(ctx != NULL, "equix_alloc");
	if (ctx == NULL)
		return;
	expect(equix_solve(ctx, challenge, sizeof challenge, &found) ==
		       EQUIX_OK, "equix_solve");
	if (default_family())
		expect(found.count == 1 &&
			       memcmp(found.sols[0].idx, want, sizeof want) == 0,
		       "equix vector: the one solution of \"This is a test\\0\"");
	for (unsigned i = 0; i < found.count && i < EQUIX_MAX_SOLS; i++)
		expect(equix_verify(ctx, challenge, sizeof challenge,
				    &found.sols[i]) == EQUIX_OK,
		       "equix_verify of a solution found");
	equix_free(ctx);
}

/* The PoW service uses the replay cache, whose names are defined here. */
static void check_pow_service(void)
{
	uint8_t id[EQUIX_POW_ID_LEN] = { 1 }, seed[EQUIX_POW_SEED_LEN] = { 2 };
	uint8_t nonce[EQUIX_POW_NONCE_LEN] = { 3 };
	equix_pow_solution proof;
	equix_pow_service *svc = equix_pow_service_alloc(id, seed, 0, 0);

	expect(svc != NULL, "equix_pow_service_alloc");
	if (svc == NULL)
		return;
	expect(equix_pow_solve(id, seed, 2, nonce, NULL, &proof, NULL) ==
		       EQUIX_POW_OK, "equix_pow_solve");
	expect(equix_pow_service_verify(svc, NULL, &proof) == EQUIX_POW_OK,
	       "equix_pow_service_verify accepts the proof");
	expect(equix_pow_service_verify(svc, NULL, &proof) != EQUIX_POW_OK,
	       "equix_pow_service_verify refuses it again (replay)");
	equix_pow_service_free(svc);
}

int main(void)
{
	check_hashx();
	check_hashwx();
	check_equix();
	check_pow_service();
	/* The program's names are its own. */
	expect(hashx_generate() == CLASH_MARKER + 1 &&
		       hashx_siphash24_ctr_state512() == CLASH_MARKER + 2 &&
		       hashx_compile() == CLASH_MARKER + 3 &&
		       hashx_make_for_few() == CLASH_MARKER + 4 &&
		       hashx_keys_from_seed() == CLASH_MARKER + 5 &&
		       hashx_interpret_portable() == CLASH_MARKER + 6 &&
		       replay_cache_insert() == CLASH_MARKER + 7 &&
		       replay_cache_init() == CLASH_MARKER + 8 &&
		       hashx_ctx_set_impl() == CLASH_MARKER + 9,
	       "the program's own definitions of the internal names");
	return failures == 0 ? 0 : 1;
}

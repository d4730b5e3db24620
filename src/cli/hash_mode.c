/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hash_mode.c - the HashX path chosen on the command line; see
 * hash_mode.h.
 */
#include "hash_mode.h"

#include <hashwx.h>

#include "args.h"

/* Records `chosen` in `*mode`; prints one line and returns false when
 * the other of --interpret / --compile was already given. */
static bool cli_hash_mode_set(cli_hash_mode *mode, cli_hash_mode chosen)
{
	if (*mode != CLI_HASH_DEFAULT && *mode != chosen) {
		cli_usage_error("--interpret and --compile exclude each "
				"other");
		return false;
	}
	*mode = chosen;
	return true;
}

bool cli_hash_mode_pick(int interpret, int compile, cli_hash_mode *mode)
{
	*mode = CLI_HASH_DEFAULT;
	if (interpret && !cli_hash_mode_set(mode, CLI_HASH_INTERPRET))
		return false;
	return !compile || cli_hash_mode_set(mode, CLI_HASH_COMPILE);
}

equix_ctx_flags cli_hash_mode_equix_flags(cli_hash_mode mode)
{
	switch (mode) {
	case CLI_HASH_INTERPRET:
		return EQUIX_CTX_VERIFY;
	case CLI_HASH_COMPILE:
		return EQUIX_CTX_MUST_COMPILE;
	case CLI_HASH_DEFAULT:
		break;
	}
	return EQUIX_CTX_TRY_COMPILE;
}

hashx_type cli_hash_mode_hashx_type(cli_hash_mode mode)
{
	switch (mode) {
	case CLI_HASH_INTERPRET:
		return HASHX_TYPE_INTERPRETED;
	case CLI_HASH_COMPILE:
		return HASHX_TYPE_COMPILED;
	case CLI_HASH_DEFAULT:
		break;
	}
	return HASHX_TRY_COMPILE;
}

/* Whether hashwx_alloc() gives compiled HashWX here; one line when not. */
static bool hashwx_usable(void)
{
	hashwx_ctx *ctx = hashwx_alloc(HASHWX_COMPILED);

	if (ctx == NULL) {
		cli_fail("out of memory");
		return false;
	}
	if (ctx == HASHWX_NOTSUPP) {
		cli_fail("--compile: no compiled HashWX on this machine (no "
			 "compiler for this CPU, or executable memory "
			 "refused); use the default or --interpret");
		return false;
	}
	hashwx_free(ctx);
	return true;
}

bool cli_hash_mode_usable(cli_hash_mode mode, int v2)
{
	hashx_ctx *ctx;
	hashx_result r;

	if (mode != CLI_HASH_COMPILE)
		return true;
	if (v2)
		return hashwx_usable();
	/* Making one function tells whether the platform gives us
	 * executable memory and has a compiler for this CPU. */
	ctx = hashx_alloc(HASHX_TYPE_COMPILED);
	if (ctx == NULL) {
		cli_fail("out of memory");
		return false;
	}
	r = hashx_make(ctx, "equix-cli", 9);
	hashx_free(ctx);
	if (r == HASHX_FAIL_COMPILE) {
		cli_fail("--compile: no compiled HashX on this machine (no "
			 "compiler for this CPU, or executable memory "
			 "refused); use the default or --interpret");
		return false;
	}
	return true;
}

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_hooks.c - functions that only the unit tests call (context.h).
 *
 * They reach into a context to force what a test needs (a refused mapping,
 * one implementation of the batch path). They are compiled into
 * libhashx-testhooks.la, which only test programs link, so that no
 * installed library, shared or static, carries them.
 */
#include <config.h>

#include <stdbool.h>
#include <stddef.h>

#include <hashx.h>

#include "context.h"

void hashx_ctx_inject_faults(hashx_ctx *ctx, unsigned faults)
{
	ctx->code.faults = faults;
	ctx->stage0.code.faults = faults;
}

bool hashx_ctx_set_impl(hashx_ctx *ctx, hashx_impl impl)
{
	if (!hashx_impl_available(impl))
		return false;
	ctx->impl = impl;
	hashx_stage0_reset(&ctx->stage0);
	/* The prepared function, if any, keeps its type, and runs as the
	 * new implementation's plan says. */
	if (ctx->func_type != 0)
		ctx->plan = hashx_plan_for(
			impl, ctx->func_type == HASHX_TYPE_COMPILED);
	return true;
}

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * none.c - the compiler on CPUs without a HashX code generator: it always
 * declines, and contexts fall back to (or fail without) the interpreter.
 */
#include <config.h>

#include "compiler.h"

void *hashx_arch_compile(const hashx_program *prog, hashx_form form,
			 const hashx_sip_state *key, const hashx_scatter *t,
			 hashx_code_buffer *buf)
{
	(void)prog;
	(void)form;
	(void)key;
	(void)t;
	(void)buf;
	return NULL;
}

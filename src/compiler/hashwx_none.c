/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hashwx_none.c - the HashWX compiler of a build without one: contexts of
 * type HASHWX_COMPILED are not supported (hashwx_alloc() says so).
 */
#include <stddef.h>

#include "hashwx_compiler.h"

bool hashwx_compiler_available(void)
{
	return false;
}

hashwx_hash_fn *hashwx_compile(const hashwx_instance *inst,
			       hashx_code_buffer *code)
{
	(void)inst;
	(void)code;
	return NULL;
}

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * impl_list.c - the listing of impl_list.h, from the facade's table of
 * implementations (dispatch.h).
 */
#include <config.h>

#include "dispatch.h"
#include "impl_list.h"

int bench_print_impls(FILE *f)
{
	for (int k = 0; k < HASHX_IMPL_COUNT; k++) {
		hashx_impl impl = (hashx_impl)k;

		fprintf(f, "%s %u %s\n", hashx_impl_name(impl),
			hashx_impl_lanes(impl),
			hashx_impl_available(impl) ? "yes" : "no");
	}
	return fflush(f) == 0 && !ferror(f) ? 0 : 1;
}

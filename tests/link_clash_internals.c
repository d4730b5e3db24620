/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * link_clash_internals.c - a program's own definitions of names that are
 * internal to libhashx and libequix (taken from nm of their archives
 * before they were localized), as another HashX copy (Tor's) or a
 * program's own code might define them. Against archives that export their
 * internals, a static link either fails (duplicate definitions: these
 * share objects with the public functions the test calls) or silently
 * runs these instead of the library's; tests/test_link_clash.c checks
 * neither happens. The signatures are this file's own: the libraries must
 * never call these.
 */
#include "link_clash_internals.h"

/* Each returns its own marker, so the test can tell it ran this copy. */
int hashx_generate(void)
{
	return CLASH_MARKER + 1;
}

int hashx_siphash24_ctr_state512(void)
{
	return CLASH_MARKER + 2;
}

int hashx_compile(void)
{
	return CLASH_MARKER + 3;
}

int hashx_make_for_few(void)
{
	return CLASH_MARKER + 4;
}

int hashx_keys_from_seed(void)
{
	return CLASH_MARKER + 5;
}

int hashx_interpret_portable(void)
{
	return CLASH_MARKER + 6;
}

int replay_cache_insert(void)
{
	return CLASH_MARKER + 7;
}

int replay_cache_init(void)
{
	return CLASH_MARKER + 8;
}

int hashx_ctx_set_impl(void)
{
	return CLASH_MARKER + 9;
}

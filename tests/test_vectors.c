/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_vectors.c - every seed and input of the reference's HashX vectors,
 * through the public API, compared on all output bytes.
 */
#include <stdlib.h>
#include <string.h>

#include <hashx.h>

#include "testutil.h"

/* Checks a vector file through a fresh context of `type`. */
static int check_file(const char *name, hashx_type type, int *fails)
{
	hashx_ctx *ctx = hashx_alloc(type);
	int lines;

	ck_assert_ptr_nonnull(ctx);
	lines = tu_check_hashx_vectors(ctx, name, 0, fails);
	hashx_free(ctx);
	return lines;
}

START_TEST(named_interpreted)
{
	int fails;
	int n = check_file("hashx-named.txt", HASHX_TYPE_INTERPRETED, &fails);

	ck_assert_int_eq(n, 18);
	ck_assert_int_eq(fails, 4);
}
END_TEST

START_TEST(random_interpreted)
{
	int fails;

	ck_assert_int_eq(check_file("hashx.txt", HASHX_TYPE_INTERPRETED,
				    &fails), 3000);
}
END_TEST

/* The same vectors through a context that merely tries to compile. */
START_TEST(named_try_compile)
{
	int fails;

	ck_assert_int_eq(check_file("hashx-named.txt", HASHX_TRY_COMPILE,
				    &fails), 18);
}
END_TEST

START_TEST(random_try_compile)
{
	int fails;

	ck_assert_int_eq(check_file("hashx.txt", HASHX_TRY_COMPILE, &fails),
			 3000);
}
END_TEST

int main(void)
{
	tu_skip_unless_reference_salt("test_vectors");

	Suite *s = suite_create("hashx-vectors");
	TCase *tc = tcase_create("reference");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, named_interpreted);
	tcase_add_test(tc, random_interpreted);
	tcase_add_test(tc, named_try_compile);
	tcase_add_test(tc, random_try_compile);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}

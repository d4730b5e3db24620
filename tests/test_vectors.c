/*
 * test_vectors.c - every seed and input of the reference's HashX vectors,
 * through the public API, compared on all output bytes.
 */
#include <stdlib.h>
#include <string.h>

#include <hashx.h>

#include "testutil.h"

#define MAX_SEED 1024

/* Runs one vector line; returns a description of the first mismatch, or
 * NULL. `lines` counts the vectors checked. */
static const char *check_line(hashx_ctx *ctx, char *line, char *why,
			      size_t why_len)
{
	uint8_t seed[MAX_SEED], want[32], got[HASHX_SIZE];
	char *save, *tag = strtok_r(line, " \n", &save);
	char *seed_hex = strtok_r(NULL, " \n", &save);
	char *status = strtok_r(NULL, " \n", &save);
	long seed_len;
	hashx_result res;

	if (tag == NULL || strcmp(tag, "hashx") != 0 || seed_hex == NULL ||
	    status == NULL)
		return "malformed line";
	seed_len = tu_hex_decode(seed_hex, seed, sizeof seed);
	if (seed_len < 0)
		return "malformed seed";
	res = hashx_make(ctx, seed, (size_t)seed_len);
	if (strcmp(status, "fail-seed") == 0) {
		snprintf(why, why_len, "seed %s: want HASHX_FAIL_SEED, got %d",
			 seed_hex, (int)res);
		return res == HASHX_FAIL_SEED ? NULL : why;
	}
	if (strcmp(status, "ok") != 0)
		return "unknown status";
	if (res != HASHX_OK) {
		snprintf(why, why_len, "seed %s: make gave %d", seed_hex,
			 (int)res);
		return why;
	}
	int pairs = 0;
	for (char *tok; (tok = strtok_r(NULL, " \n", &save)) != NULL;) {
		char *colon = strchr(tok, ':');
		uint64_t nonce;

		if (colon == NULL)
			return "malformed nonce:hash";
		*colon = '\0';
		nonce = strtoull(tok, NULL, 16);
		if (tu_hex_decode(colon + 1, want, sizeof want) != 32)
			return "malformed hash";
		if (hashx_exec(ctx, nonce, got) != HASHX_OK)
			return "exec failed";
		if (memcmp(got, want, HASHX_SIZE) != 0) {
			char hex[65];

			tu_hex_encode(got, HASHX_SIZE, hex);
			snprintf(why, why_len, "seed %s nonce %s: got %s want %s",
				 seed_hex, tok, hex, colon + 1);
			return why;
		}
		pairs++;
	}
	return pairs > 0 ? NULL : "no nonce:hash pairs";
}

/* Checks a whole vector file; fails on the first mismatch. Returns the
 * number of lines checked. */
static int check_file(const char *name, hashx_type type, int *fails)
{
	static char line[8192];
	char why[512];
	FILE *f = tu_open_vector(name);
	hashx_ctx *ctx = hashx_alloc(type);
	int lines = 0;

	ck_assert_msg(f != NULL, "cannot open vector file %s", name);
	ck_assert_ptr_nonnull(ctx);
	*fails = 0;
	while (fgets(line, sizeof line, f) != NULL) {
		int fail_seed = strstr(line, "fail-seed") != NULL;
		const char *err = check_line(ctx, line, why, sizeof why);

		ck_assert_msg(err == NULL, "%s line %d: %s", name, lines + 1,
			      err);
		lines++;
		*fails += fail_seed;
	}
	fclose(f);
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

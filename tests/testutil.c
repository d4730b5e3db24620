/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * testutil.c - small helpers shared by the unit tests.
 */
#include <config.h>

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <hashx.h>

#include "program.h"
#include "testutil.h"

long tu_hex_decode(const char *hex, uint8_t *out, size_t cap)
{
	return bench_hex_decode(hex, out, cap);
}

void tu_hex_encode(const uint8_t *in, size_t len, char *out)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < len; i++) {
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 15];
	}
	out[2 * len] = '\0';
}

FILE *tu_open_vector(const char *name)
{
	char path[4096];

	snprintf(path, sizeof path, "%s/%s", bench_vectors_dir(NULL), name);
	return fopen(path, "r");
}

int tu_hashx_vector_parse(char *line, tu_hashx_vector *v)
{
	return bench_hashx_vec_parse(line, v);
}

int tu_hashx_vector_find(const char *name, const char *seed_hex,
			 tu_hashx_vector *v)
{
	static char line[8192];
	FILE *f = tu_open_vector(name);
	size_t n = strlen(seed_hex);
	int ret = -1;

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof line, f) != NULL) {
		/* "hashx " + seed + separator */
		if (strncmp(line, "hashx ", 6) == 0 &&
		    strncmp(line + 6, seed_hex, n) == 0 && line[6 + n] == ' ') {
			ret = tu_hashx_vector_parse(line, v);
			break;
		}
	}
	fclose(f);
	return ret;
}

int tu_hashx_vector_each(const char *name,
			 void (*fn)(const tu_hashx_vector *v, void *user),
			 void *user)
{
	FILE *f = tu_open_vector(name);
	char *line = NULL;
	size_t cap = 0;
	int lines = 0;

	ck_assert_msg(f != NULL, "cannot open vector file %s", name);
	while (getline(&line, &cap, f) > 0) {
		tu_hashx_vector v;

		ck_assert_int_eq(tu_hashx_vector_parse(line, &v), 0);
		fn(&v, user);
		lines++;
	}
	free(line);
	fclose(f);
	return lines;
}

int tu_is_reference_salt(void)
{
	return strcmp(HASHX_SALT, "HashX v1") == 0;
}

void tu_skip_unless_reference_salt(const char *program)
{
	if (tu_is_reference_salt())
		return;
	printf("SKIP: %s compares with the reference vectors, which use the "
	       "salt \"HashX v1\"; this build uses \"%s\"\n", program,
	       HASHX_SALT);
	exit(77);
}

static int env_flag(const char *name)
{
	const char *e = getenv(name);

	return e != NULL && *e != '\0' && strcmp(e, "0") != 0;
}

int tu_emulated(void)
{
	return env_flag("EQUIX_TEST_EMULATED");
}

int tu_valgrind(void)
{
	return env_flag("EQUIX_TEST_VALGRIND");
}

/* The real one, Check's (testutil.h routes assertions here). */
#undef _mark_point

void tu_mark_point(const char *file, int line)
{
	/* -1: not decided yet; 1: pass the marks to Check; 0: drop them.
	 * Atomic: threads of the tests assert too. */
	static atomic_int marks = -1;
	int m = atomic_load_explicit(&marks, memory_order_relaxed);

	if (m < 0) {
		m = !tu_valgrind();
		atomic_store_explicit(&marks, m, memory_order_relaxed);
	}
	if (m)
		_mark_point(file, line);
}

int tu_slow_runner(void)
{
	return tu_emulated() || tu_valgrind();
}

int tu_sampled(long i)
{
	return !tu_valgrind() || i % TU_VALGRIND_STRIDE == 0;
}

int tu_vector_line_runs(const char *name, long line)
{
	static const char *const random_files[] = {
		"hashx.txt", "equix.txt", "hashwx-v2.txt", "equix-v2.txt"};

	for (size_t k = 0; k < sizeof random_files / sizeof random_files[0];
	     k++)
		if (strcmp(name, random_files[k]) == 0)
			return tu_sampled(line);
	return 1;
}

int tu_count(int n)
{
	static atomic_flag noted = ATOMIC_FLAG_INIT;

	if (!tu_valgrind() || n <= 1)
		return n;
	if (!atomic_flag_test_and_set(&noted))
		printf("SAMPLE: randomized loops run 1/%d of their iterations "
		       "(valgrind)\n", TU_VALGRIND_STRIDE);
	return (n + TU_VALGRIND_STRIDE - 1) / TU_VALGRIND_STRIDE;
}

void tu_sample_note(const char *what, long ran, long total)
{
	if (tu_valgrind() && ran < total)
		printf("SAMPLE: %s: %s: %ld of %ld (item 0 and every %dth "
		       "after it; valgrind)\n", tcase_name(), what, ran,
		       total, TU_VALGRIND_STRIDE);
}

void tu_valgrind_skip(const char *what, const char *why)
{
	printf("SKIP: %s under valgrind (%s)\n", what, why);
}

int tu_all_ran(long ran, long all, const char *bound)
{
	if (ran >= all)
		return 1;
	printf("SKIP: %s under valgrind (it needs all %ld)\n", bound, all);
	return 0;
}

int tu_run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

/* Runs one vector line; returns a description of the first mismatch, or
 * NULL. */
static const char *check_line(hashx_ctx *ctx, char *line, char *why,
			      size_t why_len)
{
	static tu_hashx_vector v;
	char seed[2 * sizeof v.seed + 1], got[2 * HASHX_SIZE + 1];
	char want[2 * HASHX_SIZE + 1];
	uint8_t out[HASHX_SIZE];
	hashx_result res;

	if (tu_hashx_vector_parse(line, &v) < 0)
		return "malformed line";
	tu_hex_encode(v.seed, v.seed_len, seed);
	res = hashx_make(ctx, v.seed, v.seed_len);
	if (!v.ok) {
		snprintf(why, why_len, "seed %.64s: want HASHX_FAIL_SEED, got %d",
			 seed, (int)res);
		return res == HASHX_FAIL_SEED ? NULL : why;
	}
	if (res != HASHX_OK) {
		snprintf(why, why_len, "seed %.64s: make gave %d", seed, (int)res);
		return why;
	}
	for (int i = 0; i < v.pairs; i++) {
		if (hashx_exec(ctx, v.nonce[i], out) != HASHX_OK)
			return "exec failed";
		if (memcmp(out, v.hash[i], HASHX_SIZE) != 0) {
			tu_hex_encode(out, HASHX_SIZE, got);
			tu_hex_encode(v.hash[i], HASHX_SIZE, want);
			snprintf(why, why_len,
				 "seed %.64s nonce %llx: got %s want %s", seed,
				 (unsigned long long)v.nonce[i], got, want);
			return why;
		}
	}
	return NULL;
}

int tu_check_hashx_vectors(hashx_ctx *ctx, const char *name,
			   hashx_type want_type, int *fail_seeds)
{
	static char line[8192];
	char why[512];
	FILE *f = tu_open_vector(name);
	int lines = 0, ran = 0;

	ck_assert_msg(f != NULL, "cannot open vector file %s", name);
	*fail_seeds = 0;
	for (; fgets(line, sizeof line, f) != NULL; lines++) {
		int fail_seed = strstr(line, "fail-seed") != NULL;
		const char *err;
		hashx_type type;

		if (!tu_vector_line_runs(name, lines))
			continue;
		ran++;
		err = check_line(ctx, line, why, sizeof why);
		ck_assert_msg(err == NULL, "%s line %d: %s", name, lines + 1,
			      err);
		if (!fail_seed && want_type != 0) {
			ck_assert_int_eq(hashx_query_type(ctx, &type),
					 HASHX_OK);
			ck_assert_msg(type == want_type,
				      "%s line %d: runs as type %d, want %d",
				      name, lines + 1, (int)type,
				      (int)want_type);
		}
		*fail_seeds += fail_seed;
	}
	fclose(f);
	tu_sample_note(name, ran, lines);
	return lines;
}


void tu_program_clear(hashx_program *p)
{
	memset(p, 0, sizeof *p);
}

void tu_program_emit(hashx_program *p, int opcode, int dst, int src,
		     uint32_t imm)
{
	hashx_instr *in = &p->code[p->size++];

	in->opcode = (uint8_t)opcode;
	in->dst = (uint8_t)dst;
	in->src = (uint8_t)src;
	in->unused = 0;
	in->imm = imm;
}

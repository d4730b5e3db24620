/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_equix.c - Equi-X through its public API: the reference's solutions
 * (count and order) for every vector challenge, compiled and interpreted;
 * every solution verifies; every way of breaking one is refused with the
 * right code; misuse gets defined results.
 */
#include <config.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <equix.h>

#include "compiler.h"
#include "testutil.h"

#define MAX_CHALLENGE 512
#define MAX_VECTORS 512

typedef struct vector {
	uint8_t challenge[MAX_CHALLENGE];
	size_t len;
	int ok;            /* 0: fail-challenge */
	int random;        /* from equix.txt, the random challenges */
	int sampled;       /* solved under valgrind (tu_vector_line_runs) */
	unsigned count;
	equix_solution sols[EQUIX_MAX_SOLS];
} vector;

static vector vectors[MAX_VECTORS];
static int nvectors;

static int parse_solution(char *tok, equix_solution *s)
{
	char *save, *part = strtok_r(tok, ",", &save);

	for (int i = 0; i < EQUIX_NUM_IDX; i++) {
		if (part == NULL)
			return -1;
		s->idx[i] = (equix_idx)strtoul(part, NULL, 16);
		part = strtok_r(NULL, ",", &save);
	}
	return part == NULL ? 0 : -1;
}

/* Reads a vector file into vectors[], appending. */
static void load_file(const char *name)
{
	static char line[16384];
	FILE *f = tu_open_vector(name);

	ck_assert_msg(f != NULL, "cannot open %s", name);
	for (long n = 0; fgets(line, sizeof line, f) != NULL; n++) {
		vector *v = &vectors[nvectors];
		char *save, *tok = strtok_r(line, " \n", &save);
		long len;

		ck_assert_int_lt(nvectors, MAX_VECTORS);
		v->random = strcmp(name, "equix.txt") == 0;
		v->sampled = tu_vector_line_runs(name, n);
		ck_assert_str_eq(tok, "equix");
		len = tu_hex_decode(strtok_r(NULL, " \n", &save), v->challenge,
				    sizeof v->challenge);
		ck_assert_int_ge(len, 0);
		v->len = (size_t)len;
		tok = strtok_r(NULL, " \n", &save);
		v->ok = strcmp(tok, "ok") == 0;
		if (v->ok) {
			v->count = (unsigned)strtoul(
				strtok_r(NULL, " \n", &save), NULL, 10);
			ck_assert_uint_le(v->count, EQUIX_MAX_SOLS);
			for (unsigned k = 0; k < v->count; k++)
				ck_assert_int_eq(parse_solution(
					strtok_r(NULL, " \n", &save),
					&v->sols[k]), 0);
		} else {
			ck_assert_str_eq(tok, "fail-challenge");
		}
		nvectors++;
	}
	fclose(f);
}

static void load_vectors(void)
{
	nvectors = 0;
	load_file("equix-named.txt");
	load_file("equix.txt");
	ck_assert_int_eq(nvectors, 418);
}

/* Solves every vector with a context of `flags`; solutions must equal
 * the reference's in count and order. Under valgrind (the memcheck
 * stage) the named vectors and the sample of the random ones
 * (tu_vector_line_runs): a solve there takes seconds, and the stage ran
 * this for 418 vectors on each path, most of its half hour; memcheck sees
 * the same code on the sample, and every other run checks them all. */
static void solve_all(equix_ctx_flags flags, int expect_compiled)
{
	equix_ctx *ctx = equix_alloc(flags);
	equix_solutions_buffer buf;
	int total = 0, ran = 0, random = 0, random_ran = 0;

	ck_assert_ptr_nonnull(ctx);
	load_vectors();
	for (int n = 0; n < nvectors; n++) {
		const vector *v = &vectors[n];
		equix_result r;

		random += v->random;
		if (!v->sampled)
			continue;
		ran++;
		random_ran += v->random;
		r = equix_solve(ctx, v->challenge, v->len, &buf);
		if (!v->ok) {
			ck_assert_msg(r == EQUIX_FAIL_CHALLENGE,
				      "vector %d: want FAIL_CHALLENGE, got %d",
				      n, (int)r);
			continue;
		}
		ck_assert_msg(r == EQUIX_OK, "vector %d: solve gave %d", n,
			      (int)r);
		ck_assert_msg(buf.count == v->count,
			      "vector %d: %u solutions, want %u", n, buf.count,
			      v->count);
		for (unsigned k = 0; k < v->count; k++)
			ck_assert_msg(memcmp(&buf.sols[k], &v->sols[k],
					     sizeof buf.sols[k]) == 0,
				      "vector %d: solution %u differs", n, k);
		ck_assert_int_eq((buf.flags & EQUIX_SOLVER_DID_USE_COMPILER) != 0,
				 expect_compiled);
		total += (int)v->count;
	}
	tu_sample_note("equix.txt", random_ran, random);
	/* all of them hold 800 or so solutions, the sample 78 */
	ck_assert_int_gt(total, ran == nvectors ? 700 : 70);
	equix_free(ctx);
}

START_TEST(solve_interpreted)
{
	solve_all(EQUIX_CTX_SOLVE, 0);
}
END_TEST

START_TEST(solve_compiled)
{
	solve_all(EQUIX_CTX_SOLVE | EQUIX_CTX_MUST_COMPILE, 1);
}
END_TEST

START_TEST(solve_hugepages)
{
	/* Huge pages where the system has them, ordinary pages otherwise:
	 * either way the same solutions. */
	solve_all(EQUIX_CTX_SOLVE | EQUIX_CTX_TRY_COMPILE | EQUIX_CTX_HUGEPAGES,
		  HASHX_HAVE_COMPILER);
}
END_TEST

/* Every solution verifies, on verify-only contexts of each kind. */
START_TEST(verify_all)
{
	static const equix_ctx_flags kinds[] = {
		EQUIX_CTX_VERIFY, EQUIX_CTX_TRY_COMPILE,
	};

	load_vectors();
	for (size_t k = 0; k < 2; k++) {
		equix_ctx *ctx = equix_alloc(kinds[k]);
		int checked = 0;

		ck_assert_ptr_nonnull(ctx);
		for (int n = 0; n < nvectors; n++)
			for (unsigned s = 0; s < vectors[n].count; s++) {
				ck_assert_int_eq(equix_verify(ctx,
					vectors[n].challenge, vectors[n].len,
					&vectors[n].sols[s]), EQUIX_OK);
				checked++;
			}
		ck_assert_int_gt(checked, 700);
		equix_free(ctx);
	}
}
END_TEST

/* The order rule, written out independently of the library. */
static int ordered(const equix_solution *s)
{
	uint64_t a, b;

	/* halves, as 64-bit little-endian numbers */
	a = b = 0;
	for (int i = 3; i >= 0; i--) {
		a = a << 16 | s->idx[i];
		b = b << 16 | s->idx[4 + i];
	}
	if (a > b)
		return 0;
	for (int q = 0; q < 8; q += 4) {
		uint32_t l = (uint32_t)s->idx[q + 1] << 16 | s->idx[q];
		uint32_t r = (uint32_t)s->idx[q + 3] << 16 | s->idx[q + 2];

		if (l > r)
			return 0;
	}
	for (int p = 0; p < 8; p += 2)
		if (s->idx[p] > s->idx[p + 1])
			return 0;
	return 1;
}

/* Breaking solutions: each index changed, halves and pairs swapped, the
 * right solution for the wrong challenge. */
START_TEST(verify_rejects_broken)
{
	equix_ctx *ctx = equix_alloc(EQUIX_CTX_TRY_COMPILE);
	int order_fails = 0, sum_fails = 0;

	ck_assert_ptr_nonnull(ctx);
	load_vectors();
	for (int n = 0; n < nvectors; n++) {
		const vector *v = &vectors[n];

		for (unsigned s = 0; s < v->count; s++) {
			equix_solution bad;
			equix_result r;

			for (int i = 0; i < EQUIX_NUM_IDX; i++) {
				bad = v->sols[s];
				bad.idx[i] ^= (equix_idx)(1u << (i + n) % 16);
				r = equix_verify(ctx, v->challenge, v->len, &bad);
				if (!ordered(&bad)) {
					ck_assert_int_eq(r, EQUIX_FAIL_ORDER);
					order_fails++;
				} else {
					ck_assert_msg(r == EQUIX_FAIL_PARTIAL_SUM ||
						      r == EQUIX_FAIL_FINAL_SUM,
						      "vector %d sol %u idx %d: %d",
						      n, s, i, (int)r);
					sum_fails++;
				}
			}
			/* halves swapped */
			bad = v->sols[s];
			for (int i = 0; i < 4; i++) {
				bad.idx[i] = v->sols[s].idx[4 + i];
				bad.idx[4 + i] = v->sols[s].idx[i];
			}
			if (memcmp(&bad, &v->sols[s], sizeof bad) != 0)
				ck_assert_int_eq(equix_verify(ctx, v->challenge,
							      v->len, &bad),
						 EQUIX_FAIL_ORDER);
			/* the first pair swapped */
			bad = v->sols[s];
			bad.idx[0] = v->sols[s].idx[1];
			bad.idx[1] = v->sols[s].idx[0];
			if (bad.idx[0] != bad.idx[1])
				ck_assert_int_eq(equix_verify(ctx, v->challenge,
							      v->len, &bad),
						 EQUIX_FAIL_ORDER);
			/* the right solution, another challenge */
			const vector *other = &vectors[(n + 1) % nvectors];
			r = equix_verify(ctx, other->challenge, other->len,
					 &v->sols[s]);
			ck_assert_msg(r == EQUIX_FAIL_PARTIAL_SUM ||
				      r == EQUIX_FAIL_FINAL_SUM ||
				      r == EQUIX_FAIL_CHALLENGE,
				      "vector %d sol %u on vector %d: %d", n, s,
				      (n + 1) % nvectors, (int)r);
		}
	}
	ck_assert_int_gt(order_fails, 100);
	ck_assert_int_gt(sum_fails, 100);
	equix_free(ctx);
}
END_TEST

/* An ordered solution against a challenge with no function: the order is
 * checked first, then the challenge. */
START_TEST(verify_bad_challenge)
{
	equix_ctx *ctx = equix_alloc(EQUIX_CTX_VERIFY);
	equix_solution ordered_sol = { { 1, 2, 3, 4, 5, 6, 7, 8 } };
	equix_solution unordered = { { 2, 1, 3, 4, 5, 6, 7, 8 } };
	static const uint8_t bad[] = { 0xf9, 0x05, 0x00, 0x00 };

	ck_assert_ptr_nonnull(ctx);
	ck_assert_int_eq(equix_verify(ctx, bad, sizeof bad, &ordered_sol),
			 EQUIX_FAIL_CHALLENGE);
	ck_assert_int_eq(equix_verify(ctx, bad, sizeof bad, &unordered),
			 EQUIX_FAIL_ORDER);
	equix_free(ctx);
}
END_TEST

START_TEST(misuse)
{
	equix_ctx *v = equix_alloc(EQUIX_CTX_VERIFY);
	equix_ctx *s = equix_alloc(EQUIX_CTX_SOLVE);
	equix_solutions_buffer buf;
	equix_solution sol = { { 0 } };

	ck_assert_ptr_nonnull(v);
	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(equix_solve(v, "abc", 3, &buf), EQUIX_FAIL_NO_SOLVER);
	ck_assert_int_eq(equix_solve(NULL, "abc", 3, &buf),
			 EQUIX_FAIL_INTERNAL);
	ck_assert_int_eq(equix_solve(s, "abc", 3, NULL), EQUIX_FAIL_INTERNAL);
	ck_assert_int_eq(equix_verify(NULL, "abc", 3, &sol),
			 EQUIX_FAIL_INTERNAL);
	ck_assert_int_eq(equix_verify(v, "abc", 3, NULL), EQUIX_FAIL_INTERNAL);
	ck_assert_int_eq(equix_solve(s, NULL, 5, &buf), EQUIX_FAIL_CHALLENGE);
	ck_assert_int_eq(equix_solve(s, NULL, 0, &buf), EQUIX_OK); /* "-" */
	ck_assert_uint_eq(buf.count, 3);
	/* all-zero indices are ordered, and almost surely not a solution */
	ck_assert_int_ne(equix_verify(v, "abc", 3, &sol), EQUIX_OK);
	equix_free(NULL);
	equix_free(v);
	equix_free(s);

	/* MUST_COMPILE where there is no compiler */
	equix_ctx *m = equix_alloc(EQUIX_CTX_SOLVE | EQUIX_CTX_MUST_COMPILE);
	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(equix_solve(m, "abc", 3, &buf),
			 HASHX_HAVE_COMPILER ? EQUIX_OK : EQUIX_FAIL_COMPILE);
	ck_assert_int_eq(equix_verify(m, "abc", 3, &buf.sols[0]),
			 HASHX_HAVE_COMPILER ? EQUIX_OK : EQUIX_FAIL_COMPILE);
	equix_free(m);
}
END_TEST

START_TEST(wire_form)
{
	equix_solution s = { { 0x0001, 0x0203, 0xfffe, 0x8000,
			       0x1234, 0xabcd, 0x00ff, 0xff00 } }, t;
	static const uint8_t want[16] = { 0x01, 0x00, 0x03, 0x02, 0xfe, 0xff,
					  0x00, 0x80, 0x34, 0x12, 0xcd, 0xab,
					  0xff, 0x00, 0x00, 0xff };
	uint8_t bytes[EQUIX_SOLUTION_BYTES];

	equix_solution_pack(&s, bytes);
	ck_assert_mem_eq(bytes, want, sizeof want);
	equix_solution_unpack(bytes, &t);
	ck_assert_mem_eq(&s, &t, sizeof s);
}
END_TEST

/* Contexts share nothing: threads solving at once get what one thread
 * gets. */
typedef struct job {
	int first;
	int failures;
} job;

static void *solve_job(void *arg)
{
	job *j = arg;
	equix_ctx *ctx = equix_alloc(EQUIX_CTX_SOLVE | EQUIX_CTX_TRY_COMPILE);
	equix_solutions_buffer buf;

	if (ctx == NULL) {
		j->failures++;
		return NULL;
	}
	for (int n = j->first; n < nvectors; n += 4) {
		const vector *v = &vectors[n];
		equix_result r = equix_solve(ctx, v->challenge, v->len, &buf);

		if (!v->ok) {
			j->failures += r != EQUIX_FAIL_CHALLENGE;
			continue;
		}
		j->failures += r != EQUIX_OK || buf.count != v->count ||
			       memcmp(buf.sols, v->sols,
				      v->count * sizeof buf.sols[0]) != 0;
	}
	equix_free(ctx);
	return NULL;
}

START_TEST(threads)
{
	pthread_t th[4];
	job jobs[4];

	load_vectors();
	/* enough to overlap; all of them run in solve_* (under valgrind,
	 * which runs one thread at a time, one each) */
	nvectors = tu_count(80);
	for (int t = 0; t < 4; t++) {
		jobs[t].first = t;
		jobs[t].failures = 0;
		ck_assert_int_eq(pthread_create(&th[t], NULL, solve_job,
						&jobs[t]), 0);
	}
	for (int t = 0; t < 4; t++) {
		pthread_join(th[t], NULL);
		ck_assert_int_eq(jobs[t].failures, 0);
	}
}
END_TEST

int main(void)
{
	tu_skip_unless_reference_salt("test_equix");

	Suite *s = suite_create("equix");
	TCase *solve = tcase_create("solve");
	/* its own case, so tests/impls.sh can rerun it under each
	 * HASHX_IMPL */
	TCase *compiled = tcase_create("compiled");
	TCase *verify = tcase_create("verify");
	TCase *api = tcase_create("api");
	/* tagged, so a ThreadSanitizer run can pick the cases that start
	 * threads (CK_INCLUDE_TAGS=threads; scripts/test.sh --tsan) */
	TCase *threaded = tcase_create("threads");

	tcase_set_timeout(solve, 240);
	tcase_set_timeout(compiled, 240);
	tcase_set_timeout(verify, 120);
	tcase_set_timeout(api, 60);
	tcase_set_timeout(threaded, 240);
	tcase_set_tags(threaded, "threads");
	tcase_add_test(solve, solve_interpreted);
	if (HASHX_HAVE_COMPILER)
		tcase_add_test(compiled, solve_compiled);
	else
		printf("SKIP: solve_compiled (this build has no HashX "
		       "compiler)\n");
	tcase_add_test(solve, solve_hugepages);
	/* qemu-user (Debian 12) hangs in pthread_create */
	if (!tu_emulated())
		tcase_add_test(threaded, threads);
	else
		printf("SKIP: threads (threads do not start under the "
		       "emulator)\n");
	tcase_add_test(verify, verify_all);
	tcase_add_test(verify, verify_rejects_broken);
	tcase_add_test(verify, verify_bad_challenge);
	tcase_add_test(api, misuse);
	tcase_add_test(api, wire_form);
	suite_add_tcase(s, solve);
	suite_add_tcase(s, compiled);
	suite_add_tcase(s, verify);
	suite_add_tcase(s, api);
	suite_add_tcase(s, threaded);
	return tu_run_suite(s);
}

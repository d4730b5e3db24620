/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_bench_baseline.c - equix-bench's baseline files (bench/json.c):
 * saved samples load back exactly, and a save that runs out of memory at
 * any of jansson's allocations either reports the failure or wrote a file
 * that loads back exactly, never a file that no longer loads.
 */
#include <config.h>

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json.h"
#include "testutil.h"

#define N 7

/* jansson's allocator, failing its `fail_at`-th call only: a failure
 * that the calls after it do not hide (a later failing write would). */
static long calls, fail_at;

static void *counting_malloc(size_t size)
{
	return ++calls == fail_at ? NULL : malloc(size);
}

static const double iters[N] = {1, 2, 3, 4, 5, 6, 7};
static const double times[N] = {10.5, 21, 29.25, 41, 50.125, 61, 0.1};

static void make_results_dir(char *dir, size_t size)
{
	snprintf(dir, size, "/tmp/equix-baseline-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

/* Removes what a save may have left in `dir`, and `dir`. */
static void remove_results_dir(const char *dir)
{
	char path[128];

	snprintf(path, sizeof path, "%s/verify_interp/b.json", dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/verify_interp", dir);
	rmdir(path);
	ck_assert_int_eq(rmdir(dir), 0);
}

/* Loads "b" and checks it holds the samples above. */
static void check_loads_back(const char *dir)
{
	bench_samples got;
	char err[512];

	ck_assert_msg(bench_baseline_load(dir, "verify/interp", "b", &got, err,
					  sizeof err) == 1,
		      "saved, but does not load: %s", err);
	ck_assert_uint_eq(got.n, N);
	for (size_t i = 0; i < N; i++) {
		ck_assert(got.iters[i] == iters[i]);
		ck_assert(got.times[i] == times[i]);
	}
	free(got.iters);
	free(got.times);
}

START_TEST(round_trip)
{
	bench_samples s = {N, (double *)iters, (double *)times};
	char dir[64], err[512];

	make_results_dir(dir, sizeof dir);
	ck_assert_int_eq(bench_baseline_save(dir, "verify/interp", "b", &s,
					     err, sizeof err),
			 0);
	check_loads_back(dir);
	remove_results_dir(dir);
}
END_TEST

/* Each allocation of a save fails in turn, alone: the save then fails,
 * or what it wrote loads back whole. */
START_TEST(out_of_memory_never_writes_a_bad_file)
{
	bench_samples s = {N, (double *)iters, (double *)times};
	char dir[64], err[512];
	long refused = 0;

	for (fail_at = 1;; fail_at++) {
		int rc;

		make_results_dir(dir, sizeof dir);
		calls = 0;
		json_set_alloc_funcs(counting_malloc, free);
		rc = bench_baseline_save(dir, "verify/interp", "b", &s, err,
					 sizeof err);
		json_set_alloc_funcs(malloc, free);
		if (rc == 0)
			check_loads_back(dir);
		else
			refused++;
		remove_results_dir(dir);
		if (calls < fail_at)
			break; /* this save made no failing call */
	}
	printf("baseline save: %ld allocations, each refused alone: %ld "
	       "failed saves, no bad file\n",
	       fail_at - 1, refused);
	ck_assert_int_gt(refused, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bench_baseline");
	TCase *tc = tcase_create("files");

	tcase_add_test(tc, round_trip);
	tcase_add_test(tc, out_of_memory_never_writes_a_bad_file);
	suite_add_tcase(s, tc);
	return tu_run_suite(s);
}

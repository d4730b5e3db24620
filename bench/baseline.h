/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * baseline.h - saved samples of a benchmark, one JSON file per benchmark
 * and baseline name: RESULTS/<name, '/' as '_'>/<BASELINE>.json, holding
 *
 *   {"format": "equix-bench-baseline", "version": 1,
 *    "benchmark": "verify/interp", "baseline": "base",
 *    "iters": [N, ...], "times": [NS, ...]}
 *
 * The reader accepts exactly this (keys in any order, each once) and
 * refuses anything else with a message naming the file.
 */
#ifndef EQUIX_BENCH_BASELINE_H
#define EQUIX_BENCH_BASELINE_H

#include <stddef.h>

#include "record.h"

/* Whether `name` can name a baseline: 1 to 64 of [A-Za-z0-9._-], not
 * starting with a dot. */
int bench_baseline_name_ok(const char *name);

/* Creates `dir` and its parents (mkdir -p). Returns 0, or -1 with errno
 * set. */
int bench_make_dirs(const char *dir);

/* Writes the samples; 0, or -1 with a message in err. */
int bench_baseline_save(const char *results, const char *bench,
			const char *baseline, const bench_samples *s, char *err,
			size_t err_size);

/* Reads the samples into *s (allocated). Returns 1, 0 when no such
 * baseline is saved, or -1 with a message in err (unreadable or
 * malformed file). */
int bench_baseline_load(const char *results, const char *bench,
			const char *baseline, bench_samples *s, char *err,
			size_t err_size);

#endif

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * json.h - everything the harness reads or writes as JSON, through
 * jansson: the baseline files and the --json document.
 *
 * A baseline is one file per benchmark and baseline name,
 * RESULTS/<name, '/' as '_'>/<BASELINE>.json, holding
 *
 *   {"format": "equix-bench-baseline", "version": 1,
 *    "benchmark": "verify/interp", "baseline": "base",
 *    "iters": [N, ...], "times": [NS, ...]}
 *
 * The reader accepts exactly this (keys in any order, each once) and
 * refuses anything else with a message naming the file.
 */
#ifndef EQUIX_BENCH_JSON_H
#define EQUIX_BENCH_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "options.h"
#include "record.h"

/* Whether `name` can name a baseline: 1 to 64 of [A-Za-z0-9._-], not
 * starting with a dot. */
bool bench_baseline_name_ok(const char *name);

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

/* Everything measured, as one JSON document on f, with the run's
 * settings and the benchmarks skipped (n_skipped pairs of name and
 * reason); 0, or -1 when it could not be built (out of memory) or
 * written. */
int bench_report_json(FILE *f, const bench_record *records, size_t n,
		      const bench_options *o, const char *const *skipped,
		      size_t n_skipped);

#endif

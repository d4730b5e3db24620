/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * json.h - the little JSON the harness writes (baselines, --json) and the
 * strict reader of its own baseline files.
 */
#ifndef EQUIX_BENCH_JSON_H
#define EQUIX_BENCH_JSON_H

#include <stddef.h>
#include <stdio.h>

/* A JSON string, quoted and escaped. */
void bench_json_string(FILE *f, const char *s);

/* A number that reads back exactly ("null" when not finite, which JSON
 * cannot express). */
void bench_json_number(FILE *f, double x);

/* An array of n numbers. */
void bench_json_array(FILE *f, const double *v, size_t n);

#endif

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vectors.c - strict readers of the two vector files the benchmarks and
 * the tests use.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "vectors.h"

#ifndef VECTOR_DIR_DEFAULT
#define VECTOR_DIR_DEFAULT "tests/vectors"
#endif

const char *bench_vectors_dir(const char *option)
{
	const char *env = getenv("VECTOR_DIR");

	if (option != NULL)
		return option;
	return env != NULL && *env != '\0' ? env : VECTOR_DIR_DEFAULT;
}

long bench_hex_decode(const char *hex, uint8_t *out, size_t cap)
{
	size_t n = strcmp(hex, "-") == 0 ? 0 : strlen(hex), len;

	/* Without hex_end, sodium_hex2bin fails unless it reads every
	 * character; an odd digit at the end it would drop. */
	if (n % 2 != 0 ||
	    sodium_hex2bin(out, cap, hex, n, NULL, &len, NULL) != 0)
		return -1;
	return (long)len;
}

/* Splits `line` at spaces into tok[]; the number of tokens, or -1 when
 * there are more than `max`. */
static int split(char *line, char **tok, int max)
{
	char *save, *t = strtok_r(line, " \n", &save);
	int n = 0;

	for (; t != NULL; t = strtok_r(NULL, " \n", &save)) {
		if (n == max)
			return -1;
		tok[n++] = t;
	}
	return n;
}

/* "TAG HEX ok ..." or "TAG HEX FAIL" (nothing after), the HEX into buf:
 * 1 for "ok", 0 for FAIL, -1 when malformed. */
static int parse_head(char **tok, int n, const char *tag, const char *fail,
		      uint8_t *buf, size_t *len)
{
	long l;

	if (n < 3 || strcmp(tok[0], tag) != 0 ||
	    (l = bench_hex_decode(tok[1], buf, BENCH_VEC_MAX)) < 0)
		return -1;
	*len = (size_t)l;
	if (strcmp(tok[2], "ok") == 0)
		return 1;
	return strcmp(tok[2], fail) == 0 && n == 3 ? 0 : -1;
}

/* "NONCE:HASH" with a 64-bit hex nonce and a 32-byte hash. */
static int parse_pair(const char *tok, uint64_t *nonce, uint8_t hash[32])
{
	const char *colon = strchr(tok, ':');
	char *end;

	if (colon == NULL || colon == tok || strlen(colon + 1) != 64)
		return -1;
	errno = 0;
	*nonce = strtoull(tok, &end, 16);
	if (errno != 0 || end != colon)
		return -1;
	return bench_hex_decode(colon + 1, hash, 32) == 32 ? 0 : -1;
}

int bench_hashx_vec_parse(char *line, bench_hashx_vec *v)
{
	char *tok[3 + BENCH_VEC_PAIRS];
	int n = split(line, tok, 3 + BENCH_VEC_PAIRS);

	if (n < 0 || (v->ok = parse_head(tok, n, "hashx", "fail-seed",
					 v->seed, &v->seed_len)) < 0)
		return -1;
	for (v->pairs = 0; v->pairs < n - 3; v->pairs++)
		if (parse_pair(tok[3 + v->pairs], &v->nonce[v->pairs],
			       v->hash[v->pairs]) < 0)
			return -1;
	return v->ok && v->pairs == 0 ? -1 : 0;
}

/* Eight comma-separated hex indices. */
static int parse_solution(const char *tok, equix_solution *s)
{
	for (int i = 0; i < EQUIX_NUM_IDX; i++) {
		char *end;
		unsigned long x;

		errno = 0;
		x = strtoul(tok, &end, 16);
		if (errno != 0 || end == tok || x > 0xffff ||
		    *end != (i + 1 < EQUIX_NUM_IDX ? ',' : '\0'))
			return -1;
		s->idx[i] = (equix_idx)x;
		tok = end + 1;
	}
	return 0;
}

/* "NONCE:HASH" with two 64-bit hex numbers (HashWX's hash is a number,
 * written as 16 digits). */
static int parse_number_pair(const char *tok, uint64_t *nonce,
			     uint64_t *hash)
{
	const char *colon = strchr(tok, ':');
	char *end;

	if (colon == NULL || colon == tok || strlen(colon + 1) != 16)
		return -1;
	errno = 0;
	*nonce = strtoull(tok, &end, 16);
	if (errno != 0 || end != colon)
		return -1;
	*hash = strtoull(colon + 1, &end, 16);
	return errno != 0 || *end != '\0' ? -1 : 0;
}

int bench_hashwx_vec_parse(char *line, bench_hashwx_vec *v)
{
	char *tok[2 + BENCH_VEC_PAIRS];
	int n = split(line, tok, 2 + BENCH_VEC_PAIRS);

	if (n < 3 || strcmp(tok[0], "hashwx") != 0 ||
	    bench_hex_decode(tok[1], v->seed, sizeof v->seed) !=
		    (long)sizeof v->seed)
		return -1;
	for (v->pairs = 0; v->pairs < n - 2; v->pairs++)
		if (parse_number_pair(tok[2 + v->pairs], &v->nonce[v->pairs],
				      &v->hash[v->pairs]) < 0)
			return -1;
	return 0;
}

/* The solution list that ends both Equi-X formats: COUNT, then COUNT
 * solutions, from tok[0]; n tokens in all. */
static int parse_solutions(char **tok, int n, bench_equix_vec *v)
{
	unsigned long count;
	char *end;

	if (n < 1)
		return -1;
	errno = 0;
	count = strtoul(tok[0], &end, 10);
	if (errno != 0 || *end != '\0' || count > EQUIX_MAX_SOLS ||
	    n != 1 + (int)count)
		return -1;
	v->count = (unsigned)count;
	for (unsigned k = 0; k < v->count; k++)
		if (parse_solution(tok[1 + k], &v->sols[k]) < 0)
			return -1;
	return 0;
}

int bench_equixv2_vec_parse(char *line, bench_equix_vec *v)
{
	char *tok[3 + EQUIX_MAX_SOLS];
	int n = split(line, tok, 3 + EQUIX_MAX_SOLS);
	long len;

	if (n < 3 || strcmp(tok[0], "equixv2") != 0 ||
	    (len = bench_hex_decode(tok[1], v->challenge,
				    BENCH_VEC_MAX)) < 0)
		return -1;
	v->len = (size_t)len;
	v->ok = 1;
	return parse_solutions(tok + 2, n - 2, v);
}

/* "equix CHALLENGE ok COUNT SOL ..." or "equix CHALLENGE fail-challenge",
 * into the bench_equix_vec `out`. */
static int parse_equix(char *line, void *out)
{
	bench_equix_vec *v = out;
	char *tok[4 + EQUIX_MAX_SOLS];
	int n = split(line, tok, 4 + EQUIX_MAX_SOLS);

	if (n < 0 || (v->ok = parse_head(tok, n, "equix", "fail-challenge",
					 v->challenge, &v->len)) < 0)
		return -1;
	if (!v->ok)
		return 0;
	return parse_solutions(tok + 3, n - 3, v);
}

static int parse_hashx(char *line, void *out)
{
	return bench_hashx_vec_parse(line, out);
}

/* Reads every line of DIR/NAME into a growing array of `size`-byte
 * records through `parse`. */
static int load_file(const char *dir, const char *name, size_t size,
		     int (*parse)(char *, void *), void **out, size_t *n,
		     char *err, size_t err_size)
{
	char path[4096], *line = NULL, *rec;
	size_t cap = 0, alloc = 0;
	bool ok = true;
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	*out = NULL;
	*n = 0;
	if ((f = fopen(path, "r")) == NULL) {
		snprintf(err, err_size, "cannot read %s: %s", path,
			 strerror(errno));
		return -1;
	}
	while (ok && getline(&line, &cap, f) > 0) {
		if (*n == alloc) {
			void *p = realloc(*out, (alloc = 2 * alloc + 64) * size);

			if (p == NULL) {
				snprintf(err, err_size, "out of memory");
				ok = false;
				break;
			}
			*out = p;
		}
		rec = memset((char *)*out + (*n)++ * size, 0, size);
		if (parse(line, rec) < 0) {
			snprintf(err, err_size, "%s:%zu: malformed line", path,
				 *n);
			ok = false;
		}
	}
	free(line);
	fclose(f);
	if (ok && *n == 0) {
		snprintf(err, err_size, "%s: no vectors", path);
		ok = false;
	}
	return ok ? 0 : -1;
}

int bench_vectors_load(const char *dir, bench_vectors *v, char *err,
		       size_t err_size)
{
	void *h, *e = NULL;
	int rc;

	memset(v, 0, sizeof *v);
	rc = load_file(dir, "hashx.txt", sizeof(bench_hashx_vec), parse_hashx,
		       &h, &v->n_hashx, err, err_size);
	if (rc == 0)
		rc = load_file(dir, "equix.txt", sizeof(bench_equix_vec),
			       parse_equix, &e, &v->n_equix, err, err_size);
	v->hashx = h;
	v->equix = e;
	return rc;
}

static int parse_hashwx(char *line, void *out)
{
	return bench_hashwx_vec_parse(line, out);
}

static int parse_equixv2(char *line, void *out)
{
	return bench_equixv2_vec_parse(line, out);
}

/* DIR/NAME through load_file() when it exists; none when it does not. */
static int load_optional(const char *dir, const char *name, size_t size,
			 int (*parse)(char *, void *), void **out, size_t *n,
			 char *err, size_t err_size)
{
	char path[4096];

	snprintf(path, sizeof path, "%s/%s", dir, name);
	*out = NULL;
	*n = 0;
	if (access(path, F_OK) != 0 && errno == ENOENT)
		return 0;
	return load_file(dir, name, size, parse, out, n, err, err_size);
}

int bench_vectors_load_v2(const char *dir, bench_vectors *v, char *err,
			  size_t err_size)
{
	void *h, *e = NULL;
	int rc = load_optional(dir, "hashwx-v2.txt", sizeof(bench_hashwx_vec),
			       parse_hashwx, &h, &v->n_hashwx, err, err_size);

	if (rc == 0)
		rc = load_optional(dir, "equix-v2.txt", sizeof(bench_equix_vec),
				   parse_equixv2, &e, &v->n_equixv2, err,
				   err_size);
	v->hashwx = h;
	v->equixv2 = e;
	return rc;
}

void bench_vectors_free(bench_vectors *v)
{
	free(v->hashx);
	free(v->equix);
	free(v->hashwx);
	free(v->equixv2);
	memset(v, 0, sizeof *v);
}

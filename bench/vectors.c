/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vectors.c - strict readers of the two vector files the benchmarks use.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* "NONCE:HASH" with a 64-bit hex nonce and a 32-byte hash. */
static int parse_pair(const char *tok, uint64_t *nonce, uint8_t hash[32])
{
	const char *colon = tok == NULL ? NULL : strchr(tok, ':');
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
	char *save, *tok = strtok_r(line, " \n", &save);
	long len;

	if (tok == NULL || strcmp(tok, "hashx") != 0)
		return -1;
	tok = strtok_r(NULL, " \n", &save);
	if (tok == NULL ||
	    (len = bench_hex_decode(tok, v->seed, sizeof v->seed)) < 0)
		return -1;
	v->seed_len = (size_t)len;
	tok = strtok_r(NULL, " \n", &save);
	if (tok == NULL)
		return -1;
	v->ok = strcmp(tok, "ok") == 0;
	v->pairs = 0;
	if (!v->ok)
		return strcmp(tok, "fail-seed") == 0 ? 0 : -1;
	while ((tok = strtok_r(NULL, " \n", &save)) != NULL) {
		if (v->pairs == BENCH_VEC_PAIRS ||
		    parse_pair(tok, &v->nonce[v->pairs], v->hash[v->pairs]) < 0)
			return -1;
		v->pairs++;
	}
	return v->pairs > 0 ? 0 : -1;
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

static int parse_equix(char *line, bench_equix_vec *v)
{
	char *save, *end, *tok = strtok_r(line, " \n", &save);
	long len;

	if (tok == NULL || strcmp(tok, "equix") != 0)
		return -1;
	tok = strtok_r(NULL, " \n", &save);
	if (tok == NULL ||
	    (len = bench_hex_decode(tok, v->challenge, sizeof v->challenge)) < 0)
		return -1;
	v->len = (size_t)len;
	tok = strtok_r(NULL, " \n", &save);
	if (tok == NULL)
		return -1;
	v->ok = strcmp(tok, "ok") == 0;
	if (!v->ok)
		return strcmp(tok, "fail-challenge") == 0 &&
				       strtok_r(NULL, " \n", &save) == NULL
			       ? 0
			       : -1;
	tok = strtok_r(NULL, " \n", &save);
	if (tok == NULL)
		return -1;
	v->count = (unsigned)strtoul(tok, &end, 10);
	if (*end != '\0' || v->count > EQUIX_MAX_SOLS)
		return -1;
	for (unsigned k = 0; k < v->count; k++) {
		tok = strtok_r(NULL, " \n", &save);
		if (tok == NULL || parse_solution(tok, &v->sols[k]) < 0)
			return -1;
	}
	return strtok_r(NULL, " \n", &save) == NULL ? 0 : -1;
}

/* Reads every line of DIR/NAME into a growing array of `size`-byte
 * records through `parse`. */
static int load_file(const char *dir, const char *name, size_t size,
		     int (*parse)(char *, void *), void **out, size_t *n,
		     char *err, size_t err_size)
{
	char path[4096];
	char *line = NULL;
	size_t cap = 0, alloc = 0;
	FILE *f;
	int rc = 0;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if ((f = fopen(path, "r")) == NULL) {
		snprintf(err, err_size, "cannot read %s: %s", path,
			 strerror(errno));
		return -1;
	}
	*out = NULL;
	*n = 0;
	while (getline(&line, &cap, f) > 0) {
		if (*n == alloc) {
			void *p =
				realloc(*out, (alloc = 2 * alloc + 64) * size);
			if (p == NULL) {
				rc = -1;
				snprintf(err, err_size, "out of memory");
				break;
			}
			*out = p;
		}
		char *rec = (char *)*out + *n * size;
		memset(rec, 0, size);
		(*n)++;
		if (parse(line, rec) < 0) {
			snprintf(err, err_size, "%s:%zu: malformed line", path,
				 *n);
			rc = -1;
			break;
		}
	}
	free(line);
	fclose(f);
	if (rc == 0 && *n == 0) {
		snprintf(err, err_size, "%s: no vectors", path);
		rc = -1;
	}
	return rc;
}

static int parse_hashx_any(char *line, void *v)
{
	return bench_hashx_vec_parse(line, v);
}

static int parse_equix_any(char *line, void *v)
{
	return parse_equix(line, v);
}

int bench_vectors_load(const char *dir, bench_vectors *v, char *err,
		       size_t err_size)
{
	void *h, *e;

	memset(v, 0, sizeof *v);
	v->dir = dir;
	int rc = load_file(dir, "hashx.txt", sizeof(bench_hashx_vec),
			   parse_hashx_any, &h, &v->n_hashx, err, err_size);
	v->hashx = h;
	if (rc < 0)
		return -1;
	rc = load_file(dir, "equix.txt", sizeof(bench_equix_vec),
		       parse_equix_any, &e, &v->n_equix, err, err_size);
	v->equix = e;
	return rc;
}

void bench_vectors_free(bench_vectors *v)
{
	free(v->hashx);
	free(v->equix);
	memset(v, 0, sizeof *v);
}

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vectors.h - the reference implementation's recorded outputs
 * (tests/vectors/hashx.txt and equix.txt), read for the checks that come
 * before any timing or counting (equix-bench, equix-count). The unit tests
 * read the HashX files through the same line parser (tests/testutil.c;
 * all link libtools).
 */
#ifndef EQUIX_TOOLS_VECTORS_H
#define EQUIX_TOOLS_VECTORS_H

#include <stddef.h>
#include <stdint.h>

#include <equix.h>

#define BENCH_VEC_PAIRS 8
/* The longest seed or challenge a vector file may hold. */
#define BENCH_VEC_MAX 1024

/* "hashx SEED ok|fail-seed NONCE:HASH ..." */
typedef struct bench_hashx_vec {
	uint8_t seed[BENCH_VEC_MAX];
	size_t seed_len;
	int ok;
	int pairs;
	uint64_t nonce[BENCH_VEC_PAIRS];
	uint8_t hash[BENCH_VEC_PAIRS][32];
} bench_hashx_vec;

/* "equix CHALLENGE ok COUNT SOL ..." or "equix CHALLENGE fail-challenge" */
typedef struct bench_equix_vec {
	uint8_t challenge[BENCH_VEC_MAX];
	size_t len;
	int ok;
	unsigned count;
	equix_solution sols[EQUIX_MAX_SOLS];
} bench_equix_vec;

typedef struct bench_vectors {
	bench_hashx_vec *hashx;
	size_t n_hashx;
	bench_equix_vec *equix;
	size_t n_equix;
	/* v2 (bench_vectors_load_v2): HashWX's and Equi-X v2's. */
	struct bench_hashwx_vec *hashwx;
	size_t n_hashwx;
	bench_equix_vec *equixv2;
	size_t n_equixv2;
} bench_vectors;

/* The directory: `option` when not NULL, else $VECTOR_DIR, else the
 * source tree's tests/vectors (compiled in). */
const char *bench_vectors_dir(const char *option);

/* Reads DIR/hashx.txt and DIR/equix.txt. Returns 0, or -1 with a message
 * naming the file and line in err. */
int bench_vectors_load(const char *dir, bench_vectors *v, char *err,
		       size_t err_size);

/* Also reads DIR/hashwx-v2.txt and DIR/equix-v2.txt into v (loaded
 * already); a file that does not exist leaves its vectors empty (0),
 * for the caller to report. Returns 0, or -1 with a message in err. */
int bench_vectors_load_v2(const char *dir, bench_vectors *v, char *err,
			  size_t err_size);

void bench_vectors_free(bench_vectors *v);

/* Decodes one line of a HashX vector file (modified in place) into *v.
 * Returns 0, or -1 when the line is malformed. */
int bench_hashx_vec_parse(char *line, bench_hashx_vec *v);

/* "hashwx SEED NONCE:HASH ..." (tests/vectors/hashwx-v2.txt): a 32-byte
 * seed, and HashWX's 64-bit results as numbers. */
typedef struct bench_hashwx_vec {
	uint8_t seed[32];
	int pairs;
	uint64_t nonce[BENCH_VEC_PAIRS];
	uint64_t hash[BENCH_VEC_PAIRS];
} bench_hashwx_vec;

/* Decodes one line of a HashWX vector file (modified in place). Returns
 * 0, or -1 when the line is malformed. */
int bench_hashwx_vec_parse(char *line, bench_hashwx_vec *v);

/* Decodes one line "equixv2 CHALLENGE COUNT SOL ..." of an Equi-X v2
 * vector file (tests/vectors/equix-v2.txt) into *v (ok is always 1: a v2
 * challenge cannot fail). Returns 0, or -1 when the line is malformed. */
int bench_equixv2_vec_parse(char *line, bench_equix_vec *v);

/* Decodes hex ("-" is the empty string) into out[0..cap-1], with
 * libsodium's sodium_hex2bin. Returns the length, or -1 when malformed or
 * longer than cap. */
long bench_hex_decode(const char *hex, uint8_t *out, size_t cap);

#endif

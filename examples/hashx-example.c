/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hashx-example - make a HashX function from a seed and print a few hashes.
 *
 *   hashx-example [SEED [COUNT]]
 *
 * SEED is taken as its bytes (default "equix example"); the program prints
 * the function type, then COUNT (default 4) lines "NONCE HASH" in hex.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hashx.h>

static int parse_count(const char *s, unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(s, &end, 10);
	return errno == 0 && *s != '\0' && *end == '\0' && *out <= 1000000;
}

int main(int argc, char **argv)
{
	const char *seed = argc > 1 ? argv[1] : "equix example";
	unsigned long count = 4;
	unsigned char hash[HASHX_SIZE];
	hashx_type type;
	hashx_ctx *ctx;
	hashx_result res;

	if (argc > 3 || (argc == 3 && !parse_count(argv[2], &count))) {
		fprintf(stderr, "usage: %s [SEED [COUNT<=1000000]]\n", argv[0]);
		return 2;
	}
	ctx = hashx_alloc(HASHX_TRY_COMPILE);
	if (ctx == NULL) {
		fprintf(stderr, "hashx-example: out of memory\n");
		return 1;
	}
	res = hashx_make(ctx, seed, strlen(seed));
	if (res != HASHX_OK) {
		fprintf(stderr, "hashx-example: seed \"%s\" gives no HashX "
			"function (result %d)\n", seed, (int)res);
		hashx_free(ctx);
		return 1;
	}
	hashx_query_type(ctx, &type);
	printf("seed \"%s\": %s\n", seed,
	       type == HASHX_TYPE_COMPILED ? "compiled" : "interpreted");
	for (unsigned long n = 0; n < count; n++) {
		hashx_exec(ctx, n, hash);
		printf("%016lx ", n);
		for (size_t i = 0; i < sizeof hash; i++)
			printf("%02x", hash[i]);
		printf("\n");
	}
	hashx_free(ctx);
	return 0;
}

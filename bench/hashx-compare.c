/*
 * hashx-compare - time two HashX libraries side by side in one process.
 *
 *   hashx-compare [-c] [-s SEEDS] [-n HASHES] [-r ROUNDS] LIB_A LIB_B
 *
 * Each library is a shared object with the hashx.h API (for example this
 * project's libhashx.so and a reference build). Both are loaded with
 * RTLD_LOCAL so their identical symbol names do not clash, checked to give
 * the same outputs, then timed in alternation (A, B, A, B, ...) so that
 * frequency changes and noise hit both alike. Reported: the median over
 * rounds of the time per hashx_make and per hashx_exec (over the functions
 * of 16 seeds, whose speeds differ), and the ratio B/A
 * (above 1: A is faster). Contexts are HASHX_TYPE_INTERPRETED, or
 * HASHX_TYPE_COMPILED with -c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <hashx.h>

#include "benchutil.h"

typedef struct api {
	const char *path;
	hashx_ctx *(*alloc)(hashx_type);
	hashx_result (*make)(hashx_ctx *, const void *, size_t);
	hashx_result (*exec)(const hashx_ctx *, uint64_t, void *);
	void (*free)(hashx_ctx *);
} api;

static int load(const char *path, api *a)
{
	static const char *const names[] = {
		"hashx_alloc", "hashx_make", "hashx_exec", "hashx_free",
	};
	void *s[4];

	if (bench_load("hashx-compare", path, names, 4, s) < 0)
		return -1;
	a->path = path;
	/* object to function pointers, as POSIX allows for dlsym */
	memcpy(&a->alloc, &s[0], sizeof a->alloc);
	memcpy(&a->make, &s[1], sizeof a->make);
	memcpy(&a->exec, &s[2], sizeof a->exec);
	memcpy(&a->free, &s[3], sizeof a->free);
	return 0;
}

static void seed_bytes(unsigned i, unsigned char s[4])
{
	s[0] = (unsigned char)i;
	s[1] = (unsigned char)(i >> 8);
	s[2] = (unsigned char)(i >> 16);
	s[3] = (unsigned char)(i >> 24);
}

/* Nanoseconds per hashx_make over `seeds` seeds starting at `first`. */
static double time_make(const api *a, hashx_ctx *ctx, unsigned first,
			unsigned seeds)
{
	unsigned char s[4];
	double t0 = bench_now_ns();

	for (unsigned i = 0; i < seeds; i++) {
		seed_bytes(first + i, s);
		a->make(ctx, s, sizeof s);
	}
	return (bench_now_ns() - t0) / seeds;
}

/* Nanoseconds per hashx_exec, averaged over the functions of EXEC_SEEDS
 * seeds (programs differ in speed); the sink keeps the work observable. */
#define EXEC_SEEDS 16

static double time_exec(const api *a, hashx_ctx *ctx, unsigned hashes,
			unsigned char *sink)
{
	unsigned char out[32], s[4];
	unsigned per_seed = hashes / EXEC_SEEDS + 1, timed = 0;
	double total = 0;

	for (unsigned k = 0; timed < EXEC_SEEDS; k++) {
		seed_bytes(0x10000000u + k, s);
		if (a->make(ctx, s, sizeof s) != HASHX_OK)
			continue;
		double t0 = bench_now_ns();
		for (unsigned i = 0; i < per_seed; i++) {
			a->exec(ctx, i, out);
			*sink ^= out[0];
		}
		total += bench_now_ns() - t0;
		timed++;
	}
	return total / ((double)per_seed * EXEC_SEEDS);
}

/* Both libraries must agree before their speed means anything. */
static int same_outputs(const api *a, const api *b, hashx_ctx *ca,
			hashx_ctx *cb, unsigned seeds)
{
	unsigned char s[4], oa[32], ob[32];

	for (unsigned i = 0; i < seeds; i++) {
		seed_bytes(i, s);
		hashx_result ra = a->make(ca, s, sizeof s);
		hashx_result rb = b->make(cb, s, sizeof s);
		if (ra != rb)
			return 0;
		if (ra != HASHX_OK)
			continue;
		for (uint64_t n = 0; n < 4; n++) {
			a->exec(ca, n * 0x9e3779b97f4a7c15u, oa);
			b->exec(cb, n * 0x9e3779b97f4a7c15u, ob);
			if (memcmp(oa, ob, HASHX_SIZE) != 0)
				return 0;
		}
	}
	return 1;
}

int main(int argc, char **argv)
{
	unsigned seeds = 2000, hashes = 200000, rounds = 11;
	unsigned char sink = 0;
	hashx_type type = HASHX_TYPE_INTERPRETED;
	api lib[2];
	int i = 1;

	if (i < argc && strcmp(argv[i], "-c") == 0) {
		type = HASHX_TYPE_COMPILED;
		i++;
	}
	for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		unsigned *dst = strcmp(argv[i], "-s") == 0   ? &seeds
				: strcmp(argv[i], "-n") == 0 ? &hashes
				: strcmp(argv[i], "-r") == 0 ? &rounds
							     : NULL;
		if (dst == NULL || bench_parse_uint(argv[i + 1], dst) < 0 ||
		    rounds > 1000)
			goto usage;
	}
	if (argc - i != 2)
		goto usage;
	if (load(argv[i], &lib[0]) < 0 || load(argv[i + 1], &lib[1]) < 0)
		return 1;

	hashx_ctx *ctx[2] = { lib[0].alloc(type), lib[1].alloc(type) };
	if (!ctx[0] || !ctx[1]) {
		fprintf(stderr, "hashx-compare: out of memory\n");
		return 1;
	}
	for (int l = 0; l < 2; l++) {
		if (lib[l].make(ctx[l], "bench", 5) != HASHX_OK) {
			fprintf(stderr, "hashx-compare: %s cannot make a %s "
				"function here\n", lib[l].path,
				type == HASHX_TYPE_COMPILED ? "compiled"
							    : "interpreted");
			return 1;
		}
	}
	if (!same_outputs(&lib[0], &lib[1], ctx[0], ctx[1], 500)) {
		fprintf(stderr, "hashx-compare: the libraries disagree\n");
		return 1;
	}

	double *make_t[2], *exec_t[2];
	for (int l = 0; l < 2; l++) {
		make_t[l] = calloc(rounds, sizeof(double));
		exec_t[l] = calloc(rounds, sizeof(double));
		if (!make_t[l] || !exec_t[l])
			return 1;
	}
	for (unsigned r = 0; r < rounds; r++) {
		for (int l = 0; l < 2; l++)
			make_t[l][r] = time_make(&lib[l], ctx[l], r * seeds,
						 seeds);
		for (int l = 0; l < 2; l++)
			exec_t[l][r] = time_exec(&lib[l], ctx[l], hashes,
						 &sink);
	}
	double m[2], e[2];
	for (int l = 0; l < 2; l++) {
		m[l] = bench_median(make_t[l], rounds);
		e[l] = bench_median(exec_t[l], rounds);
	}
	printf("A = %s\nB = %s\n", lib[0].path, lib[1].path);
	printf("%-22s %12s %12s %8s\n", "median of rounds", "A", "B", "B/A");
	printf("%-22s %10.0f ns %10.0f ns %8.2f\n", "hashx_make", m[0], m[1],
	       m[1] / m[0]);
	printf("%-22s %10.1f ns %10.1f ns %8.2f\n",
	       type == HASHX_TYPE_COMPILED ? "hashx_exec (compiled)"
					   : "hashx_exec (interp.)",
	       e[0], e[1], e[1] / e[0]);
	printf("(%u rounds of %u seeds and %u hashes)\n", rounds, seeds,
	       hashes);
	/* The sink only keeps the hashing observable to the compiler. */
	if (sink == 0xff)
		fflush(stdout);
	for (int l = 0; l < 2; l++) {
		lib[l].free(ctx[l]);
		free(make_t[l]);
		free(exec_t[l]);
	}
	return 0;
usage:
	fprintf(stderr,
		"usage: hashx-compare [-c] [-s SEEDS] [-n HASHES] [-r ROUNDS] "
		"LIB_A LIB_B\n");
	return 2;
}

/*
 * equix-compare - time two Equi-X libraries side by side in one process.
 *
 *   equix-compare [-n CHALLENGES] [-v VERIFIES] [-r ROUNDS] LIB_A LIB_B
 *
 * Both shared objects (with the equix.h API) are loaded with RTLD_LOCAL,
 * checked to give the same solutions, then timed in alternation: solving
 * with a compiled (MUST_COMPILE) context, and verifying with an
 * interpreted and a try-compile context (each verification makes the
 * challenge's HashX function, as a service does for every request).
 * Reported: the median over rounds and the ratio B/A (above 1: A is
 * faster).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <equix.h>

#include "benchutil.h"

typedef struct api {
	const char *path;
	equix_ctx *(*alloc)(equix_ctx_flags);
	void (*free)(equix_ctx *);
	equix_result (*solve)(equix_ctx *, const void *, size_t,
			      equix_solutions_buffer *);
	equix_result (*verify)(equix_ctx *, const void *, size_t,
			       const equix_solution *);
} api;

static int load(const char *path, api *a)
{
	static const char *const names[] = {
		"equix_alloc", "equix_free", "equix_solve", "equix_verify",
	};
	void *s[4];

	if (bench_load("equix-compare", path, names, 4, s) < 0)
		return -1;
	a->path = path;
	/* object to function pointers, as POSIX allows for dlsym */
	memcpy(&a->alloc, &s[0], sizeof a->alloc);
	memcpy(&a->free, &s[1], sizeof a->free);
	memcpy(&a->solve, &s[2], sizeof a->solve);
	memcpy(&a->verify, &s[3], sizeof a->verify);
	return 0;
}

static void challenge(unsigned i, unsigned char c[4])
{
	c[0] = (unsigned char)i;
	c[1] = (unsigned char)(i >> 8);
	c[2] = (unsigned char)(i >> 16);
	c[3] = 0xec;
}

/* One solution per challenge, to verify; found with library A. */
typedef struct sample {
	unsigned char c[4];
	equix_solution sol;
} sample;

static double time_solve(const api *a, equix_ctx *ctx, unsigned first,
			 unsigned n, unsigned *sols)
{
	equix_solutions_buffer buf;
	unsigned char c[4];
	double t0 = bench_now_ns();

	for (unsigned i = 0; i < n; i++) {
		challenge(first + i, c);
		if (a->solve(ctx, c, sizeof c, &buf) == EQUIX_OK)
			*sols += buf.count;
	}
	return (bench_now_ns() - t0) / n;
}

static double time_verify(const api *a, equix_ctx *ctx, const sample *s,
			  unsigned n, unsigned *ok)
{
	double t0 = bench_now_ns();

	for (unsigned i = 0; i < n; i++)
		*ok += a->verify(ctx, s[i].c, sizeof s[i].c, &s[i].sol) ==
		       EQUIX_OK;
	return (bench_now_ns() - t0) / n;
}

/* Both libraries must find the same solutions before speed means
 * anything. */
static int same_solutions(const api lib[2], equix_ctx *ctx[2], unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		equix_solutions_buffer b[2];
		unsigned char c[4];

		challenge(100000 + i, c);
		for (int l = 0; l < 2; l++)
			if (lib[l].solve(ctx[l], c, sizeof c, &b[l]) !=
			    EQUIX_OK)
				b[l].count = 0;
		if (b[0].count != b[1].count ||
		    memcmp(b[0].sols, b[1].sols,
			   b[0].count * sizeof b[0].sols[0]) != 0)
			return 0;
	}
	return 1;
}

#define KINDS 3
static const char *const kind_name[KINDS] = {
	"solve (compiled)", "verify (interpreted)", "verify (try-compile)",
};
static const equix_ctx_flags kind_flags[KINDS] = {
	EQUIX_CTX_SOLVE | EQUIX_CTX_MUST_COMPILE, EQUIX_CTX_VERIFY,
	EQUIX_CTX_TRY_COMPILE,
};

int main(int argc, char **argv)
{
	unsigned challenges = 20, verifies = 2000, rounds = 7, sink = 0;
	api lib[2];
	equix_ctx *ctx[KINDS][2];
	int i = 1;

	for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		unsigned *dst = strcmp(argv[i], "-n") == 0   ? &challenges
				: strcmp(argv[i], "-v") == 0 ? &verifies
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
	for (int k = 0; k < KINDS; k++)
		for (int l = 0; l < 2; l++)
			if ((ctx[k][l] = lib[l].alloc(kind_flags[k])) == NULL) {
				fprintf(stderr, "equix-compare: alloc failed\n");
				return 1;
			}
	equix_ctx *pair[2] = { ctx[0][0], ctx[0][1] };
	if (!same_solutions(lib, pair, 20)) {
		fprintf(stderr, "equix-compare: the libraries disagree\n");
		return 1;
	}

	/* Samples to verify: the first solution of successive challenges. */
	sample *s = calloc(verifies, sizeof *s);
	if (s == NULL)
		return 1;
	for (unsigned n = 0, c = 200000; n < verifies; c++) {
		equix_solutions_buffer b;

		challenge(c, s[n].c);
		if (lib[0].solve(ctx[0][0], s[n].c, 4, &b) == EQUIX_OK &&
		    b.count > 0)
			s[n++].sol = b.sols[0];
	}

	double *t[KINDS][2];
	for (int k = 0; k < KINDS; k++)
		for (int l = 0; l < 2; l++)
			if ((t[k][l] = calloc(rounds, sizeof(double))) == NULL)
				return 1;
	for (unsigned r = 0; r < rounds; r++)
		for (int l = 0; l < 2; l++) {
			t[0][l][r] = time_solve(&lib[l], ctx[0][l],
						r * challenges, challenges,
						&sink);
			for (int k = 1; k < KINDS; k++)
				t[k][l][r] = time_verify(&lib[l], ctx[k][l], s,
							 verifies, &sink);
		}
	printf("A = %s\nB = %s\n", lib[0].path, lib[1].path);
	printf("%-22s %12s %12s %8s\n", "median of rounds", "A", "B", "B/A");
	for (int k = 0; k < KINDS; k++) {
		double a = bench_median(t[k][0], rounds), b = bench_median(t[k][1], rounds);
		const char *unit = a > 1e6 ? "ms" : "us";
		double div = a > 1e6 ? 1e6 : 1e3;

		printf("%-22s %9.2f %s %9.2f %s %8.2f\n", kind_name[k], a / div,
		       unit, b / div, unit, b / a);
	}
	printf("(%u rounds of %u solves and %u verifications; %u results)\n",
	       rounds, challenges, verifies, sink);
	for (int k = 0; k < KINDS; k++)
		for (int l = 0; l < 2; l++) {
			lib[l].free(ctx[k][l]);
			free(t[k][l]);
		}
	free(s);
	return 0;
usage:
	fprintf(stderr, "usage: equix-compare [-n CHALLENGES] [-v VERIFIES] "
			"[-r ROUNDS] LIB_A LIB_B\n");
	return 2;
}

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/* A client written for Tor's equix.h (src/ext/equix/include/equix.h in
 * Tor's tree) that asks for Equi-X v2 by adding tevador's flag EQUIX_V2
 * to its context flags, and changes nothing else: it solves one
 * challenge, verifies every solution it got, and prints them, one line
 * each ("i0,i1,...,i7" in hex). tests/installcheck.sh builds it with
 * `pkg-config --cflags --libs libequix` alone and compares the lines with
 * tevador's v2 solver's for the same challenge. */
#include <equix.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
	static const char challenge[] = "Equi-X v2 through Tor's API";
	equix_ctx *ctx = equix_alloc(EQUIX_CTX_SOLVE | EQUIX_CTX_TRY_COMPILE |
				     EQUIX_V2);
	equix_solutions_buffer output;
	int status = 0;

	if (ctx == NULL) {
		fputs("equix_alloc failed\n", stderr);
		return 1;
	}
	if (equix_solve(ctx, challenge, strlen(challenge), &output) !=
	    EQUIX_OK) {
		fputs("equix_solve failed\n", stderr);
		equix_free(ctx);
		return 1;
	}
	for (unsigned i = 0; i < output.count; i++) {
		const equix_solution *s = &output.sols[i];
		equix_result r = equix_verify(ctx, challenge,
					      strlen(challenge), s);
		if (r != EQUIX_OK) {
			fprintf(stderr, "solution %u: equix_verify says %d\n",
				i, (int)r);
			status = 1;
		}
		for (int j = 0; j < EQUIX_NUM_IDX; j++)
			printf("%04x%c", s->idx[j],
			       j + 1 < EQUIX_NUM_IDX ? ',' : '\n');
	}
	equix_free(ctx);
	return status;
}

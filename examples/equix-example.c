/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * equix-example - solve an Equi-X challenge and verify the solutions.
 *
 *   equix-example [CHALLENGE]
 *
 * CHALLENGE is taken as its bytes (default "equix example"). Prints each
 * solution as eight hex indices, its 16-byte wire form, and the verifier's
 * verdict; exits 1 if any solution fails to verify.
 */
#include <stdio.h>
#include <string.h>

#include <equix.h>

int main(int argc, char **argv)
{
	const char *challenge = argc > 1 ? argv[1] : "equix example";
	size_t len = strlen(challenge);
	equix_ctx *solver, *verifier;
	equix_solutions_buffer sols;
	equix_result r;
	int status = 0;

	if (argc > 2) {
		fprintf(stderr, "usage: %s [CHALLENGE]\n", argv[0]);
		return 2;
	}
	solver = equix_alloc(EQUIX_CTX_SOLVE | EQUIX_CTX_TRY_COMPILE);
	verifier = equix_alloc(EQUIX_CTX_VERIFY | EQUIX_CTX_TRY_COMPILE);
	if (solver == NULL || verifier == NULL) {
		fprintf(stderr, "equix-example: out of memory\n");
		return 1;
	}
	r = equix_solve(solver, challenge, len, &sols);
	if (r != EQUIX_OK) {
		fprintf(stderr, "equix-example: challenge \"%s\" cannot be "
			"solved (result %d)\n", challenge, (int)r);
		status = 1;
		goto out;
	}
	printf("challenge \"%s\": %u solution(s)%s\n", challenge, sols.count,
	       sols.flags & EQUIX_SOLVER_DID_USE_COMPILER ? ", compiled"
							  : "");
	for (unsigned i = 0; i < sols.count; i++) {
		uint8_t wire[EQUIX_SOLUTION_BYTES];

		for (int k = 0; k < EQUIX_NUM_IDX; k++)
			printf("%04x%c", sols.sols[i].idx[k],
			       k + 1 < EQUIX_NUM_IDX ? ',' : ' ');
		equix_solution_pack(&sols.sols[i], wire);
		for (int k = 0; k < EQUIX_SOLUTION_BYTES; k++)
			printf("%02x", wire[k]);
		r = equix_verify(verifier, challenge, len, &sols.sols[i]);
		printf(" %s\n", r == EQUIX_OK ? "verified" : "REJECTED");
		if (r != EQUIX_OK)
			status = 1;
	}
out:
	equix_free(solver);
	equix_free(verifier);
	return status;
}

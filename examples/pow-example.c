/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pow-example.c - Tor's v1 client puzzle end to end: a client finds a
 * proof for a service, sends it as an INTRODUCE1 extension body, and the
 * service checks it (and refuses it the second time).
 *
 *   pow-example [EFFORT]     (default 100)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <equix_pow.h>

static void print_hex(const char *label, const uint8_t *p, size_t n)
{
	printf("%s", label);
	for (size_t i = 0; i < n; i++)
		printf("%02x", p[i]);
	printf("\n");
}

int main(int argc, char **argv)
{
	uint8_t id[EQUIX_POW_ID_LEN], seed[EQUIX_POW_SEED_LEN];
	uint8_t nonce[EQUIX_POW_NONCE_LEN] = {0};
	uint8_t body[EQUIX_POW_EXTENSION_LEN];
	uint32_t effort = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 100;
	equix_pow_solution proof, received;
	uint64_t attempts = 0;
	equix_pow_result r;

	/* Fixed inputs, so the output is the same on every run. */
	memset(id, 0x11, sizeof id);
	memset(seed, 0xaa, sizeof seed);

	r = equix_pow_solve(id, seed, effort, nonce, NULL, &proof, &attempts);
	if (r != EQUIX_POW_OK) {
		fprintf(stderr, "solve: %s\n", equix_pow_result_string(r));
		return 1;
	}
	printf("effort %u: found after %llu nonces\n", effort,
	       (unsigned long long)attempts);
	print_hex("nonce     ", proof.nonce, sizeof proof.nonce);
	print_hex("solution  ", proof.solution, sizeof proof.solution);
	equix_pow_extension_encode(&proof, body);
	print_hex("extension ", body, sizeof body);

	equix_pow_service *svc = equix_pow_service_alloc(id, seed, 0, 0);
	if (svc == NULL ||
	    equix_pow_extension_decode(body, sizeof body, &received) !=
		    EQUIX_POW_OK) {
		fprintf(stderr, "service setup or decoding failed\n");
		equix_pow_service_free(svc);
		return 1;
	}
	r = equix_pow_service_verify(svc, NULL, &received);
	printf("service: %s\n", equix_pow_result_string(r));
	equix_pow_result again = equix_pow_service_verify(svc, NULL, &received);
	printf("service, same proof again: %s\n",
	       equix_pow_result_string(again));
	equix_pow_service_free(svc);
	return r == EQUIX_POW_OK && again == EQUIX_POW_FAIL_REPLAY ? 0 : 1;
}

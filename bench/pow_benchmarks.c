/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pow_benchmarks.c - Tor's PoW v1 layer, service side: the effort check
 * and a full verification of a fresh proof. This library only: the
 * reference has no PoW layer. Outputs are checked first against Tor's own
 * test vectors (src/test/test_hs_pow_slow.c, also in tests/test_pow.c).
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <equix_pow.h>
#include <sodium.h>

#include "benchmarks.h"
#include "benchutil.h"
#include "clock.h"

/* Proofs verified by pow/verify before a fresh service is needed. */
#define POW_PROOFS 32

/* Tor's vectors: effort, seed, service ID, the winning nonce and the
 * solution Tor's client found. */
static const struct tor_vector {
	uint32_t effort;
	const char *seed, *id, *nonce, *solution;
} tor_vectors[] = {
#define AA "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define ID1 "1111111111111111111111111111111111111111111111111111111111111111"
#define S2 "86fb0acf4932cda44dbb451282f415479462dd10cb97ff5e7e8e2a53c3767a7f"
#define ID2 "bfd298428562e530c52bdb36d81a0e293ef4a0e94d787f0f8c0c611f4f9e78ed"
	{1, AA, ID1, "55555555555555555555555555555555",
	 "84355542ab2b3f79532ef055144ac5ab"},
	{2, AA, ID1, "55555555555555555555555555555555",
	 "4600a93a535ed76dc746c99942ab7de2"},
	{10, AA, ID1, "56555555555555555555555555555555",
	 "128bbda5df2929c3be086de2aad34aed"},
	{1000, AA, ID1, "d4555555555555555555555555555555",
	 "338cc08f57697ce8ac2e4b453057d6e9"},
	{1000000, AA, ID1, "59217255555555555555555555555555",
	 "0f3db97b9cac20c1771680a1a34848d3"},
	{1, S2, ID2, "b4d0e611e6935750fcf9406aae131f62",
	 "9f3fbd50b1a83fb63284bde44318c0fd"},
	{10000, S2, ID2, "36569fdbc34326d9d2f18ed277469c63",
	 "2802951e623c74adc443ab93e99633ee"},
	{1000000, S2, ID2, "5543b3dbc34326d9d2f18ed277469c63",
	 "b47c718b56315e9697173a6bac1feaa4"},
};

#define N_TOR (sizeof tor_vectors / sizeof tor_vectors[0])

typedef struct tor_case {
	uint8_t id[EQUIX_POW_ID_LEN], seed[EQUIX_POW_SEED_LEN];
	equix_pow_solution proof;
	uint8_t challenge[EQUIX_POW_CHALLENGE_LEN];
} tor_case;

/* The constants above are well-formed and of the right lengths. */
static void unhex(const char *hex, uint8_t *out, size_t len)
{
	sodium_hex2bin(out, len, hex, strlen(hex), NULL, NULL, NULL);
}

static void load_case(const struct tor_vector *v, tor_case *c)
{
	unhex(v->id, c->id, sizeof c->id);
	unhex(v->seed, c->seed, sizeof c->seed);
	unhex(v->nonce, c->proof.nonce, sizeof c->proof.nonce);
	unhex(v->solution, c->proof.solution, sizeof c->proof.solution);
	memcpy(c->proof.seed_head, c->seed, EQUIX_POW_SEED_HEAD_LEN);
	c->proof.effort = v->effort;
	equix_pow_challenge_build(c->challenge, c->id, c->seed, c->proof.nonce,
				  v->effort);
}

typedef struct pow_state {
	tor_case cases[N_TOR];
	size_t next;
	/* pow/verify: the proofs and the service they are fresh for */
	uint8_t id[EQUIX_POW_ID_LEN], seed[EQUIX_POW_SEED_LEN];
	equix_pow_solution proofs[POW_PROOFS];
	equix_pow_service *svc;
	unsigned sink;
} pow_state;

void bench_pow_free(void *state)
{
	pow_state *s = state;

	if (s != NULL)
		equix_pow_service_free(s->svc);
	free(s);
}

/* Each of Tor's proofs passes the effort check at its effort, and the
 * high-effort ones fail it at the highest effort. */
static bench_status check_effort(pow_state *s, char *msg, size_t size)
{
	for (size_t i = 0; i < N_TOR; i++) {
		tor_case *c = &s->cases[i];

		if (!equix_pow_effort_check(c->challenge, c->proof.solution,
					    c->proof.effort) ||
		    (c->proof.effort >= 1000 &&
		     equix_pow_effort_check(c->challenge, c->proof.solution,
					    UINT32_MAX)))
			return bench_say(BENCH_WRONG, msg, size,
					 "Tor's vector %zu: effort check "
					 "differs",
					 i);
	}
	return BENCH_READY;
}

/* Each of Tor's proofs is accepted once by a fresh service, then refused
 * as a replay. */
static bench_status check_service(pow_state *s, char *msg, size_t size)
{
	for (size_t i = 0; i < N_TOR; i++) {
		tor_case *c = &s->cases[i];
		equix_pow_service *svc =
			equix_pow_service_alloc(c->id, c->seed, 0, 0);
		equix_pow_result r1, r2;

		if (svc == NULL)
			return BENCH_ERROR;
		r1 = equix_pow_service_verify(svc, NULL, &c->proof);
		r2 = equix_pow_service_verify(svc, NULL, &c->proof);
		equix_pow_service_free(svc);
		if (r1 != EQUIX_POW_OK || r2 != EQUIX_POW_FAIL_REPLAY)
			return bench_say(
				BENCH_WRONG, msg, size,
				"Tor's vector %zu: service gave "
				"\"%s\" then \"%s\", expected \"%s\" then "
				"\"%s\"",
				i, equix_pow_result_string(r1),
				equix_pow_result_string(r2),
				equix_pow_result_string(EQUIX_POW_OK),
				equix_pow_result_string(EQUIX_POW_FAIL_REPLAY));
	}
	return BENCH_READY;
}

/* pow/effort-check: one equix_pow_effort_check (a 4-byte BLAKE2b of the
 * challenge and solution, and the product test) per iteration. */
double bench_pow_effort(void *state, uint64_t iters)
{
	pow_state *s = state;
	double t0 = cli_now_ns();

	for (uint64_t i = 0; i < iters; i++) {
		const tor_case *c = &s->cases[s->next];

		s->sink += (unsigned)equix_pow_effort_check(
			c->challenge, c->proof.solution, c->proof.effort);
		s->next = (s->next + 1) % N_TOR;
	}
	return cli_now_ns() - t0;
}

/* POW_PROOFS proofs of efforts 1 to 3 for one service, from distinct
 * start nonces, found with this library's client search. */
static int make_proofs(pow_state *s)
{
	equix_pow_solve_options opt;

	equix_pow_solve_options_init(&opt);
	memcpy(s->id, s->cases[0].id, sizeof s->id);
	memcpy(s->seed, s->cases[0].seed, sizeof s->seed);
	for (size_t i = 0; i < POW_PROOFS; i++) {
		uint8_t start[EQUIX_POW_NONCE_LEN] = {0};

		start[EQUIX_POW_NONCE_LEN - 1] = (uint8_t)(i + 1);
		if (equix_pow_solve(s->id, s->seed, (uint32_t)(1 + i % 3),
				    start, &opt, &s->proofs[i],
				    NULL) != EQUIX_POW_OK)
			return -1;
	}
	return 0;
}

/* A service that has seen none of the proofs. */
static int fresh_service(pow_state *s)
{
	equix_pow_service_free(s->svc);
	s->svc = equix_pow_service_alloc(s->id, s->seed, 0,
					 EQUIX_CTX_TRY_COMPILE);
	s->next = 0;
	return s->svc != NULL ? 0 : -1;
}

/* Tor's vectors checked by the layer `what` measures; for pow/verify,
 * the proofs to verify. */
bench_status bench_pow_setup(const bench_library *lib, const bench_vectors *v,
			     int what, void **state, char *msg, size_t size)
{
	pow_state *s = calloc(1, sizeof *s);
	bench_status st;

	(void)lib;
	(void)v;
	if ((*state = s) == NULL)
		return BENCH_ERROR;
	for (size_t i = 0; i < N_TOR; i++)
		load_case(&tor_vectors[i], &s->cases[i]);
	if (what == POW_EFFORT)
		return check_effort(s, msg, size);
	st = check_service(s, msg, size);
	if (st == BENCH_READY && (make_proofs(s) < 0 || fresh_service(s) < 0))
		return bench_say(BENCH_ERROR, msg, size,
				 "cannot make the proofs to verify");
	return st;
}

/* pow/verify: one equix_pow_service_verify of a proof the service has not
 * seen (seed head lookup, replay check and record, effort check,
 * equix_verify with a try-compile context) per iteration. After
 * POW_PROOFS of them the service is replaced by a fresh one with the
 * clock stopped, so every timed call is a full, successful
 * verification. */
double bench_pow_verify(void *state, uint64_t iters)
{
	pow_state *s = state;
	double total = 0;

	while (iters > 0) {
		if (s->next == POW_PROOFS && fresh_service(s) < 0)
			abort();
		uint64_t batch = POW_PROOFS - s->next;
		if (batch > iters)
			batch = iters;
		double t0 = cli_now_ns();
		for (uint64_t i = 0; i < batch; i++)
			s->sink +=
				equix_pow_service_verify(
					s->svc, NULL, &s->proofs[s->next++]) !=
				EQUIX_POW_OK;
		total += cli_now_ns() - t0;
		/* Only successful verifications may be timed. */
		if (s->sink != 0) {
			fprintf(stderr, "equix-bench: pow/verify: a fresh "
					"proof was refused\n");
			exit(1);
		}
		iters -= batch;
	}
	return total;
}

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pow_core.c - the C ABI of Tor's PoW v1 beyond the puzzle (core.c has
 * the challenge and the effort check): the client's nonce order, the
 * stateless part of the service's check, the result names, the
 * INTRODUCE1 extension body and the descriptor's pow-params line, each
 * the library's own function (src/pow), with the proof's fields passed
 * one by one since JavaScript has no structs. The stateless check and
 * the names are the library's internal functions (proof_check.h, result.h):
 * js/build.sh compiles src/pow's files into the same module, so they need
 * no export from the shared library.
 */
#include <string.h>

#include <equix_pow.h>

#include "proof_check.h"
#include "core.h"
#include "result.h"

#define POW_EXPORT(name) __attribute__((export_name(name)))

POW_EXPORT("ex_pow_nonce_add")
void ex_pow_nonce_add(uint8_t nonce[EQUIX_POW_NONCE_LEN], uint64_t count);
POW_EXPORT("ex_pow_verify")
int ex_pow_verify(equix_ctx *ctx, const uint8_t *id, const uint8_t *seed,
		  const uint8_t *nonce, uint32_t effort,
		  const uint8_t *seed_head, const uint8_t *solution);
POW_EXPORT("ex_pow_result_name") const char *ex_pow_result_name(int r);
POW_EXPORT("ex_pow_extension_encode")
int ex_pow_extension_encode(const uint8_t *nonce, uint32_t effort,
			    const uint8_t *seed_head, const uint8_t *solution,
			    uint8_t *body);
POW_EXPORT("ex_pow_extension_decode")
int ex_pow_extension_decode(const uint8_t *body, size_t length,
			    uint8_t *nonce, uint32_t *effort,
			    uint8_t *seed_head, uint8_t *solution);
POW_EXPORT("ex_pow_params_format")
int ex_pow_params_format(const uint8_t *seed, uint32_t suggested_effort,
			 int64_t expiration, char *out, size_t out_size);
POW_EXPORT("ex_pow_params_parse")
int ex_pow_params_parse(const char *line, size_t length, uint8_t *seed,
			uint32_t *suggested_effort, int64_t *expiration);
POW_EXPORT("ex_pow_params_max_len") int ex_pow_params_max_len(void);
POW_EXPORT("ex_pow_extension_len") int ex_pow_extension_len(void);

void ex_pow_nonce_add(uint8_t nonce[EQUIX_POW_NONCE_LEN], uint64_t count)
{
	equix_pow_nonce_add(nonce, count);
}

/* A proof from its fields, as JavaScript passes them. */
static void proof_set(equix_pow_solution *p, const uint8_t *nonce,
		      uint32_t effort, const uint8_t *seed_head,
		      const uint8_t *solution)
{
	memcpy(p->nonce, nonce, sizeof p->nonce);
	p->effort = effort;
	memcpy(p->seed_head, seed_head, sizeof p->seed_head);
	memcpy(p->solution, solution, sizeof p->solution);
}

/* The service's checks that need no state, in its order, for this seed
 * (pow_check_proof(), as the service calls it): the seed head names it,
 * the effort check, then equix_verify(). What a service adds (its minimum
 * effort, the previous seed, the replay cache) is the caller's. */
int ex_pow_verify(equix_ctx *ctx, const uint8_t *id, const uint8_t *seed,
		  const uint8_t *nonce, uint32_t effort,
		  const uint8_t *seed_head, const uint8_t *solution)
{
	equix_pow_solution p;

	proof_set(&p, nonce, effort, seed_head, solution);
	return (int)pow_check_proof(ctx, id, seed, &p, NULL, NULL);
}

/* The enumerator's name without its EQUIX_POW_ prefix (as core.c's), from
 * the library's list (result.c). */
const char *ex_pow_result_name(int r)
{
	return pow_result_name((equix_pow_result)r);
}

int ex_pow_extension_encode(const uint8_t *nonce, uint32_t effort,
			    const uint8_t *seed_head, const uint8_t *solution,
			    uint8_t *body)
{
	equix_pow_solution p;

	proof_set(&p, nonce, effort, seed_head, solution);
	return (int)equix_pow_extension_encode(&p, body);
}

int ex_pow_extension_decode(const uint8_t *body, size_t length,
			    uint8_t *nonce, uint32_t *effort,
			    uint8_t *seed_head, uint8_t *solution)
{
	equix_pow_solution p;
	equix_pow_result r = equix_pow_extension_decode(body, length, &p);

	if (r != EQUIX_POW_OK)
		return (int)r;
	memcpy(nonce, p.nonce, sizeof p.nonce);
	*effort = p.effort;
	memcpy(seed_head, p.seed_head, sizeof p.seed_head);
	memcpy(solution, p.solution, sizeof p.solution);
	return (int)r;
}

int ex_pow_params_format(const uint8_t *seed, uint32_t suggested_effort,
			 int64_t expiration, char *out, size_t out_size)
{
	equix_pow_params p;

	memcpy(p.seed, seed, sizeof p.seed);
	p.suggested_effort = suggested_effort;
	p.expiration = expiration;
	return (int)equix_pow_params_format(&p, out, out_size);
}

int ex_pow_params_parse(const char *line, size_t length, uint8_t *seed,
			uint32_t *suggested_effort, int64_t *expiration)
{
	equix_pow_params p;
	equix_pow_result r = equix_pow_params_parse(line, length, &p);

	if (r != EQUIX_POW_OK)
		return (int)r;
	memcpy(seed, p.seed, sizeof p.seed);
	*suggested_effort = p.suggested_effort;
	*expiration = p.expiration;
	return (int)r;
}

int ex_pow_params_max_len(void)
{
	return EQUIX_POW_PARAMS_MAX_LEN;
}

int ex_pow_extension_len(void)
{
	return EQUIX_POW_EXTENSION_LEN;
}

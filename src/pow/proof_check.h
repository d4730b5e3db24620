/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * proof_check.h - the checks of a proof that need no state, in the service's
 * order (service.c's numbered steps, equix_pow_service_verify()): the one
 * place they are written, called by the service and by the WebAssembly
 * core (js/src/pow_core.c), which builds this file with the library's
 * other sources.
 */
#ifndef EQUIX_POW_PROOF_CHECK_H
#define EQUIX_POW_PROOF_CHECK_H

#include <stdint.h>

#include "equix_pow.h"

/*
 * The caller's step between the effort check and equix_verify() (the
 * service's step 4, its reservation in the replay cache): EQUIX_POW_OK
 * lets the proof on to equix_verify(), any other result ends the check
 * with it. equix_verify() follows the gate at once, and the check returns
 * right after it, so a gate may take a lock that its caller releases when
 * pow_check_proof() returns.
 */
typedef equix_pow_result pow_check_gate(void *user,
					const equix_pow_solution *proof);

/*
 * Steps 1, 3 and 5 of the service's order, for the seed `seed`: the
 * proof's seed head is the start of `seed` (EQUIX_POW_FAIL_SEED_HEAD);
 * the effort check on the challenge of `id`, `seed`, the nonce and the
 * effort (EQUIX_POW_FAIL_EFFORT); `gate`, when not NULL; equix_verify()
 * on `ctx` (its result as the EQUIX_POW_* of the same name). What a
 * service adds, its minimum effort and its replay cache, is the caller's.
 * No argument may be NULL but `gate`.
 */
equix_pow_result pow_check_proof(equix_ctx *ctx,
				 const uint8_t id[EQUIX_POW_ID_LEN],
				 const uint8_t seed[EQUIX_POW_SEED_LEN],
				 const equix_pow_solution *proof,
				 pow_check_gate *gate, void *user);

#endif

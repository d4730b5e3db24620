/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * generator.h - turning a key into a HashX program.
 */
#ifndef HASHX_GENERATOR_H
#define HASHX_GENERATOR_H

#include <stdbool.h>

#include "program.h"
#include "rng.h"
#include "siphash.h"

/* What a valid program must measure; the generator rejects any other. */
#define HASHX_REQUIRED_SIZE HASHX_PROGRAM_SIZE
#define HASHX_REQUIRED_MULS 192
#define HASHX_REQUIRED_LATENCY 195 /* cycles, counted from 1 */

/* Summary of a generation run, for tests and statistics. */
typedef struct hashx_gen_stats {
	int mul_count; /* UMULH_R + SMULH_R + MUL_R */
	int latency;   /* cycle at which the last result is ready, plus one */
} hashx_gen_stats;

/*
 * Generates the program selected by `key` (the first half of the seed's
 * BLAKE2b digest) into `prog`. Returns true when it meets the requirements
 * above; false means the seed has no valid program. `observer` may watch
 * the random stream (NULL for none); `stats` may be NULL.
 */
bool hashx_generate(const hashx_sip_state *key, hashx_rng_observer *observer,
		    void *observer_data, hashx_program *prog,
		    hashx_gen_stats *stats);

#endif

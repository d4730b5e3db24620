/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * templates.c - compile-time checks on the template table (templates.h).
 *
 * The table itself lives in the header so that the generator's
 * per-template code sees it as constants; the assumptions other files make
 * about it are checked here, once.
 */
#include "constraints.h"
#include "scheduler.h"
#include "templates.h"

/* hashx_op_is_mul() is a single comparison. */
_Static_assert(HASHX_OP_UMULH_R < HASHX_OP_MUL_R &&
		       HASHX_OP_SMULH_R < HASHX_OP_MUL_R &&
		       HASHX_OP_MUL_R + 1 == HASHX_OP_SUB_R,
	       "the multiplications come first");

/* Ready cycles are kept in bytes (constraints.h): an instruction starts
 * before HASHX_SCHED_CYCLES, and no latency exceeds 4. */
_Static_assert(HASHX_SCHED_CYCLES + 4 <= 256, "ready cycles fit a byte");

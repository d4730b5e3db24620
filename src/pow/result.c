/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * result.c - one English phrase per outcome, for logs and the CLI.
 */
#include <config.h>

#include "equix_pow.h"

const char *equix_pow_result_string(equix_pow_result result)
{
	switch (result) {
	case EQUIX_POW_OK:
		return "ok";
	case EQUIX_POW_FAIL_SEED_HEAD:
		return "unknown seed head";
	case EQUIX_POW_FAIL_REPLAY:
		return "replayed proof";
	case EQUIX_POW_FAIL_EFFORT:
		return "effort check failed";
	case EQUIX_POW_FAIL_CACHE_FULL:
		return "replay cache full";
	case EQUIX_POW_FAIL_ORDER:
		return "indices out of order";
	case EQUIX_POW_FAIL_CHALLENGE:
		return "challenge has no hash function";
	case EQUIX_POW_FAIL_PARTIAL_SUM:
		return "partial sum not zero";
	case EQUIX_POW_FAIL_FINAL_SUM:
		return "final sum not zero";
	case EQUIX_POW_FAIL_COMPILE:
		return "compiled hash unavailable";
	case EQUIX_POW_FAIL_CANCELLED:
		return "cancelled";
	case EQUIX_POW_FAIL_LIMIT:
		return "attempt or time limit reached";
	case EQUIX_POW_FAIL_LENGTH:
		return "wrong length";
	case EQUIX_POW_FAIL_VERSION:
		return "unsupported version";
	case EQUIX_POW_FAIL_SYNTAX:
		return "malformed fields";
	case EQUIX_POW_FAIL_BASE64:
		return "malformed base64 seed";
	case EQUIX_POW_FAIL_NUMBER:
		return "malformed effort";
	case EQUIX_POW_FAIL_TIMESTAMP:
		return "malformed timestamp";
	case EQUIX_POW_FAIL_ARGUMENT:
		return "invalid argument";
	case EQUIX_POW_FAIL_INTERNAL:
		return "internal error";
	case EQUIX_POW_FAIL_NO_MEMORY:
		return "out of memory";
	case EQUIX_POW_FAIL_LOW_EFFORT:
		return "effort below the minimum";
	case EQUIX_POW_FAIL_SEED_RETIRED:
		return "seed already retired";
	case EQUIX_POW_FAIL_EVICTED:
		return "effort at or below an evicted proof's";
	case EQUIX_POW_FAIL_REENTERED:
		return "called from a discard callback";
	}
	return "unknown result";
}

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * result.c - the one list of the outcomes: each result's name, for the
 * JavaScript package (result.h), and its English phrase, for logs and the
 * CLI (equix_pow_result_string()).
 */
#include <config.h>

#include "result.h"

/* X(name, phrase) for each equix_pow_result, in the header's order. Both
 * functions below switch over it: -Wswitch names a result missing here. */
#define POW_RESULTS(X)                                                     \
	X(OK, "ok")                                                        \
	X(FAIL_SEED_HEAD, "unknown seed head")                             \
	X(FAIL_REPLAY, "replayed proof")                                   \
	X(FAIL_EFFORT, "effort check failed")                              \
	X(FAIL_CACHE_FULL, "replay cache full")                            \
	X(FAIL_ORDER, "indices out of order")                              \
	X(FAIL_CHALLENGE, "challenge has no hash function")                \
	X(FAIL_PARTIAL_SUM, "partial sum not zero")                        \
	X(FAIL_FINAL_SUM, "final sum not zero")                            \
	X(FAIL_COMPILE, "compiled hash unavailable")                       \
	X(FAIL_CANCELLED, "cancelled")                                     \
	X(FAIL_LIMIT, "attempt or time limit reached")                     \
	X(FAIL_LENGTH, "wrong length")                                     \
	X(FAIL_VERSION, "unsupported version")                             \
	X(FAIL_SYNTAX, "malformed fields")                                 \
	X(FAIL_BASE64, "malformed base64 seed")                            \
	X(FAIL_NUMBER, "malformed effort")                                 \
	X(FAIL_TIMESTAMP, "malformed timestamp")                           \
	X(FAIL_ARGUMENT, "invalid argument")                               \
	X(FAIL_INTERNAL, "internal error")                                 \
	X(FAIL_NO_MEMORY, "out of memory")                                 \
	X(FAIL_LOW_EFFORT, "effort below the minimum")                     \
	X(FAIL_SEED_RETIRED, "seed already retired")                       \
	X(FAIL_EVICTED, "nonce may have been evicted")                      \
	X(FAIL_REENTERED, "called from a discard callback")

#define PHRASE_CASE(name, phrase)                                          \
	case EQUIX_POW_##name:                                             \
		return phrase;
#define NAME_CASE(name, phrase)                                            \
	case EQUIX_POW_##name:                                             \
		return #name;

const char *equix_pow_result_string(equix_pow_result result)
{
	switch (result) {
		POW_RESULTS(PHRASE_CASE)
	}
	return "unknown result";
}

const char *pow_result_name(equix_pow_result result)
{
	switch (result) {
		POW_RESULTS(NAME_CASE)
	}
	return "UNKNOWN";
}

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_pow_wire.c - libFuzzer harness: the PoW layer's decoders on
 * arbitrary bytes (the extension body a client sends, the descriptor line
 * a client reads). Each must return a defined result, and what it accepts
 * must encode back to the same bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <equix_pow.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void extension(const uint8_t *data, size_t size)
{
	equix_pow_solution proof;
	uint8_t again[EQUIX_POW_EXTENSION_LEN];

	if (equix_pow_extension_decode(data, size, &proof) != EQUIX_POW_OK)
		return;
	if (size != EQUIX_POW_EXTENSION_LEN ||
	    equix_pow_extension_encode(&proof, again) != EQUIX_POW_OK ||
	    memcmp(again, data, size) != 0)
		abort();
}

static void params(const uint8_t *data, size_t size)
{
	equix_pow_params p;
	char line[EQUIX_POW_PARAMS_MAX_LEN + 1];
	size_t body = size;

	if (equix_pow_params_parse((const char *)data, size, &p) !=
	    EQUIX_POW_OK)
		return;
	if (body > 0 && data[body - 1] == '\n')
		body--;
	if (equix_pow_params_format(&p, line, sizeof line) != EQUIX_POW_OK ||
	    strlen(line) != body || memcmp(line, data, body) != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	extension(data, size);
	params(data, size);
	return 0;
}

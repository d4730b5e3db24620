/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * solution_text.c - the two text forms of a solution; see
 * solution_text.h.
 */
#include "solution_text.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <sodium.h>

static const char hex_digits[] = "0123456789abcdefABCDEF";

static const char *parse_wire(const char *text,
			      uint8_t wire[EQUIX_SOLUTION_BYTES])
{
	size_t bin_len = 0;
	const char *end = NULL;

	if (strspn(text, hex_digits) != 2 * EQUIX_SOLUTION_BYTES ||
	    text[2 * EQUIX_SOLUTION_BYTES] != '\0')
		return "expected 32 hex digits or eight comma-separated hex "
		       "indices";
	if (sodium_hex2bin(wire, EQUIX_SOLUTION_BYTES, text,
			   2 * EQUIX_SOLUTION_BYTES, NULL, &bin_len,
			   &end) != 0 ||
	    bin_len != EQUIX_SOLUTION_BYTES)
		return "cannot decode the hex digits";
	return NULL;
}

/* One index: 1 to 4 hex digits, then a comma (or the end after the
 * last). Advances *text past both. */
static bool parse_index(const char **text, int last, equix_idx *out)
{
	size_t n = strspn(*text, hex_digits);
	unsigned value = 0;
	size_t i;

	if (n == 0 || n > 4 || (*text)[n] != (last ? '\0' : ','))
		return false;
	for (i = 0; i < n; i++) {
		char c = (*text)[i];
		unsigned d = c <= '9' ? (unsigned)(c - '0')
				      : ((unsigned)(c | 0x20) - 'a' + 10);
		value = value * 16 + d;
	}
	*out = (equix_idx)value;
	*text += n + (last ? 0 : 1);
	return true;
}

static const char *parse_indices(const char *text,
				 uint8_t wire[EQUIX_SOLUTION_BYTES])
{
	equix_solution sol;
	int i;

	for (i = 0; i < EQUIX_NUM_IDX; i++)
		if (!parse_index(&text, i == EQUIX_NUM_IDX - 1, &sol.idx[i]))
			return "expected eight comma-separated hex indices "
			       "of 1 to 4 digits each";
	equix_solution_pack(&sol, wire);
	return NULL;
}

const char *cli_solution_parse(const char *text,
			       uint8_t wire[EQUIX_SOLUTION_BYTES])
{
	if (strchr(text, ',') != NULL)
		return parse_indices(text, wire);
	return parse_wire(text, wire);
}

void cli_solution_format_hex(const uint8_t wire[EQUIX_SOLUTION_BYTES],
			     char out[CLI_SOLUTION_HEX_SIZE])
{
	sodium_bin2hex(out, CLI_SOLUTION_HEX_SIZE, wire, EQUIX_SOLUTION_BYTES);
}

void cli_solution_format_indices(const equix_solution *solution,
				 char out[CLI_SOLUTION_INDICES_SIZE])
{
	int i;

	for (i = 0; i < EQUIX_NUM_IDX; i++)
		snprintf(out + 5 * i, 6, "%04x%s", solution->idx[i],
			 i < EQUIX_NUM_IDX - 1 ? "," : "");
}

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * args.c - option scanning and strict argument parsers; see args.h.
 */
#include "args.h"
#include "say.h"

#include <stdbool.h>
#include <float.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

static void vreport(const char *format, va_list ap)
{
	tools_vsay("equix-cli", format, ap);
}

int cli_usage_error(const char *format, ...)
{
	va_list ap;

	va_start(ap, format);
	vreport(format, ap);
	va_end(ap);
	return CLI_USAGE;
}

int cli_fail(const char *format, ...)
{
	va_list ap;

	va_start(ap, format);
	vreport(format, ap);
	va_end(ap);
	return CLI_FAIL;
}

cli_quoted cli_quote(const char *text)
{
	const size_t keep = 40;
	cli_quoted q;
	size_t i;

	for (i = 0; i < keep && text[i] != '\0'; i++) {
		unsigned char c = (unsigned char)text[i];
		q.text[i] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
	}
	if (text[i] != '\0') {
		memcpy(q.text + i, "...", 3);
		i += 3;
	}
	q.text[i] = '\0';
	return q;
}

/* ---- Options --------------------------------------------------------- */

/* Whether `word` is "--NAME=..." for a long option that takes no
 * argument and has the value `val`. */
static bool is_unwanted_argument(const char *word, int val,
				 const struct option *longopts)
{
	const struct option *o;

	if (strncmp(word, "--", 2) != 0 || strchr(word, '=') == NULL)
		return false;
	for (o = longopts; o->name != NULL; o++) {
		size_t n = strlen(o->name);
		if (o->val == val && o->has_arg == no_argument &&
		    strncmp(word + 2, o->name, n) == 0 && word[2 + n] == '=')
			return true;
	}
	return false;
}

/* One line about the option getopt_long() just refused with `r`. */
static void report_bad_option(int r, int argc, char **argv,
			      const struct option *longopts)
{
	const char *word = optind > 0 && optind <= argc ? argv[optind - 1] : "";
	const char *cmd = argv[0];

	if (r == ':') {
		if (strncmp(word, "--", 2) != 0 && optopt > 0 && optopt < 128)
			cli_usage_error("%s: option '-%c' needs an argument",
					cmd, optopt);
		else
			cli_usage_error("%s: option '%s' needs an argument",
					cmd, cli_quote(word).text);
	} else if (optopt == 0) {
		cli_usage_error("%s: unknown or ambiguous option '%s'", cmd,
				cli_quote(word).text);
	} else if (is_unwanted_argument(word, optopt, longopts)) {
		cli_usage_error("%s: option '%s' takes no argument", cmd,
				cli_quote(word).text);
	} else {
		char c = optopt > 0x20 && optopt < 0x7f ? (char)optopt : '?';
		cli_usage_error("%s: unknown option '-%c'", cmd, c);
	}
}

/* Records that `row` was given; false after one line when it already
 * had been: a repeated option would silently drop the first value. */
static bool note_given(const tool_scan *scan, const tool_option *row,
		       uint64_t *seen, const char *cmd)
{
	uint64_t bit = (uint64_t)1 << (row - scan->options);

	if (*seen & bit) {
		cli_usage_error("%s: option '--%s' given twice", cmd, row->name);
		return false;
	}
	*seen |= bit;
	return true;
}

bool cli_scan(const tool_command *cmd, int argc, char **argv, void *values)
{
	_Static_assert(TOOL_MAX_OPTIONS <= 64, "one bit per row in `seen`");
	tool_scan scan;
	const tool_option *o;
	uint64_t seen = 0;
	int r;

	if (!tool_scan_begin(&scan, cmd->options, cmd->n_options, false))
		return !cli_fail("%s: too many options", argv[0]);
	while ((r = tool_scan_next(&scan, argc, argv, &o)) != -1) {
		if (r != 0) {
			report_bad_option(r, argc, argv, scan.longopts);
			return false;
		}
		if (!note_given(&scan, o, &seen, argv[0]))
			return false;
		/* Every value is a text here, checked after the scan (so
		 * that --help wins over a bad one); the kinds tell the
		 * command's own rows apart. */
		if (o->arg != NULL)
			*(const char **)((char *)values + o->field) = optarg;
		else
			*(int *)((char *)values + o->field) = 1;
	}
	return true;
}

bool cli_check_operands(int argc, char **argv, int first, int min, int max,
			const char *names)
{
	int count = argc - first;

	if (count >= min && count <= max)
		return true;
	if (count < min)
		cli_usage_error("%s: missing operand: expected %s", argv[0],
				names);
	else
		cli_usage_error("%s: too many operands ('%s'): expected %s",
				argv[0], cli_quote(argv[first + max]).text,
				names);
	return false;
}

/* ---- Hex ------------------------------------------------------------- */

/* The position of the first character of `text` that is not a hex digit,
 * or its length when all are. */
static size_t hex_prefix(const char *text)
{
	size_t i = 0;

	while (text[i] != '\0' && strchr("0123456789abcdefABCDEF", text[i]))
		i++;
	return i;
}

/* Decodes `len` characters known to be hex digits, len even. */
static bool decode_hex(const char *name, const char *text, size_t len,
		       uint8_t *out)
{
	size_t bin_len = 0;
	const char *end = NULL;

	if (len == 0)
		return true;
	if (sodium_hex2bin(out, len / 2, text, len, NULL, &bin_len, &end) !=
		    0 ||
	    end != text + len || bin_len != len / 2) {
		cli_usage_error("%s: cannot decode the hex digits", name);
		return false;
	}
	return true;
}

bool cli_hex_exact(const char *text, uint8_t *out, size_t size)
{
	size_t bin_len = 0;
	const char *end = NULL;

	if (strlen(text) != 2 * size || hex_prefix(text) != 2 * size)
		return false;
	if (size == 0)
		return true;
	return sodium_hex2bin(out, size, text, 2 * size, NULL, &bin_len,
			      &end) == 0 &&
	       end == text + 2 * size && bin_len == size;
}

bool cli_parse_hex_exact(const char *name, const char *text, uint8_t *out,
			 size_t size)
{
	size_t len = strlen(text), good = hex_prefix(text);

	if (len != 2 * size) {
		cli_usage_error("%s: expected %zu hex digits, got %zu "
				"characters",
				name, 2 * size, len);
		return false;
	}
	if (good != len) {
		cli_usage_error("%s: expected %zu hex digits, found a non-hex "
				"character at position %zu",
				name, 2 * size, good + 1);
		return false;
	}
	if (!cli_hex_exact(text, out, size)) {
		cli_usage_error("%s: cannot decode the hex digits", name);
		return false;
	}
	return true;
}

bool cli_parse_hex_any(const char *name, const char *text, uint8_t **out,
		       size_t *size)
{
	size_t len = strlen(text), good = hex_prefix(text);

	*out = NULL;
	*size = 0;
	if (good != len) {
		cli_usage_error("%s: expected hex digits, found a non-hex "
				"character at position %zu",
				name, good + 1);
		return false;
	}
	if (len % 2 != 0) {
		cli_usage_error("%s: expected an even number of hex digits, "
				"got %zu",
				name, len);
		return false;
	}
	if (len == 0)
		return true;
	*out = malloc(len / 2);
	if (*out == NULL) {
		cli_usage_error("%s: out of memory", name);
		return false;
	}
	if (!decode_hex(name, text, len, *out)) {
		free(*out);
		*out = NULL;
		return false;
	}
	*size = len / 2;
	return true;
}

/* ---- Numbers --------------------------------------------------------- */

/* Accumulates digits of `base` (10 or 16) into a uint64_t; false on an
 * empty string, a foreign character or overflow. */
static bool read_digits(const char *text, unsigned base, uint64_t *out)
{
	uint64_t value = 0;
	size_t i;

	if (text[0] == '\0')
		return false;
	for (i = 0; text[i] != '\0'; i++) {
		const char *digits = "0123456789abcdef";
		char c = text[i] >= 'A' && text[i] <= 'F'
				 ? (char)(text[i] - 'A' + 'a')
				 : text[i];
		const char *p = c != '\0' ? strchr(digits, c) : NULL;
		unsigned d;

		if (p == NULL || (unsigned)(p - digits) >= base)
			return false;
		d = (unsigned)(p - digits);
		if (value > (UINT64_MAX - d) / base)
			return false;
		value = value * base + d;
	}
	*out = value;
	return true;
}

bool cli_parse_uint(const char *name, const char *text, uint64_t min,
		    uint64_t max, uint64_t *out)
{
	uint64_t value;

	if (!read_digits(text, 10, &value) || value < min || value > max) {
		cli_usage_error("%s: expected an integer from %llu to %llu, "
				"got '%s'",
				name, (unsigned long long)min,
				(unsigned long long)max, cli_quote(text).text);
		return false;
	}
	*out = value;
	return true;
}

bool cli_parse_u64(const char *name, const char *text, uint64_t *out)
{
	bool ok;

	if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
		ok = read_digits(text + 2, 16, out);
	else
		ok = read_digits(text, 10, out);
	if (!ok)
		cli_usage_error("%s: expected an integer from 0 to "
				"18446744073709551615 (decimal, or hex with "
				"0x), got '%s'",
				name, cli_quote(text).text);
	return ok;
}

/* Plain decimal notation: digits, then optionally '.' and more digits,
 * at least one digit in all. strtod() alone would also take spaces,
 * signs, exponents, hex, "inf" and "nan". */
static bool is_plain_decimal(const char *text)
{
	size_t digits = strspn(text, "0123456789");
	size_t fraction = 0;

	if (text[digits] == '.')
		fraction = strspn(text + digits + 1, "0123456789");
	return digits + fraction > 0 &&
	       text[digits + (text[digits] == '.' ? 1 + fraction : 0)] == '\0';
}

bool cli_parse_seconds(const char *name, const char *text, double *out)
{
	char *end = NULL;
	double value = -1;

	/* strtod()'s ERANGE is not a refusal: an overflow cannot pass the
	 * bound below, and an underflow is a time in range. */
	if (is_plain_decimal(text))
		value = strtod(text, &end);
	/* A positive time below the smallest double underflows to 0, which
	 * would mean "no limit": it is the shortest time instead. */
	if (value == 0 && strpbrk(text, "123456789") != NULL)
		value = DBL_TRUE_MIN;
	if (value < 0 || value > 1e9 || end != text + strlen(text)) {
		cli_usage_error("%s: expected a number of seconds from 0 to "
				"1000000000, got '%s'",
				name, cli_quote(text).text);
		return false;
	}
	*out = value;
	return true;
}

bool cli_parse_decimal(const char *name, const char *text, double min,
		       double max, double *out)
{
	char *end = NULL;
	double value = -1;

	if (is_plain_decimal(text))
		value = strtod(text, &end);
	if (end != text + strlen(text) || !(value >= min && value <= max)) {
		cli_usage_error("%s: expected a number from %g to %g, got '%s'",
				name, min, max, cli_quote(text).text);
		return false;
	}
	*out = value;
	return true;
}

/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * descriptor.c - the service descriptor's line
 *
 *     pow-params v1 <seed> <suggested-effort> <expiration>
 *
 * seed: 32 bytes in standard base64 without padding (43 characters);
 * suggested-effort: decimal 0..4294967295; expiration: UTC as
 * YYYY-MM-DDTHH:MM:SS. The parser is strict (one canonical spelling for
 * each line) because descriptors come from the network: anything Tor
 * itself would not have written is refused with a code naming the field.
 */
#include <config.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "equix_pow.h"

#define KEYWORD "pow-params"
#define TYPE_V1 "v1"
#define SEED_B64_LEN 43
#define TIMESTAMP_LEN 19
#define FIELDS 5

#define SECONDS_PER_DAY 86400
/* 9999-12-31T23:59:59, the last time four year digits can spell. */
#define LAST_EXPIRATION INT64_C(253402300799)

/* ---- Calendar: days since 1970-01-01 <-> proleptic Gregorian dates ---- */

static bool is_leap(int year)
{
	return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

static int days_in_month(int year, int month)
{
	static const unsigned char days[12] = {31, 28, 31, 30, 31, 30,
					       31, 31, 30, 31, 30, 31};
	return days[month - 1] + (month == 2 && is_leap(year));
}

/* Counting years from March makes February, with its leap day, the last
 * month, so a year's length only matters at its very end; 146097 days
 * are one 400-year cycle of the Gregorian calendar. */
static int64_t days_from_civil(int year, int month, int day)
{
	int64_t y = year - (month <= 2);
	int64_t era = y / 400; /* years here are never negative */
	int64_t year_of_era = y - era * 400;
	int64_t month_from_march = (month + 9) % 12;
	int64_t day_of_year = (153 * month_from_march + 2) / 5 + day - 1;
	int64_t day_of_era = year_of_era * 365 + year_of_era / 4 -
			     year_of_era / 100 + day_of_year;
	return era * 146097 + day_of_era - 719468;
}

typedef struct civil_time {
	int year, month, day, hour, minute, second;
} civil_time;

static void civil_from_seconds(int64_t t, civil_time *c)
{
	int64_t days = t / SECONDS_PER_DAY, rest = t % SECONDS_PER_DAY;
	int64_t z = days + 719468;
	int64_t era = z / 146097;
	int64_t day_of_era = z - era * 146097;
	int64_t year_of_era = (day_of_era - day_of_era / 1460 +
			       day_of_era / 36524 - day_of_era / 146096) /
			      365;
	int64_t day_of_year =
		day_of_era -
		(365 * year_of_era + year_of_era / 4 - year_of_era / 100);
	int64_t month_from_march = (5 * day_of_year + 2) / 153;
	c->day = (int)(day_of_year - (153 * month_from_march + 2) / 5 + 1);
	c->month = (int)(month_from_march < 10 ? month_from_march + 3
					       : month_from_march - 9);
	c->year = (int)(year_of_era + era * 400 + (c->month <= 2));
	c->hour = (int)(rest / 3600);
	c->minute = (int)(rest / 60 % 60);
	c->second = (int)(rest % 60);
}

/* ---- Formatting ------------------------------------------------------- */

equix_pow_result equix_pow_params_format(const equix_pow_params *params,
					 char *out, size_t out_size)
{
	char seed[sodium_base64_ENCODED_LEN(
		EQUIX_POW_SEED_LEN, sodium_base64_VARIANT_ORIGINAL_NO_PADDING)];
	civil_time c;

	if (params == NULL || out == NULL)
		return EQUIX_POW_FAIL_ARGUMENT;
	if (out_size < EQUIX_POW_PARAMS_MAX_LEN + 1)
		return EQUIX_POW_FAIL_LENGTH;
	if (params->expiration < 0 || params->expiration > LAST_EXPIRATION)
		return EQUIX_POW_FAIL_TIMESTAMP;
	sodium_bin2base64(seed, sizeof seed, params->seed, EQUIX_POW_SEED_LEN,
			  sodium_base64_VARIANT_ORIGINAL_NO_PADDING);
	civil_from_seconds(params->expiration, &c);
	snprintf(out, out_size,
		 KEYWORD " " TYPE_V1 " %s %lu %04d-%02d-%02dT%02d:%02d:%02d",
		 seed, (unsigned long)params->suggested_effort, c.year, c.month,
		 c.day, c.hour, c.minute, c.second);
	return EQUIX_POW_OK;
}

/* ---- Parsing ---------------------------------------------------------- */

typedef struct field {
	const char *start;
	size_t length;
} field;

/* Exactly FIELDS non-empty fields separated by single spaces. */
static bool split_fields(const char *line, size_t length,
			 field fields[FIELDS])
{
	size_t n = 0, start = 0;
	for (size_t i = 0; i <= length; i++) {
		if (i < length && line[i] != ' ')
			continue;
		if (i == start || n == FIELDS)
			return false;
		fields[n].start = line + start;
		fields[n].length = i - start;
		n++;
		start = i + 1;
	}
	return n == FIELDS;
}

static bool field_is(const field *f, const char *text)
{
	return f->length == strlen(text) &&
	       memcmp(f->start, text, f->length) == 0;
}

/* The standard base64 alphabet. Checked here because libsodium 1.0.18's
 * decoder maps some bytes above 127 to digits (0xde decodes like 'G':
 * found by tests/fuzz/fuzz_pow_wire.c), which would give one seed two
 * spellings. */
static bool is_base64_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || c == '+' || c == '/';
}

static equix_pow_result parse_seed(const field *f, uint8_t *seed)
{
	size_t decoded = 0;
	const char *end = NULL;

	if (f->length != SEED_B64_LEN)
		return EQUIX_POW_FAIL_BASE64;
	for (size_t i = 0; i < f->length; i++)
		if (!is_base64_char(f->start[i]))
			return EQUIX_POW_FAIL_BASE64;
	/* libsodium refuses non-canonical trailing bits, so each seed has one
	 * spelling. */
	if (sodium_base642bin(seed, EQUIX_POW_SEED_LEN, f->start, f->length,
			      NULL, &decoded, &end,
			      sodium_base64_VARIANT_ORIGINAL_NO_PADDING) != 0 ||
	    decoded != EQUIX_POW_SEED_LEN || end != f->start + f->length)
		return EQUIX_POW_FAIL_BASE64;
	return EQUIX_POW_OK;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static equix_pow_result parse_effort(const field *f, uint32_t *effort)
{
	uint64_t value = 0;

	if (f->length > 10 || (f->length > 1 && f->start[0] == '0'))
		return EQUIX_POW_FAIL_NUMBER;
	for (size_t i = 0; i < f->length; i++) {
		if (!is_digit(f->start[i]))
			return EQUIX_POW_FAIL_NUMBER;
		value = value * 10 + (uint64_t)(f->start[i] - '0');
	}
	if (value > UINT32_MAX)
		return EQUIX_POW_FAIL_NUMBER;
	*effort = (uint32_t)value;
	return EQUIX_POW_OK;
}

/* Reads `count` digits at `s`; -1 when one is not a digit. */
static int read_digits(const char *s, int count)
{
	int value = 0;
	for (int i = 0; i < count; i++) {
		if (!is_digit(s[i]))
			return -1;
		value = value * 10 + (s[i] - '0');
	}
	return value;
}

static equix_pow_result parse_timestamp(const field *f, int64_t *seconds)
{
	const char *s = f->start;
	civil_time c;

	if (f->length != TIMESTAMP_LEN || s[4] != '-' || s[7] != '-' ||
	    s[10] != 'T' || s[13] != ':' || s[16] != ':')
		return EQUIX_POW_FAIL_TIMESTAMP;
	c.year = read_digits(s, 4);
	c.month = read_digits(s + 5, 2);
	c.day = read_digits(s + 8, 2);
	c.hour = read_digits(s + 11, 2);
	c.minute = read_digits(s + 14, 2);
	c.second = read_digits(s + 17, 2);
	/* Seconds stop at 59: a time formatted from a count of seconds (as
	 * Tor's are) never shows a leap second, and 60 would have no count. */
	if (c.year < 1970 || c.month < 1 || c.month > 12 || c.day < 1 ||
	    c.day > days_in_month(c.year, c.month) || c.hour < 0 ||
	    c.hour > 23 || c.minute < 0 || c.minute > 59 || c.second < 0 ||
	    c.second > 59)
		return EQUIX_POW_FAIL_TIMESTAMP;
	*seconds = days_from_civil(c.year, c.month, c.day) * SECONDS_PER_DAY +
		   c.hour * 3600 + c.minute * 60 + c.second;
	return EQUIX_POW_OK;
}

equix_pow_result equix_pow_params_parse(const char *line, size_t length,
					equix_pow_params *params)
{
	field f[FIELDS];
	equix_pow_params parsed;
	equix_pow_result r;

	if (params == NULL || (line == NULL && length != 0))
		return EQUIX_POW_FAIL_ARGUMENT;
	if (length > 0 && line[length - 1] == '\n')
		length--;
	if (!split_fields(line, length, f) || !field_is(&f[0], KEYWORD))
		return EQUIX_POW_FAIL_SYNTAX;
	if (!field_is(&f[1], TYPE_V1))
		return EQUIX_POW_FAIL_VERSION;
	if ((r = parse_seed(&f[2], parsed.seed)) != EQUIX_POW_OK ||
	    (r = parse_effort(&f[3], &parsed.suggested_effort)) !=
		    EQUIX_POW_OK ||
	    (r = parse_timestamp(&f[4], &parsed.expiration)) != EQUIX_POW_OK)
		return r;
	*params = parsed;
	return EQUIX_POW_OK;
}

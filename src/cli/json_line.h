/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * json_line.h - a small, strict parser for one line of JSON that holds a
 * flat object of string and number values, such as
 *
 *     {"nonce":"55...55","effort":10,"attempts":2,"seconds":0.02}
 *
 * Accepted: exactly one object, whitespace around tokens, strings with
 * every JSON escape (\uXXXX as UTF-8, surrogate pairs joined), numbers in
 * JSON's grammar. Refused, with a reason: anything after the object,
 * nested objects or arrays, true / false / null, duplicate keys, control
 * characters or invalid UTF-8 in strings, \u0000 (so that every decoded
 * string is also a C string), more than JSON_LINE_MAX_FIELDS keys.
 */
#ifndef EQUIX_CLI_JSON_LINE_H
#define EQUIX_CLI_JSON_LINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JSON_LINE_MAX_FIELDS 32

typedef enum json_line_type {
	JSON_LINE_STRING,
	JSON_LINE_NUMBER,
} json_line_type;

/* One key and its value. Keys and string values are decoded, and end
 * with a NUL; a number is its text as written, not NUL-terminated. */
typedef struct json_line_field {
	const char *key;
	size_t key_len;
	json_line_type type;
	const char *value;
	size_t value_len;
} json_line_field;

typedef struct json_line {
	size_t count;
	json_line_field fields[JSON_LINE_MAX_FIELDS];
} json_line;

/*
 * Parses `length` bytes of `text`, decoding strings in place (so the
 * fields point into `text`, which must stay alive). Returns NULL on
 * success, else a short phrase saying what is wrong, and sets `*column`
 * to the 1-based byte position where it was found.
 */
const char *json_line_parse(char *text, size_t length, json_line *out,
			    size_t *column);

/* The field whose key is `key`, or NULL. */
const json_line_field *json_line_get(const json_line *line, const char *key);

/* A number field's value as an integer from 0 to `max`: true when it is
 * written as one (digits only: no sign, fraction or exponent). */
bool json_line_uint(const json_line_field *field, uint64_t max, uint64_t *out);

#endif /* EQUIX_CLI_JSON_LINE_H */

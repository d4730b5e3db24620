/* Copyright (c) 2026 The equix authors */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * json_line.c - the flat JSON object parser; see json_line.h.
 *
 * A recursive-descent reader over one buffer. Strings are decoded into
 * the space they occupied: an escape never decodes to more bytes than it
 * took, so the write position never passes the read position.
 *
 * Why not jansson, which equix-bench uses: this reader's refusals are an
 * interface (doc/bad-input.md quotes each message with its column, and
 * the fuzz harness holds them), and jansson does not give them. It places
 * a fault where its reader stopped, not where the fault is (a duplicate
 * key at column 20 instead of 13, `hello` at 5 instead of 1, \u0000 at 17
 * instead of 11); it accepts nesting, true, false and null; and it turns
 * a number into a double or an integer, while the callers need the text
 * as written (a 20-digit effort must be refused, not rounded). Keeping
 * the documented messages on jansson took a token walk over the line
 * beside it, a second parser: 489 lines against this file's 384 (tried for
 * issue 19, branch cli-jansson).
 */
#include "json_line.h"

#include <string.h>

typedef struct parser {
	char *start; /* for columns */
	char *p;     /* next byte to read */
	char *end;
	const char *error;
	char *error_at;
} parser;

static int fail(parser *ps, const char *what, char *at)
{
	if (ps->error == NULL) {
		ps->error = what;
		ps->error_at = at;
	}
	return 0;
}

static void skip_space(parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' ||
				   *ps->p == '\r' || *ps->p == '\n'))
		ps->p++;
}

/* Consumes `c`, or fails with `what`. */
static int expect(parser *ps, char c, const char *what)
{
	if (ps->p >= ps->end || *ps->p != c)
		return fail(ps, what, ps->p);
	ps->p++;
	return 1;
}

/* ---- Strings --------------------------------------------------------- */

/* The length of the valid UTF-8 sequence starting at `s` (at most `n`
 * bytes available), or 0: no overlong forms, surrogates or values past
 * U+10FFFF. */
static size_t utf8_sequence(const unsigned char *s, size_t n)
{
	size_t len, i;
	unsigned long cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

static size_t put_utf8(char *out, unsigned long cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* Four hex digits after "\u" at ps->p. */
static int read_hex4(parser *ps, unsigned long *out)
{
	unsigned long v = 0;
	int i;

	if (ps->end - ps->p < 4)
		return fail(ps, "truncated \\u escape", ps->p);
	for (i = 0; i < 4; i++) {
		char c = ps->p[i];
		unsigned d;

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			d = (unsigned)((c | 0x20) - 'a' + 10);
		else
			return fail(ps, "bad hex digit in \\u escape",
				    ps->p + i);
		v = v * 16 + d;
	}
	ps->p += 4;
	*out = v;
	return 1;
}

/* The code point of a \u escape (ps->p just past "\u"), joining a
 * surrogate pair. */
static int read_unicode_escape(parser *ps, unsigned long *cp)
{
	char *at = ps->p - 2;
	unsigned long low;

	if (!read_hex4(ps, cp))
		return 0;
	if (*cp == 0)
		return fail(ps, "\\u0000 is not accepted", at);
	if (*cp >= 0xdc00 && *cp <= 0xdfff)
		return fail(ps, "unpaired surrogate in \\u escape", at);
	if (*cp < 0xd800 || *cp > 0xdbff)
		return 1;
	if (ps->end - ps->p < 2 || ps->p[0] != '\\' || ps->p[1] != 'u')
		return fail(ps, "unpaired surrogate in \\u escape", at);
	ps->p += 2;
	if (!read_hex4(ps, &low))
		return 0;
	if (low < 0xdc00 || low > 0xdfff)
		return fail(ps, "unpaired surrogate in \\u escape", at);
	*cp = 0x10000 + ((*cp - 0xd800) << 10) + (low - 0xdc00);
	return 1;
}

/* One escape (ps->p just past the backslash), decoded to `*w`. */
static int read_escape(parser *ps, char **w)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *hit;
	unsigned long cp;

	if (ps->p >= ps->end)
		return fail(ps, "unterminated string", ps->p);
	hit = *ps->p != '\0' ? strchr(from, *ps->p) : NULL;
	if (hit != NULL) {
		*(*w)++ = to[hit - from];
		ps->p++;
		return 1;
	}
	if (*ps->p != 'u')
		return fail(ps, "unknown escape in string", ps->p - 1);
	ps->p++;
	if (!read_unicode_escape(ps, &cp))
		return 0;
	*w += put_utf8(*w, cp);
	return 1;
}

/* A string at ps->p; decoded in place, NUL-terminated. */
static int read_string(parser *ps, const char **out, size_t *len)
{
	char *w;

	if (!expect(ps, '"', "expected a string"))
		return 0;
	*out = w = ps->p;
	while (ps->p < ps->end && *ps->p != '"') {
		unsigned char c = (unsigned char)*ps->p;
		size_t n;

		if (c < 0x20)
			return fail(ps, "control character in string", ps->p);
		if (c == '\\') {
			ps->p++;
			if (!read_escape(ps, &w))
				return 0;
			continue;
		}
		n = utf8_sequence((unsigned char *)ps->p,
				  (size_t)(ps->end - ps->p));
		if (n == 0)
			return fail(ps, "invalid UTF-8 in string", ps->p);
		memmove(w, ps->p, n);
		w += n;
		ps->p += n;
	}
	if (!expect(ps, '"', "unterminated string"))
		return 0;
	*len = (size_t)(w - *out);
	*w = '\0'; /* at or before the closing quote, already read */
	return 1;
}

/* ---- Numbers and values ---------------------------------------------- */

static size_t count_digits(parser *ps)
{
	size_t n = 0;

	while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9')
		ps->p++, n++;
	return n;
}

/* -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)? */
static int read_number(parser *ps, const char **out, size_t *len)
{
	char *start = ps->p;

	if (ps->p < ps->end && *ps->p == '-')
		ps->p++;
	if (ps->p < ps->end && *ps->p == '0')
		ps->p++;
	else if (count_digits(ps) == 0)
		return fail(ps, "expected a string or a number", start);
	if (ps->p < ps->end && *ps->p == '.') {
		ps->p++;
		if (count_digits(ps) == 0)
			return fail(ps, "expected digits after '.'", ps->p);
	}
	if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E')) {
		ps->p++;
		if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-'))
			ps->p++;
		if (count_digits(ps) == 0)
			return fail(ps, "expected digits in exponent", ps->p);
	}
	*out = start;
	*len = (size_t)(ps->p - start);
	return 1;
}

static int read_value(parser *ps, json_line_field *f)
{
	if (ps->p < ps->end && *ps->p == '"') {
		f->type = JSON_LINE_STRING;
		return read_string(ps, &f->value, &f->value_len);
	}
	if (ps->p < ps->end && (*ps->p == '{' || *ps->p == '['))
		return fail(ps, "nested objects and arrays are not accepted",
			    ps->p);
	f->type = JSON_LINE_NUMBER;
	return read_number(ps, &f->value, &f->value_len);
}

/* ---- Objects --------------------------------------------------------- */

static int is_duplicate(const json_line *line, const json_line_field *f)
{
	size_t i;

	for (i = 0; i < line->count; i++)
		if (line->fields[i].key_len == f->key_len &&
		    memcmp(line->fields[i].key, f->key, f->key_len) == 0)
			return 1;
	return 0;
}

/* "key": value, appended to `out`. */
static int read_member(parser *ps, json_line *out)
{
	json_line_field f;
	char *key_at = ps->p;

	if (!read_string(ps, &f.key, &f.key_len))
		return 0;
	if (is_duplicate(out, &f))
		return fail(ps, "duplicate key", key_at);
	if (out->count == JSON_LINE_MAX_FIELDS)
		return fail(ps, "too many keys", key_at);
	skip_space(ps);
	if (!expect(ps, ':', "expected ':' after the key"))
		return 0;
	skip_space(ps);
	if (!read_value(ps, &f))
		return 0;
	out->fields[out->count++] = f;
	return 1;
}

static int read_object(parser *ps, json_line *out)
{
	skip_space(ps);
	if (!expect(ps, '{', "expected a JSON object '{'"))
		return 0;
	skip_space(ps);
	if (ps->p < ps->end && *ps->p == '}') {
		ps->p++;
		return 1;
	}
	for (;;) {
		if (!read_member(ps, out))
			return 0;
		skip_space(ps);
		if (ps->p < ps->end && *ps->p == '}') {
			ps->p++;
			return 1;
		}
		if (!expect(ps, ',', "expected ',' or '}'"))
			return 0;
		skip_space(ps);
	}
}

const char *json_line_parse(char *text, size_t length, json_line *out,
			    size_t *column)
{
	parser ps = {text, text, text + length, NULL, NULL};

	out->count = 0;
	if (read_object(&ps, out)) {
		skip_space(&ps);
		if (ps.p != ps.end)
			fail(&ps, "unexpected text after the object", ps.p);
	}
	if (ps.error != NULL) {
		*column = (size_t)(ps.error_at - ps.start) + 1;
		out->count = 0;
	}
	return ps.error;
}

const json_line_field *json_line_get(const json_line *line, const char *key)
{
	size_t i, n = strlen(key);

	for (i = 0; i < line->count; i++)
		if (line->fields[i].key_len == n &&
		    memcmp(line->fields[i].key, key, n) == 0)
			return &line->fields[i];
	return NULL;
}

bool json_line_uint(const json_line_field *field, uint64_t max, uint64_t *out)
{
	uint64_t value = 0;
	size_t i;

	if (field->type != JSON_LINE_NUMBER || field->value_len == 0)
		return false;
	for (i = 0; i < field->value_len; i++) {
		unsigned d = (unsigned)(field->value[i] - '0');

		if (field->value[i] < '0' || field->value[i] > '9' || d > max ||
		    value > (max - d) / 10)
			return false;
		value = value * 10 + d;
	}
	*out = value;
	return true;
}
